"""The Laplace contracts, one declaration per family: the preconditions (ids as the proofs
state them with ``\\precondition``) and the argument strategies of the four Laplace
constructors, built from two parameters of the family, ``vector`` (a vector of atoms under
the L1 distance, or one atom under the absolute distance) and ``floating`` (floats on a grid
of step ``2^k``, or integers), and :func:`laplace_contract`, the whole contract.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, Precondition
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.metrics import AbsoluteDistance, L1Distance, absolute_distance, l1_distance
from certdp.core.types import CarrierType

from .contract_support import (
    LAPLACE_BOUND,
    grid_exponents,
    laplace_divergence,
    laplace_parameters,
    scales,
)
from .discretization import K_MAX, K_MIN
from .parameters import exact_scale

__all__ = [
    "INTEGER_TYPES",
    "FLOAT_TYPES",
    "laplace_arguments",
    "laplace_preconditions",
    "laplace_contract",
]

INTEGER_TYPES = ["i8", "i32", "i64", "u8", "u32", "u64"]
FLOAT_TYPES = ["f32", "f64"]


def _scale_valid(scale) -> bool:
    exact_scale(scale)  # raises (so the predicate fails) on a bad scale
    return True


def _is_integer(k) -> bool:
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def _k_none_or_zero(k) -> bool:
    return k is None or (_is_integer(k) and k == 0)


def _k_on_grid(k, T) -> bool:
    return k is None or (_is_integer(k) and K_MIN[T.name] <= k <= K_MAX[T.name])


def _element(domain, vector: bool):
    return domain.element_domain if vector else domain


def _domain_condition(vector: bool, floating: bool) -> Precondition:
    def holds(a) -> bool:
        if vector and not isinstance(a.input_domain, VectorDomain):
            return False
        atom = _element(a.input_domain, vector)
        if not isinstance(atom, AtomDomain):
            return False
        return atom.T.is_float and not atom.nan if floating else atom.T.is_integer

    wanted = "atom_domain(T=f32|f64, nan=False)" if floating else "atom_domain(T=<integer type>)"
    ids = {
        (False, False): "input-domain-integer-atoms",
        (True, False): "input-domain-vector-of-integers",
        (False, True): "input-domain-non-nan-float-atoms",
        (True, True): "input-domain-vector-of-non-nan-floats",
    }
    return Precondition(
        ids[vector, floating],
        holds,
        f"input_domain must be {f'vector_domain({wanted})' if vector else wanted}",
        parameter="input_domain",
    )


def _distance_type_fits(distance_T, T) -> bool:
    """``distance_T`` is a carrier type: ``T``, or f32/f64 when ``T`` is an integer type (an
    object that is not a carrier type fails, without raising)."""
    carriers = isinstance(distance_T, CarrierType) and isinstance(T, CarrierType)
    return carriers and (distance_T == T or (T.is_integer and distance_T.is_float))


def _metric_condition(vector: bool) -> Precondition:
    if vector:
        return Precondition(
            "input-metric-l1-of-element-type",
            lambda a: (
                isinstance(a.input_metric, L1Distance)
                and _distance_type_fits(a.input_metric.T, a.input_domain.element_domain.T)
            ),
            "input_metric must be l1_distance(T) for the element type T (or of a float type "
            "for integer T)",
            parameter="input_metric",
        )
    return Precondition(
        "input-metric-absolute-of-carrier-type",
        lambda a: (
            isinstance(a.input_metric, AbsoluteDistance)
            and _distance_type_fits(a.input_metric.T, a.input_domain.T)
        ),
        "input_metric must be absolute_distance(T) for the carrier type T (or of a float type "
        "for integer T)",
        parameter="input_metric",
    )


def _k_condition(vector: bool, floating: bool) -> Precondition:
    if not floating:
        return Precondition(
            "k-none-or-zero",
            lambda a: _k_none_or_zero(a.k),
            "k is only valid for domains over floats: it must be None or 0",
            parameter="k",
        )
    return Precondition(
        "k-within-grid-range",
        lambda a: _k_on_grid(a.k, _element(a.input_domain, vector).T),
        "k must be None or an integer with 2^k a positive finite value of T, at least 2^k_min",
        parameter="k",
    )


_SIZE_KNOWN = Precondition(
    "size-known-unless-exact",
    lambda a: (
        a.input_domain.size is not None
        or a.k is None
        or a.k == K_MIN[a.input_domain.element_domain.T.name]
    ),
    "domain size must be known if discretization is not exact (k > k_min)",
    parameter="input_domain",
)


def laplace_preconditions(*, vector: bool, floating: bool) -> list[Precondition]:
    """The preconditions of the family, in the order of its proof."""
    conditions = [
        _domain_condition(vector, floating),
        _metric_condition(vector),
        Precondition(
            "scale-finite-non-negative",
            lambda a: _scale_valid(a.scale),
            "scale must be a finite, non-negative number",
            parameter="scale",
        ),
        _k_condition(vector, floating),
    ]
    if vector and floating:
        conditions.append(_SIZE_KNOWN)
    return conditions


def laplace_arguments(*, vector: bool, floating: bool) -> st.SearchStrategy:
    """Valid keyword arguments of the family: bounded and unbounded atoms (floats in
    ``[-8, 8]``, integers in ``[0, 20]``, measured by their own type or, for integers, by f32
    or f64), vectors of up to five records (of unknown size
    only where the discretization is exact), every noise scale of :func:`scales` and, for
    floats, the grid exponents of :func:`grid_exponents`."""

    @st.composite
    def draw_arguments(draw):
        T = draw(st.sampled_from(FLOAT_TYPES if floating else INTEGER_TYPES))
        k = draw(grid_exponents(T)) if floating and vector else None
        size = None
        if vector:
            exact = not floating or k is None or k == K_MIN[T]
            size = draw(st.one_of(st.none(), st.integers(0, 5)) if exact else st.integers(0, 5))
        if draw(st.booleans()):
            element = atom_domain(bounds=(-8.0, 8.0) if floating else (0, 20), T=T)
        else:
            element = atom_domain(T=T, nan=False) if floating else atom_domain(T=T)
        scale = draw(scales())
        if floating and not vector:
            k = draw(grid_exponents(T))
        elif not floating:
            k = draw(st.sampled_from([None, 0]))
        # integers may be measured by a float distance type as well (OpenDP accepts it too)
        D = T if floating else draw(st.sampled_from([T, T, *FLOAT_TYPES]))
        return {
            "input_domain": vector_domain(element, size=size) if vector else element,
            "input_metric": l1_distance(T=D) if vector else absolute_distance(T=D),
            "scale": scale,
            "k": k,
        }

    return draw_arguments()


def laplace_contract(constructor, *, vector: bool, floating: bool) -> MeasurementContract:
    """The contract of a Laplace constructor of the family: its preconditions, the privacy
    bound ``(d_in + size * relaxation) / scale`` and the exact divergence of the discrete
    Laplace outputs (see ``contract_support``)."""
    return MeasurementContract(
        constructor=constructor,
        preconditions=laplace_preconditions(vector=vector, floating=floating),
        bound=LAPLACE_BOUND,
        parameters=laplace_parameters,
        arguments=lambda: laplace_arguments(vector=vector, floating=floating),
        divergence=laplace_divergence,
    )
