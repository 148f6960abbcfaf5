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

from .discovery import ConstructorFolder, discover, package_root
from .ledger import (
    UNCOMMITTED,
    Ledger,
    current_fingerprints,
    fingerprinted_files,
    is_closure_key,
)

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
        """The package-relative files behind :attr:`changed` (code, proofs, lemma documents)."""
        return fingerprinted_files(self.changed)

    @property
    def vetted_at(self) -> str:
        """Where the vetting was recorded: a commit, or only the files' content."""
        if self.commit == UNCOMMITTED:
            return "uncommitted files (content fingerprint)"
        return str(self.commit)

    def __str__(self) -> str:
        if self.state == OUTDATED:
            return f"outdated since {self.vetted_at}"
        if self.state == UP_TO_DATE:
            return f"up to date (vetted by {self.reviewer} at {self.vetted_at}, {self.date})"
        return self.state


def status_of(
    constructor: ConstructorFolder, ledger: Ledger, *, with_closure: bool = True, definitions=None
) -> VettingStatus:
    """Compare the current fingerprints of ``constructor`` with its ledger entry.

    With ``with_closure=False`` (the runtime gate) only the proven ranges and the documents are
    compared; the audit compares the closure of definitions behind them too.
    """
    vetting = ledger.get(constructor.key)
    if vetting is None:
        return VettingStatus(NEVER_VETTED)
    try:
        fingerprints, proof = current_fingerprints(
            constructor, with_closure=with_closure, definitions=definitions
        )
    except Exception:  # a proof naming a missing range cannot be up to date
        fingerprints, proof = {}, ""
    recorded = {
        key: value
        for key, value in vetting.fingerprints.items()
        if with_closure or not is_closure_key(key)
    }
    changed = sorted(
        key
        for key in fingerprints.keys() | recorded.keys()
        if fingerprints.get(key) != recorded.get(key)
    )
    if proof != vetting.proof:
        changed.append(constructor.relative(constructor.proof))
    if not changed:
        return VettingStatus(UP_TO_DATE, vetting.commit, vetting.reviewer, vetting.date)
    outdated = VettingStatus(
        OUTDATED, vetting.commit, vetting.reviewer, vetting.date, tuple(changed)
    )
    if constructor.checkout is None or vetting.commit == UNCOMMITTED:
        return outdated  # no repository to diff against
    files = " ".join(constructor.in_checkout(file) for file in outdated.changed_files)
    return dataclasses.replace(outdated, diff_command=f"git diff {vetting.commit} -- {files}")


@lru_cache(maxsize=None)
def _statuses() -> dict[str, VettingStatus]:
    package = package_root()
    ledger = Ledger(package)
    return {
        constructor.name: status_of(constructor, ledger, with_closure=False)
        for constructor in discover(package)
    }


def vetting_status(name: str) -> VettingStatus:
    """The status of the constructor named ``name`` (e.g. ``"make_is_equal"``), cached per process."""
    return _statuses().get(name, VettingStatus(NEVER_VETTED))
