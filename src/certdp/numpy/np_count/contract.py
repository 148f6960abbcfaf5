"""Contract of ``make_np_count``: the theorem of make_np_count.tex, executable.

Bound: ``d_out = d_in`` when the size is unknown, ``d_out = 0`` when the domain fixes it.
"""

from __future__ import annotations

import sympy
from hypothesis import strategies as st

from certdp.contracts.common import optional_sizes
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.metrics import SymmetricDistance, symmetric_distance
from certdp.numpy._support import strategies  # noqa: F401  (registers the array neighbours)
from certdp.numpy.array2_domain import NPArray2Domain, array2_domain

from .make_np_count import make_np_count

KNOWN = sympy.Symbol("known", nonnegative=True)

BOUND = (1 - KNOWN) * D_IN


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64", "i32", "u8", "bool"]))
    size = draw(optional_sizes(6))
    columns = draw(st.one_of(st.none(), st.integers(0, 3)))
    if T in ("f32", "f64") and draw(st.booleans()):
        domain = array2_domain(norm=1.0, p=draw(st.sampled_from([1, 2])), size=size, T=T,
                               num_columns=columns)  # fmt: skip
    else:
        domain = array2_domain(size=size, num_columns=columns, T=T)
    return {"input_domain": domain, "input_metric": symmetric_distance()}


def parameters(args, built) -> dict:
    return {KNOWN: int(args.input_domain.size is not None)}


CONTRACT = TransformationContract(
    constructor=make_np_count,
    preconditions=[
        Precondition(
            "input-domain-array2",
            lambda a: isinstance(a.input_domain, NPArray2Domain),
            "input_domain must be an array2_domain",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-symmetric",
            lambda a: isinstance(a.input_metric, SymmetricDistance),
            "input_metric must be symmetric_distance()",
            parameter="input_metric",
        ),
    ],
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
)
