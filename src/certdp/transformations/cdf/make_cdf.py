"""``make_cdf``: noisy float counts to their cumulative distribution.

Guarantee (make_cdf.tex): the Function maps a non-empty vector ``x`` of floats (not NaN) to the
vector ``c_i / c_{n-1}`` where ``c_i = (...((0 + x_0) + x_1) ... + x_i)``, every operation an
IEEE operation of the format ``TA`` (round to nearest even) on the values rounded to ``TA`` --
the arithmetic OpenDP 0.16 runs, so the same numbers.  A zero or infinite total gives NaN or an
infinity as IEEE division does (OpenDP's numbers too).  It is a postprocessor: no privacy cost.
"""

from __future__ import annotations

import numpy as np

from certdp.contracts import certified
from certdp.core.errors import MakeTransformationError
from certdp.core.postprocess import Function
from certdp.transformations._postprocess.arguments import FORMAT, float_vector, type_name

__all__ = ["make_cdf"]


# proof: begin cdf
@certified
def make_cdf(TA="float") -> Function:
    """The Function ``x -> cumsum(x) / sum(x)`` in the float format ``TA`` (f32 or f64)."""
    TA = type_name(TA, "TA", ("f32", "f64"), MakeTransformationError)  # label: cdf-type

    def cdf(arg):
        values = float_vector(arg, TA)  # label: cdf-input
        total, cumulative = FORMAT[TA](0.0), []
        with np.errstate(all="ignore"):
            for value in values:
                total = total + value  # label: cdf-scan
                cumulative.append(total)
            last = cumulative[-1]
            return [float(c / last) for c in cumulative]  # label: cdf-divide

    return Function(cdf, f"Vec<{TA}>")  # label: cdf-function


# proof: end cdf
