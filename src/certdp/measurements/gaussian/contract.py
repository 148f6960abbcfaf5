"""Contract of ``make_gaussian``: the theorem of make_gaussian.tex, executable.

Preconditions (ids as in the proof) and the privacy bound
``(d_in + relaxation)^2 / (2 scale^2)``; the zero-concentrated divergence of each pair of
neighbouring inputs is computed exactly (see ``_gaussian/contract_support``).
"""

import numpy as np

from certdp.contracts.contract import MeasurementContract, Precondition
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.metrics import AbsoluteDistance, L2Distance
from certdp.measurements._gaussian.contract_support import (
    GAUSSIAN_BOUND,
    arguments,
    gaussian_divergence,
    gaussian_parameters,
)
from certdp.measurements._laplace.discretization import K_MAX, K_MIN
from certdp.measurements._laplace.parameters import exact_scale

from .make_gaussian import make_gaussian, zcdp_requested


def _atom(domain):
    return domain.element_domain if isinstance(domain, VectorDomain) else domain


def _scale_valid(scale) -> bool:
    exact_scale(scale)  # raises (so the predicate fails) on a bad scale
    return True


def _integer(k) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def _k_valid(k, T) -> bool:
    if k is None:
        return True
    if T.is_integer:
        return _integer(k) and k == 0
    return _integer(k) and K_MIN[T.name] <= k <= K_MAX[T.name]


def _metric_matches(arguments) -> bool:
    kind = L2Distance if isinstance(arguments.input_domain, VectorDomain) else AbsoluteDistance
    metric = arguments.input_metric
    T = _atom(arguments.input_domain).T
    return isinstance(metric, kind) and (metric.T == T or (T.is_integer and metric.T.is_float))


def _size_known_unless_exact(arguments) -> bool:
    T = _atom(arguments.input_domain).T
    if T.is_integer or arguments.k is None or arguments.k == K_MIN[T.name]:
        return True
    return not isinstance(arguments.input_domain, VectorDomain) or (
        arguments.input_domain.size is not None
    )


CONTRACT = MeasurementContract(
    constructor=make_gaussian,
    preconditions=[
        Precondition(
            "output-measure-zcdp",
            lambda a: zcdp_requested(a.MO),
            "MO must be ZeroConcentratedDivergence",
            parameter="MO",
        ),
        Precondition(
            "input-domain-numeric-atoms",
            lambda a: (
                isinstance(_atom(a.input_domain), AtomDomain) and _atom(a.input_domain).T.is_numeric
            ),
            "input_domain must be atom_domain(T=...) or vector_domain(atom_domain(T=...)) of a "
            "numeric type",
            parameter="input_domain",
        ),
        Precondition(
            "float-elements-exclude-nan",
            lambda a: _atom(a.input_domain).T.is_integer or not _atom(a.input_domain).nan,
            "float elements must exclude NaN (atom_domain(T=..., nan=False))",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-absolute-or-l2-of-carrier-type",
            _metric_matches,
            "input_metric must be absolute_distance(T) for atoms, l2_distance(T) for vectors "
            "(or of a float type for integer T)",
            parameter="input_metric",
        ),
        Precondition(
            "scale-finite-non-negative",
            lambda a: _scale_valid(a.scale),
            "scale must be a finite, non-negative number (numerator and denominator of at most "
            "1075 bits)",
            parameter="scale",
        ),
        Precondition(
            "k-valid-for-carrier-type",
            lambda a: _k_valid(a.k, _atom(a.input_domain).T),
            "k must be None or 0 for integers, None or an integer in [k_min, k_max] for floats",
            parameter="k",
        ),
        Precondition(
            "size-known-unless-exact",
            _size_known_unless_exact,
            "domain size must be known if discretization is not exact (k > k_min)",
            parameter="input_domain",
        ),
    ],
    bound=GAUSSIAN_BOUND,
    parameters=gaussian_parameters,
    arguments=arguments,
    divergence=gaussian_divergence,
)
