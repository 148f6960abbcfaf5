"""``certdp vet``: record that a reviewer vetted a constructor's proof, honestly.

A vetting names the commit that holds what was reviewed.  So ``vet`` refuses while any file of
the constructor's fingerprint (its proven code, its proof, the lemma documents it cites and their
code) is untracked or differs from ``HEAD``: the reviewer commits first, then vets.  With
``uncommitted=True`` it records the content fingerprints alone, with the commit
``"uncommitted"``, and says so; it never records a commit that lacks what was reviewed.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from certdp.core.errors import DPError

from .checks import OK, QUICK_EXAMPLES, check_artifacts, check_binding, check_contracts
from .discovery import ConstructorFolder, discover, package_root
from .ledger import (
    UNCOMMITTED,
    Ledger,
    Vetting,
    current_fingerprints,
    files_seal,
    fingerprinted_files,
)

__all__ = ["VetError", "Recorded", "vet", "uncommitted_files"]


class VetError(DPError):
    """A vetting was refused: it would record something other than what was reviewed."""

    variant = "Vet"


@dataclass(frozen=True)
class Recorded:
    """What ``vet`` wrote: the vetting, and the files left out of any commit (if allowed)."""

    vetting: Vetting
    uncommitted: tuple[str, ...] = ()
    #: Ledger entries dropped: unwritable, of no constructor of the package (``Ledger.dropped``).
    dropped: tuple[str, ...] = ()


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=60
    )


def uncommitted_files(folder: Path, files: list[Path]) -> list[Path] | None:
    """Those of ``files`` that are untracked or differ from ``HEAD``; ``None`` outside git."""
    try:
        head = _git(folder, "rev-parse", "--verify", "-q", "HEAD")
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    paths = [str(path.resolve()) for path in files]
    tracked = _git(folder, "ls-files", "--full-name", "-z", "--", *paths)
    changed = _git(folder, "diff", "HEAD", "--name-only", "-z", "--", *paths)
    if tracked.returncode != 0 or changed.returncode != 0:
        return None
    top = Path(_git(folder, "rev-parse", "--show-toplevel").stdout.strip()).resolve()
    tracked_paths = {(top / name).resolve() for name in tracked.stdout.split("\0") if name}
    dirty = {(top / name).resolve() for name in changed.stdout.split("\0") if name}
    return sorted(
        path.resolve()
        for path in files
        if path.resolve() not in tracked_paths or path.resolve() in dirty
    )


def _head(folder: Path) -> str:
    return _git(folder, "rev-parse", "--short=12", "HEAD").stdout.strip()


def vet(
    name: str,
    reviewer: str,
    package: Path | None = None,
    examples: int = QUICK_EXAMPLES,
    uncommitted: bool = False,
    reviewed: str = "",
) -> Recorded:
    """Record that ``reviewer`` (a name or a role) vetted constructor ``name`` in the package's
    ledger, having reviewed what ``reviewed`` says (e.g. "proof against code listing, cited
    lemmas, contract").

    Refused (:class:`VetError`) if ``reviewed`` is empty, if binding or contracts fail, if the
    package is not in a git checkout, or if a fingerprinted file is not committed as it is now,
    unless ``uncommitted``.
    """
    package = (package or package_root()).resolve()
    matches = [c for c in discover(package) if c.name == name]
    if not matches:
        raise VetError(f"no constructor named {name!r} in {package}", parameter="name")
    constructor: ConstructorFolder = matches[0]
    if constructor.checkout is None:
        raise VetError(
            f"refusing to vet {name}: {package} is an installed package, not a source checkout; "
            "vet in the repository, where the ledger is committed with the code",
            parameter="name",
        )
    if not reviewer.strip():
        raise VetError("a reviewer name is required", parameter="--by")
    if not reviewed.strip():
        raise VetError(
            'say what was reviewed, e.g. --reviewed "proof against code listing, cited '
            'lemmas, contract"',
            parameter="--reviewed",
        )
    for check in (
        check_artifacts(constructor),
        check_binding(constructor),
        check_contracts(constructor, examples),
    ):
        if check.status != OK:
            raise VetError(f"refusing to vet {name}: {check.detail}", parameter="name")
    hashes: dict[str, str] = {}  # the bytes the fingerprints were computed from
    fingerprints, proof = current_fingerprints(constructor, files=hashes)
    files = [constructor.package / file for file in fingerprinted_files(fingerprints)]
    files.append(constructor.proof)
    dirty = uncommitted_files(constructor.package, files)
    if dirty is None and not uncommitted:
        raise VetError(
            f"refusing to vet {name}: {package} is not in a git repository with a commit, so no "
            "commit can be named; vet in a source checkout (or pass --uncommitted to record the "
            "content fingerprint only)",
            parameter="name",
        )
    shown = tuple(constructor.relative(path) for path in dirty or [])
    if shown and not uncommitted:
        raise VetError(
            f"refusing to vet {name}: these reviewed files are not committed as they are now, "
            f"so HEAD does not contain what was reviewed: {', '.join(shown)}. Commit them and "
            "vet again, or pass --uncommitted to record the content fingerprint only",
            parameter="name",
        )
    commit = UNCOMMITTED if uncommitted and (dirty is None or dirty) else _head(package)
    seal = files_seal(fingerprints, proof, hashes)
    vetting = Vetting(
        fingerprints,
        proof,
        commit,
        reviewer.strip(),
        files=hashes,
        seal=seal,
        reviewed=reviewed.strip(),
    )
    ledger = Ledger(package)
    ledger.record(constructor.key, vetting)
    return Recorded(vetting, shown if commit == UNCOMMITTED else (), ledger.dropped)
