"""The vetting ledger: which fingerprints a reviewer vetted, when, at which commit.

It is package data, ``certdp/proofs/vetting-ledger.json`` (``src/certdp/proofs/`` in a
checkout), so an installed certdp carries it; ``certdp vet`` is the only writer.  Keys are
relative to the package, so they mean the same in a checkout and in ``site-packages``.  The
freshness of a constructor compares the fingerprints recorded here with the current ones.

The runtime gate reads the ledger (:func:`read_entries`) and compares
:func:`proof_fingerprints`; the audit and ``certdp vet`` use :func:`current_fingerprints`,
which adds the closure of definitions behind the proven code.  The part the gate runs is
proven in ``gate.tex``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path

from .discovery import ConstructorFolder, ProofText, package_root
from .fingerprint import fingerprint_range
from .sources import read_markers

__all__ = [
    "Vetting",
    "Ledger",
    "read_entries",
    "current_fingerprints",
    "proof_fingerprints",
    "fingerprinted_files",
    "is_closure_key",
    "LEDGER_PATH",
    "UNCOMMITTED",
    "CLOSURE_PREFIX",
    "MODEL_PREFIX",
]

# proof: begin ledger-entries
#: Where the ledger sits, relative to the package folder.
LEDGER_PATH = Path("proofs") / "vetting-ledger.json"

#: The ``commit`` of a vetting recorded from files that were not committed: the ledger then
#: holds only their content fingerprints, never a commit that lacks what was reviewed.
UNCOMMITTED = "uncommitted"

#: The prefix of the fingerprint keys of closure definitions.
CLOSURE_PREFIX = "def:"

#: The prefix of the fingerprint keys of SMT models (``\machineModel``).
MODEL_PREFIX = "model:"


@dataclass
class Vetting:
    """One vetting: the fingerprints a reviewer (a name or a role) signed off, and what the
    reviewer reviewed (``""`` in entries recorded before the field existed)."""

    fingerprints: dict[str, str]
    proof: str
    commit: str
    reviewer: str
    date: str = field(default_factory=lambda: date.today().isoformat())
    reviewed: str = ""


def fingerprinted_files(keys) -> list[str]:
    """The package-relative files behind fingerprint keys (code files, lemma documents and
    SMT models)."""
    return sorted(
        {
            key.removeprefix("lemma:")
            .removeprefix(MODEL_PREFIX)
            .removeprefix(CLOSURE_PREFIX)
            .split("#")[0]
            .split("@")[0]
            for key in keys
        }
    )


def is_closure_key(key: str) -> bool:
    return key.startswith(CLOSURE_PREFIX)


def _package_relative(key: str) -> str:
    """A fingerprint key recorded before keys were package-relative (``src/certdp/...``)."""
    prefix = "lemma:" if key.startswith("lemma:") else ""
    return prefix + key.removeprefix(prefix).removeprefix("src/certdp/")


def _from_json(value: dict) -> Vetting:
    vetting = Vetting(**value)
    vetting.fingerprints = {_package_relative(k): v for k, v in vetting.fingerprints.items()}
    return vetting


def read_entries(package: Path) -> dict[str, Vetting]:
    """The vettings recorded in ``package``'s ledger, by constructor key (none if it has no
    ledger)."""
    path = package / LEDGER_PATH
    raw = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}  # label: json
    return {key: _from_json(value) for key, value in raw.items()}


def _digest(proof: ProofText) -> str:
    return hashlib.sha256(proof.normalised().encode()).hexdigest()


def proof_fingerprints(constructor: ConstructorFolder) -> tuple[dict[str, str], str]:
    """Fingerprints of every range the proof covers, of the lemma documents and SMT models it
    names, and of the proof text itself: what the runtime gate compares with the ledger.

    Keys are package-relative: ``FILE#RANGE`` for a code range, ``lemma:FILE`` for a lemma
    document's text and ``model:FILE`` for the content of an SMT model (``\\machineModel``).
    The lemma documents the proof relies on (``\\usesLemma``), and the ones they rely on, count
    too, with their ranges and models.  Raises the marker parser's error, ``KeyError`` or
    ``OSError`` when a proof names a missing range, document or model, and ``ValueError``
    when it names a file outside the package (before reading it).
    """
    fingerprints: dict[str, str] = {}
    seen: set[Path] = set()

    def cover(proof: ProofText) -> None:
        for file, name in proof.code_ranges:
            path = (proof.path.parent / file).resolve()
            key = f"{constructor.relative(path)}#{name}"
            fingerprints[key] = fingerprint_range(read_markers(path), name)
        for model in proof.machine_models:
            key = f"{MODEL_PREFIX}{constructor.relative(model)}"
            fingerprints[key] = hashlib.sha256(model.read_bytes()).hexdigest()  # label: model
        for lemma in proof.lemma_documents:
            if lemma in seen:
                continue
            seen.add(lemma)
            key = f"lemma:{constructor.relative(lemma)}"  # label: lemma-inside
            lemma_proof = ProofText(lemma)
            fingerprints[key] = _digest(lemma_proof)
            cover(lemma_proof)

    proof = ProofText(constructor.proof)
    cover(proof)
    return fingerprints, _digest(proof)


# proof: end ledger-entries


def current_fingerprints(
    constructor: ConstructorFolder, *, definitions=None
) -> tuple[dict[str, str], str]:
    """Everything a vetting covers: :func:`proof_fingerprints`, and the closure of definitions
    behind the proven code.

    This is the one place that decides what a vetting covers.  A definition in the closure of
    the proven code (:mod:`certdp.audit.closure`: every certdp function, class and constant the
    ranges use, transitively) has the key ``def:FILE@DOTTED.NAME``.  ``definitions`` is the
    closure when the caller has computed it already.  Raises what :func:`proof_fingerprints`
    raises.
    """
    from .closure import closure  # the gate imports this module; it never needs the closure

    fingerprints, proof = proof_fingerprints(constructor)
    for definition in closure(constructor) if definitions is None else definitions:
        fingerprints[f"{CLOSURE_PREFIX}{definition.file}@{definition.name}"] = (
            definition.fingerprint
        )
    return fingerprints, proof


class Ledger:
    """The ledger file of a package (default: the package in use), read and written whole."""

    def __init__(self, package: Path | None = None):
        package = package or package_root()
        self.path = package / LEDGER_PATH
        self.exists = self.path.is_file()
        self.entries = read_entries(package)

    def get(self, key: str) -> Vetting | None:
        return self.entries.get(key)

    def record(self, key: str, vetting: Vetting) -> None:
        self.entries[key] = vetting
        self.path.parent.mkdir(parents=True, exist_ok=True)
        serialised = {key: asdict(value) for key, value in sorted(self.entries.items())}
        self.path.write_text(
            json.dumps(serialised, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
        self.exists = True
