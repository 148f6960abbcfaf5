"""``make_count_distinct``: the number of distinct records of a dataset, as a value of the numeric
type ``TO``.

Guarantee: the count saturates at the largest count ``TO`` holds exactly, and ``d_in -> d_in``
(cast into ``TO``: checked for integers, rounded up for floats) is a valid stability map from the
symmetric or the insert-delete distance to the absolute distance: adding or removing one record
changes the number of distinct records by at most one.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.errors import ArithmeticOverflowError, DPError, MakeTransformationError, shown
from certdp.core.metrics import absolute_distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.numeric import inf_cast
from certdp.transformations._counting import hashable_records, largest_count, records
from certdp.transformations._dataset import dataset_input

__all__ = ["make_count_distinct", "then_count_distinct"]


# proof: begin constructor
@certified
def make_count_distinct(input_domain, input_metric, TO="int") -> Transformation:
    """The number of distinct records as a ``TO`` (default ``"i32"``), saturating at the largest
    count ``TO`` holds exactly; stability ``d_in -> d_in``."""
    dataset_input(input_domain, input_metric)  # label: dataset-input
    hashable_records(input_domain.element_domain)  # label: hashable
    try:
        TO = carrier(TO)  # label: output-type
    except DPError as error:
        raise MakeTransformationError(str(error), parameter="TO") from None
    if not TO.is_numeric:  # label: output-type-numeric
        raise MakeTransformationError(f"must be a numeric type, not {TO}", parameter="TO")
    cap = largest_count(TO)  # label: cap
    convert = int if TO.is_integer else float

    def function(data):
        return convert(min(len(set(records(data))), cap))  # label: function

    def stability_map(d_in):
        if TO.is_float:
            return inf_cast(d_in, TO.name)  # label: map-float
        if d_in > TO.max:  # label: map-int-checked
            raise ArithmeticOverflowError(
                f"{shown(d_in)} is not a value of {TO}, the type of the output distance",
                parameter="d_in",
            )
        return d_in  # label: map-int

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=TO, nan=False),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=absolute_distance(TO),  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_count_distinct = partial_constructor(make_count_distinct)
