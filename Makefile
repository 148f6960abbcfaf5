# certdp: `make` installs everything and runs the main job (proofs, docs, audit);
# `make test` installs everything and runs the test suite.

SHELL := /bin/bash
VENV ?= .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
LATEX_PACKAGES := latexmk texlive-latex-base texlive-latex-recommended texlive-latex-extra \
                  texlive-fonts-recommended lmodern poppler-utils dvisvgm
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: all install latex test test-thorough contracts audit bench clean prove
.DEFAULT_GOAL := all

all: install proofs docs audit
	@echo
	@echo "Proof PDFs:  $(CURDIR)/build/proofs/"
	@echo "Docs:        $(CURDIR)/docs/_build/html/index.html"
	@echo "Audit JUnit: $(CURDIR)/build/audit-junit.xml"

install: $(INSTALLED) latex

$(INSTALLED): pyproject.toml
	@test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[dev,docs,prove]'
	@touch $@

latex:
	@if ! command -v latexmk >/dev/null 2>&1 || ! command -v dvisvgm >/dev/null 2>&1 || ! command -v pdftotext >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing LaTeX, dvisvgm and poppler-utils with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(LATEX_PACKAGES) >/dev/null; \
	  else \
	    echo "latexmk is missing: run 'sudo apt-get install $(LATEX_PACKAGES)' or 'make install' as root" >&2; exit 1; \
	  fi; \
	fi

# `make test` leaves out the tests marked `slow` (repeats of what `make` checks); the tests that
# share one expensive module fixture stay on one worker (`xdist_group`, `--dist loadgroup`).
test: install
	$(PYTHON) -m pytest -n 2 --dist loadgroup -q -m "not slow" --durations=40

test-thorough: install
	HYPOTHESIS_PROFILE=thorough $(PYTHON) -m pytest -n 2 --dist loadgroup -q

contracts: $(INSTALLED)
	$(PYTHON) -m certdp verify

# The whole audit (artifacts, binding, freshness, contracts, proof build); the summary prints its time.
audit: $(INSTALLED) latex
	@mkdir -p build
	$(PYTHON) -m certdp audit --strict --build --junit build/audit-junit.xml

# Bounded SMT proofs (z3) of every modelled constructor; results cached by fingerprint in
# src/certdp/prove/results.json (commit it), so an unchanged tree re-proves nothing.
prove: $(INSTALLED)
	$(PYTHON) -m certdp prove --jobs 2 --timeout 180

bench: $(INSTALLED)
	@for script in benchmarks/bench_*.py; do $(PYTHON) $$script || exit 1; done

clean: proofs-clean docs-clean
	rm -rf build

include src/certdp/proofs/proofs.mk
include docs/docs.mk
