"""The vetting ledger: which fingerprints a reviewer vetted, when, at which commit.

It is a committed JSON file, ``proofs/vetting-ledger.json``; ``certdp vet`` is
the only writer.  The freshness of a constructor compares the fingerprints
recorded here with the current ones.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path

from .discovery import ConstructorFolder, ProofText
from .fingerprint import fingerprint_range
from .sources import read_markers

__all__ = ["Vetting", "Ledger", "current_fingerprints", "LEDGER_PATH"]

LEDGER_PATH = Path("proofs") / "vetting-ledger.json"


@dataclass
class Vetting:
    """One vetting: the fingerprints a reviewer signed off."""

    fingerprints: dict[str, str]
    proof: str
    commit: str
    reviewer: str
    date: str = field(default_factory=lambda: date.today().isoformat())


def current_fingerprints(constructor: ConstructorFolder) -> tuple[dict[str, str], str]:
    """Fingerprints of every range the proof covers, and of the proof text itself.

    The lemma documents the proof relies on (``\\usesLemma``), and the ones they rely on,
    count too: each of their code ranges, and their text under the key ``lemma:PATH``.
    Raises the marker parser's error (or KeyError) when a proof names a missing range.
    """
    fingerprints: dict[str, str] = {}
    seen: set[Path] = set()

    def cover(proof: ProofText) -> None:
        for file, name in proof.code_ranges:
            path = (proof.path.parent / file).resolve()
            key = f"{constructor.relative(path)}#{name}"
            fingerprints[key] = fingerprint_range(read_markers(path), name)
        for lemma in proof.lemma_documents:
            if lemma in seen:
                continue
            seen.add(lemma)
            lemma_proof = ProofText(lemma)
            fingerprints[f"lemma:{constructor.relative(lemma)}"] = _digest(lemma_proof)
            cover(lemma_proof)

    proof = ProofText(constructor.proof)
    cover(proof)
    return fingerprints, _digest(proof)


def _digest(proof: ProofText) -> str:
    return hashlib.sha256(proof.normalised().encode()).hexdigest()


def head_commit(root: Path) -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "uncommitted"


class Ledger:
    """The ledger file, read and written as a whole."""

    def __init__(self, root: Path):
        self.path = root / LEDGER_PATH
        raw = json.loads(self.path.read_text(encoding="utf-8")) if self.path.exists() else {}
        self.entries = {key: Vetting(**value) for key, value in raw.items()}

    def get(self, key: str) -> Vetting | None:
        return self.entries.get(key)

    def record(self, key: str, vetting: Vetting) -> None:
        self.entries[key] = vetting
        self.path.parent.mkdir(parents=True, exist_ok=True)
        serialised = {key: asdict(value) for key, value in sorted(self.entries.items())}
        self.path.write_text(
            json.dumps(serialised, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
