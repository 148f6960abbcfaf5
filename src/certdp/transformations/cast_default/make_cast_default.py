"""``make_cast_default``: cast every record of a vector to ``TOA``, the default of ``TOA``
(``0``, ``0.0`` or ``False``) where the value has no ``TOA`` counterpart.

Guarantee: the output is a vector of ``TOA`` of the same length, and ``d_in -> d_in`` is a valid
stability map under the symmetric and the insert-delete distance (the transformation is
1-stable; transformations/_rowmap/rowmap.tex).  Numbers and booleans only: ``String`` is refused.
"""

from __future__ import annotations

import math

import numpy as np

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, nearest_binary32
from certdp.core.errors import DPError, MakeTransformationError
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_cast_default", "then_cast_default"]


# proof: begin constructor
@certified
def make_cast_default(input_domain, input_metric, TOA) -> Transformation:
    """Cast each record to ``TOA``: numbers to booleans by ``!= 0``, floats to integers by
    truncation, to ``f32`` by rounding to nearest; ``0`` where an integer is out of range or a
    float is NaN or infinite; stability ``d_in -> d_in``."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if not isinstance(element_domain, AtomDomain) or element_domain.T.name == "String":
        raise MakeTransformationError(  # label: element-is-number-or-bool
            f"elements must come from an atom_domain of a numeric type or bool (String casts "
            f"are not supported), got {element_domain}",
            parameter="input_domain",
        )
    try:
        TOA = carrier(TOA)  # label: output-type
    except DPError as error:
        raise MakeTransformationError(str(error), parameter="TOA") from None
    if TOA.name == "String":  # label: output-not-string
        raise MakeTransformationError(
            "String casts are not supported: TOA must be numeric or bool", parameter="TOA"
        )

    def cast(record):
        return _cast_value(_python(record), TOA)  # label: row

    output_element = atom_domain(T=TOA.name, nan=True if TOA.is_float else None)
    return make_row_by_row(input_domain, output_element, input_metric, cast)  # label: row-by-row


# proof: end constructor


# proof: begin cast-value
def _python(record):
    """The exact Python value (``int``, ``float`` or ``bool``) of a record."""
    return record.item() if isinstance(record, np.generic) else record  # label: item


def _cast_value(value, TOA):
    """``value`` (a Python ``int``, ``float`` or ``bool``) as a value of ``TOA``, or its
    default."""
    if TOA.name == "bool":
        return bool(value != 0)  # label: to-bool
    if TOA.is_integer:
        if isinstance(value, float):
            if not math.isfinite(value):  # label: int-non-finite
                return 0
            value = math.trunc(value)  # label: int-trunc
        value = int(value)  # label: int-exact
        return value if TOA.min <= value <= TOA.max else 0  # label: int-range
    if isinstance(value, float):  # a float to a float type
        return value if TOA.name == "f64" else nearest_binary32(value)  # label: float-float
    value = int(value)  # label: float-from-int
    return float(value) if TOA.name == "f64" else _int_to_binary32(value)  # label: int-float


def _int_to_binary32(n: int) -> float:
    """The binary32 value nearest to the integer ``n`` (ties to even; ``+-inf`` past the
    largest), computed on integers so that nothing is rounded twice."""
    magnitude = abs(n)
    shift = max(magnitude.bit_length() - 24, 0)  # label: b32-shift
    if shift:
        quotient, remainder = divmod(magnitude, 1 << shift)
        half = 1 << (shift - 1)
        if remainder > half or (remainder == half and quotient & 1):  # label: b32-round
            quotient += 1
        magnitude = quotient << shift
    result = math.inf if magnitude >= 1 << 128 else float(magnitude)  # label: b32-overflow
    return -result if n < 0 else result  # label: b32-sign


# proof: end cast-value


then_cast_default = partial_constructor(make_cast_default)
