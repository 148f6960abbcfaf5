"""``make_variance``: the sum of squared deviations of ``n`` floats in ``[L, U]`` divided by
``n - ddof``, computed in ``T`` as OpenDP 0.16 computes it.

As in OpenDP 0.16, the sum of squared deviations is always summed pairwise (``S`` names the
type ``T``, and must name a Sequential or Pairwise strategy of it); the result is clamped to
``[0, B]`` with ``B = (U - L)^2 / 4 * n`` (Popoviciu's inequality, rounded up) and multiplied by
``c = 1 / (n - ddof)`` rounded to nearest, the product rounded to nearest.

Guarantee (make_variance.tex): ``d_in -> c * ssd_map(d_in) + ulp(w)`` (rounded up) is a valid
stability map to the absolute distance, where ``ssd_map`` is the map of
make_sum_of_squared_deviations (which accounts for every rounding of that computation) and
``w >= c * B`` bounds the magnitude of every product, so ``ulp(w)`` bounds the rounding of both.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.errors import MakeTransformationError, shown, type_mismatch
from certdp.core.metrics import absolute_distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.numeric import inf_add, inf_div, inf_mul, inf_sub, round_rational, ulp
from certdp.transformations.sum_of_squared_deviations.make_sum_of_squared_deviations import (
    make_sum_of_squared_deviations,
    sized_float_arguments,
)

__all__ = ["make_variance", "then_variance"]


# proof: begin constructor
@certified
def make_variance(input_domain, input_metric, ddof=1, S="Pairwise<T>") -> Transformation:
    """The variance of ``size`` floats in ``bounds`` with ``ddof`` delta degrees of freedom:
    the pairwise sum of squared deviations, clamped to ``[0, B]``, times ``1 / (size - ddof)``
    (rounded to nearest); stability ``c * ssd_map(d_in) + ulp(w)``, rounded up.

    Deliberately more conservative than OpenDP 0.16 (see make_sum_of_squared_deviations: about
    100 to 175 times OpenDP's map near bounds ``2^20`` in ``f32`` to ``2^50`` in ``f64``).
    ``ddof=True`` is refused (OpenDP takes it as 1); ``size = 2^24`` in ``f32`` and ``float32``
    arrays on an ``f64`` domain are accepted (OpenDP refuses both)."""
    summation, lower, upper, size = sized_float_arguments(input_domain, input_metric, S)
    T = summation.T
    if isinstance(ddof, bool) or not isinstance(ddof, int):  # label: ddof-int
        raise type_mismatch(MakeTransformationError)(
            f"must be an integer, got {shown(ddof)}", parameter="ddof"
        )
    if ddof < 0:  # label: ddof-nonnegative
        raise MakeTransformationError(f"must be non-negative, got {shown(ddof)}", parameter="ddof")
    if ddof >= size:  # label: ddof-below-size
        raise MakeTransformationError(
            f"must be below the dataset size {shown(size)} (size - ddof must be positive), "
            f"got {shown(ddof)}",
            parameter="ddof",
        )
    squared = make_sum_of_squared_deviations(  # label: ssd
        input_domain, input_metric, S=f"Pairwise<{T}>"
    )
    reciprocal = round_rational(Fraction(1, size - ddof), T, "nearest")  # label: reciprocal
    n = float(size)
    spread = inf_sub(upper, lower, T)
    largest = inf_mul(inf_div(inf_mul(spread, spread, T), 4.0, T), n, T)  # label: popoviciu
    rounding = ulp(inf_mul(largest, reciprocal, T), T)  # label: rounding

    def function(ssd):
        clamped = min(max(ssd, 0.0), largest)  # label: clamp
        return round_rational(
            Fraction(clamped) * Fraction(reciprocal), T, "nearest"
        )  # label: product

    def stability_map(d_ssd):
        return inf_add(inf_mul(reciprocal, d_ssd, T), rounding, T)  # label: scaled-map

    scaled = Transformation(
        input_domain=squared.output_domain,
        output_domain=atom_domain(T=T, nan=False),  # label: output-domain
        function=function,
        input_metric=squared.output_metric,
        output_metric=absolute_distance(T),  # label: output-metric
        stability_map=stability_map,
    )
    return squared >> scaled  # label: chain


# proof: end constructor


then_variance = partial_constructor(make_variance)
