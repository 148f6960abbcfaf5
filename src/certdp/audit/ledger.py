"""The vetting ledger: which fingerprints a reviewer vetted, when, at which commit.

It is package data, ``certdp/proofs/vetting-ledger.json`` (``src/certdp/proofs/`` in a
checkout), so an installed certdp carries it; ``certdp vet`` is the only writer.  Keys are
relative to the package, so they mean the same in a checkout and in ``site-packages``.  The
freshness of a constructor compares the fingerprints recorded here with the current ones.

The file (format 3) stores each distinct ``[name, digest]`` pair once, in the list
``pairs`` sorted by name; an entry's fingerprints and file hashes are each the hexadecimal
text of the bitset of their indices in it, after the identity of the list
(:func:`_table_id`, so a bitset is never read against a list it was not written for;
:func:`ledger_text`, written only by
:meth:`Ledger.record` and :meth:`Ledger.write`).  Format 2 (the pairs an object from short
ids, an entry a string of ids) and format 1 (no member ``format``, one member per entry
holding its pairs in full) are still read, and the next write stores them in format 3.  Whatever the format, the whole file is decoded by
:func:`ledger_value` (``json.loads``, refusing an object that names a member twice) and each
entry is converted by :func:`entry_of`, for the gate and the audit alike.

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
import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import date
from functools import lru_cache
from operator import eq, itemgetter
from pathlib import Path, PurePosixPath
from stat import S_ISLNK, S_ISREG

from certdp.core.errors import DPError
from certdp.core.exact_type import types_are

from .._imported import imported_files, syntax_digest
from .discovery import ConstructorFolder, ProofText, package_root
from .fingerprint import fingerprint_range
from .path_parts import plain_parts
from .regular_file import NotRegularFile, has_digest, read_regular, read_regular_text
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
    "ledger_file_text",
    "ledger_value",
    "ledger_entries",
    "entry_of",
    "entries_of",
    "Vettings",
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

#: The format :meth:`Ledger.record` writes: an ordered list of distinct pairs, and each
#: entry's pairs as a bitset over that list (one hexadecimal string).
LEDGER_FORMAT = 3

#: The longest bitset string format 3 reads: the table's identity and a colon (17
#: characters), then enough hexadecimal digits for a table of a million pairs.
_MAX_BITS_TEXT = 250_017


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


def _file_of(key) -> str:
    """The package-relative file behind one fingerprint key: remembered (:func:`_file_of_str`)
    only for a key of the class ``str`` itself, whose string methods are ``str``'s, so the
    value remembered under a key is what these methods give for any key equal to it."""
    if type(key) is str:  # label: file-of-exact
        return _file_of_str(key)
    return _file_of_str.__wrapped__(key)


@lru_cache(maxsize=1 << 14)  # label: file-of-cache
def _file_of_str(key: str) -> str:
    """The package-relative file behind one fingerprint key (a function of the string)."""
    return (
        key.removeprefix("lemma:")
        .removeprefix(MODEL_PREFIX)
        .removeprefix(CLOSURE_PREFIX)
        .removeprefix(INIT_PREFIX)
        .split("#")[0]
        .split("@")[0]
    )


def fingerprinted_files(keys) -> list[str]:
    """The package-relative files behind fingerprint keys (code files, lemma documents and
    SMT models)."""
    return sorted(set(map(_file_of, keys)))  # label: files-of-keys


def is_closure_key(key: str) -> bool:
    return key.startswith(CLOSURE_PREFIX)


def _package_relative(key: str) -> str:
    """A fingerprint key recorded before keys were package-relative (``src/certdp/...``)."""
    prefix = "lemma:" if key.startswith("lemma:") else ""
    return prefix + key.removeprefix(prefix).removeprefix("src/certdp/")


#: The members an entry may hold (the fields of :class:`Vetting`) and the ones it must hold.
_MEMBERS = frozenset(
    ("fingerprints", "proof", "commit", "reviewer", "date", "reviewed", "files", "seal")
)
_REQUIRED = frozenset(("fingerprints", "proof", "commit", "reviewer"))
#: The members of an entry whose value is a string in every format (the others hold pairs).
_STRINGS = ("proof", "commit", "reviewer", "date", "reviewed", "seal")


def _inside(name: str) -> bool:
    """Does the fingerprint key or file path ``name`` name a file below the package: is its
    path part (:func:`fingerprinted_files`) relative, without a ``..`` part?"""
    if ".." not in name and ":/" not in name and not name.startswith("/"):  # label: quick
        return True  # no ".." anywhere, and the path part cannot start with "/"
    path = fingerprinted_files([name])[0]
    return not path.startswith("/") and ".." not in path.split("/")  # label: inside-key


def _checked_names(names, key: str) -> None:
    """Raise :class:`LedgerError`, naming the entry ``key``, unless every name is inside."""
    for name in names:
        if not _inside(name):  # label: refuse-outside
            raise LedgerError(
                f"the entry {key!r} names {name!r}, a path outside the package",
                parameter="ledger",
            )


def _members(key: str, value: dict) -> None:
    """:class:`LedgerError` naming the entry ``key`` unless its members are fields of a
    :class:`Vetting`, include the four without a default, and those of :data:`_STRINGS`
    among them are strings (the class ``str`` itself)."""
    if not (_REQUIRED <= value.keys() <= _MEMBERS):  # label: members
        raise LedgerError(
            f"the entry {key!r} must hold the members fingerprints, proof, commit and "
            "reviewer, and no member other than date, reviewed, files and seal",
            parameter="ledger",
        )
    for member in _STRINGS:
        if member in value and type(value[member]) is not str:  # label: members-strings
            raise LedgerError(
                f"the entry {key!r}: its member {member} must be a string",
                parameter="ledger",
            )


def _vetting(key: str, value: dict, fingerprints: dict, files: dict) -> Vetting:
    """The vetting of the entry ``key`` whose members are ``value`` (checked by
    :func:`_members`), with its fingerprints and files as given."""
    _members(key, value)
    return Vetting(**{**value, "fingerprints": fingerprints, "files": files})


def _pair_table(pairs: dict) -> tuple[dict, dict]:
    """A table of pairs (format 2: by id; format 3: by index), checked once: the pair
    ``[name, digest]`` of each id as a fingerprint (the name made package-relative,
    :func:`_package_relative`, as a tuple) and as a file hash (the name as stored); :class:`LedgerError` unless every pair is a list of two
    strings whose name is inside the package (:func:`_inside`)."""
    values = list(pairs.values())
    if not (
        types_are(values, list)
        and set(map(len, values)) <= {2}
        and types_are(map(itemgetter(0), values), str)
        and types_are(map(itemgetter(1), values), str)
    ):  # label: pairs-checked
        wrong = next(
            ident
            for ident, pair in pairs.items()
            if type(pair) is not list
            or len(pair) != 2
            or type(pair[0]) is not str
            or type(pair[1]) is not str
        )
        raise LedgerError(
            f"the pair {wrong!r} is not a [name, digest] pair of strings", parameter="ledger"
        )
    as_file = pairs  # each value a list [name, digest], checked above
    joined = "\n".join(map(itemgetter(0), values))
    # Unless some name has a "..", or a "/" at its start, after a ":" or after "src/certdp/"
    # (which _package_relative removes), every path, stored or made relative, is inside.
    if (
        ".." in joined
        or ":/" in joined
        or "\n/" in joined
        or joined.startswith("/")
        or "src/certdp//" in joined
    ):  # label: pairs-inside
        for ident, (name, _) in as_file.items():
            _checked_names((name, _package_relative(name)), f"pair {ident}")
    if "src/certdp/" not in joined:  # label: already-relative
        # _package_relative is the identity on every name
        return as_file, as_file
    as_fingerprint = {
        ident: (_package_relative(name), digest) for ident, (name, digest) in as_file.items()
    }
    return as_fingerprint, as_file


def _named(key: str, ids, table: dict) -> dict[str, str]:
    """The fingerprints (or file hashes) the string of pair ids ``ids`` of the entry ``key``
    stands for (ids separated by single spaces; empty for none); :class:`LedgerError` naming
    the entry unless it is a string of ids of ``table`` naming distinct names."""
    if type(ids) is not str:  # label: ids-string
        raise LedgerError(
            f"the entry {key!r}: its pairs must be a string of ids", parameter="ledger"
        )
    listed = ids.split(" ") if ids else []  # label: split
    try:
        named = dict([table[ident] for ident in listed])  # label: lookup
    except KeyError as missing:
        raise LedgerError(
            f"the entry {key!r} names the pair id {missing.args[0]!r}, which the ledger lacks",
            parameter="ledger",
        ) from None
    if len(named) != len(listed):  # label: distinct
        raise LedgerError(f"the entry {key!r} names a fingerprint twice", parameter="ledger")
    return named


def _format_1(key: str, value) -> Vetting:
    """The vetting of a format-1 entry: its dictionaries in full, fingerprint keys made
    package-relative; :class:`LedgerError` naming the entry for another shape."""
    if (
        type(value) is not dict
        or type(value.get("fingerprints")) is not dict
        or type(value.get("files", {})) is not dict
    ):
        raise LedgerError(
            f"the entry {key!r} is not an object with objects fingerprints and files",
            parameter="ledger",
        )
    fingerprints = {_package_relative(k): v for k, v in value["fingerprints"].items()}
    files = value.get("files", {})
    _checked_names(value["fingerprints"].keys() | fingerprints.keys() | files.keys(), key)
    return _vetting(key, value, fingerprints, dict(files))


def _shared(table: dict) -> frozenset:
    """The ids of ``table`` (id to ``(name, digest)``) whose name another id has too."""
    counts = Counter(name for name, _ in table.values())
    if len(counts) == len(table):  # every name once
        return frozenset()
    return frozenset(ident for ident, (name, _) in table.items() if counts[name] > 1)


def _checked_ids(key: str, ids, table: dict, known: frozenset, shared: frozenset) -> None:
    """Raise as :func:`_named` would on the entry ``key``'s string of pair ids, without
    building its dictionary: it must be a string of ids of ``table`` (whose keys are
    ``known``) naming distinct names (two ids can name one name only when both are in
    ``shared``)."""
    if type(ids) is not str:  # label: ids-checked
        raise LedgerError(
            f"the entry {key!r}: its pairs must be a string of ids", parameter="ledger"
        )
    listed = ids.split(" ") if ids else []
    unique = set(listed)
    if not unique.issubset(known):  # label: ids-known
        missing = min(unique - known)
        raise LedgerError(
            f"the entry {key!r} names the pair id {missing!r}, which the ledger lacks",
            parameter="ledger",
        )
    both = unique & shared
    if len(unique) != len(listed) or len({table[i][0] for i in both}) != len(both):  # label: once
        raise LedgerError(f"the entry {key!r} names a fingerprint twice", parameter="ledger")


def _table_id(pairs: list) -> str:
    """The identity of a format-3 list of ``[name, digest]`` pairs of strings: the first 16
    hexadecimal digits of the SHA-256 of a text the list can be read back from (so two lists
    with one identity are one list but for a collision of 64 bits).  The text is ``0`` and
    the list's strings joined by NUL when that is ASCII and holds exactly ``2n - 1`` NULs
    (no string holds one: splitting gives the strings back), else ``1`` and the list's
    compact JSON text.  Every bitset of the file starts with it (:func:`_bits`), so a bitset
    written against another list is refused rather than read against this one."""
    joined = "\0".join(itertools.chain.from_iterable(pairs))  # label: table-joined
    if joined.isascii() and joined.count("\0") == 2 * len(pairs) - 1:  # label: table-plain
        text = "0" + joined
    else:  # label: table-json
        text = "1" + json.dumps(pairs, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]  # label: table-id


def _bits(key: str, text, size: int, masks: tuple | list, table: str) -> int:
    """The bitset a format-3 entry ``key`` stores as ``text``: :class:`LedgerError` naming
    the entry unless ``text`` is a string of at most :data:`_MAX_BITS_TEXT` characters,
    ``table`` (the identity of the file's list of pairs, :func:`_table_id`), ``:`` and the
    canonical lower-case hexadecimal text of an integer (``format(bits, "x")``: no sign,
    prefix, ``_``, space or leading zero; ``"0"`` for none) whose set bits are indices of a
    table of ``size`` pairs, no two of them pairs with one name (``masks``, :func:`_run_masks`)."""
    if type(text) is not str or len(text) > _MAX_BITS_TEXT:  # label: bits-string
        raise LedgerError(
            f"the entry {key!r}: its pairs must be a string of at most {_MAX_BITS_TEXT} "
            "characters: the table's identity, a colon and a hexadecimal bitset",
            parameter="ledger",
        )
    if text[:17] != table + ":":  # label: bits-table
        raise LedgerError(
            f"the entry {key!r}: its pairs were written against another table of pairs "
            "(a textual merge of two ledgers, say): take one side's ledger and run certdp "
            "vet again for the other side's constructors",
            parameter="ledger",
        )
    digits = text[17:]
    try:
        bits = int(digits, 16)  # label: bits-int
    except ValueError:
        bits = -1
    if bits < 0 or format(bits, "x") != digits:  # label: bits-canonical
        raise LedgerError(
            f"the entry {key!r}: its pairs are not the canonical lower-case hexadecimal "
            "text of a bitset",
            parameter="ledger",
        )
    if bits >> size:  # label: bits-known
        raise LedgerError(
            f"the entry {key!r} names the pair {bits.bit_length() - 1}, which the ledger lacks",
            parameter="ledger",
        )
    if _named_twice(bits, masks):  # label: bits-once
        raise LedgerError(f"the entry {key!r} names a fingerprint twice", parameter="ledger")
    return bits


def _run_masks(table: dict) -> tuple[int, ...] | list[str]:
    """How :func:`_bits` finds two pairs with one name in a bitset over ``table`` (index to
    ``(name, digest)``).  In the writer's order (indices ``0..n-1``, names sorted, so the
    pairs of a name are adjacent): the masks ``M_1, M_2, M_4, ...``, bit ``i`` of ``M_s``
    set exactly when the names at ``i - s`` and ``i`` are equal, as many as the longest run
    of one name needs (``O(n log r)`` to build, for runs of at most ``r`` pairs).  For any
    other table: the list of its names, each bitset then expanded (time linear in its
    text)."""
    names = list(map(itemgetter(0), table.values()))
    if list(table) != list(range(len(names))) or names != sorted(names):  # label: sorted-names
        return names
    masks = []
    shift = 1
    while shift < len(names):
        same = bytes(map(eq, names[shift:], names))  # byte k is 1 iff names[k + shift] == names[k]
        if 1 not in same:  # no name has more than `shift` pairs
            break
        masks.append(int(same[::-1].translate(_BINARY), 2) << shift)  # label: shift-mask
        shift *= 2
    return tuple(masks)


def _named_twice(bits: int, masks: tuple[int, ...] | list[str]) -> bool:
    """Do two set bits of ``bits`` name one name (``masks`` from :func:`_run_masks`)?"""
    if type(masks) is list:  # label: twice-by-names
        listed = [masks[index] for index in _indices(bits)]
        return len(set(listed)) != len(listed)
    # seen: bit i set iff some set bit j <= i names the name at i (a prefix OR within each
    # run of one name, doubling its reach at every mask)
    seen = bits
    for step, mask in enumerate(masks):
        seen |= (seen << (1 << step)) & mask  # label: twice-prefix
    return bool(masks) and bool(bits & (seen << 1) & masks[0])  # label: twice-sorted


#: The table turning the bytes 0 and 1 into the digits "0" and "1".
_BINARY = bytes.maketrans(b"\x00\x01", b"01")


def _indices(bits: int) -> list[int]:
    """The indices of the set bits of the non-negative ``bits``, lowest first (read from
    its reversed binary text, in time linear in that text)."""
    binary = bin(bits)[:1:-1]  # bit 0 first  # label: indices
    return [index for index, bit in enumerate(binary) if bit == "1"]


def _expanded(bits: int, table: dict) -> dict[str, str]:
    """The dictionary of the pairs of ``table`` whose indices are set in ``bits``."""
    return dict([table[index] for index in _indices(bits)])


class Vettings(Mapping):
    """The vettings of a format-2 or format-3 ledger whose every entry has been checked
    (:func:`entries_of`); an entry is converted into a new :class:`Vetting` (by
    :func:`_named` or :func:`_expanded`, and :func:`_vetting`) when it is looked up."""

    def __init__(self, entries: dict, as_fingerprint: dict, as_file: dict, bits=None):
        self._entries, self._fingerprint, self._file = entries, as_fingerprint, as_file
        #: format 3: the checked bitsets of each entry's fingerprints and files, by key
        self._bits = bits

    def __getitem__(self, key: str) -> Vetting:
        value = self._entries[key]  # label: lookup-entry
        if self._bits is not None:  # label: lookup-bits
            fingerprint_bits, file_bits = self._bits[key]
            return _vetting(
                key,
                value,
                _expanded(fingerprint_bits, self._fingerprint),
                _expanded(file_bits, self._file),
            )
        return _vetting(
            key,
            value,
            _named(key, value["fingerprints"], self._fingerprint),
            _named(key, value.get("files", ""), self._file),
        )

    def __iter__(self):
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def entries_of(raw) -> Mapping[str, Vetting]:
    """Every vetting a ledger's JSON value records, by constructor key; :class:`LedgerError`
    unless its shape (:func:`ledger_entries`), its table of pairs and every entry are of a
    format this certdp reads.  The gate and the audit both read a ledger through this
    function (:func:`read_ledger`), so one bad entry makes both refuse the whole ledger.  In
    formats 2 and 3 every entry is checked here and converted when looked up
    (:class:`Vettings`)."""
    entries, pairs = ledger_entries(raw)  # label: shape
    if pairs is None:  # label: format-1-entries
        return {key: _format_1(key, value) for key, value in entries.items()}
    if type(pairs) is list:  # label: format-3-entries
        return _format_3(entries, pairs)
    as_fingerprint, as_file = _pair_table(pairs)  # label: table
    shared_fingerprint, shared_file = _shared(as_fingerprint), _shared(as_file)
    known = frozenset(pairs)
    for key, value in entries.items():  # label: every-entry
        if type(value) is not dict:
            raise LedgerError(f"the entry {key!r} is not an object", parameter="ledger")
        _members(key, value)
        _checked_ids(key, value["fingerprints"], as_fingerprint, known, shared_fingerprint)
        _checked_ids(key, value.get("files", ""), as_file, known, shared_file)
    return Vettings(entries, as_fingerprint, as_file)  # label: checked


def _format_3(entries: dict, pairs: list) -> Vettings:
    """The vettings of a format-3 ledger: the list of pairs checked once as in format 2
    (:func:`_pair_table`, by index), and every entry's members and both bitsets checked
    (:func:`_bits`: written against this list, pairs of it, no name twice)."""
    size = len(pairs)
    as_fingerprint, as_file = _pair_table(dict(enumerate(pairs)))  # label: table-3
    table = _table_id(pairs)  # label: table-3-id
    masks_fingerprint = _run_masks(as_fingerprint)
    masks_file = masks_fingerprint if as_file is as_fingerprint else _run_masks(as_file)
    bits = {}
    for key, value in entries.items():  # label: every-entry-3
        if type(value) is not dict:
            raise LedgerError(f"the entry {key!r} is not an object", parameter="ledger")
        _members(key, value)
        bits[key] = (
            _bits(key, value["fingerprints"], size, masks_fingerprint, table),
            _bits(key, value.get("files", f"{table}:0"), size, masks_file, table),
        )
    return Vettings(entries, as_fingerprint, as_file, bits)  # label: checked-3


def ledger_file_text(package: Path) -> str | None:
    """The text of ``package``'s ledger file, read by the regular-file reader (its name not
    followed, never blocking), or ``None`` when no regular file is there (none, a path
    through a non-folder, a symbolic link, FIFO, folder, ...); :class:`LedgerError` when its
    bytes are not UTF-8 text."""
    try:
        return read_regular_text(package / LEDGER_PATH)  # label: read-ledger-file
    except (FileNotFoundError, NotADirectoryError, NotRegularFile):  # label: no-ledger
        return None
    except UnicodeDecodeError as error:  # label: not-utf8
        raise LedgerError(
            f"the ledger must be UTF-8 text, and is not ({type(error).__name__}: {error})",
            parameter="ledger",
        ) from None


def _one_each(members: list) -> dict:
    """The JSON object of the ``(name, value)`` ``members`` as ``json.loads`` builds it,
    or :class:`LedgerError` when a name is there twice (``json.loads`` alone keeps the
    last, so a hand-merged entry could hide the other side's value)."""
    value = dict(members)
    if len(value) != len(members):  # label: member-twice
        names = Counter(name for name, _ in members)
        twice = sorted(name for name, count in names.items() if count > 1)
        raise LedgerError(f"the ledger names the member {twice[0]!r} twice in one object",
                          parameter="ledger")  # fmt: skip
    return value


#: The longest integer text a ledger holds (its ``format``; the writer writes no other).
_MAX_INTEGER_DIGITS = 18


def _short_int(digits: str) -> int:
    """The integer of a JSON number text without fraction or exponent, as ``json.loads``
    reads it, or :class:`LedgerError` when it has more than :data:`_MAX_INTEGER_DIGITS`
    characters: far below ``int``'s digit limit at any setting, so whether a ledger is
    refused does not depend on ``sys.set_int_max_str_digits``."""
    if len(digits) > _MAX_INTEGER_DIGITS:  # label: integer-long
        raise LedgerError(
            f"the ledger holds an integer of {len(digits)} characters (at most "
            f"{_MAX_INTEGER_DIGITS})",
            parameter="ledger",
        )
    return int(digits)


def ledger_value(text: str | None):
    """The JSON value of a ledger's ``text`` (``{}`` for ``None``, no ledger):
    :class:`LedgerError` when the text is not JSON (a conflicted merge's markers, say: the
    decoder's message says where), when decoding it meets Python's recursion limit (a text
    nested too deep, or a caller already deep in its stack), when it holds an integer of
    more than :data:`_MAX_INTEGER_DIGITS` characters, or when an object names a member
    twice."""
    if text is None:
        return {}
    try:
        hooks = {"object_pairs_hook": _one_each, "parse_int": _short_int}
        return json.loads(text, **hooks)  # label: json-value
    except RecursionError:  # label: too-deep
        raise LedgerError(
            "the ledger could not be decoded within Python's recursion limit (a text nested "
            "too deep, or a call made from deep in the stack)",
            parameter="ledger",
        ) from None
    except ValueError as error:  # label: not-json
        # JSONDecodeError is a ValueError; LedgerError is not one, so the refusals of
        # _one_each and _short_int pass through unchanged
        raise LedgerError(
            f"the ledger is not JSON ({type(error).__name__}: {error}); if a merge left "
            "conflict markers, take one side's ledger and run certdp vet again for the "
            "other side's constructors",
            parameter="ledger",
        ) from None


def read_ledger(package: Path) -> Mapping[str, Vetting]:
    """The vettings of ``package``'s ledger (none if it has none): the whole file decoded by
    :func:`ledger_value` and every entry converted by :func:`entries_of`."""
    raw = ledger_value(ledger_file_text(package))  # label: json
    return entries_of(raw)  # label: convert


def ledger_entries(raw) -> tuple[dict, dict | list | None]:
    """The entries of a ledger's JSON value by key, and its table of pairs (``None`` in
    format 1, an object in format 2, a list in format 3).  Formats 2 and 3 are objects with
    exactly the members ``format`` (the integer 2 or 3), ``entries`` (an object) and
    ``pairs`` (an object in format 2, a list in format 3); an object without ``format`` is
    format 1, every member an entry.  Anything else raises :class:`LedgerError`."""
    if type(raw) is not dict:  # label: object
        raise LedgerError("the ledger is not a JSON object", parameter="ledger")
    if "format" not in raw:  # label: format-1
        return raw, None
    if (
        type(raw["format"]) is not int
        or raw.keys() != {"format", "entries", "pairs"}
        or type(raw["entries"]) is not dict
        or not (
            (raw["format"] == 2 and type(raw["pairs"]) is dict)
            or (raw["format"] == 3 and type(raw["pairs"]) is list)
        )
    ):  # label: format-2
        raise LedgerError(
            "not a ledger of format 2 or 3: it must hold exactly the members format (2 or "
            "3), entries (an object) and pairs (an object in format 2, a list in format 3)",
            parameter="ledger",
        )
    return raw["entries"], raw["pairs"]


def entry_of(raw, key: str) -> Vetting | None:
    """The vetting recorded under ``key`` in a ledger's JSON value, or ``None``; raises as
    :func:`entries_of` (every entry is converted)."""
    return entries_of(raw).get(key)


def read_entries(package: Path) -> dict[str, Vetting]:
    """The vettings recorded in ``package``'s ledger, by constructor key (none if it has no
    ledger): :func:`read_ledger`, the function the gate reads the ledger with, every entry
    converted."""
    return dict(read_ledger(package))


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
        data = read_regular(path)  # label: read-once
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
    ``False`` before any file is read.  Each file is a regular file checked by
    :func:`certdp.audit.regular_file.has_digest` (a FIFO, device, folder or link is ``False``
    without being read; opening never blocks)."""
    package = str(constructor.package.resolve())
    if constructor.relative(constructor.proof) not in files:  # label: starts-at-proof
        return False
    checked: set[str] = set()
    for key, digest in files.items():
        exact = type(key) is str and type(package) is str  # label: paths-exact
        below = _paths_below if exact else _paths_below.__wrapped__
        paths = below(package, key)  # label: paths-below
        if paths is None:  # label: inside
            return False
        *folders, path = paths
        for folder in folders:
            if folder not in checked:
                if is_a(folder, S_ISLNK, follow=False):  # label: no-link
                    return False
                checked.add(folder)
        if not has_digest(path, digest):  # label: same-bytes-file
            return False
    return True


@lru_cache(maxsize=1 << 14)  # label: paths-cache
def _paths_below(package: str, key: str) -> tuple[str, ...] | None:
    """The strings of the paths from the package folder ``package`` down to the file ``key``
    (package-relative): each folder between them, then the file, each built as
    ``os.path.join(package, *parts[:depth])`` of the parts of ``PurePosixPath(key)`` (split
    without ``pathlib`` for a plain key, :func:`plain_parts`); ``None`` for an absolute key,
    one with a ``..`` part or an empty one.  A function of its two strings; called through
    the cache only for strings of the class ``str`` itself (``package`` is ``str()`` of a
    path, ``key`` is tested at the call)."""
    parts = plain_parts(key)  # label: paths-plain
    if parts is None:  # label: paths-pathlib
        relative = PurePosixPath(key)
        parts = relative.parts
        if relative.is_absolute():
            return None
    if ".." in parts or not parts:
        return None
    joined = (os.path.join(package, *parts[:depth]) for depth in range(1, len(parts) + 1))
    return tuple(joined)  # label: path-strings


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


def _writable(key, vetting) -> None:
    """Raise :class:`LedgerError`, naming the entry, unless :func:`read_ledger` reads the
    entry ``key`` written for ``vetting`` back as ``vetting``: a string key, a
    :class:`Vetting` of strings, its fingerprints and files dictionaries of strings naming
    files inside the package, the fingerprint keys already package-relative."""
    if (
        type(key) is not str
        or type(vetting) is not Vetting
        or not all(type(getattr(vetting, member)) is str for member in _STRINGS)
        or type(vetting.fingerprints) is not dict
        or type(vetting.files) is not dict
        or not all(
            type(name) is str and type(digest) is str
            for table in (vetting.fingerprints, vetting.files)
            for name, digest in table.items()
        )
    ):
        raise LedgerError(
            f"the entry {key!r} is not a vetting of strings: re-vet it to replace it "
            "(certdp vet and certdp vet --migrate drop such an entry when it names no "
            "constructor of the package)",
            parameter="ledger",
        )
    if any(_package_relative(name) != name for name in vetting.fingerprints):
        raise LedgerError(
            f"the entry {key!r} has a fingerprint key that is not package-relative",
            parameter="ledger",
        )
    _checked_names(vetting.fingerprints.keys() | vetting.files.keys(), key)


def ledger_text(entries: dict[str, Vetting], kept: list | None = None) -> str:
    """The canonical format-3 text of ``entries``: members sorted, the pairs a list sorted
    by name and digest (each distinct pair once, so the pairs of one name are adjacent and
    the reader's check of distinct names takes a few masks, :func:`_run_masks`), an entry's
    fingerprints and files each the list's identity (:func:`_table_id`), ``:`` and the
    lower-case hexadecimal text of the bitset of its pairs' indices (``"0"`` for none), one
    field or pair per line.  The list holds the pairs some entry uses and, when given, every
    pair of ``kept`` (the pairs of the file being rewritten: a pair is dropped only by
    ``certdp vet --migrate``).  Any change of the list changes every bitset line, so a
    line-wise merge of two branches' ledgers either conflicts or holds only bitsets written
    against the merged list, the others refused (gate.tex, the writer's rule (c)); take one
    side and vet the other's rows again.  Raises :class:`LedgerError`, naming the entry, for an
    entry :func:`read_ledger` would not read back as given (:func:`_writable`); otherwise
    :func:`read_ledger` of this text gives ``entries`` back."""
    values = {}
    for key in sorted(entries):
        _writable(key, entries[key])
        values[key] = asdict(entries[key])
    distinct = {(name, digest) for name, digest in (kept or [])}
    for value in values.values():
        for member in ("fingerprints", "files"):
            distinct.update(value[member].items())
    pairs = sorted(distinct)
    index = {pair: number for number, pair in enumerate(pairs)}
    table = _table_id([list(pair) for pair in pairs])
    serialised = {}
    for key, value in values.items():
        for member in ("fingerprints", "files"):
            bits = 0
            for pair in value[member].items():
                bits |= 1 << index[pair]
            value[member] = f"{table}:{format(bits, 'x')}"
        serialised[key] = value
    lines = ["{", '  "entries": {']
    for number, key in enumerate(sorted(serialised)):
        value = serialised[key]
        lines.append(f"    {json.dumps(key)}: {{")
        members = sorted(value)
        lines += [
            f"      {json.dumps(member)}: {json.dumps(value[member])}"
            + ("," if index_ < len(members) - 1 else "")
            for index_, member in enumerate(members)
        ]
        lines.append("    }" + ("," if number < len(serialised) - 1 else ""))
    lines += ["  },", f'  "format": {LEDGER_FORMAT},', '  "pairs": [']
    lines += [
        f"    {json.dumps(list(pair))}" + ("," if number < len(pairs) - 1 else "")
        for number, pair in enumerate(pairs)
    ]
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def _kept_pairs(pairs) -> list:
    """The pairs of a ledger file's table as the list :func:`ledger_text` keeps: a format-3
    list as it is, a format-2 table in the order of its ids, none for format 1."""
    if pairs is None:
        return []
    if type(pairs) is list:
        return [list(pair) for pair in pairs]
    return [list(pairs[ident]) for ident in sorted(pairs)]


class Ledger:
    """The ledger file of a package (default: the package in use), read and written whole."""

    def __init__(self, package: Path | None = None):
        package = package or package_root()
        self.package = package
        self.path = package / LEDGER_PATH
        text = ledger_file_text(package)  # the gate's reading of the same file
        self.exists = text is not None
        raw = ledger_value(text)
        self.entries = dict(entries_of(raw))
        #: The pairs of the file as read, in order (:func:`_kept_pairs`), kept by
        #: :meth:`record`.
        self.pairs = _kept_pairs(ledger_entries(raw)[1])
        #: The keys of the entries the last write dropped (:meth:`_unwritable_orphans`).
        self.dropped: tuple[str, ...] = ()

    def get(self, key: str) -> Vetting | None:
        return self.entries.get(key)

    def record(self, key: str, vetting: Vetting) -> None:
        """Record ``vetting`` under ``key`` and write the whole ledger in format 3, keeping
        every pair the file held (so a merge with another branch's ledger keeps the pairs
        either side names); nothing is written unless the new text reads back as the
        entries."""
        self.entries = self._write({**self.entries, key: vetting}, self.pairs)

    def write(self) -> None:
        """Write the ledger's entries in the canonical format-3 text (:func:`ledger_text`)
        with only the pairs they use (``certdp vet --migrate``)."""
        self.entries = self._write(self.entries, None)

    def _unwritable_orphans(self, entries: dict[str, Vetting]) -> tuple[str, ...]:
        """The keys of ``entries`` that name no constructor or audited lemma folder of the
        package and could not be written back (:func:`_writable`: an old format-1 entry
        with, say, a numeric digest): no ``certdp vet`` can replace them, so they are
        dropped rather than blocking every write."""
        from .discovery import discover

        known = {item.key for item in discover(self.package)}
        orphans = []
        for key in sorted(entries.keys() - known):
            try:
                _writable(key, entries[key])
            except LedgerError:
                orphans.append(key)
        return tuple(orphans)

    def _refuse_non_regular(self) -> None:
        """Raise :class:`LedgerError` when something that is not a regular file (a symbolic
        link, FIFO, folder, ...) is at the ledger's path: the reader took it for no ledger,
        so writing would start from no entries and replace it, losing the vettings it
        leads to.  Nothing there (or a regular file) passes."""
        try:
            mode = os.lstat(self.path).st_mode
        except FileNotFoundError:
            return
        if not S_ISREG(mode):
            raise LedgerError(
                f"{self.path} exists but is not a regular file (a symbolic link, FIFO or "
                "folder, say): it is read as no ledger, so writing would replace it and lose "
                "its vettings; replace it with a regular file (or remove it) first",
                parameter="ledger",
            )

    def _write(self, entries: dict[str, Vetting], kept: dict | None) -> dict[str, Vetting]:
        """Write ``entries`` atomically (a reader sees the old file or the new one, never a
        part), and only when the text reads back as them: it is written to a temporary
        file, read back from it, and only then replaces the ledger (``os.replace``);
        otherwise :class:`LedgerError`, the ledger left as it was.  Entries of
        :meth:`_unwritable_orphans` are left out (their keys in :attr:`dropped`); returns
        the entries written."""
        self._refuse_non_regular()
        self.dropped = self._unwritable_orphans(entries)
        entries = {key: value for key, value in entries.items() if key not in self.dropped}
        text = ledger_text(entries, kept)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(
            f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp"
        )
        try:
            temporary.write_text(text, encoding="utf-8")
            back = dict(entries_of(ledger_value(temporary.read_text(encoding="utf-8"))))
            if back != entries:
                raise LedgerError(
                    "the rewritten ledger does not read back as the same vettings; "
                    "the ledger is unchanged",
                    parameter="ledger",
                )
            os.replace(temporary, self.path)
        finally:
            temporary.unlink(missing_ok=True)
        self.pairs = _kept_pairs(ledger_entries(ledger_value(text))[1])
        self.exists = True
        return entries
