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
from certdp.core.metrics import absolute_distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._counting import hashable_records, largest_count, records
from certdp.transformations._counting.count_type import count_map, count_type
from certdp.transformations._dataset import dataset_input

__all__ = ["make_count_distinct", "then_count_distinct"]


# proof: begin constructor
@certified
def make_count_distinct(input_domain, input_metric, TO="int") -> Transformation:
    """The number of distinct records as a ``TO`` (default ``"i32"``), saturating at the largest
    count ``TO`` holds exactly; stability ``d_in -> d_in``."""
    dataset_input(input_domain, input_metric)  # label: dataset-input
    hashable_records(input_domain.element_domain)  # label: hashable
    TO = count_type(TO)  # label: output-type
    cap = largest_count(TO)  # label: cap
    convert = int if TO.is_integer else float

    def function(data):
        return convert(min(len(set(records(data))), cap))  # label: function

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=TO, nan=False),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=absolute_distance(TO),  # label: output-metric
        stability_map=count_map(TO),  # label: map
    )


# proof: end constructor


then_count_distinct = partial_constructor(make_count_distinct)
