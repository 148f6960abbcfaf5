"""``make_sum_of_squared_deviations``: ``sum_i (x_i - mean)^2`` of ``n`` floats in ``[L, U]``,
``n`` known, computed in ``T`` as OpenDP 0.16 computes it.

The function: ``s`` the strategy's float sum of the records, ``m = fl(s / n)``, ``t_i =
fl(x_i - m)``, ``q_i = fl(t_i * t_i)``, and the result the strategy's float sum of the ``q_i``
(every ``fl`` one IEEE operation of ``T``, rounded to nearest).

Guarantee (make_sum_of_squared_deviations.tex): with ``e_m`` a bound on ``|m - mean|`` that
includes the rounding of the division (which OpenDP #2923 leaves out), ``R = (U + e_m) -
(L - e_m)`` and ``D = R * R``, the map ``floor(d_in / 2) * D (n - 1) / n + relaxation(n, 0, D)
+ 2 n e_sq + n e_m^2`` (every operation rounded up; ``e_sq`` bounds the rounding of one
deviation and its square) is a valid stability map to the absolute distance.  Every term is at
least OpenDP's, so the map is never below OpenDP's.
"""

from __future__ import annotations

import re
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.errors import MakeTransformationError, shown
from certdp.core.metrics import absolute_distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.numeric import (
    inf_add,
    inf_cast,
    inf_div,
    inf_mul,
    inf_sub,
    neg_inf_sub,
    round_rational,
    ulp,
)
from certdp.transformations._summation.float_summation import (
    as_float_array,
    float_sum,
    parse_summation,
    refuse_overflow,
    size_in_type,
    sum_error,
    sum_relaxation,
)
from certdp.transformations._summation.sized_floats import sized_float_domain

__all__ = ["make_sum_of_squared_deviations", "then_sum_of_squared_deviations"]


# proof: begin arguments
def sized_float_arguments(input_domain, input_metric, S):
    """``(summation, lower, upper, size)`` of a sized vector domain of bounded floats under the
    symmetric or insert-delete distance, with the strategy ``S`` (``"...<T>"`` takes the
    domain's type); raises a typed error naming the parameter otherwise."""
    element_domain, size = sized_float_domain(input_domain, input_metric)  # label: sized-domain
    T = element_domain.T.name
    if isinstance(S, str):
        S = re.sub(r"<\s*T\s*>", f"<{T}>", S)  # label: strategy-type
    summation = parse_summation(S)
    if summation.algorithm not in ("Sequential", "Pairwise") or summation.T != T:
        raise MakeTransformationError(  # label: strategy-check
            f"must be Sequential<{T}> or Pairwise<{T}> (the domain's type), got {shown(S)}",
            parameter="S",
        )
    lower, upper = element_domain.bounds
    return summation, float(lower), float(upper), size


# proof: end arguments


# proof: begin constructor
@certified
def make_sum_of_squared_deviations(input_domain, input_metric, S="Pairwise<T>") -> Transformation:
    """The sum of squared deviations from the mean of ``size`` floats in ``bounds``, computed
    in ``T`` with the summation ``S``; stability ``floor(d_in / 2) * D (n - 1) / n +
    relaxation + 2 n e_sq + n e_m^2``, rounded up.

    Deliberately more conservative than OpenDP 0.16 (whose map leaves out the rounding of the
    mean, #2923): near large bounds the term ``n e_m^2``, built from the worst-case summation
    error, dominates (about 175 times OpenDP's map at bounds ``(2^50, 2^50 + 1)``, ``n = 1024``).
    Unlike OpenDP it accepts the insert-delete distance, ``size = 2^24`` in ``f32`` and
    ``float32`` arrays on an ``f64`` domain, and refuses out-of-bounds or non-float data."""
    summation, lower, upper, size = sized_float_arguments(input_domain, input_metric, S)
    T = summation.T
    refuse_overflow(summation, size, lower, upper)  # label: overflow-records
    n = size_in_type(size, summation)  # label: n
    unit = 2.0 ** -(summation.mantissa_bits + 1)  # label: unit
    tiny = ulp(0.0, T)  # label: tiny
    magnitude = max(abs(lower), upper)  # label: magnitude
    # |m - mean| <= e + unit * (M + e) + tiny, e the summation error over n
    sum_mean_error = inf_div(sum_error(summation, size, lower, upper), n, T)  # label: e
    mean_error = inf_add(  # label: e-m
        sum_mean_error, inf_add(inf_mul(unit, inf_add(magnitude, sum_mean_error, T), T), tiny, T), T
    )
    spread = inf_sub(  # label: spread
        inf_add(upper, mean_error, T), neg_inf_sub(lower, mean_error, T), T
    )
    square = inf_mul(spread, spread, T)  # label: square
    sensitivity = inf_div(inf_mul(square, inf_sub(n, 1.0, T), T), n, T)  # label: sensitivity
    refuse_overflow(summation, size, 0.0, square)  # label: overflow-squares
    relaxation = sum_relaxation(summation, size, 0.0, square)  # label: relaxation
    growth = round_rational((1 + Fraction(unit)) ** 3 - 1, T, "up")  # label: growth
    square_error = inf_add(inf_mul(square, growth, T), tiny, T)  # label: e-sq
    rounding = inf_add(  # label: rounding
        inf_mul(inf_mul(2.0, n, T), square_error, T),
        inf_mul(n, inf_mul(mean_error, mean_error, T), T),
        T,
    )
    offset = inf_add(relaxation, rounding, T)  # label: offset
    scalar = summation.dtype.type

    def function(data):
        values = as_float_array(data, summation)
        mean = scalar(float_sum(summation, values)) / scalar(n)  # label: mean
        deviations = values - mean  # label: deviations
        return float_sum(summation, deviations * deviations)  # label: ssd

    def stability_map(d_in):
        changed = inf_cast(d_in // 2, T)  # label: changed
        return inf_add(inf_mul(changed, sensitivity, T), offset, T)  # label: map

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=T, nan=False),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=absolute_distance(T),  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_sum_of_squared_deviations = partial_constructor(make_sum_of_squared_deviations)
