"""The vetting status of each constructor, as users see it.

``up to date``: the proven code and the proof are exactly what a reviewer vetted;
``outdated``: one of them changed since (the commit of that vetting is given);
``never vetted``: no reviewer has signed it off.  Only ``up to date`` constructors
run without ``dp.enable_features("contrib")``.
"""

from __future__ import annotations

import dataclasses
import threading
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .discovery import ConstructorFolder, constructor_named, constructor_names, package_root
from .ledger import (
    UNCOMMITTED,
    Ledger,
    Vetting,
    current_fingerprints,
    files_seal,
    files_unchanged,
    fingerprinted_files,
    is_closure_key,
    proof_fingerprints,
    read_ledger,
)
from .shadowing import AUDITED_LEVELS, LOADED_LEVEL, shadowing_files

__all__ = [
    "VettingStatus",
    "vetting_status",
    "status_of",
    "CheapCheck",
    "covered_status",
    "cheap_checks",
    "UP_TO_DATE",
    "OUTDATED",
    "NEVER_VETTED",
]

# proof: begin status
UP_TO_DATE, OUTDATED, NEVER_VETTED = "up to date", "outdated", "never vetted"


@dataclass(frozen=True)
class VettingStatus:
    state: str
    commit: str | None = None
    reviewer: str | None = None
    date: str | None = None
    changed: tuple[str, ...] = ()
    diff_command: str | None = None
    reviewed: str | None = None
    shadowed: tuple[str, ...] = ()

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
        if self.state == OUTDATED and self.shadowed:
            return (
                f"outdated: {', '.join(self.shadowed)} beside its vetted code is what Python "
                "imports instead of it"
            )
        if self.state == OUTDATED:
            return f"outdated since {self.vetted_at}"
        if self.state == UP_TO_DATE:
            return f"up to date (vetted by {self.reviewer} at {self.vetted_at}, {self.date})"
        return self.state


def _compared(
    constructor: ConstructorFolder,
    vetting: Vetting,
    fingerprints: dict[str, str],
    proof: str,
    with_closure: bool,
) -> VettingStatus:
    """The status from current ``fingerprints`` and ``proof`` digest against ``vetting``;
    ``with_closure=False`` leaves the recorded closure keys out of the comparison."""
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
        return VettingStatus(
            UP_TO_DATE, vetting.commit, vetting.reviewer, vetting.date, reviewed=vetting.reviewed
        )
    return VettingStatus(
        OUTDATED, vetting.commit, vetting.reviewer, vetting.date, tuple(changed),
        reviewed=vetting.reviewed,
    )  # fmt: skip


def _unshadowed(
    constructor: ConstructorFolder, status: VettingStatus, keys, levels: tuple
) -> VettingStatus:
    """``status``, or an outdated one naming the shadowing files when a Python file behind the
    fingerprint ``keys`` is shadowed by a file Python imports instead (:mod:`.shadowing`),
    cached files checked at the optimisation ``levels``."""
    if status.state != UP_TO_DATE:
        return status
    files = fingerprinted_files(keys)
    shadows = shadowing_files(constructor.package, files, levels)  # label: shadows
    if not shadows:
        return status
    return VettingStatus(
        OUTDATED, status.commit, status.reviewer, status.date, reviewed=status.reviewed,
        shadowed=shadows,
    )  # fmt: skip


def runtime_status_of(constructor: ConstructorFolder, entries: dict) -> VettingStatus:
    """What the runtime gate compares: the proven ranges, the documents and the SMT models
    (:func:`certdp.audit.ledger.proof_fingerprints`), not the closure; no diff command.

    Cheap first: when the entry records the bytes its fingerprints were computed from (sealed
    with them) and every file the proof reads still has those bytes, the fingerprints are the
    recorded ones and the status is up to date without parsing anything.  Otherwise (an edit,
    even of a comment; an entry without file hashes) the fingerprints are recomputed.  Cached
    bytecode is checked only at the level this process loads (:data:`.shadowing.LOADED_LEVEL`).
    ``entries`` are the ledger's vettings (:func:`certdp.audit.ledger.read_ledger`)."""
    vetting = entries.get(constructor.key)  # label: entry
    if vetting is None:
        return VettingStatus(NEVER_VETTED)
    # cached files at the level this process loads only: this process loads no other
    keys, levels = vetting.fingerprints, LOADED_LEVEL  # label: loaded-level
    if vetting.files and vetting.seal == files_seal(  # label: sealed
        vetting.fingerprints, vetting.proof, vetting.files
    ):
        try:
            unchanged = files_unchanged(constructor, vetting.files)  # label: same-bytes
        except Exception:  # the full comparison below decides
            unchanged = False
        if unchanged:  # every file read has the bytes it had when vetted  # label: fast
            _note_cheap(constructor, vetting)  # label: note-cheap
            fast = VettingStatus(UP_TO_DATE, vetting.commit, vetting.reviewer, vetting.date)
            return _unshadowed(constructor, fast, keys, levels)
    try:
        fingerprints, proof = proof_fingerprints(constructor)
    except Exception:  # label: unreadable-proof
        fingerprints, proof = {}, ""  # a proof naming a missing file cannot be up to date
    compared = _compared(constructor, vetting, fingerprints, proof, with_closure=False)
    return _unshadowed(constructor, compared, keys, levels)  # label: unshadowed


