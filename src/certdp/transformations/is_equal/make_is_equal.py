"""``make_is_equal``: elementwise equality with a fixed value.

Guarantee: for data under the symmetric or insert-delete distance, the map
``d_in -> d_in`` is a valid stability map (the transformation is 1-stable).
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain, carrier_constant, vector_domain
from certdp.core.errors import MakeTransformationError, shown, type_mismatch
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._dataset import dataset_input

__all__ = ["make_is_equal", "then_is_equal"]


# proof: begin constructor
@certified
def make_is_equal(input_domain, input_metric, value) -> Transformation:
    """Map each element ``x`` of a vector to ``x == value``; stability ``d_in -> d_in``."""
    element_domain = dataset_input(input_domain, input_metric)  # label: dataset-input
    converted = carrier_constant(value, element_domain.T)  # label: value-convert
    if converted is None:  # label: value-type
        raise type_mismatch(MakeTransformationError)(
            f"{shown(value)} is not a value of the carrier type {element_domain.T}",
            parameter="value",
        )
    value = converted

    def function(data):
        return [bool(element == value) for element in data]  # label: function

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=vector_domain(  # label: output-domain
            atom_domain(T="bool"), size=input_domain.size
        ),
        function=function,
        input_metric=input_metric,
        output_metric=input_metric,  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_is_equal = partial_constructor(make_is_equal)
