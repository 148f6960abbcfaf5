"""Contract of ``make_float_laplace_cks20``: the theorem of its .tex, executable.

Preconditions (ids as in the proof) and the privacy bound
``(d_in + 2^k - 2^k_min) / scale``; the divergence is computed exactly from the
discrete Laplace pmf (see ``_laplace/contract_support``).
"""

import numpy as np
from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, Precondition
from certdp.core.domains import AtomDomain, atom_domain
from certdp.core.metrics import AbsoluteDistance, absolute_distance
from certdp.measurements._laplace.contract_support import (
    LAPLACE_BOUND,
    grid_exponents,
    laplace_divergence,
    laplace_parameters,
    scales,
)
from certdp.measurements._laplace.discretization import K_MAX, K_MIN
from certdp.measurements._laplace.parameters import exact_scale

from .make_float_laplace_cks20 import make_float_laplace_cks20


def _scale_valid(scale) -> bool:
    exact_scale(scale)  # raises (so the predicate fails) on a bad scale
    return True


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    bounded = draw(st.booleans())
    domain = atom_domain(bounds=(-8.0, 8.0), T=T) if bounded else atom_domain(T=T, nan=False)
    return {
        "input_domain": domain,
        "input_metric": absolute_distance(T=T),
        "scale": draw(scales()),
        "k": draw(grid_exponents(T)),
    }


CONTRACT = MeasurementContract(
    constructor=make_float_laplace_cks20,
    preconditions=[
        Precondition(
            "input-domain-non-nan-float-atoms",
            lambda a: (
                isinstance(a.input_domain, AtomDomain)
                and a.input_domain.T.is_float
                and not a.input_domain.nan
            ),
            "input_domain must be atom_domain(T=f32|f64, nan=False)",
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
            "k-within-grid-range",
            lambda a: (
                a.k is None
                or (
                    isinstance(a.k, (int, np.integer))
                    and not isinstance(a.k, (bool, np.bool_))
                    and K_MIN[a.input_domain.T.name] <= a.k <= K_MAX[a.input_domain.T.name]
                )
            ),
            "k must be None or an integer with 2^k a positive finite value of T, at least 2^k_min",
            parameter="k",
        ),
    ],
    bound=LAPLACE_BOUND,
    parameters=laplace_parameters,
    arguments=arguments,
    divergence=laplace_divergence,
)
