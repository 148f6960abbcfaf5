"""The vetting ledger: which fingerprints a reviewer vetted, when, at which commit.

It is package data, ``certdp/proofs/vetting-ledger.json`` (``src/certdp/proofs/`` in a
checkout), so an installed certdp carries it; ``certdp vet`` is the only writer.  Keys are
relative to the package, so they mean the same in a checkout and in ``site-packages``.  The
freshness of a constructor compares the fingerprints recorded here with the current ones.

The file (format 2) stores each distinct ``[name, digest]`` pair once, in the table
``pairs`` under a short id; an entry lists the ids of its fingerprints and file hashes
(:func:`ledger_text`, written only by :meth:`Ledger.record`).  A ledger without the member
``format`` is read as format 1, one member per entry holding its pairs in full, and the next
write stores it in format 2.  Whatever the format, the whole file is decoded by
``json.loads`` and each entry is converted by :func:`entry_of`, for the gate and the audit
alike.

The runtime gate reads the ledger (:func:`read_ledger`, :func:`entry_of`) and compares
:func:`proof_fingerprints`; the audit and ``certdp vet`` use :func:`current_fingerprints`,
which adds the closure of definitions behind the proven code.  The part the gate runs is
proven in ``gate.tex``.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import sys
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path, PurePosixPath
from stat import S_ISLNK

from certdp.core.errors import DPError

from .._imported import imported_files, syntax_digest
from .discovery import ConstructorFolder, ProofText, package_root
from .fingerprint import fingerprint_range
from .shadowing import is_a
from .sources import SourceMarkers, parse_markers

__all__ = [
    "LedgerError",
    "Vetting",
    "files_unchanged",
    "files_seal",
    "Ledger",
    "read_entries",
    "read_ledger",
    "ledger_entries",
    "entry_of",
    "ledger_text",
    "pair_id",
    "current_fingerprints",
    "proof_fingerprints",
    "fingerprinted_files",
    "is_closure_key",
    "LEDGER_PATH",
    "LEDGER_FORMAT",
    "UNCOMMITTED",
    "CLOSURE_PREFIX",
    "MODEL_PREFIX",
    "INIT_PREFIX",
]

# proof: begin ledger-entries
#: Where the ledger sits, relative to the package folder.
LEDGER_PATH = Path("proofs") / "vetting-ledger.json"

#: The ``commit`` of a vetting recorded from files that were not committed: the ledger then
#: holds only their content fingerprints, never a commit that lacks what was reviewed.
UNCOMMITTED = "uncommitted"

#: The prefix of the fingerprint keys of closure definitions.
CLOSURE_PREFIX = "def:"
#: The prefix of the fingerprint keys of the package ``__init__.py`` files that importing a
#: proven module runs (each package on its dotted path, the package root included).
INIT_PREFIX = "init:"

#: The prefix of the fingerprint keys of SMT models (``\machineModel``).
MODEL_PREFIX = "model:"

#: The format :meth:`Ledger.record` writes: entries refer to a table of distinct pairs.
LEDGER_FORMAT = 2


class LedgerError(DPError):
    """The ledger's JSON value is not a ledger of a format this certdp reads."""

    variant = "Ledger"


@dataclass
class Vetting:
    """One vetting: the fingerprints a reviewer (a name or a role) signed off, and what the
    reviewer reviewed (``""`` in entries recorded before the field existed).

    ``files`` holds the sha256 of the bytes of every file the fingerprints were computed from
    (:func:`proof_fingerprints`) and ``seal`` binds them to the fingerprints (:func:`files_seal`):
    while those bytes are unchanged, the fingerprints are too, and the runtime gate need not
    recompute them.  Entries recorded before these fields existed have them empty.
    """

    fingerprints: dict[str, str]
    proof: str
    commit: str
    reviewer: str
    date: str = field(default_factory=lambda: date.today().isoformat())
    reviewed: str = ""
    files: dict[str, str] = field(default_factory=dict)
    seal: str = ""


