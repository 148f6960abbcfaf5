"""``make_laplace``: the Laplace mechanism, dispatched on the input domain as in OpenDP.

Guarantee (make_laplace.tex): ``make_laplace(input_domain, input_metric, scale, k)``
returns the measurement of the constructor that fits the input domain, whose
privacy map is valid for the max-divergence:

===============================================  ========================================
``input_domain``                                 constructor
===============================================  ========================================
``atom_domain(T=f32|f64, nan=False)``            :func:`make_float_laplace_cks20`
``vector_domain(atom_domain(T=f32|f64, ...))``   :func:`make_vector_float_laplace_cks20`
``atom_domain(T=<integer type>)``                :func:`make_integer_laplace`
``vector_domain(atom_domain(T=<integer type>))`` :func:`make_vector_integer_laplace`
===============================================  ========================================

Integer data may also be measured by a float distance type, which OpenDP 0.16's
``make_laplace`` accepts too (``make_laplace(atom_domain(T=i32), absolute_distance(T=f64),
scale)``); floats need their own type.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, Domain, VectorDomain
from certdp.core.errors import MakeMeasurementError, shown, type_mismatch
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements.float_laplace_cks20 import make_float_laplace_cks20
from certdp.measurements.integer_laplace import make_integer_laplace
from certdp.measurements.vector_float_laplace_cks20 import make_vector_float_laplace_cks20
from certdp.measurements.vector_integer_laplace import make_vector_integer_laplace

__all__ = ["make_laplace", "then_laplace"]


# proof: begin constructor
#: The constructor for each shape of input domain and nature of its carrier type.
LAPLACE_CONSTRUCTORS = {
    ("atom", "float"): make_float_laplace_cks20,  # label: atom-float
    ("vector", "float"): make_vector_float_laplace_cks20,  # label: vector-float
    ("atom", "integer"): make_integer_laplace,  # label: atom-integer
    ("vector", "integer"): make_vector_integer_laplace,  # label: vector-integer
}


def choose_laplace_constructor(input_domain):
    """The Laplace constructor for ``input_domain``; a typed error if none fits."""
    atom = input_domain.element_domain if isinstance(input_domain, VectorDomain) else input_domain
    if not isinstance(atom, AtomDomain) or not atom.T.is_numeric:  # label: numeric-atoms
        error = MakeMeasurementError
        if not isinstance(input_domain, Domain):  # OpenDP raises TypeError for a non-domain
            error = type_mismatch(MakeMeasurementError)
        raise error(
            "must be atom_domain(T=...) or vector_domain(atom_domain(T=...)) of a numeric type, "
            f"got {shown(input_domain)}",
            parameter="input_domain",
        )
    shape = "vector" if isinstance(input_domain, VectorDomain) else "atom"
    nature = "float" if atom.T.is_float else "integer"
    return LAPLACE_CONSTRUCTORS[shape, nature]  # label: dispatch


@certified
def make_laplace(input_domain, input_metric, scale, k=None) -> Measurement:
    """The Laplace mechanism: exact discrete Laplace noise of ``scale`` (on ``2^k Z`` for
    floats)."""
    constructor = choose_laplace_constructor(input_domain)  # label: choose
    return constructor(input_domain, input_metric, scale, k)  # label: delegate


# proof: end constructor


then_laplace = partial_constructor(make_laplace)
