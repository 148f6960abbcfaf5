"""SMT model of ``make_cast`` and its bounded theorem.

Model of one record: the outcome of the cast (``cast_outcome`` of the model of
``make_cast_default``, which models ``transformations/_cast/convert.py``: whether the record
converts, and its value) made an option, ``none`` where it does not convert or where a float
value is NaN, ``some(value)`` otherwise.  Every obligation runs the real function on special
records and requires the model to agree with it (``None`` for ``none``, the value bit for bit
for ``some``); ``tests/prove/test_cast_model.py`` checks the model against the code on random
records.

Theorem, instantiated per pair of types: neighbours at distance ``<= d_in`` map to outputs
reached by the same edits, so ``d_out <= d_in``, the code's map
(:func:`certdp.contracts.smt.elementwise_cases`).

The obligation's shape (the special records, the element sorts, the map and
function checks, the dataset cases) is shared by the three cast models:
``transformations/_cast/cast_smt.py``.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope
from certdp.core.types import carrier
from certdp.transformations._cast.cast_smt import MAP_D_INS as _MAP_D_INS
from certdp.transformations._cast.cast_smt import SIZE as _SIZE
from certdp.transformations._cast.cast_smt import cast_instance, cast_obligations
from certdp.transformations.cast_default.smt_model import PAIRS, cast_outcome, encode

__all__ = ["cast_option", "encode_option", "option_sort", "obligations", "MODELLED", "PAIRS"]

_SORTS: dict = {}


def option_sort(target: str):
    """The z3 datatype ``none | some(value)`` over the sort of ``target``."""
    if target not in _SORTS:
        option = z3.Datatype(f"Option_{target}")
        option.declare("none")
        option.declare("some", ("value", encode(_sample(target), target).sort()))
        _SORTS[target] = option.create()
    return _SORTS[target]


def _sample(target: str):
    T = carrier(target)
    return "" if target == "String" else False if target == "bool" else 0.0 if T.is_float else 0


def cast_option(record, source: str, target: str):
    """The code's image of ``record`` under ``make_cast``: ``none`` or ``some(value)``."""
    option = option_sort(target)
    converts, value = cast_outcome(record, source, target)
    if carrier(target).is_float:
        converts = z3.And(converts, z3.Not(z3.fpIsNaN(value)))
    return z3.If(converts, option.some(value), option.none)


def encode_option(image, target: str):
    """A value the code returned (``None`` or a value of ``target``) as a z3 option."""
    option = option_sort(target)
    return option.none if image is None else option.some(encode(image, target))


def _agrees(expected, image, target: str) -> bool:
    return z3.is_true(z3.simplify(expected == encode_option(image, target)))


def _instance(source: str, target: str, metric: str, d_in: int):
    from .make_cast import make_cast

    return cast_instance("make_cast", make_cast, cast_option, _agrees, encode,
                         source, target, metric, d_in)  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    return cast_obligations("make_cast", names, PAIRS, _instance)


MODELLED = {
    "make_cast": [
        "transformations/cast/make_cast.py",
        "transformations/_cast/convert.py",
        "transformations/_cast/cast_smt.py",
        "transformations/_rowmap/rowmap.py",
        "core/option_domain.py",
    ]
}

SCOPE = {
    "make_cast": Scope(
        formats=("f64", "f32", "i64", "i32", "u32", "bool", "String"),
        sizes=(_SIZE,),
        bound_to_code="the real make_cast is built for each pair of types, its own map is "
        "called at d_in = 1 and at every d of "
        + str(_MAP_D_INS)
        + " (a call that raises, or a value other than d, is refuted), and its own function is run on special records (NaN, +-0, +-inf, "
        "range edges, rounding ties; texts probing Rust's integer grammar) and must agree with "
        "the modelled cast: None where the model says none, the value bit for bit (character "
        "for character) where it says some",
        bit_precise=("the cast of every record for the pairs "
                     + ", ".join(f"{s}->{t}" for s, t in PAIRS)
                     + ", and every pair of datasets of length <= N at distance <= d_in",),
        assumed=("the other pairs of types are covered by the proof and the tests only",
                 "z3's theory of strings is trusted for the text pairs",
                 "SMT-LIB has one NaN per format: NaN payloads are covered by the proof only"),
        instances="stability cases at d_in = 1; the map also at d_in in " + str(_MAP_D_INS),
    )
}  # fmt: skip
