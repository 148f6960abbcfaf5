# src/certdp/proofs/proofs.mk -- build every certdp proof document to PDF.
#
# It is package data: it builds the proofs of the package it sits in, in a
# checkout (the top-level Makefile includes it; `make -f proofs/proofs.mk`
# works too) and in an installed package (`certdp audit --build` runs
# `make -f <package>/proofs/proofs.mk PROOFS_BUILD=DIR ...`).  It does not
# change the including Makefile's default goal, and all its names start with
# proofs/PROOFS_.
#
# Targets
#   proofs        build every document below, in parallel and incrementally
#   proofs-clean  delete $(PROOFS_BUILD)
#   proofs-list   print the documents `proofs` builds
#
# Documents
#   * every .tex in the package (outside this folder) that contains
#     \documentclass: the proofs of constructors
#     (transformations/<name>/make_<name>.tex, at any depth) and shared lemmas,
#     which may sit in any folder of the package (e.g.
#     numeric/<lemma>/<lemma>.tex).  A .tex without \documentclass is a
#     fragment: it is not built, and a proof in the same folder can \input it
#     (its folder is on TEXINPUTS);
#   * definitions.tex of this folder, built first, since every proof reads its labels.
#   PACKAGE/X/Y.tex is built to $(PROOFS_BUILD)/X/Y.pdf, and
#   definitions.tex to $(PROOFS_BUILD)/definitions.pdf.
#
# How one document is built (make decides when; latexmk -g then always rebuilds)
#   1. python -m certdp.audit.listing DOC.tex GENDIR writes the listings and
#      source information into GENDIR = $(PROOFS_BUILD)/X/Y.gen (only files whose
#      content changed are rewritten) and GENDIR/certdp-code.d, the list of
#      Python sources it read; this step reruns when DOC.tex, one of those
#      sources, the generator, the ledger or git's HEAD changed.
#   2. latexmk (settings in latexmkrc: pdflatex, nonstopmode, halt-on-error,
#      no shell escape) with TEXINPUTS = GENDIR, this folder, $(PROOFS_BUILD)
#      (for definitions.aux) and the document's folder.  It runs when DOC.tex,
#      the generated index, certdp.sty, latexmkrc, definitions.pdf or
#      GENDIR/certdp-status.tex (the vetting status, written by the generator
#      from vetting-ledger.json) changed.
#   3. The build fails, and the PDF is deleted, on a LaTeX error or an
#      undefined or multiply defined reference or citation.
#
# Variables
#   PROOFS_BUILD    output folder (default: build/proofs at the root of the
#                   checkout holding src/certdp; certdp-proofs in the current
#                   folder for an installed package)
#   PROOFS_JOBS     parallel jobs when make was not given -j (default: CPU count)
#   PROOFS_PYTHON   Python interpreter (default: $(PYTHON) if that file exists, else python3)
#   PROOFS_VERBOSE  set to 1 to see the commands and latexmk's output

# Symlinks resolved, so that targets named with Path.resolve() match the rules.
PROOFS_MK := $(realpath $(lastword $(MAKEFILE_LIST)))
proofs_saved_default_goal := $(.DEFAULT_GOAL)

PROOFS_DIR := $(patsubst %/proofs.mk,%,$(PROOFS_MK))
PROOFS_SRC := $(patsubst %/proofs,%,$(PROOFS_DIR))
# The folder holding the package (src/ or site-packages/): the generator imports certdp from it.
PROOFS_IMPORT := $(patsubst %/certdp,%,$(PROOFS_SRC))
# The checkout, if the package is src/certdp of one.
PROOFS_ROOT := $(if $(filter %/src,$(PROOFS_IMPORT)),$(if $(wildcard $(PROOFS_IMPORT)/../pyproject.toml),$(patsubst %/src,%,$(PROOFS_IMPORT))))
PROOFS_BUILD ?= $(if $(PROOFS_ROOT),$(PROOFS_ROOT)/build/proofs,$(CURDIR)/certdp-proofs)
PROOFS_JOBS ?= $(shell nproc 2>/dev/null || echo 4)
PROOFS_PYTHON ?= $(or $(wildcard $(PYTHON)),python3)

proofs_build := $(abspath $(PROOFS_BUILD))
proofs_q := $(if $(filter 1,$(PROOFS_VERBOSE)),,@)

# Relative paths (below src/certdp, without .tex) of the standalone proof documents.
proofs_docs := $(patsubst ./%.tex,%,$(sort $(shell cd '$(PROOFS_SRC)' 2>/dev/null && \
  find . -name '*.tex' -not -path '*/.*' -not -path './proofs/*' -exec grep -l '^[[:space:]]*\\documentclass' {} +)))

proofs_space := $() $()
proofs_definitions_pdf := $(proofs_build)/definitions.pdf
proofs_pdfs := $(proofs_definitions_pdf) $(foreach doc,$(proofs_docs),$(proofs_build)/$(doc).pdf)

