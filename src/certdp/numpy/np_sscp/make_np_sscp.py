"""``make_np_sscp``: the matrix ``X^T X`` of sums of squares and cross products of a 2-D array.

Guarantee (``make_np_sscp.tex``): over an ``array2_domain`` of f32 or f64 entries without NaN,
with known columns and (when a norm is given) the origin 0, the function is ``sscp_matrix``
(fixed order, see ``numpy/sscp_domain``) and lands in the ``_sscp_domain`` carrying the input's
``num_columns``, ``norm``, ``p``, ``size`` and ``T``.  The output metric is the symmetric
distance read in record space: two matrices are ``d``-close when they are ``sscp_matrix`` of
datasets of the input domain that are ``d``-close; the map is ``d_in -> d_in``.  The rounding of
the matrix is not part of this map: a consumer that adds noise calibrated to a norm of the
matrix must bound it.
"""

from __future__ import annotations

import numpy as np

from certdp.contracts import certified
from certdp.core.errors import MakeTransformationError, shown
from certdp.core.exact_type import type_is
from certdp.core.metrics import SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.numpy.array2_domain.array2_domain import is_array2_domain
from certdp.numpy.sscp_domain.sscp_domain import MAX_FEATURES, _sscp_domain, sscp_matrix

__all__ = ["make_np_sscp", "then_np_sscp"]


# proof: begin constructor
@certified
def make_np_sscp(input_domain, input_metric) -> Transformation:
    """The matrix ``X^T X`` of a 2-D f32/f64 array, computed row by row in order; its output
    metric is the symmetric distance between the source datasets (map ``d_in -> d_in``)."""
    if not is_array2_domain(input_domain):  # label: domain-check
        raise MakeTransformationError(
            f"must be an array2_domain, got {shown(input_domain)}", parameter="input_domain"
        )
    if not type_is(input_metric, SymmetricDistance):  # label: metric-check
        raise MakeTransformationError(
            f"must be symmetric_distance(), got {shown(input_metric)}", parameter="input_metric"
        )
    if not input_domain.T.is_float:  # label: float-check
        raise MakeTransformationError(
            f"must hold f32 or f64 entries, not {input_domain.T}", parameter="input_domain"
        )
    if input_domain.nan:  # label: nan-check
        raise MakeTransformationError(
            "must not contain NaN (array2_domain(nan=False))", parameter="input_domain"
        )
    if input_domain.num_columns is None:  # label: columns-check
        raise MakeTransformationError(
            "must have a known number of columns (array2_domain(num_columns=...))",
            parameter="input_domain",
        )
    if input_domain.origin is not None and np.any(input_domain.origin != 0):  # label: origin-check
        raise MakeTransformationError(
            "the norm ball must be centred at 0: the output domain has no origin",
            parameter="input_domain",
        )
    if input_domain.num_columns > MAX_FEATURES:  # label: width-check
        raise MakeTransformationError(
            f"must have at most {MAX_FEATURES} columns (the output is a square matrix of that "
            "width)",
            parameter="input_domain",
        )
    output_domain = _sscp_domain(  # label: output-domain
        num_features=input_domain.num_columns,
        norm=input_domain.norm,
        p=input_domain.p,
        size=input_domain.size,
        T=input_domain.T,
    )

    def function(x):
        return sscp_matrix(x)  # label: function

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=output_domain,
        function=function,
        input_metric=input_metric,
        output_metric=input_metric,  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_np_sscp = partial_constructor(make_np_sscp)
