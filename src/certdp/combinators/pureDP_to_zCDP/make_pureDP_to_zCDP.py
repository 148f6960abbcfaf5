"""``make_pureDP_to_zCDP``: a pure-DP measurement seen under zCDP.

Guarantee (make_pureDP_to_zCDP.tex): for a measurement whose output measure is
MaxDivergence, the returned measurement has the same function and the zero-concentrated
divergence as output measure, with the privacy map ``d_in -> map(d_in)^2 / 2`` (the exact
value rounded up once), which is valid (Bun and Steinke 2016, Proposition 3.3).
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.conversion import NUMPY_FLOAT_TYPES, NUMPY_INTEGER_TYPES, exact_scalar
from certdp.core.errors import (
    ArithmeticOverflowError,
    FailedMapError,
    MakeMeasurementError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import is_exact_fraction, type_is
from certdp.core.measures import MaxDivergence, zero_concentrated_divergence
from certdp.core.transformation import Measurement, converted
from certdp.numeric import inf_cast

__all__ = ["make_pureDP_to_zCDP"]


# proof: begin constructor
@certified
def make_pureDP_to_zCDP(measurement) -> Measurement:
    """The same release, its epsilon turned into rho = epsilon^2 / 2."""
    if not isinstance(measurement, Measurement):  # label: is-measurement
        raise type_mismatch(MakeMeasurementError)("must be a measurement", parameter="measurement")
    if not isinstance(measurement.output_measure, MaxDivergence):  # label: measure-check
        raise MakeMeasurementError(
            f"output measure must be MaxDivergence, got {measurement.output_measure}",
            parameter="measurement",
        )

    def privacy_map(d_in) -> float:
        return convert(measurement.map(d_in))  # label: inner-map

    def convert(epsilon) -> float:
        kind = type(epsilon)
        if type_is(epsilon, int, *NUMPY_INTEGER_TYPES):  # label: int
            exact = Fraction(int(epsilon))
        elif type_is(epsilon, float, *NUMPY_FLOAT_TYPES):  # label: float
            if epsilon == math.inf:  # tested in its own format, no conversion to f64
                return math.inf  # label: infinite
            if epsilon != epsilon or epsilon == -math.inf:  # label: nan
                raise FailedMapError(
                    f"the inner epsilon must be a number >= 0, got {shown(epsilon)}",
                    parameter="measurement",
                )
            exact = Fraction(*epsilon.as_integer_ratio())  # label: float-exact
        elif kind is Fraction:  # one not as its constructor stores it: rebuilt, or refused
            exact = (
                epsilon
                if is_exact_fraction(epsilon)
                else exact_scalar(epsilon, "measurement", FailedMapError)
            )  # label: fraction
        else:  # bool, str, and every other type
            raise FailedMapError(
                f"the inner epsilon must be an int, float or Fraction, not {kind.__name__}",
                parameter="measurement",
            )
        if exact < 0:  # label: negative
            raise FailedMapError(
                f"the inner epsilon must be >= 0, got {shown(epsilon)}", parameter="measurement"
            )
        try:
            return inf_cast(exact**2 / 2, "f64")  # label: rho
        except ArithmeticOverflowError:
            return math.inf  # label: overflow

    converting = Measurement(
        input_domain=measurement.input_domain,
        function=measurement.invoke,  # label: function
        input_metric=measurement.input_metric,
        output_measure=zero_concentrated_divergence(),  # label: output-measure
        privacy_map=privacy_map,
    )
    converted(converting, measurement, convert)  # label: node
    return converting


# proof: end constructor
