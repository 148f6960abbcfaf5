"""Hostile values shared by the cast tests, and OpenDP 0.16's casts of them (when installed)."""

import math
import struct

import pytest

#: Texts that probe every rule of Rust's integer and float grammars.
HOSTILE_TEXTS = [
    "1", " 1", "1 ", "\t1", "1\n", "", "+", "-", ".", "+-1", "1e3", "1E3", "1e+3", "1e-3",
    "1e", "e5", "0x10", "0b1", "1_000", "1,5", "\u0661", "\uff11", "\u00b2", "+1", "-0",
    "-0.0", "00012", "1.5", ".5", "5.", "-.5", "1.0", "nan", "NaN", "NAN", "-nan", "+nan",
    "snan", "inf", "-inf", "+inf", "inF", "infinity", "Infinity", "true", "True", "false",
    "TRUE", "yes", "128", "-129", "255", "256", "4294967296", "-2147483649",
    "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "0" * 5000 + "7", "1" * 5000, "-" + "0" * 100, "3.4e38", "1e39", "0.1e400", "1e-400",
    "1e-50", "1.7976931348623157e308", "1.7976931348623159e308", "3.4028235e38",
    "3.4028236e38", "3.4028235677973366e38", "340282356779733661637539395458142568448",
    "7.006492321624085354618647916449580656402e-46", "1.000000059604644775390625",
    "1.00000005960464477539062500001", "1.00000017881393432617187499999",
    # Unicode letters that case-fold to an ASCII letter of inf/infinity/nan (the Turkish
    # dotless and dotted i, the Kelvin sign), look-alikes and Unicode spaces, signs, numerals.
    "\u0131nf", "\u0130nf", "-\u0131nfinity", "+INF\u0130NITY", "\u0130nf\u0131n\u0131ty",
    "\u0131nfinity", "na\u0131", "\u212anan", "n\u0430n", "\uff49\uff4e\uff46", "\u00a01",
    "1\u2003", "\u22121", "\u2160", "\u0661\u0662", "1\u00b2", "\u0661e3", "1e\u0663",
    "1.\u0665", "\ufeff1", "1\u200b",
]  # fmt: skip

FLOATS = [
    math.nan, math.inf, -math.inf, 0.0, -0.0, 1.5, -1.5, 2.5, 0.1, 1e-310, 5e-324, 1e300,
    2147483647.5, 2147483648.0, -2147483649.0, 4294967295.9, 3.5e38, 1e22, 1e-7,
    1.7976931348623157e308, 9.223372036854775807e18, 2.9802322387695312e-08,
]  # fmt: skip
FLOATS32 = [struct.unpack("<f", struct.pack("<f", v))[0] for v in FLOATS if not abs(v) > 3.4e38] + [
    2346804.25,
    0.000244140625,
    1.401298464324817e-45,
]
INTEGERS = [0, 1, -1, 2**31, -(2**31) - 1, 2**53 + 1, 2**63 - 1, -(2**63), 16777217]

#: Types OpenDP 0.16 casts between.
TYPES = ("i32", "u32", "i64", "u64", "f32", "f64", "bool", "String")

SAMPLES = {
    "f64": FLOATS, "f32": FLOATS32, "i64": INTEGERS, "bool": [True, False],
    "String": HOSTILE_TEXTS, "i32": [0, -5, 2**31 - 1], "u64": [0, 2**64 - 1, 2**32],
}  # fmt: skip


def same(a, b) -> bool:
    """The same value: floats by bit pattern (all NaNs alike), others by type and value."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a.hex() == b.hex()
    return type(a) is type(b) and a == b


def _opendp():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    return odp


def _their_domain(odp, T):
    element = odp.atom_domain(T=T, nan=True) if T.startswith("f") else odp.atom_domain(T=T)
    return odp.vector_domain(element)


def opendp_cast_default(T, TOA, data):
    odp = _opendp()
    return odp.t.make_cast_default(_their_domain(odp, T), odp.symmetric_distance(), TOA=TOA)(data)


def opendp_cast(T, TOA, data):
    """OpenDP's make_cast of ``data``, with ``None`` where it gives no value (its Python API
    cannot return a vector of options: null-ness and values are read through make_is_null and
    make_impute_constant)."""
    odp = _opendp()
    cast = odp.t.make_cast(_their_domain(odp, T), odp.symmetric_distance(), TOA=TOA)
    nulls = (cast >> odp.t.then_is_null())(data)
    sentinel = {"bool": True, "String": "-"}.get(TOA, 7.0 if TOA.startswith("f") else 7)
    values = (cast >> odp.t.then_impute_constant(sentinel))(data)
    return [None if null else value for null, value in zip(nulls, values)]
