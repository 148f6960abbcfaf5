"""Where the proof PDFs are, which one belongs to which constructor, and copying them into the site.

``make proofs`` compiles every ``.tex`` under ``src/certdp`` to the same relative path under
``build/proofs`` (``src/certdp/transformations/is_equal/make_is_equal.tex`` becomes
``build/proofs/transformations/is_equal/make_is_equal.pdf``) and ``src/certdp/proofs/definitions.tex`` to
``build/proofs/definitions.pdf``.  The site keeps that layout under ``proofs/``.
"""

from __future__ import annotations

import inspect
import shutil
from dataclasses import dataclass
from pathlib import Path

import certdp

#: The repository: docs/_ext/ is two levels below it.
ROOT = Path(__file__).resolve().parents[2]
#: The package source: proof sources sit beside the code they prove.
PACKAGE = Path(certdp.__file__).resolve().parent
#: What ``make proofs`` produces.
PROOFS_BUILD = ROOT / "build" / "proofs"
#: The definitions every proof cites.
DEFINITIONS_PDF = PROOFS_BUILD / "definitions.pdf"
#: The folder of the site that receives every PDF, layout unchanged.
SITE_FOLDER = "proofs"

__all__ = [
    "ROOT",
    "PACKAGE",
    "PROOFS_BUILD",
    "DEFINITIONS_PDF",
    "SITE_FOLDER",
    "Proof",
    "proof_of",
    "all_pdfs",
    "site_path",
    "copy_into_site",
    "source_file",
]


@dataclass(frozen=True)
class Proof:
    """The proof of one constructor: its LaTeX source (if found) and the PDF built from it."""

    source: Path | None
    pdf: Path | None

    @property
    def exists(self) -> bool:
        return self.pdf is not None and self.pdf.is_file()


def source_file(constructor) -> Path:
    """The ``.py`` file that defines ``constructor`` (looking through ``@certified``)."""
    return Path(inspect.getsourcefile(inspect.unwrap(constructor))).resolve()


def proof_of(constructor) -> Proof:
    """The proof beside ``constructor``'s code: ``<name>.tex``, else the folder's only ``.tex``."""
    folder = source_file(constructor).parent
    source = folder / f"{constructor.__name__}.tex"
    if not source.is_file():
        candidates = sorted(folder.glob("*.tex"))
        source = candidates[0] if len(candidates) == 1 else None
    if source is None:
        return Proof(None, None)
    return Proof(source, PROOFS_BUILD / source.relative_to(PACKAGE).with_suffix(".pdf"))


def all_pdfs() -> list[Path]:
    """Every PDF ``make proofs`` has produced, sorted by path."""
    if not PROOFS_BUILD.is_dir():
        return []
    return sorted(PROOFS_BUILD.rglob("*.pdf"))


def site_path(pdf: Path) -> str:
    """Where ``pdf`` is served, relative to the site root (``proofs/...``)."""
    return f"{SITE_FOLDER}/{pdf.relative_to(PROOFS_BUILD).as_posix()}"


def copy_into_site(outdir: Path) -> list[Path]:
    """Copy every proof PDF into ``outdir/proofs/``, replacing what an earlier build left."""
    target_root = Path(outdir) / SITE_FOLDER
    if target_root.exists():
        shutil.rmtree(target_root)
    copied = []
    for pdf in all_pdfs():
        target = target_root / pdf.relative_to(PROOFS_BUILD)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(pdf, target)
        copied.append(target)
    return copied
