"""The evidence certdp ships with, as package data (present in a checkout and in a wheel).

``vetting-ledger.json``
    which fingerprints a reviewer vetted (written only by ``certdp vet``);
``certdp.sty``, ``definitions.tex``, ``latexmkrc``
    what every proof is typeset with, and the definitions it cites;
``proofs.mk``
    the Makefile that builds every proof found in the package to PDF.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["FOLDER", "LEDGER", "STYLE", "DEFINITIONS", "MAKEFILE"]

FOLDER = Path(__file__).resolve().parent
LEDGER = FOLDER / "vetting-ledger.json"
STYLE = FOLDER / "certdp.sty"
DEFINITIONS = FOLDER / "definitions.tex"
MAKEFILE = FOLDER / "proofs.mk"
