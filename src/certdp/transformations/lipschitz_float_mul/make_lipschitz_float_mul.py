"""``make_lipschitz_float_mul``: clamp a float aggregate to ``bounds``, then multiply it by
``constant`` in its own float type.

Guarantee (make_lipschitz_float_mul.tex): on a NaN-free ``f32`` or ``f64`` atom under the
absolute distance of its type, ``d_in -> |constant| * d_in + ulp(w)`` (each operation rounded
up) is a valid stability map, where ``w`` is ``max(|lower|, |upper|) * |constant|`` rounded up:
the product is rounded to nearest once, so each output is within half an ulp of ``w`` of the
exact product.  A ``d_in`` that is no value of the type is rounded up first (OpenDP 0.16 rounds
it to nearest for ``f32``, which can fall below the truth).
"""

from __future__ import annotations

import math

import numpy as np

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, atom_domain, carrier_constant
from certdp.core.errors import MakeDomainError, MakeTransformationError, shown, type_mismatch
from certdp.core.metrics import AbsoluteDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.numeric import inf_add, inf_cast, inf_mul, ulp

__all__ = ["make_lipschitz_float_mul", "then_lipschitz_float_mul"]


# proof: begin constructor
@certified
def make_lipschitz_float_mul(input_domain, input_metric, constant, bounds) -> Transformation:
    """Clamp a float to ``bounds``, then multiply it by ``constant`` (rounded to nearest);
    stability ``d_in -> |constant| * d_in + ulp(max(|lower|, |upper|) * |constant|)``,
    every operation rounded up."""
    if type(input_domain) is not AtomDomain or not input_domain.T.is_float:  # label: domain-check
        raise type_mismatch(MakeTransformationError)(
            f"must be an atom_domain of f32 or f64, got {shown(input_domain)}",
            parameter="input_domain",
        )
    if input_domain.nan:  # label: nan-check
        raise MakeTransformationError(
            f"may not contain NaN: use atom_domain(T={shown(input_domain.T.name)}, nan=False)",
            parameter="input_domain",
        )
    T = input_domain.T
    if type(input_metric) is not AbsoluteDistance or input_metric.T != T:  # label: metric-check
        raise type_mismatch(MakeTransformationError)(
            f"must be absolute_distance(T={shown(T.name)}), got {shown(input_metric)}",
            parameter="input_metric",
        )
    converted = carrier_constant(constant, T)  # label: constant-convert
    if converted is None:
        raise type_mismatch(MakeTransformationError)(
            f"{shown(constant)} is not a value of {T}", parameter="constant"
        )
    if not math.isfinite(converted):  # label: constant-finite
        raise MakeTransformationError(
            f"must be finite, got {shown(converted)}", parameter="constant"
        )
    constant = converted
    if bounds is None:  # label: bounds-given
        raise type_mismatch(MakeDomainError)(
            "must be a pair (lower, upper), got None", parameter="bounds"
        )
    lower, upper = atom_domain(bounds=bounds, T=T).bounds  # label: bounds-check
    # the largest output magnitude, rounded up (raises if it overflows T)
    largest = inf_mul(max(abs(lower), abs(upper)), abs(constant), T.name)  # label: largest
    spacing = ulp(largest, T.name)  # label: spacing

    def function(arg):
        clamped = lower if arg < lower else upper if arg > upper else arg  # label: clamp
        return _product(clamped, constant, T.name)  # label: function

    def stability_map(d_in):
        scaled = inf_mul(abs(constant), inf_cast(d_in, T.name), T.name)  # label: map-scaled
        return inf_add(scaled, spacing, T.name)  # label: map-spacing

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=T, nan=False),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=input_metric,  # label: output-metric
        stability_map=stability_map,
    )


def _product(a: float, b: float, T: str) -> float:
    """``a * b`` rounded to nearest (ties to even) in ``T``, for values ``a, b`` of ``T``."""
    if T == "f64":
        return a * b  # label: product-f64
    # the product of two binary32 values is exact in binary64 (48 significand bits, exponents
    # within binary64's normal range), so one rounding to binary32 follows
    return float(np.float32(a * b))  # label: product-f32


# proof: end constructor


then_lipschitz_float_mul = partial_constructor(make_lipschitz_float_mul)
