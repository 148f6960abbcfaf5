"""``make_split_dataframe``: split a text into lines, each line into fields, and load them
into a frame of String columns.

Guarantee (make_split_dataframe.tex): the lines are Rust's ``str::lines`` of the text
(core/metrics.tex), the fields those of ``make_split_records`` and the frame that of
``make_create_dataframe``, as in OpenDP 0.16; the rows of the frame are a row map of the lines,
so ``d_in -> d_in`` is a valid stability map under the symmetric distance.
"""

from __future__ import annotations

import gc
import re
from itertools import repeat

from certdp.contracts import certified
from certdp.core.dataframe_domain import DataFrameDomain, _record_members
from certdp.core.domains import atom_domain
from certdp.core.errors import MakeTransformationError, type_mismatch
from certdp.core.metrics import symmetric_distance, text_lines
from certdp.core.transformation import Transformation
from certdp.transformations.create_dataframe.make_create_dataframe import (
    column_names,
    frame_of_fields,
    frame_of_records,
)
from certdp.transformations.split_records.make_split_records import (
    RUST_WHITESPACE,
    split_fields,
)

__all__ = ["make_split_dataframe"]


# proof: begin constructor
#: Finds a character ``split_fields`` trims other than the line break ``"\n"`` (a text without
#: one has lines that need no trimming).
_OTHER_WHITESPACE = re.compile(
    "[" + re.escape(RUST_WHITESPACE.replace("\n", "")) + "]"
).search  # label: other-whitespace
#: Those of them that are ASCII characters (the only ones an ASCII text can hold).
_ASCII_WHITESPACE = [c for c in RUST_WHITESPACE if c.isascii() and c != "\n"]  # label: ascii-ws


def _untrimmed(text: str, separator: str) -> bool:
    """Is ``separator`` not empty and does ``text`` hold no character of ``RUST_WHITESPACE``
    other than the line break?"""
    if not separator:
        return False  # label: untrimmed-empty
    if text.isascii():
        return not any(c in text for c in _ASCII_WHITESPACE)  # label: untrimmed-ascii
    return _OTHER_WHITESPACE(text) is None  # label: untrimmed-search


@certified
def make_split_dataframe(separator, col_names, K=None) -> Transformation:
    """Split a text into lines and each line at ``separator`` (``None`` for ``","``) into
    trimmed fields, loaded as rows of String columns ``col_names``; stability ``d_in -> d_in``."""
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
    K, names = column_names(col_names, K)  # label: names

    def function(text):
        # the closure cell, read once: code holding the function can rebind it between calls
        sep = separator  # label: sep-read
        collecting = gc.isenabled()  # label: gc-pause
        gc.disable()  # millions of new lists would start a full collection again and again
        try:
            untrimmed = _untrimmed(text, sep)  # label: untrimmed
            if untrimmed:  # no "\r": the lines are the pieces between line breaks
                lines = text.split("\n")  # label: lines-plain
                if not lines[-1]:
                    lines.pop()  # label: lines-plain-last
            else:
                lines = text_lines(text)  # label: lines
            width = len(names)
            if (
                untrimmed
                and len(sep) == 1
                and set(map(str.count, lines, repeat(sep))) == {width - 1}
            ):  # label: full-lines
                flat = sep.join(lines).split(sep)  # label: flat
                fields = [tuple(flat[i::width]) for i in range(width)]  # label: flat-columns
                frame = frame_of_fields(fields, len(lines), K, names)  # label: flat-frame
                exact = type(text) is str and type(sep) is str
                return _record_members(frame) if exact else frame  # label: flat-members
            if untrimmed:
                records = [line.split(sep) for line in lines]  # label: split-untrimmed
            else:
                records = [split_fields(line, sep) for line in lines]  # label: function
            frame = frame_of_records(records, K, names)
            exact = type(text) is str and type(sep) is str
            return _record_members(frame) if exact else frame  # label: frame
        finally:
            if collecting:
                gc.enable()  # label: gc-resume

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=atom_domain(T="String"),
        output_domain=DataFrameDomain(K),  # label: output-domain
        function=function,
        input_metric=symmetric_distance(),
        output_metric=symmetric_distance(),
        stability_map=stability_map,
    )


# proof: end constructor
