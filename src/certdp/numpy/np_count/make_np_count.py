"""``make_np_count``: the number of rows of a 2-D array, as an ``i32``.

Guarantee (``make_np_count.tex``): over an ``array2_domain`` under the symmetric distance, the
row count, saturated at ``i32``'s maximum, is ``map(d_in)``-close in the absolute distance,
where ``map(d_in) = d_in`` (refused above ``i32``'s maximum) when the size is unknown and
``map(d_in) = 0`` when the domain fixes the size (every member then has that many rows).
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.errors import ArithmeticOverflowError, MakeTransformationError, shown
from certdp.core.exact_type import type_is
from certdp.core.metrics import SymmetricDistance, absolute_distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.numpy.array2_domain.array2_domain import is_array2_domain

__all__ = ["make_np_count", "then_np_count"]


# proof: begin constructor
@certified
def make_np_count(input_domain, input_metric) -> Transformation:
    """Count the rows of a 2-D array as an ``i32`` (saturating); stability ``d_in -> d_in``,
    or ``d_in -> 0`` when ``input_domain`` fixes the size."""
    if not is_array2_domain(input_domain):  # label: domain-check
        raise MakeTransformationError(
            f"must be an array2_domain, got {shown(input_domain)}", parameter="input_domain"
        )
    if not type_is(input_metric, SymmetricDistance):  # label: metric-check
        raise MakeTransformationError(
            f"must be symmetric_distance(), got {shown(input_metric)}", parameter="input_metric"
        )
    TO = carrier("i32")  # label: output-type
    cap = TO.max  # label: cap
    size = input_domain.size  # label: size

    def function(x):
        return min(int(x.shape[0]), cap)  # label: function

    def stability_map(d_in):
        if size is not None:
            return 0  # label: map-known
        if d_in > cap:  # label: map-checked
            raise ArithmeticOverflowError(
                f"{shown(d_in)} is not a value of i32, the type of the output distance",
                parameter="d_in",
            )
        return d_in  # label: map-unknown

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=TO, nan=False),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=absolute_distance(TO),  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_np_count = partial_constructor(make_np_count)
