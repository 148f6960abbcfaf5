"""The vetting status of each constructor, as users see it.

``up to date``: the proven code and the proof are exactly what a reviewer vetted;
``outdated``: one of them changed since (the commit of that vetting is given);
``never vetted``: no reviewer has signed it off.  Only ``up to date`` constructors
run without ``dp.enable_features("contrib")``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

from .discovery import ConstructorFolder, discover, repository_root
from .ledger import Ledger, current_fingerprints

__all__ = ["VettingStatus", "vetting_status", "status_of", "UP_TO_DATE", "OUTDATED", "NEVER_VETTED"]

UP_TO_DATE, OUTDATED, NEVER_VETTED = "up to date", "outdated", "never vetted"


@dataclass(frozen=True)
class VettingStatus:
    state: str
    commit: str | None = None
    reviewer: str | None = None
    date: str | None = None
    changed: tuple[str, ...] = ()
    diff_command: str | None = None

    @property
    def changed_files(self) -> list[str]:
        """The files behind :attr:`changed` (code ranges, proofs and lemma documents)."""
        return sorted({key.removeprefix("lemma:").split("#")[0] for key in self.changed})

    def __str__(self) -> str:
        if self.state == OUTDATED:
            return f"outdated since {self.commit}"
        if self.state == UP_TO_DATE:
            return f"up to date (vetted by {self.reviewer} at {self.commit}, {self.date})"
        return self.state


def status_of(constructor: ConstructorFolder, ledger: Ledger) -> VettingStatus:
    """Compare the current fingerprints of ``constructor`` with its ledger entry."""
    vetting = ledger.get(constructor.key)
    if vetting is None:
        return VettingStatus(NEVER_VETTED)
    try:
        fingerprints, proof = current_fingerprints(constructor)
    except Exception:  # a proof naming a missing range cannot be up to date
        fingerprints, proof = {}, ""
    changed = sorted(
        key
        for key in fingerprints.keys() | vetting.fingerprints.keys()
        if fingerprints.get(key) != vetting.fingerprints.get(key)
    )
    if proof != vetting.proof:
        changed.append(constructor.relative(constructor.proof))
    if not changed:
        return VettingStatus(UP_TO_DATE, vetting.commit, vetting.reviewer, vetting.date)
    outdated = VettingStatus(
        OUTDATED, vetting.commit, vetting.reviewer, vetting.date, tuple(changed)
    )
    diff = f"git diff {vetting.commit} -- {' '.join(outdated.changed_files)}"
    return dataclasses.replace(outdated, diff_command=diff)


@lru_cache(maxsize=None)
def _statuses() -> dict[str, VettingStatus]:
    root = repository_root()
    ledger = Ledger(root)
    return {constructor.name: status_of(constructor, ledger) for constructor in discover(root)}


def vetting_status(name: str) -> VettingStatus:
    """The status of the constructor named ``name`` (e.g. ``"make_is_equal"``), cached per process."""
    return _statuses().get(name, VettingStatus(NEVER_VETTED))
