"""``make_mean``: the mean of a dataset of ``n`` floats in ``[L, U]``, ``n`` known.

As OpenDP 0.16 computes it: the float sum of ``make_sum``, clamped to ``[n L, n U]`` (rounded
outward), times ``1 / n`` rounded to the nearest float ``c``, the product rounded to nearest.

Guarantee: ``d_in -> c * sum_map(d_in) + ulp(w)`` (every operation rounded up) is a valid
stability map to the absolute distance, where ``sum_map`` is the sum's stability map and
``w >= c * max(|n L|, n U)`` bounds the magnitude of every product, so that ``ulp(w)`` bounds
the rounding of both products.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.errors import MakeTransformationError, shown
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.numeric import (
    inf_add,
    inf_mul,
    is_representable,
    neg_inf_mul,
    round_rational,
    ulp,
)
from certdp.transformations._summation.sized_floats import sized_float_domain
from certdp.transformations.sum import make_sum

__all__ = ["make_mean", "then_mean"]


# proof: begin constructor
@certified
def make_mean(input_domain, input_metric) -> Transformation:
    """The mean of ``size`` floats in ``bounds``: the sum times ``1 / size`` (rounded to
    nearest); stability ``c * sum_map(d_in) + ulp(w)``, rounded up."""
    element_domain, size = sized_float_domain(input_domain, input_metric)  # label: arguments
    T = element_domain.T.name
    if not is_representable(size, T):  # label: size-exact
        raise MakeTransformationError(
            f"the size {shown(size)} is not exactly a value of {T}", parameter="input_domain"
        )
    lower, upper = element_domain.bounds
    summed = make_sum(input_domain, input_metric)  # label: sum
    n = float(size)
    reciprocal = round_rational(Fraction(1, size), T, "nearest")  # label: reciprocal
    sum_lower = neg_inf_mul(n, lower, T)  # label: sum-lower
    sum_upper = inf_mul(n, upper, T)  # label: sum-upper
    largest_output = inf_mul(max(abs(sum_lower), sum_upper), reciprocal, T)  # label: w
    rounding = ulp(largest_output, T)  # label: rounding

    def function(total):
        clamped = min(max(total, sum_lower), sum_upper)  # label: clamp
        exact = Fraction(clamped) * Fraction(reciprocal)
        return round_rational(exact, T, "nearest")  # label: product

    def stability_map(d_sum):
        return inf_add(inf_mul(reciprocal, d_sum, T), rounding, T)  # label: scaled-map

    scaled = Transformation(
        input_domain=summed.output_domain,
        output_domain=atom_domain(T=T, nan=False),  # label: output-domain
        function=function,
        input_metric=summed.output_metric,
        output_metric=summed.output_metric,  # label: output-metric
        stability_map=stability_map,
    )
    return summed >> scaled  # label: chain


# proof: end constructor


then_mean = partial_constructor(make_mean)
