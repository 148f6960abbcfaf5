"""Contract of ``make_vector_float_laplace_cks20``: the theorem of its .tex, executable.

Preconditions (ids as in the proof) and the privacy bound
``(d_in + size * (2^k - 2^k_min)) / scale``; the divergence is computed exactly
from the discrete Laplace pmf (see ``_laplace/contract_support``).
"""

import numpy as np
from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, Precondition
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.metrics import L1Distance, l1_distance
from certdp.measurements._laplace.contract_support import (
    LAPLACE_BOUND,
    grid_exponents,
    laplace_divergence,
    laplace_parameters,
    scales,
)
from certdp.measurements._laplace.discretization import K_MAX, K_MIN
from certdp.measurements._laplace.parameters import exact_scale

from .make_vector_float_laplace_cks20 import make_vector_float_laplace_cks20


def _scale_valid(scale) -> bool:
    exact_scale(scale)  # raises (so the predicate fails) on a bad scale
    return True


def _k_valid(k, T) -> bool:
    return k is None or (
        isinstance(k, (int, np.integer))
        and not isinstance(k, (bool, np.bool_))
        and K_MIN[T.name] <= k <= K_MAX[T.name]
    )


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    k = draw(grid_exponents(T))
    exact = k is None or k == K_MIN[T]
    size = draw(st.one_of(st.none(), st.integers(0, 5)) if exact else st.integers(0, 5))
    bounded = draw(st.booleans())
    element = atom_domain(bounds=(-8.0, 8.0), T=T) if bounded else atom_domain(T=T, nan=False)
    return {
        "input_domain": vector_domain(element, size=size),
        "input_metric": l1_distance(T=T),
        "scale": draw(scales()),
        "k": k,
    }


CONTRACT = MeasurementContract(
    constructor=make_vector_float_laplace_cks20,
    preconditions=[
        Precondition(
            "input-domain-vector-of-non-nan-floats",
            lambda a: (
                isinstance(a.input_domain, VectorDomain)
                and isinstance(a.input_domain.element_domain, AtomDomain)
                and a.input_domain.element_domain.T.is_float
                and not a.input_domain.element_domain.nan
            ),
            "input_domain must be vector_domain(atom_domain(T=f32|f64, nan=False))",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-l1-of-element-type",
            lambda a: (
                isinstance(a.input_metric, L1Distance)
                and a.input_metric.T == a.input_domain.element_domain.T
            ),
            "input_metric must be l1_distance(T) for the element type T",
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
            lambda a: _k_valid(a.k, a.input_domain.element_domain.T),
            "k must be None or an integer with 2^k a positive finite value of T, at least 2^k_min",
            parameter="k",
        ),
        Precondition(
            "size-known-unless-exact",
            lambda a: (
                a.input_domain.size is not None
                or a.k is None
                or a.k == K_MIN[a.input_domain.element_domain.T.name]
            ),
            "domain size must be known if discretization is not exact (k > k_min)",
            parameter="input_domain",
        ),
    ],
    bound=LAPLACE_BOUND,
    parameters=laplace_parameters,
    arguments=arguments,
    divergence=laplace_divergence,
)
