"""``make_randomized_response``: randomized response over ``k >= 2`` distinct categories.

Guarantee (make_randomized_response.tex): on a category the measurement releases it with
probability exactly ``prob`` and each of the ``k - 1`` others with probability exactly
``(1 - prob) / (k - 1)``; on any other value of ``T`` it releases a uniform category.  Under the
discrete distance its map is ``0`` for ``d_in < 1`` and otherwise the smallest f64
``>= |ln(prob (k - 1) / (1 - prob))|``, valid for the max-divergence.  ``prob`` must lie in
``[1/k, 1)``; the f64 nearest ``1/k`` is accepted too (OpenDP compares in floats), the absolute
value covering it.  Duplicate or NaN categories are refused.

Relation to OpenDP 0.16: OpenDP also accepts ``prob = 1`` (no privacy, map ``inf``); certdp
refuses it with ``MakeMeasurementError`` naming ``prob`` (issue #22: p outside (0, 1) is refused).
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.change_metrics import DiscreteDistance
from certdp.core.domains import atom_domain
from certdp.core.errors import FailedFunctionError, MakeMeasurementError, shown
from certdp.core.exact_type import type_is
from certdp.core.measures import MaxDivergence
from certdp.core.transformation import Measurement
from certdp.core.types import carrier, infer_type
from certdp.measurements._randomized_response.log_ratio import inf_scaled_abs_ln
from certdp.samplers.bernoulli import bernoulli_ratio
from certdp.samplers.uniform import entropy_source

__all__ = ["make_randomized_response"]


# proof: begin constructor
def category_list(categories, T) -> tuple:
    """``categories`` as a tuple of exact values of ``T``: at least two, distinct, no NaN."""
    if not type_is(categories, list, tuple):  # label: categories-shape
        raise MakeMeasurementError(
            f"must be a list of categories, got {shown(categories)}", parameter="categories"
        )
    if len(categories) < 2:  # label: categories-two
        raise MakeMeasurementError(
            f"must hold at least two categories, got {len(categories)}", parameter="categories"
        )
    if T is None:
        T = infer_type(categories[0])  # label: infer-T
    domain = atom_domain(T=carrier(T))  # label: category-domain
    try:
        values = tuple(domain.admit(value) for value in categories)  # label: categories-admit
    except FailedFunctionError:
        raise MakeMeasurementError(
            f"must all be values of {domain.T}", parameter="categories"
        ) from None
    if any(type(value) is float and math.isnan(value) for value in values):  # label: no-nan
        raise MakeMeasurementError("must not contain NaN", parameter="categories")
    if len(set(values)) != len(values):  # label: distinct
        raise MakeMeasurementError("must be distinct (no duplicates)", parameter="categories")
    return domain, values


@certified
def make_randomized_response(categories, prob, T=None) -> Measurement:
    """Release a category, replaced by a uniform other one with probability ``1 - prob``."""
    domain, values = category_list(categories, T)  # label: categories
    k = len(values)
    if (
        type(prob) is not float
        or not 0.0 < prob < 1.0  # NaN and the infinities fail here, before Fraction(prob)
        or not (Fraction(1, k) <= Fraction(prob) or prob == 1 / k)
    ):  # label: prob-check
        raise MakeMeasurementError(
            f"must be a float in [1/{k}, 1) (1/k the number of categories; 1 excluded), "
            f"got {shown(prob)}",
            parameter="prob",
        )
    keep = Fraction(prob)  # exact: prob is a dyadic rational  # label: keep
    index = {value: i for i, value in enumerate(values)}  # label: index

    def function(arg):
        source = entropy_source()
        i = index.get(arg)  # label: lookup
        if i is None:  # not a category: a uniform category  # label: outside
            return values[source.below(k)]
        if bernoulli_ratio(source, keep.numerator, keep.denominator):  # label: draw
            return values[i]  # label: truthful
        j = source.below(k - 1)  # a uniform one of the k - 1 others  # label: other
        return values[j if j < i else j + 1]  # label: skip-self

    def privacy_map(d_in):
        if d_in < 1:  # only equal inputs are closer than 1  # label: map-zero
            return 0.0
        return inf_scaled_abs_ln(1, keep * (k - 1) / (1 - keep))  # label: map-loss

    return Measurement(
        input_domain=domain,  # label: input-domain
        function=function,
        input_metric=DiscreteDistance(),  # label: input-metric
        output_measure=MaxDivergence(),  # label: output-measure
        privacy_map=privacy_map,
    )


# proof: end constructor
