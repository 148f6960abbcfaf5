"""SMT model of ``make_cast_default`` and its bounded theorem.

Model of one record (``_cast_value`` in make_cast_default.py), per (input type, TOA): IEEE
``fpRoundToIntegral`` towards zero and a range test before ``fpToSBV``/``fpToUBV`` (floats to
integers, 0 for NaN, infinities and out-of-range values); ``fpToFP`` with round-to-nearest-even
(f64 and i64 to f32); ``!= 0`` with IEEE semantics (to bool); a signed range test and an
extraction (i64 to i32); in the theory of strings, Rust's integer grammar (a regular
expression), ``str.to_int`` and a range test (String to i32), a non-empty test (String to
bool), and the texts ``true``/``false`` and of integers (bool and i64 to String).
:func:`cast_outcome` separates whether a record converts from its value, so that the model of
``make_cast`` (``transformations/cast/smt_model.py``) reuses it.  Every obligation also runs the real function on special records and
requires the model to agree with it bit for bit; ``tests/prove/test_cast_default_model.py``
checks the model against the code on random records.

Theorem, instantiated per pair of types: every image is a value of ``TOA``, and neighbours at
distance ``<= d_in`` map to outputs reached by the same edits, so ``d_out <= d_in``, the code's
map (:func:`certdp.contracts.smt.elementwise_cases`).

The obligation's shape (the special records, the element sorts, the map and
function checks, the dataset cases) is shared by the three cast models:
``transformations/_cast/cast_smt.py``.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort, float_value, int_value
from certdp.contracts.smt_code import Scope
from certdp.core.types import carrier
from certdp.transformations._cast.cast_smt import MAP_D_INS as _MAP_D_INS
from certdp.transformations._cast.cast_smt import SIZE as _SIZE
from certdp.transformations._cast.cast_smt import cast_instance, cast_obligations

__all__ = ["cast_outcome", "cast_record", "encode", "obligations", "MODELLED", "PAIRS"]

_RNE, _RTZ = z3.RNE(), z3.RTZ()

#: (input type, TOA) pairs checked.
PAIRS = (
    ("f64", "i32"), ("f64", "i64"), ("f64", "u32"), ("f64", "f32"), ("f64", "bool"),
    ("f32", "i32"), ("i64", "f32"), ("i64", "i32"), ("i64", "bool"), ("bool", "f64"),
    ("String", "i32"), ("String", "u32"), ("String", "bool"), ("bool", "String"), ("i64", "String"),
)  # fmt: skip

_DIGITS = z3.Plus(z3.Range("0", "9"))
_SIGNED_TEXT = z3.Concat(z3.Option(z3.Union(z3.Re("+"), z3.Re("-"))), _DIGITS)
_UNSIGNED_TEXT = z3.Concat(z3.Option(z3.Re("+")), _DIGITS)


def encode(value, name: str):
    """A Python value of type ``name`` as a z3 constant."""
    T = carrier(name)
    if name == "bool":
        return z3.BoolVal(bool(value))
    if name == "String":
        return z3.StringVal(value)
    if T.is_float:
        sort = float_sort(name)
        return z3.fpNaN(sort) if value != value else float_value(value, sort)
    return int_value(int(value), T.bits)


def _default(target: str):
    T = carrier(target)
    return encode("" if target == "String" else 0.0 if T.is_float else 0, target)


def cast_record(record, source: str, target: str):
    """The code's image of ``record`` (a z3 term of type ``source``) in type ``target``, under
    ``make_cast_default``: the value where it converts, the default of ``target`` otherwise."""
    converts, value = cast_outcome(record, source, target)
    return value if z3.is_true(converts) else z3.If(converts, value, _default(target))


def cast_outcome(record, source: str, target: str):
    """``(converts, value)``: whether ``record`` has a value in ``target`` (a z3 Boolean) and
    that value (meaningful only where it converts)."""
    S, T = carrier(source), carrier(target)
    yes = z3.BoolVal(True)
    if S.name == "String":
        if T.name == "bool":
            return yes, z3.Length(record) > 0
        if T.is_integer:
            negative = z3.PrefixOf(z3.StringVal("-"), record)
            signed = z3.Or(negative, z3.PrefixOf(z3.StringVal("+"), record))
            digits = z3.If(signed, z3.SubString(record, 1, z3.Length(record) - 1), record)
            number = z3.If(negative, -z3.StrToInt(digits), z3.StrToInt(digits))
            grammar = _SIGNED_TEXT if T.is_signed else _UNSIGNED_TEXT
            inside = z3.And(z3.InRe(record, grammar), number >= T.min, number <= T.max)
            return inside, z3.Int2BV(number, T.bits)
        raise NotImplementedError(target)
    if T.name == "String":
        if S.name == "bool":
            return yes, z3.If(record, z3.StringVal("true"), z3.StringVal("false"))
        number = z3.BV2Int(record, is_signed=S.is_signed)
        text = z3.If(number < 0, z3.Concat(z3.StringVal("-"), z3.IntToStr(-number)),
                     z3.IntToStr(number))  # fmt: skip
        return yes, text
    if S.name == "bool":
        if T.is_float:
            return yes, z3.If(record, encode(1.0, target), encode(0.0, target))
        raise NotImplementedError(target)
    if T.name == "bool":
        if S.is_float:
            return yes, z3.Not(z3.fpIsZero(record))
        return yes, record != z3.BitVecVal(0, S.bits)
    if S.is_float and T.is_integer:
        truncated = z3.fpRoundToIntegral(_RTZ, record)
        low, high = float(T.min), float(T.max + 1)  # T.max + 1 is a power of two
        inside = z3.And(
            z3.Not(z3.fpIsNaN(record)), z3.Not(z3.fpIsInf(record)),
            z3.fpGEQ(truncated, float_value(low, record.sort())),
            z3.fpLT(truncated, float_value(high, record.sort())),
        )  # fmt: skip
        convert = z3.fpToSBV if T.is_signed else z3.fpToUBV
        return inside, convert(_RTZ, truncated, z3.BitVecSort(T.bits))
    if S.is_float and T.is_float:
        return yes, z3.fpToFP(_RNE, record, float_sort(target))
    if S.is_integer and T.is_float:
        return yes, z3.fpSignedToFP(_RNE, record, float_sort(target))
    if S.is_integer and T.is_integer:
        wide = z3.SignExt(128 - S.bits, record)
        inside = z3.And(wide >= int_value(T.min, 128), wide <= int_value(T.max, 128))
        return inside, z3.Extract(T.bits - 1, 0, record)
    raise NotImplementedError((source, target))


def _same(expected, image, target: str) -> bool:
    return z3.is_true(z3.simplify(expected == encode(image, target)))


def _instance(source: str, target: str, metric: str, d_in: int):
    from .make_cast_default import make_cast_default

    return cast_instance("make_cast_default", make_cast_default, cast_record, _same, encode,
                         source, target, metric, d_in)  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    return cast_obligations("make_cast_default", names, PAIRS, _instance)


MODELLED = {
    "make_cast_default": [
        "transformations/cast_default/make_cast_default.py",
        "transformations/_cast/convert.py",
        "transformations/_cast/cast_smt.py",
        "transformations/_rowmap/rowmap.py",
    ]
}

SCOPE = {
    "make_cast_default": Scope(
        formats=("f64", "f32", "i64", "i32", "u32", "bool", "String"),
        sizes=(_SIZE,),
        bound_to_code="the real make_cast_default is built for each pair of types, its own map "
        "is called at d_in = 1 and at every d of " + str(_MAP_D_INS) + " (a call that raises, or a value other than d, is refuted), and its own function is run on special records (NaN, +-0, +-inf, "
        "range edges, rounding ties; texts probing Rust's integer grammar) and must agree with "
        "the modelled cast bit for bit (character for character for texts)",
        bit_precise=("the cast of every record for the pairs "
                     + ", ".join(f"{s}->{t}" for s, t in PAIRS)
                     + ", and every pair of datasets of length <= N at distance <= d_in",),
        assumed=("the other pairs of types (other integer widths, f32->f64, int->f64, the "
                 "reverse directions, texts to and from floats and the other integer widths) are "
                 "covered by the proof and the tests only",
                 "z3's theory of strings (str.to_int, int.to_str, regular expressions) is "
                 "trusted for the text pairs; texts in the dataset cases are unbounded in length",
                 "SMT-LIB has one NaN per format: NaN payloads are covered by the proof only"),
        instances="stability cases at d_in = 1; the map also at d_in in " + str(_MAP_D_INS),
    )
}  # fmt: skip
