"""SMT model of ``make_cast_inherent`` and its bounded theorem.

Model of one record: the outcome of the cast (``cast_outcome`` of the model of
``make_cast_default``, which models ``transformations/_cast/convert.py``) with NaN where it does
not convert.  Every obligation runs the real function on special records and requires the model
to agree with it bit for bit (all NaNs alike); ``tests/prove/test_cast_inherent_model.py``
checks the model against the code on random records.

Theorem, instantiated per pair of types: every image is a member of the output element domain
(any float), and neighbours at distance ``<= d_in`` map to outputs reached by the same edits,
so ``d_out <= d_in``, the code's map (:func:`certdp.contracts.smt.elementwise_cases`).

The obligation's shape (the special records, the element sorts, the map and
function checks, the dataset cases) is shared by the three cast models:
``transformations/_cast/cast_smt.py``.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort
from certdp.contracts.smt_code import Scope
from certdp.transformations._cast.cast_smt import MAP_D_INS as _MAP_D_INS
from certdp.transformations._cast.cast_smt import SIZE as _SIZE
from certdp.transformations._cast.cast_smt import cast_instance, cast_obligations
from certdp.transformations.cast_default.smt_model import cast_outcome, encode

__all__ = ["cast_nan", "obligations", "MODELLED", "PAIRS"]

#: (input type, TOA) pairs checked.
PAIRS = (("f64", "f32"), ("f64", "f64"), ("f32", "f64"), ("i64", "f32"), ("bool", "f64"))


def cast_nan(record, source: str, target: str):
    """The code's image of ``record`` under ``make_cast_inherent``."""
    converts, value = cast_outcome(record, source, target)
    return z3.If(converts, value, z3.fpNaN(float_sort(target)))


def _same(expected, image, target: str) -> bool:
    if image != image:  # every NaN is the same record
        return z3.is_true(z3.simplify(z3.fpIsNaN(expected)))
    return z3.is_true(z3.simplify(expected == encode(image, target)))


def _instance(source: str, target: str, metric: str, d_in: int):
    from .make_cast_inherent import make_cast_inherent

    return cast_instance("make_cast_inherent", make_cast_inherent, cast_nan, _same, encode,
                         source, target, metric, d_in)  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    return cast_obligations("make_cast_inherent", names, PAIRS, _instance)


MODELLED = {
    "make_cast_inherent": [
        "transformations/cast_inherent/make_cast_inherent.py",
        "transformations/_cast/convert.py",
        "transformations/_cast/cast_smt.py",
        "transformations/_rowmap/rowmap.py",
    ]
}

SCOPE = {
    "make_cast_inherent": Scope(
        formats=("f64", "f32", "i64", "bool"),
        sizes=(_SIZE,),
        bound_to_code="the real make_cast_inherent is built for each pair of types, its own map "
        "is called at d_in = 1 and at every d of " + str(_MAP_D_INS) + " (a call that raises, or a value other than d, is refuted), and its own function is run on special records (NaN, +-0, +-inf, "
        "range edges, rounding ties) and must agree with the modelled cast bit for bit (NaN "
        "for NaN)",
        bit_precise=("the cast of every record for the pairs "
                     + ", ".join(f"{s}->{t}" for s, t in PAIRS)
                     + ", and every pair of datasets of length <= N at distance <= d_in",),
        assumed=("texts to floats (the only casts to a float type that can fail) and the other "
                 "pairs of types are covered by the proof and the tests only",
                 "SMT-LIB has one NaN per format: NaN payloads are covered by the proof only"),
        instances="stability cases at d_in = 1; the map also at d_in in " + str(_MAP_D_INS),
    )
}  # fmt: skip
