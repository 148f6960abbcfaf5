"""Probe records of the frame steps' SMT models (certdp.contracts.smt_rows).

Hostile strings and every value class the cast and compare code distinguishes (signs, blanks,
non-ASCII digits, underscores, hexadecimal, out-of-range integers, float spellings, NaN, signed
zeros, infinities, subnormals, booleans), and the value ``"q"``.  Three kinds of record: rows of
the contracts' frame schema (``FRAME_SCHEMA``: a String, b bool, c i32, d f64), records of
``create_dataframe`` (lists of fields) and lines of ``split_dataframe``.
"""

from __future__ import annotations

import math

__all__ = ["STRINGS", "frame_rows", "field_records", "text_lines_probe"]

#: Entries of a String column / fields of a record.
STRINGS = [
    "q", "", " ", "7", " 2", "2 ", "+1", "-0", "-3", "0", "1", "3", "03", "٣", "1_000", "0x10",
    "2147483647", "2147483648", "-2147483649", "99999999999999999999", "1.5", "-0.0", ".5",
    "5.", "1e3", "1e400", "1e-400", "5e-324", "nan", "NaN", "-nan", "inf", "-inf", "Infinity",
    "true", "false", "True", "TRUE", "\x00", "x\x00y", "a,b", '"p,q"', "a\rb", "\t1\t",
    "\u00a03", "\u200b", "é", "\ud800", "𝟙", "q" * 2000,
]  # fmt: skip
_BOOLS = [True, False]
_INTS = [3, -3, 0, 1, 2, 2**31 - 1, -(2**31)]
_FLOATS = [3.0, -0.0, 0.0, math.nan, math.inf, -math.inf, 1.5, 5e-324, -1.7976931348623157e308]


def frame_rows() -> list[tuple]:
    """Rows (a, b, c, d): every string with both flags, the other columns cycling through
    their value classes, and ``("q", flag, 3, 3.0)`` rows."""
    n = len(STRINGS)
    rows = [
        (STRINGS[i % n], _BOOLS[(i // n) % 2], _INTS[i % len(_INTS)], _FLOATS[i % len(_FLOATS)])
        for i in range(2 * n)
    ]
    return rows + [("q", True, 3, 3.0), ("q", False, 3, 3.0), ("q", True, 3, 3.0)]


def field_records() -> list[list[str]]:
    """Records of 0 to 5 fields built from the probe strings."""
    n = len(STRINGS)
    records = [[], ["q"], ["q", "q"], ["q", "q", "q", "q", "q"], [""], ["", "", ""]]
    records += [[STRINGS[i]] for i in range(n)]
    records += [[STRINGS[i], STRINGS[(i + 1) % n]] for i in range(n)]
    records += [[STRINGS[(i + k) % n] for k in range(4)] for i in range(0, n, 3)]
    return records


def text_lines_probe() -> list[str]:
    """Lines (no ``"\\n"``, no final ``"\\r"``, so each reads back as itself) of fields joined
    by ``","``, some with spaces around the separator or none."""
    lines = ["", "q", "q,q", "q,,", ",", ",,,,", " , ", "q, q", "q ,q ,q"]
    for record in field_records():
        line = ",".join(record)
        if "\n" not in line and not line.endswith("\r"):
            lines.append(line)
    return lines