def fingerprinted_files(keys) -> list[str]:
    """The package-relative files behind fingerprint keys (code files, lemma documents and
    SMT models)."""
    return sorted(
        {
            key.removeprefix("lemma:")
            .removeprefix(MODEL_PREFIX)
            .removeprefix(CLOSURE_PREFIX)
            .removeprefix(INIT_PREFIX)
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


def read_ledger(package: Path) -> dict:
    """The JSON object of ``package``'s ledger (empty if it has none), the whole file decoded
    by ``json.loads``; :class:`LedgerError` unless :func:`ledger_entries` accepts its shape."""
    path = package / LEDGER_PATH
    raw = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}  # label: json
    ledger_entries(raw)  # label: shape
    return raw


def ledger_entries(raw) -> tuple[dict, dict | None]:
    """The entries of a ledger's JSON value by key, and its table of pairs (``None`` in
    format 1).  Format 2 is an object with exactly the members ``format`` (the integer 2),
    ``entries`` and ``pairs`` (objects); an object without ``format`` is format 1, every
    member an entry.  Anything else raises :class:`LedgerError`."""
    if type(raw) is not dict:  # label: object
        raise LedgerError("the ledger is not a JSON object", parameter="ledger")
    if "format" not in raw:  # label: format-1
        return raw, None
    if (
        type(raw["format"]) is not int
        or raw["format"] != LEDGER_FORMAT
        or raw.keys() != {"format", "entries", "pairs"}
        or type(raw["entries"]) is not dict
        or type(raw["pairs"]) is not dict
    ):  # label: format-2
        raise LedgerError(
            f"not a ledger of format {LEDGER_FORMAT}: it must hold exactly the members "
            "format (2), entries and pairs (objects)",
            parameter="ledger",
        )
    return raw["entries"], raw["pairs"]


def _named(ids, pairs: dict) -> dict[str, str]:
    """The fingerprints (or file hashes) an entry's string of pair ids (separated by single
    spaces; empty for none) stands for; one that is not made of ids of ``[name, digest]``
    pairs of strings, with distinct names, raises :class:`LedgerError`."""
    if type(ids) is not str:  # label: ids-string
        raise LedgerError("an entry's pairs must be a string of ids", parameter="ledger")
    named: dict[str, str] = {}
    for ident in ids.split(" ") if ids else []:  # label: split
        pair = pairs.get(ident)  # label: lookup
        if type(pair) is not list or len(pair) != 2 or not all(type(p) is str for p in pair):
            raise LedgerError(f"no [name, digest] pair with id {ident!r}", parameter="ledger")
        if pair[0] in named:  # label: distinct
            raise LedgerError(f"an entry names {pair[0]!r} twice", parameter="ledger")
        named[pair[0]] = pair[1]
    return named


def entry_of(raw: dict, key: str) -> Vetting | None:
    """The vetting recorded under ``key`` in a ledger's JSON object, or ``None``; only this
    entry is converted (in format 2, its ids are replaced by the pairs they stand for)."""
    entries, pairs = ledger_entries(raw)
    if key not in entries:
        return None
    value = entries[key]  # label: one-entry
    if pairs is not None:  # label: expand
        value = {
            member: _named(item, pairs) if member in ("fingerprints", "files") else item
            for member, item in value.items()
        }
    return _from_json(value)


def read_entries(package: Path) -> dict[str, Vetting]:
    """The vettings recorded in ``package``'s ledger, by constructor key (none if it has no
    ledger), each converted by :func:`entry_of` as the gate converts it."""
    raw = read_ledger(package)
    return {key: entry_of(raw, key) for key in ledger_entries(raw)[0]}


def _digest(proof: ProofText) -> str:
    return hashlib.sha256(proof.normalised().encode()).hexdigest()


def _decoded(data: bytes) -> str:
    """``data`` as ``Path.read_text(encoding="utf-8")`` returns the file holding it (the same
    decoder and universal newlines)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()  # label: decode


def _plain_reference(reference: str) -> bool:
    """Is a path a proof names of the form ``../../folder/file``: relative, its ``..`` parts
    (if any) first and no other?  Such a path resolves, from a folder without symbolic links,
    through the folders above its target only."""
    parts = PurePosixPath(reference).parts
    climbs = len(parts) - len(tuple(itertools.dropwhile(lambda part: part == "..", parts)))
    return (
        not PurePosixPath(reference).is_absolute()
        and len(parts) > climbs
        and ".." not in parts[climbs:]
    )  # label: plain


def _climbs(reference: str) -> int:
    """The number of leading ``..`` parts of a path a proof names."""
    parts = PurePosixPath(reference).parts
    return len(parts) - len(tuple(itertools.dropwhile(lambda part: part == "..", parts)))


def _depth(folder: Path, package: Path) -> int:
    """How many folders ``folder`` lies below ``package`` (-1 when not below it), by name."""
    try:
        return len(folder.relative_to(package).parts)
    except ValueError:
        return -1


def proof_fingerprints(
    constructor: ConstructorFolder, files: dict[str, str] | None = None
) -> tuple[dict[str, str], str]:
    """Fingerprints of every range the proof covers, of the lemma documents and SMT models it
    names, and of the proof text itself: what the runtime gate compares with the ledger.

    Keys are package-relative: ``FILE#RANGE`` for a code range, ``lemma:FILE`` for a lemma
    document's text and ``model:FILE`` for the content of an SMT model (``\\machineModel``) and
    of every package file it imports, transitively (:func:`certdp._imported.imported_files`).
    The lemma documents the proof relies on (``\\usesLemma``), and the ones they rely on, count
    too, with their ranges and models.  Each file is read once and everything is computed from
    those bytes; ``files``, when given, receives their sha256 by package-relative path (for
    :func:`files_unchanged`), but only when every path the proofs name is plain
    (:func:`_plain_reference`); otherwise it is left empty.  Raises the marker parser's error,
    ``KeyError``, ``OSError`` or ``UnicodeDecodeError`` when a proof names a missing range,
    document or model or an undecodable file, and ``ValueError`` when it names a file outside
    the package (before reading it).
    """
    fingerprints: dict[str, str] = {}
    hashes: dict[str, str] = {}
    sources: dict[Path, bytes] = {}
    markers: dict[Path, SourceMarkers] = {}
    seen: set[Path] = set()
    plain = [True]

    def read(path: Path) -> bytes:
        key = constructor.relative(path)  # label: key-first
        data = path.read_bytes()  # label: read-once
        hashes[key] = hashlib.sha256(data).hexdigest()  # label: file-hash
        return data

    def proof_text(path: Path) -> ProofText:
        return ProofText(path, _decoded(read(path)))

    def named(proof: ProofText, reference: str) -> Path:
        resolved = (proof.path.parent / reference).resolve()
        plain[0] = (
            plain[0]
            and _plain_reference(reference)
            and _climbs(reference) <= _depth(proof.path.parent, constructor.package)
            and Path(os.path.normpath(proof.path.parent / reference)) == resolved
        )  # label: plain-inside
        return resolved

    def cover(proof: ProofText) -> None:
        for file, name in proof.code_ranges:
            path = named(proof, file)
            key = f"{constructor.relative(path)}#{name}"
            if path not in sources:
                sources[path] = read(path)
                markers[path] = parse_markers(_decoded(sources[path]), path=str(path))
            fingerprints[key] = fingerprint_range(markers[path], name)
            folder = path.parent
            while folder != constructor.package.parent and folder.is_relative_to(
                constructor.package
            ):  # label: package-inits
                init = folder / "__init__.py"
                init_key = f"{INIT_PREFIX}{constructor.relative(init)}"
                if init_key not in fingerprints and init.is_file():
                    fingerprints[init_key] = syntax_digest(read(init))
                folder = folder.parent
        for reference in proof.machine_model_names:
            model = named(proof, reference)
            key = f"{MODEL_PREFIX}{constructor.relative(model)}"
            fingerprints[key] = hashlib.sha256(read(model)).hexdigest()  # label: model
            for imported in imported_files(model, constructor.package):  # label: model-imports
                key = f"{MODEL_PREFIX}{constructor.relative(imported)}"
                if key not in fingerprints:
                    fingerprints[key] = syntax_digest(read(imported))
        for reference in proof.lemma_names:
            lemma = named(proof, reference)
            if lemma in seen:
                continue
            seen.add(lemma)
            key = f"lemma:{constructor.relative(lemma)}"  # label: lemma-inside
            lemma_proof = proof_text(lemma)
            fingerprints[key] = _digest(lemma_proof)
            cover(lemma_proof)

    proof = proof_text(constructor.proof)
    cover(proof)
    if files is not None and plain[0]:
        files.update(hashes)  # label: hashes-out
    return fingerprints, _digest(proof)


def files_unchanged(constructor: ConstructorFolder, files: dict[str, str]) -> bool:
    """Cheaply: does every file of ``files`` (package-relative path to sha256, as
    :func:`proof_fingerprints` records them) still have those bytes, with neither it nor a
    folder between it and the package a symbolic link, and is the constructor's proof among
    them?  Reads nothing outside the package: a path with ``..`` or an absolute one is
    ``False`` before any file is read."""
    package = str(constructor.package.resolve())
    if constructor.relative(constructor.proof) not in files:  # label: starts-at-proof
        return False
    checked: set[str] = set()
    for key, digest in files.items():
        parts = PurePosixPath(key).parts
        if PurePosixPath(key).is_absolute() or ".." in parts or not parts:  # label: inside
            return False
        for depth in range(1, len(parts) + 1):
            path = os.path.join(package, *parts[:depth])  # label: path-string
            if path not in checked:
                if is_a(path, S_ISLNK, follow=False):  # label: no-link
                    return False
                checked.add(path)
        with open(path, "rb") as file:
            data = file.read()
        if hashlib.sha256(data).hexdigest() != digest:  # label: same-bytes-file
            return False
    return True


def files_seal(fingerprints: dict[str, str], proof: str, files: dict[str, str]) -> str:
    """A digest binding a vetting's file hashes to its fingerprints (the closure left out) and
    proof digest, so that a ledger entry whose parts were not recorded together (a hand merge,
    say) never passes the gate's cheap check.  A consistency check, not a signature."""
    recorded = {key: value for key, value in fingerprints.items() if not is_closure_key(key)}
    # The Python version is sealed too: fingerprints hash syntax-tree dumps, whose text a
    # different interpreter may change, so a new interpreter takes the full comparison.
    python = list(sys.version_info[:2])
    payload = json.dumps([recorded, proof, files, python], sort_keys=True)  # label: seal-payload
    return hashlib.sha256(payload.encode()).hexdigest()


# proof: end ledger-entries


def current_fingerprints(
    constructor: ConstructorFolder, *, definitions=None, files: dict[str, str] | None = None
) -> tuple[dict[str, str], str]:
    """Everything a vetting covers: :func:`proof_fingerprints`, and the closure of definitions
    behind the proven code.

    This is the one place that decides what a vetting covers.  A definition in the closure of
    the proven code (:mod:`certdp.audit.closure`: every certdp function, class and constant the
    ranges use, transitively) has the key ``def:FILE@DOTTED.NAME``.  ``definitions`` is the
    closure when the caller has computed it already; ``files`` receives the hashes of the files
    read, as in :func:`proof_fingerprints`.  Raises what :func:`proof_fingerprints` raises.
    """
    from .closure import closure  # the gate imports this module; it never needs the closure

    fingerprints, proof = proof_fingerprints(constructor, files)
    for definition in closure(constructor) if definitions is None else definitions:
        fingerprints[f"{CLOSURE_PREFIX}{definition.file}@{definition.name}"] = (
            definition.fingerprint
        )
    return fingerprints, proof


def pair_id(name: str, digest: str) -> str:
    """The id under which format 2 stores the pair ``[name, digest]``: the first 12 hex
    digits of the SHA-256 of its JSON text (an id depends on the pair alone, so vetting one
    constructor changes only its entry and the pairs it adds)."""
    return hashlib.sha256(json.dumps([name, digest]).encode()).hexdigest()[:12]


def ledger_text(entries: dict[str, Vetting]) -> str:
    """The canonical format-2 text of ``entries``: members sorted, each distinct pair once
    (only the pairs some entry uses), an entry's ids sorted and joined by single spaces into
    one string (so that decoding the file builds few objects), one field or pair per line.
    :func:`read_entries` of this text gives ``entries`` back.  Raises :class:`LedgerError`
    if two different pairs would share an id (never seen: ids have 48 bits)."""
    pairs: dict[str, list[str]] = {}
    serialised = {}
    for key in sorted(entries):
        value = asdict(entries[key])
        for member in ("fingerprints", "files"):
            ids = []
            for name, digest in value[member].items():
                ident = pair_id(name, digest)
                if pairs.setdefault(ident, [name, digest]) != [name, digest]:
                    raise LedgerError(
                        f"the pairs {pairs[ident]} and {[name, digest]} share the id {ident}",
                        parameter="ledger",
                    )
                ids.append(ident)
            value[member] = " ".join(sorted(ids))
        serialised[key] = value
    lines = ["{", '  "entries": {']
    for number, key in enumerate(sorted(serialised)):
        value = serialised[key]
        lines.append(f"    {json.dumps(key)}: {{")
        members = sorted(value)
        lines += [
            f"      {json.dumps(member)}: {json.dumps(value[member])}"
            + ("," if index < len(members) - 1 else "")
            for index, member in enumerate(members)
        ]
        lines.append("    }" + ("," if number < len(serialised) - 1 else ""))
    lines += ["  },", f'  "format": {LEDGER_FORMAT},', '  "pairs": {']
    ordered = sorted(pairs)
    lines += [
        f"    {json.dumps(ident)}: {json.dumps(pairs[ident])}"
        + ("," if index < len(ordered) - 1 else "")
        for index, ident in enumerate(ordered)
    ]
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


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
        """Record ``vetting`` under ``key`` and write the whole ledger in format 2."""
        self.entries[key] = vetting
        self.write()

    def write(self) -> None:
        """Write the ledger's entries in the canonical format-2 text (:func:`ledger_text`),
        atomically: a reader sees the old file or the new one, never a part."""
        text = ledger_text(self.entries)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, self.path)
        self.exists = True
