"""``make_count_by_categories``: how many records fall in each of the given categories (and,
with ``null_category``, how many in none of them), as a vector of the numeric type ``TOA``.

Guarantee: each count saturates at the largest count ``TOA`` holds exactly (``TOA``'s maximum
for integers, ``2**24`` / ``2**53`` for f32 / f64), and ``d_in -> d_in`` (cast into the output
metric's type: checked for integers, rounded up for floats) is a valid stability map from the
symmetric or the insert-delete distance to the L1 and to the L2 distance (one record changes
one count by one, so ``d_in`` records change the vector by at most ``d_in`` in both norms,
``d_in`` being reached when they all fall in one category).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from certdp.contracts import certified
from certdp.core.admission import sequence_parameter
from certdp.core.conversion import exact_argument
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import (
    ArithmeticOverflowError,
    DPError,
    MakeTransformationError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import type_is
from certdp.core.metrics import L1Distance, L2Distance, l1_distance, l2_distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.numeric import inf_cast
from certdp.transformations._counting import hashable_records, largest_count, records
from certdp.transformations._dataset import dataset_input

__all__ = ["make_count_by_categories", "then_count_by_categories"]


# proof: begin arguments
def _output_metric(MO):
    """The L1 or L2 distance ``MO`` names: ``"L1Distance<T>"``, ``"L2Distance<T>"`` (``T`` any
    numeric type name, ``int`` and ``float`` included), or such a metric itself."""
    if type_is(MO, L1Distance, L2Distance):  # label: mo-object
        return MO
    if type(MO) is str:
        text = MO.replace(" ", "")
        for prefix, build in (("L1Distance<", l1_distance), ("L2Distance<", l2_distance)):
            if text.startswith(prefix) and text.endswith(">"):
                try:
                    return build(text[len(prefix) : -1])  # label: mo-parse
                except DPError as error:
                    raise MakeTransformationError(str(error), parameter="MO") from None
    raise type_mismatch(MakeTransformationError)(  # label: mo-refuse
        f"must be 'L1Distance<T>' or 'L2Distance<T>' for a numeric T, got {shown(MO)}",
        parameter="MO",
    )


def _categories(categories, T) -> list:
    """The categories as exact values of ``T``, all distinct; a typed refusal otherwise."""
    categories = exact_argument(categories, "categories", MakeTransformationError)
    if type(categories) is np.ndarray and categories.ndim == 1:
        categories = categories.tolist()  # label: categories-array
    categories = sequence_parameter(categories)  # label: categories-series
    if not type_is(categories, list, tuple):  # label: categories-sequence
        raise type_mismatch(MakeTransformationError)(
            f"must be a list of values of {T}, got {shown(categories)}", parameter="categories"
        )
    exact = [T.exact(category) for category in categories]  # label: categories-exact
    if any(category is None for category in exact):
        raise type_mismatch(MakeTransformationError)(
            f"every category must be a value of {T}", parameter="categories"
        )
    if len(set(exact)) != len(exact):  # label: categories-distinct
        raise MakeTransformationError("categories must be distinct", parameter="categories")
    return exact


# proof: end arguments


# proof: begin constructor
@certified
def make_count_by_categories(
    input_domain, input_metric, categories, null_category=True, MO="L1Distance<int>", TOA="int"
) -> Transformation:
    """The count of each category's records, in the order of ``categories``, then (if
    ``null_category``) of the records in none, as ``TOA``s saturating at the largest count
    ``TOA`` holds exactly; stability ``d_in -> d_in`` to the L1 and the L2 distance."""
    element = dataset_input(input_domain, input_metric)  # label: dataset-input
    hashable_records(element)  # label: hashable
    categories = _categories(categories, element.T)  # label: categories
    null_category = exact_argument(null_category, "null_category", MakeTransformationError)
    if type(null_category) is not bool:  # label: null-flag
        raise type_mismatch(MakeTransformationError)(
            f"must be True or False, got {shown(null_category)}", parameter="null_category"
        )
    output_metric = _output_metric(MO)  # label: output-metric
    try:
        TOA = carrier(TOA)  # label: output-type
    except DPError as error:
        raise MakeTransformationError(str(error), parameter="TOA") from None
    if not TOA.is_numeric:  # label: output-type-numeric
        raise MakeTransformationError(f"must be a numeric type, not {TOA}", parameter="TOA")
    cap = largest_count(TOA)  # label: cap
    convert = int if TOA.is_integer else float
    MT = output_metric.T

    def function(data):
        rows = records(data)  # label: records
        histogram = Counter(rows)  # label: histogram
        counts = [histogram[category] for category in categories]  # label: counts
        if null_category:
            counts.append(len(rows) - sum(counts))  # label: null-count
        return [convert(min(count, cap)) for count in counts]  # label: saturate

    def stability_map(d_in):
        if MT.is_float:
            return inf_cast(d_in, MT.name)  # label: map-float
        if d_in > MT.max:  # label: map-int-checked
            raise ArithmeticOverflowError(
                f"{shown(d_in)} is not a value of {MT}, the type of the output distance",
                parameter="d_in",
            )
        return d_in  # label: map-int

    return Transformation(
        input_domain=input_domain,
        output_domain=vector_domain(atom_domain(T=TOA, nan=False)),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=output_metric,
        stability_map=stability_map,
    )


# proof: end constructor


then_count_by_categories = partial_constructor(make_count_by_categories)
