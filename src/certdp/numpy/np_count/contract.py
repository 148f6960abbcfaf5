"""Contract of ``make_np_count``: the theorem of make_np_count.tex, executable.

Bound: ``d_out = d_in`` when the size is unknown, ``d_out = 0`` when the domain fixes it.
"""

from __future__ import annotations

import sympy
from hypothesis import strategies as st

from certdp.contracts.common import optional_sizes
from certdp.contracts.contract import D_IN, TransformationContract
from certdp.core.metrics import symmetric_distance
from certdp.numpy._support import strategies  # noqa: F401  (registers the array neighbours)
from certdp.numpy._support.preconditions import INPUT_DOMAIN_ARRAY2, INPUT_METRIC_SYMMETRIC
from certdp.numpy.array2_domain import array2_domain

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
        INPUT_DOMAIN_ARRAY2,
        INPUT_METRIC_SYMMETRIC,
    ],
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
)
