"""``make_count``: the number of records of a dataset, as a value of the numeric type ``TO``.

Guarantee: the count saturates at the largest count ``TO`` holds exactly (``TO``'s maximum for
integers, ``2**24`` / ``2**53`` for f32 / f64), and ``d_in -> d_in`` (cast into ``TO``: checked
for integers, rounded up for floats) is a valid stability map from the symmetric or the
insert-delete distance to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.metrics import absolute_distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._counting.count_type import count_map, count_type
from certdp.transformations._dataset import dataset_input

__all__ = ["make_count", "then_count", "largest_count"]


# proof: begin largest-count
def largest_count(TO) -> int:
    """The largest count a value of ``TO`` holds exactly, beyond which the count saturates:
    ``TO``'s maximum for integers, ``2**(mantissa bits + 1)`` for floats (every integer up to it
    is a float of ``TO``; the next one is not)."""
    return TO.max if TO.is_integer else 1 << (TO.mantissa_bits + 1)  # label: largest-count


# proof: end largest-count


# proof: begin constructor
@certified
def make_count(input_domain, input_metric, TO="i32") -> Transformation:
    """Count the records of a vector as a ``TO`` (default ``"i32"``), saturating at
    :func:`largest_count`; stability ``d_in -> d_in``."""
    dataset_input(input_domain, input_metric)  # label: dataset-input
    TO = count_type(TO)  # label: output-type
    cap = largest_count(TO)  # label: cap
    convert = int if TO.is_integer else float

    def function(data):
        return convert(min(len(data), cap))  # label: function

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=TO, nan=False),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=absolute_distance(TO),  # label: output-metric
        stability_map=count_map(TO),  # label: map
    )


# proof: end constructor


then_count = partial_constructor(make_count)
