"""Contract of ``make_integer_laplace``: the theorem of its .tex, executable.

Preconditions (ids as in the proof) and the privacy bound ``d_in / scale``; the
divergence is computed exactly from the discrete Laplace pmf (see
``_laplace/contract_support``).
"""

import numpy as np
from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, Precondition
from certdp.core.domains import AtomDomain, atom_domain
from certdp.core.metrics import AbsoluteDistance, absolute_distance
from certdp.measurements._laplace.contract_support import (
    LAPLACE_BOUND,
    laplace_divergence,
    laplace_parameters,
    scales,
)
from certdp.measurements._laplace.parameters import exact_scale

from .make_integer_laplace import make_integer_laplace

INTEGER_TYPES = ["i8", "i32", "i64", "u8", "u32", "u64"]


def _scale_valid(scale) -> bool:
    exact_scale(scale)  # raises (so the predicate fails) on a bad scale
    return True


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(INTEGER_TYPES))
    bounded = draw(st.booleans())
    return {
        "input_domain": atom_domain(bounds=(0, 20), T=T) if bounded else atom_domain(T=T),
        "input_metric": absolute_distance(T=T),
        "scale": draw(scales()),
        "k": draw(st.sampled_from([None, 0])),
    }


CONTRACT = MeasurementContract(
    constructor=make_integer_laplace,
    preconditions=[
        Precondition(
            "input-domain-integer-atoms",
            lambda a: isinstance(a.input_domain, AtomDomain) and a.input_domain.T.is_integer,
            "input_domain must be atom_domain(T=<integer type>)",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-absolute-of-carrier-type",
            lambda a: (
                isinstance(a.input_metric, AbsoluteDistance)
                and a.input_metric.T == a.input_domain.T
            ),
            "input_metric must be absolute_distance(T) for the carrier type T",
            parameter="input_metric",
        ),
        Precondition(
            "scale-finite-non-negative",
            lambda a: _scale_valid(a.scale),
            "scale must be a finite, non-negative number",
            parameter="scale",
        ),
        Precondition(
            "k-none-or-zero",
            lambda a: (
                a.k is None
                or (
                    isinstance(a.k, (int, np.integer))
                    and not isinstance(a.k, (bool, np.bool_))
                    and a.k == 0
                )
            ),
            "k is only valid for domains over floats: it must be None or 0",
            parameter="k",
        ),
    ],
    bound=LAPLACE_BOUND,
    parameters=laplace_parameters,
    arguments=arguments,
    divergence=laplace_divergence,
)
