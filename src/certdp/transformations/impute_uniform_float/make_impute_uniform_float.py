"""``make_impute_uniform_float``: replace every NaN record by a fresh draw of the float nearest to
a uniformly random real number in ``[lower, upper]``; keep the other records.

Guarantee (make_impute_uniform_float.tex): the draws are exact (the law of the nearest float to
a continuous uniform variable, from ``secrets`` bits), the output is a vector of non-NaN floats
of the same length, and ``d_in -> d_in`` is a valid stability map under the symmetric and the
insert-delete distance (a coupling that shares the draws of matched records).  As in OpenDP
0.16 it is a Transformation whose function is randomised.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, carrier_bound, vector_domain
from certdp.core.errors import DPError, MakeTransformationError, shown
from certdp.core.exact_type import type_is
from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.samplers.uniform import entropy_source
from certdp.transformations._cast import record_value

__all__ = ["make_impute_uniform_float", "then_impute_uniform_float"]


# proof: begin constructor
#: Per float type: (significand bits p, exponent of the smallest subnormal).  Every value of the
#: type, and every midpoint of two neighbouring values, is a multiple of 2**(tiny - 1).
_FORMATS = {"f32": (24, -149), "f64": (53, -1074)}


@certified
def make_impute_uniform_float(input_domain, input_metric, bounds) -> Transformation:
    """NaN records become the float nearest to a uniform real in ``bounds`` (drawn exactly,
    independently per record); other records are kept; stability ``d_in -> d_in``."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if type(element_domain) is not AtomDomain or not element_domain.T.is_float:
        raise MakeTransformationError(  # label: element-float
            f"elements must come from an atom_domain of a float type, got {element_domain}",
            parameter="input_domain",
        )
    if not isinstance(input_metric, (SymmetricDistance, InsertDeleteDistance)):
        raise MakeTransformationError(  # label: metric-check
            f"must be symmetric_distance() or insert_delete_distance(), got {input_metric}",
            parameter="input_metric",
        )
    T = element_domain.T
    if not type_is(bounds, tuple, list) or len(bounds) != 2:  # label: bounds-pair
        raise MakeTransformationError(
            f"must be a pair (lower, upper), got {shown(bounds)}", parameter="bounds"
        )
    try:
        lower = carrier_bound("lower bound", bounds[0], T)  # label: bounds-values
        upper = carrier_bound("upper bound", bounds[1], T)
    except DPError as error:
        raise MakeTransformationError(
            error.message.partition(": ")[2], parameter="bounds"
        ) from None
    if not lower < upper:  # label: bounds-order
        raise MakeTransformationError(
            f"lower {shown(lower)} must be smaller than upper {shown(upper)}", parameter="bounds"
        )
    p, tiny = _FORMATS[T.name]
    grain = Fraction(2) ** (tiny - 1)  # label: grain
    cells = int((Fraction(upper) - Fraction(lower)) / grain)  # label: cells

    def draw():
        k = entropy_source().below(cells)  # label: draw
        return _nearest(Fraction(lower) + (2 * k + 1) * grain / 2, p, tiny)  # label: centre

    def function(data):
        values = (record_value(record) for record in data)  # label: values
        return [draw() if math.isnan(value) else value for value in values]  # label: impute

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=vector_domain(  # label: output-domain
            atom_domain(T=T.name, nan=False), size=input_domain.size
        ),
        function=function,
        input_metric=input_metric,
        output_metric=input_metric,  # label: output-metric
        stability_map=stability_map,
    )


def _nearest(q: Fraction, p: int, tiny: int) -> float:
    """The float with ``p`` significand bits and smallest exponent ``tiny`` nearest to the
    positive or negative rational ``q`` (ties to even), for ``|q|`` below the largest such
    float; computed on integers."""
    magnitude = abs(q)
    if magnitude == 0:
        return 0.0
    top = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()  # label: top
    if Fraction(2) ** top > magnitude:
        top -= 1  # now 2**top <= magnitude < 2**(top + 1)
    shift = max(top - (p - 1), tiny)  # label: spacing
    scaled = magnitude / Fraction(2) ** shift
    whole = math.floor(scaled)  # label: whole
    rest = scaled - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2 == 1):  # label: round
        whole += 1
    result = math.ldexp(whole, shift)  # label: ldexp
    return -result if q < 0 else result  # label: sign


# proof: end constructor


then_impute_uniform_float = partial_constructor(make_impute_uniform_float)