# The generator reruns when git's HEAD moves (the commit it prints may change).
proofs_git_dir := $(if $(PROOFS_ROOT),$(shell git -C '$(PROOFS_ROOT)' rev-parse --absolute-git-dir 2>/dev/null))
proofs_git_deps := $(if $(proofs_git_dir),$(wildcard $(proofs_git_dir)/HEAD $(proofs_git_dir)/logs/HEAD))
proofs_generator_deps := $(PROOFS_SRC)/audit/listing.py $(PROOFS_SRC)/audit/sources.py \
  $(PROOFS_SRC)/audit/status.py $(PROOFS_DIR)/__init__.py \
  $(wildcard $(PROOFS_DIR)/vetting-ledger.json)
proofs_style_deps := $(PROOFS_DIR)/certdp.sty $(PROOFS_DIR)/latexmkrc

# Lines of a LaTeX log that report an undefined or duplicate reference, or a
# missing definitions.aux (which leaves every \defref undefined).
proofs_ref_problems := (Reference|Citation|Hyper reference).*undefined|There were undefined|multiply[- ]defined|No file definitions\.aux

# $(call proofs_document,NAME,TEX,EXTRA_PDF_DEPS,GENERATOR_ARGS)
#   NAME: path of the PDF below $(PROOFS_BUILD), without .pdf
define proofs_document
$(proofs_build)/$(1).gen/certdp-code.stamp: $(2) $(proofs_generator_deps) $(proofs_git_deps)
	$(proofs_q)mkdir -p '$$(@D)'
	$(proofs_q)PYTHONPATH='$(PROOFS_IMPORT)'$$$${PYTHONPATH:+:$$$$PYTHONPATH} \
	  $(PROOFS_PYTHON) -m certdp.audit.listing '$(2)' '$(proofs_build)/$(1).gen' $(4)
	$(proofs_q)touch '$$@'

# Made by the stamp's recipe; an unchanged index keeps its time, so no LaTeX run.
$(proofs_build)/$(1).gen/certdp-code.tex $(proofs_build)/$(1).gen/certdp-status.tex: $(proofs_build)/$(1).gen/certdp-code.stamp ;

$(proofs_build)/$(1).pdf: $(2) $(proofs_build)/$(1).gen/certdp-code.tex $(proofs_style_deps) $(3) \
    $(proofs_build)/$(1).gen/certdp-status.tex
	@echo '  PDF  $(1).pdf'
	$(proofs_q)cd '$$(@D)' && \
	  TEXINPUTS='$(proofs_build)/$(1).gen:$(PROOFS_DIR):$(proofs_build):$(dir $(2)):' \
	  max_print_line=100000 \
	  latexmk -g -norc -r '$(PROOFS_DIR)/latexmkrc' -outdir='$$(@D)' -jobname='$$(basename $$(@F))' '$(2)' \
	    > '$(proofs_build)/$(1).latexmk.out' 2>&1 \
	  || { rm -f '$$@'; echo 'proofs: LaTeX failed on $(2)' >&2; \
	       if grep -q -E '^(!|[^ :]+:[0-9]+: )' '$(proofs_build)/$(1).log' 2>/dev/null; then \
	         grep -E -A3 '^(!|[^ :]+:[0-9]+: )' '$(proofs_build)/$(1).log' | head -n 40 >&2; \
	       else tail -n 30 '$(proofs_build)/$(1).latexmk.out' >&2; fi; \
	       grep -E '$(proofs_ref_problems)' '$(proofs_build)/$(1).log' 2>/dev/null | head -n 20 >&2; \
	       echo '(full output: $(proofs_build)/$(1).latexmk.out)' >&2; exit 1; }
	$(proofs_q)if grep -E '$(proofs_ref_problems)' '$(proofs_build)/$(1).log' >&2; then \
	  rm -f '$$@'; echo 'proofs: $(2): undefined or duplicate references (see above)' >&2; exit 1; fi
	$(proofs_q)$(if $(filter 1,$(PROOFS_VERBOSE)),cat '$(proofs_build)/$(1).latexmk.out';) touch '$$@'

-include $(proofs_build)/$(1).gen/certdp-code.d
endef

$(eval $(call proofs_document,definitions,$(PROOFS_DIR)/definitions.tex,,))
$(foreach doc,$(proofs_docs),$(eval $(call proofs_document,$(doc),$(PROOFS_SRC)/$(doc).tex,$(proofs_definitions_pdf),\
  --definitions-url '$(subst $(proofs_space),,$(foreach _,$(subst /, ,$(dir $(doc))),../))definitions.pdf')))

# `proofs` reruns make on this file with -j unless make already runs in parallel.
proofs_parallel := $(if $(findstring jobserver,$(MAKEFLAGS))$(filter -j%,$(MAKEFLAGS)),,-j$(PROOFS_JOBS))

.PHONY: proofs proofs-pdfs proofs-clean proofs-list
proofs:
	@$(MAKE) --no-print-directory -f '$(PROOFS_MK)' $(proofs_parallel) proofs-pdfs \
	  PROOFS_PYTHON='$(PROOFS_PYTHON)'

proofs-pdfs: $(proofs_pdfs)
	@:

proofs-clean:
	rm -rf '$(proofs_build)'

proofs-list:
	@printf '%s\n' $(patsubst $(proofs_build)/%,%,$(proofs_pdfs))

.DEFAULT_GOAL := $(proofs_saved_default_goal)
