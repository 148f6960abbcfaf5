"""Summation algorithms and the lemmas the sum constructors share (not a namespace of constructors)."""
