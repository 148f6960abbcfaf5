# docs/docs.mk -- build the documentation site (Sphinx + furo), included by the top-level
# Makefile (`include docs/docs.mk`), after src/certdp/proofs/proofs.mk and the definition of PYTHON.
#
# Targets
#   docs        build every proof PDF (`proofs`), then the site into docs/_build/html: the user
#               guide, the API reference and one page per constructor, generated from the source
#               tree by docs/_ext/, with every proof PDF copied in.  Warnings are errors.
#   docs-clean  delete the built site and the generated reference pages
#
# Variables
#   DOCS_BUILD  output folder (default: docs/_build); the site is $(DOCS_BUILD)/html
#   SPHINXOPTS  extra sphinx-build options

DOCS_MK := $(abspath $(lastword $(MAKEFILE_LIST)))
DOCS_DIR := $(patsubst %/,%,$(dir $(DOCS_MK)))
DOCS_BUILD ?= $(DOCS_DIR)/_build
SPHINXOPTS ?=
# Formulas are rendered by LaTeX + dvisvgm at build time (offline).
DOCS_APT_PACKAGES := dvisvgm

.PHONY: docs docs-tools docs-clean

# -E: every page is regenerated from the current source tree and proofs, every time.
docs: proofs docs-tools $(INSTALLED)
	$(PYTHON) -m sphinx -b html -E -W --keep-going -q \
	  -d '$(DOCS_BUILD)/doctrees' '$(DOCS_DIR)' '$(DOCS_BUILD)/html' $(SPHINXOPTS)
	@echo "Documentation: $(DOCS_BUILD)/html/index.html"

docs-tools:
	@if ! command -v dvisvgm >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing $(DOCS_APT_PACKAGES) with apt-get (the docs render formulas with it)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(DOCS_APT_PACKAGES) >/dev/null; \
	  else \
	    echo "dvisvgm is missing: run 'sudo apt-get install $(DOCS_APT_PACKAGES)'" >&2; exit 1; \
	  fi; \
	fi

docs-clean:
	rm -rf '$(DOCS_BUILD)' '$(DOCS_DIR)/reference'
