# The proofs Makefile is package data (it ships in the wheel with the proofs it builds):
# src/certdp/proofs/proofs.mk.  This file keeps `make -f proofs/proofs.mk ...` working.
include $(dir $(lastword $(MAKEFILE_LIST)))../src/certdp/proofs/proofs.mk