#: Set by the gate around its status computation only: a list to which the cheap check of
#: :func:`runtime_status_of` appends the folder and entry whose files it found unchanged.
#: ``None`` (nothing recorded) for every other caller, and when the status was cached.
cheap_checks: ContextVar[list | None] = ContextVar("certdp_cheap_checks", default=None)


def _note_cheap(constructor: ConstructorFolder, vetting: Vetting) -> None:
    noted = cheap_checks.get()  # label: note-get
    if noted is not None:
        noted.append((constructor, vetting))  # label: note-append


class CheapCheck:
    """A cheap check that has just found a constructor up to date (its files unchanged, no
    shadowing file): the package, the entry's file hashes and fingerprint keys, the thread
    it ran in, and whether the construction it opened is still running (``open``; the
    wrapper of ``certified`` closes it).  Only read, but for ``open`` and :meth:`modules`."""

    __slots__ = ("package", "files", "keys", "thread", "open", "_modules")

    def __init__(self, constructor: ConstructorFolder, vetting: Vetting):
        self.package = constructor.package
        self.files, self.keys = vetting.files, vetting.fingerprints
        self.thread = threading.get_ident()  # label: check-thread
        self.open = True
        self._modules: frozenset[str] | None = None

    def modules(self) -> frozenset[str]:
        """The files behind the entry's fingerprint keys: those its shadowing check tested
        (computed once)."""
        if self._modules is None:
            self._modules = frozenset(fingerprinted_files(self.keys))  # label: check-modules
        return self._modules


def covered_status(check: CheapCheck, name: str) -> VettingStatus | None:
    """The status the cheap check of ``name`` would have returned on the answers ``check``
    got, when ``check`` covers ``name``; else ``None`` (then the gate checks ``name`` itself).
    Covered: ``check`` is open and made in this thread, and ``name``'s entry exists, has
    files, names its proof among them, is sealed, has each (file, digest) among ``check``'s
    and each file behind its fingerprint keys among ``check``'s (``gate.tex``, Lemma
    prop:covered)."""
    if not check.open or check.thread != threading.get_ident():  # label: cover-open
        return None
    package, names, entries = _folders()
    constructor = constructor_named(package, name, names)  # label: cover-folder
    if constructor is None or constructor.package != check.package:  # label: cover-package
        return None
    vetting = entries.get(constructor.key)  # label: cover-entry
    if vetting is None or not vetting.files:
        return None
    if not vetting.files.items() <= check.files.items():  # label: cover-files
        return None
    if constructor.relative(constructor.proof) not in vetting.files:  # label: cover-proof
        return None
    if not check.modules().issuperset(fingerprinted_files(vetting.fingerprints)):
        return None  # label: cover-modules
    if vetting.seal != files_seal(vetting.fingerprints, vetting.proof, vetting.files):
        return None  # label: cover-sealed
    return VettingStatus(UP_TO_DATE, vetting.commit, vetting.reviewer, vetting.date)


@lru_cache(maxsize=None)  # label: folders-cache
def _folders() -> tuple[Path, list[tuple[str, str]], dict]:
    """The (resolved) folder of the package in use, the names and folders of its
    constructors (:func:`constructor_names`: the listing only), and its ledger's vettings
    (the whole file decoded, every entry converted, as the audit reads it)."""
    package = package_root().resolve()
    entries = read_ledger(package)  # label: read-ledger
    return package, constructor_names(package), entries  # label: names


@lru_cache(maxsize=None)  # label: status-cache
def vetting_status(name: str) -> VettingStatus:
    """The status of the constructor named ``name`` (e.g. ``"make_is_equal"``) as the runtime
    gate sees it (ranges, documents and models; not the closure), computed once per process
    and name: a process reads the proofs of the constructors it calls, and no others."""
    package, names, entries = _folders()
    constructor = constructor_named(package, name, names)  # label: find-folder
    if constructor is None:
        return VettingStatus(NEVER_VETTED)
    return runtime_status_of(constructor, entries)


# proof: end status


def status_of(constructor: ConstructorFolder, ledger: Ledger, *, definitions=None) -> VettingStatus:
    """The audit's status: compare the current fingerprints of ``constructor``, the closure of
    definitions behind its proven code included, with its ledger entry; an outdated status
    names the ``git diff`` to read when the package is a checkout."""
    vetting = ledger.get(constructor.key)
    if vetting is None:
        return VettingStatus(NEVER_VETTED)
    try:
        fingerprints, proof = current_fingerprints(constructor, definitions=definitions)
    except Exception:  # a proof naming a missing range cannot be up to date
        fingerprints, proof = {}, ""
    status = _compared(constructor, vetting, fingerprints, proof, with_closure=True)
    status = _unshadowed(constructor, status, vetting.fingerprints, AUDITED_LEVELS)  # -O, -OO too
    if status.shadowed:
        return status  # no edit to diff: the shadowing files are named
    if status.state != OUTDATED or constructor.checkout is None or vetting.commit == UNCOMMITTED:
        return status  # up to date, or no repository to diff against
    files = " ".join(constructor.in_checkout(file) for file in status.changed_files)
    return dataclasses.replace(status, diff_command=f"git diff {vetting.commit} -- {files}")
