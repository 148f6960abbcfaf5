"""``make_split_lines``: a text (one ``str``) to the vector of its lines.

Guarantee (make_split_lines.tex): the output is a vector of strings, the lines of the text as
Rust's ``str::lines`` reads them (OpenDP's rule: ``"\\n"`` and ``"\\r\\n"`` end a line, a lone
``"\\r"`` does not, the final line ending is optional); under the symmetric distance, which reads a
text as the dataset of the same lines, ``d_in -> d_in`` is a valid stability map.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.metrics import symmetric_distance, text_lines
from certdp.core.transformation import Transformation

__all__ = ["make_split_lines"]


# proof: begin constructor
@certified
def make_split_lines() -> Transformation:
    """Split a text into its lines (``"\\n"`` or ``"\\r\\n"`` ends a line); stability
    ``d_in -> d_in`` under the symmetric distance."""

    def function(text):
        return text_lines(text)  # label: function

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=atom_domain(T="String"),  # label: input-domain
        output_domain=vector_domain(atom_domain(T="String")),  # label: output-domain
        function=function,
        input_metric=symmetric_distance(),  # label: metrics
        output_metric=symmetric_distance(),
        stability_map=stability_map,
    )


# proof: end constructor
