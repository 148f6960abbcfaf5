"""Contract of ``make_quantiles_from_counts``: the theorem of make_quantiles_from_counts.tex,
executable.

Preconditions: TA, when given, one of OpenDP 0.16's (i32, i64, u32, u64, usize, f32, f64);
strictly increasing, non-empty edges; strictly increasing alphas in
``[+0.0, 1]``; ``interpolation`` linear or nearest.  Postcondition (``postconditions.py``): for
``nearest`` each output is an edge, not decreasing with alpha, and an exact nearest quantile
within the rounding allowance; for ``linear`` each output lies in the edges' hull and steps
back by no more than the rounding allowance ``8 u max(|e_0|, |e_n|)``.
"""

import math

from hypothesis import strategies as st

from certdp.contracts.contract import Precondition
from certdp.core.errors import MakeTransformationError
from certdp.transformations._postprocess.arguments import type_name
from certdp.transformations._postprocess.contract_support import FunctionContract
from certdp.transformations._postprocess.postconditions import (
    linear_quantiles_shape,
    nearest_quantiles_postcondition,
)

from .make_quantiles_from_counts import _TA_TYPES, make_quantiles_from_counts


def _names_ta(TA) -> bool:
    """Does ``TA`` name a type OpenDP 0.16 builds this Function for?"""
    try:
        type_name(TA, "TA", _TA_TYPES, MakeTransformationError)
    except MakeTransformationError:
        return False
    return True


def _increasing(values) -> bool:
    values = list(values)
    return all(a < b for a, b in zip(values, values[1:]))


@st.composite
def cases(draw):
    edges = sorted(set(draw(st.lists(st.integers(-50, 50), min_size=2, max_size=7))))
    if len(edges) < 2:
        edges = [0, 1]
    floats = draw(st.booleans())
    if floats:
        edges = [e / 4 for e in edges]
    alphas = sorted(set(draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.9, 1.0]),
                                      min_size=1, max_size=4))))  # fmt: skip
    interpolation = draw(st.sampled_from(["linear", "nearest"]))
    F = draw(st.sampled_from(["f32", "f64"]))
    count = st.floats(0, 100) if floats else st.integers(0, 100)
    counts = draw(st.lists(count, min_size=len(edges) - 1, max_size=len(edges) - 1))
    counts[-1] += 1  # a positive total; a zero total is the refusal the proof states
    if counts[0] == 0 and alphas[0] == 0.0 and interpolation == "linear":
        alphas = alphas[1:] or [0.5]  # 0 / 0 at alpha 0: refused for integers, NaN for floats
    kwargs = {"bin_edges": edges, "alphas": alphas, "interpolation": interpolation, "F": F}
    return kwargs, counts


def _holds(kwargs, counts, out) -> bool:
    edges, alphas, F = kwargs["bin_edges"], kwargs["alphas"], kwargs["F"]
    if kwargs["interpolation"] == "nearest":
        return nearest_quantiles_postcondition(edges, counts, alphas, out, F=F)
    return linear_quantiles_shape(edges, counts, alphas, out, F)


CONTRACT = FunctionContract(
    constructor=make_quantiles_from_counts,
    preconditions=[
        Precondition(
            "ta-type",
            lambda a: a.TA is None or _names_ta(a.TA),
            "TA must be one of i32, i64, u32, u64, usize, f32, f64 (as in OpenDP 0.16)",
            parameter="TA",
        ),
        Precondition(
            "edges-increasing",
            lambda a: (
                len(a.bin_edges) > 0
                and not any(type(e) is float and math.isnan(e) for e in a.bin_edges)
                and _increasing(a.bin_edges)
            ),
            "bin_edges must be non-empty, without NaN and strictly increasing",
            parameter="bin_edges",
        ),
        Precondition(
            "alphas-range",
            lambda a: (
                _increasing(a.alphas)
                and all(
                    type(x) is float and 0 <= x <= 1 and math.copysign(1, x) > 0 for x in a.alphas
                )
            ),
            "alphas must be strictly increasing floats in [+0.0, 1]",
            parameter="alphas",
        ),
        Precondition(
            "interpolation",
            lambda a: a.interpolation in ("linear", "nearest"),
            "interpolation must be 'linear' or 'nearest'",
            parameter="interpolation",
        ),
    ],
    cases=cases,
    postcondition=_holds,
)
