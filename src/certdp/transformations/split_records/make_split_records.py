"""``make_split_records``: split each line of a vector of strings at ``separator``.

Guarantee (make_split_records.tex): each record becomes the list of its fields, in order, each
with the white space at both ends removed, exactly as OpenDP (Rust's ``str::split`` then
``str::trim``) does; no line is refused, whatever its content (ragged, empty, quoted, huge); the
transformation is a row map, so ``d_in -> d_in`` is a valid stability map under the symmetric
distance (transformations/_rowmap/rowmap.tex).
"""

from __future__ import annotations

import re

from certdp.contracts import certified
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import MakeTransformationError, type_mismatch
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_split_records", "split_fields"]


# proof: begin constructor
#: The characters of Unicode's White_Space property, which Rust's ``str::trim`` removes (Python's
#: ``str.strip()`` would also remove U+001C..U+001F, which Rust and OpenDP keep).
RUST_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)  # label: whitespace


#: Finds a character of ``RUST_WHITESPACE`` (a line without one has nothing to trim).
_WHITESPACE_SEARCH = re.compile("[" + re.escape(RUST_WHITESPACE) + "]").search  # label: search


def split_fields(line: str, separator: str) -> list[str]:
    """The fields of ``line``: Rust's ``line.split(separator)`` (an empty separator splits
    before and after every character), each field trimmed of white space at both ends."""
    pieces = line.split(separator) if separator else ["", *line, ""]  # label: split
    if _WHITESPACE_SEARCH(line) is None:  # label: no-whitespace
        return pieces
    return [piece.strip(RUST_WHITESPACE) for piece in pieces]  # label: trim


@certified
def make_split_records(separator) -> Transformation:
    """Split each line at ``separator`` into trimmed fields (OpenDP's rule, no quoting);
    ``None`` stands for ``","``, as in OpenDP.  Stability ``d_in -> d_in`` under the symmetric
    distance."""
    if separator is None:  # label: separator-default
        separator = ","
    if type(separator) is not str:  # label: separator-type
        raise type_mismatch(MakeTransformationError)(
            f'must be a str (or None for ","), not {type(separator).__name__}',
            parameter="separator",
        )
    if "\x00" in separator:  # label: separator-nul
        raise MakeTransformationError(
            "must not contain the NUL character (OpenDP would cut the separator there)",
            parameter="separator",
        )

    def split(line):
        return split_fields(line, separator)  # label: row

    return make_row_by_row(  # label: row-by-row
        vector_domain(atom_domain(T="String")),
        vector_domain(atom_domain(T="String")),
        symmetric_distance(),
        split,
    )


# proof: end constructor
