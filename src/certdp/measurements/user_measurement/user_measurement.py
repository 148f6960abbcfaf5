"""``make_user_measurement`` (OpenDP 0.16's name and signature): a measurement built from the
user's function and privacy map.

NOT PROVEN, NOT AUDITED.  certdp cannot prove anything about code it is handed: the privacy of
the result is exactly the user's claim that ``function`` is ``privacy_map``-private under
``output_measure``.  That is why it requires the features ``"contrib"`` and
``"honest-but-curious"`` (as OpenDP does) and why it is not a certified constructor (no proof,
no contract, no audit row).  What certdp does guarantee is that the callbacks are called safely:
an exception of the function (a DPError included; KeyboardInterrupt and SystemExit pass)
becomes :class:`FailedFunctionError` (its class name only, never its text, which may show the
data; the typed error is raised after the exception is dropped, so it is neither its
``__context__`` nor its ``__cause__``), and the map's value is checked as a distance of the
measure (a non-negative number rounded up into f64, a pair of them under ``Approximate``, a
curve under ``RenyiDivergence``, checked when called), else :class:`FailedMapError`.
A value the boundary converts (a NumPy scalar, a ``Decimal``, a ``Fraction`` that is not exact)
is first made exact by ``exact_scalar`` or refused there; so a ``Fraction`` with a numerator or
denominator of more than ``MAX_EXACT_BITS`` (14000) bits is refused, not rounded up (no binary64
loss needs more than 1075 bits), its size tested in constant time before anything is reduced.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.core.conversion import exact_scalar, is_foreign_number
from certdp.core.domains import Domain
from certdp.core.errors import (
    ArithmeticOverflowError,
    DPError,
    FailedFunctionError,
    FailedMapError,
    MakeMeasurementError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import is_exact_fraction, type_is
from certdp.core.features import assert_features
from certdp.core.measures import ApproximateDivergence, MaxDivergence, ZeroConcentratedDivergence
from certdp.core.metrics import Metric
from certdp.core.partial import partial_constructor
from certdp.core.postprocess import Function
from certdp.core.renyi_divergence import RenyiDivergence
from certdp.core.transformation import Measurement
from certdp.core.user_callbacks import require_kinds, user_call
from certdp.measurements._renyi import RenyiCurve
from certdp.numeric import inf_cast

__all__ = ["make_user_measurement", "then_user_measurement", "user_distance"]

#: The measures whose distances certdp checks; a user measurement under another is refused.
_SCALAR = (MaxDivergence, ZeroConcentratedDivergence)


def make_user_measurement(
    input_domain, input_metric, output_measure, function, privacy_map, TO="ExtrinsicObject"
) -> Measurement:
    """A measurement releasing ``function(x)`` (converted to ``TO``) with map ``privacy_map``,
    both the user's and trusted, not proven (features ``contrib`` and ``honest-but-curious``).
    ``output_measure`` is MaxDivergence, ZeroConcentratedDivergence, ``Approximate`` of either,
    or RenyiDivergence (whose map returns a curve ``alpha -> epsilon``)."""
    assert_features(
        "contrib",
        "honest-but-curious",
        reason="the user's function and map are trusted, not proven",
    )
    require_kinds(
        MakeMeasurementError,
        ((input_domain, Domain, "input_domain"), (input_metric, Metric, "input_metric")),
    )
    if not _checked_measure(output_measure):
        raise MakeMeasurementError(
            "must be MaxDivergence, ZeroConcentratedDivergence, Approximate of either, or "
            f"RenyiDivergence, got {shown(output_measure)}",
            parameter="output_measure",
        )
    for value, parameter in ((function, "function"), (privacy_map, "privacy_map")):
        if not callable(value):
            raise type_mismatch(MakeMeasurementError)(
                f"must be callable, got {type(value).__name__}", parameter=parameter
            )
    convert = Function(_identity, TO)  # TO checked here, as new_function checks it

    def checked_function(arg):
        returned, value = user_call(function, arg)
        if not returned:
            raise FailedFunctionError(f"the user's function raised {value}", parameter="function")
        return convert(value)

    def checked_map(d_in):
        returned, value = user_call(privacy_map, d_in, keep=DPError)
        if not returned:
            raise FailedMapError(f"the user's privacy map raised {value}", parameter="privacy_map")
        return user_distance(output_measure, value)

    return Measurement(input_domain, checked_function, input_metric, output_measure, checked_map)


then_user_measurement = partial_constructor(make_user_measurement)


def _identity(value):
    return value


def _checked_measure(measure) -> bool:
    if type_is(measure, *_SCALAR) or type(measure) is RenyiDivergence:
        return True
    return type(measure) is ApproximateDivergence and type_is(measure.measure, *_SCALAR)


def user_distance(measure, value):
    """``value``, a distance the user's map returned, checked under ``measure``: a number
    ``>= 0`` (not NaN) rounded up into f64 (``+inf`` kept), a pair of them under
    ``Approximate``, a :class:`RenyiCurve` of a callable under ``RenyiDivergence``; a typed
    :class:`FailedMapError` otherwise."""
    if type(measure) is RenyiDivergence:
        if not callable(value):
            raise FailedMapError(
                "a privacy loss under RenyiDivergence must be a curve (a callable alpha -> "
                "epsilon); "
                f"the user's privacy map returned a {type(value).__name__}",
                parameter="privacy_map",
            )
        return RenyiCurve([value], user=True)
    if type(measure) is ApproximateDivergence:
        if type(value) is not tuple or len(value) != 2:
            raise FailedMapError(
                f"the user's privacy map must return a pair (d, delta) under {measure!r}, got "
                f"{shown(value)}",
                parameter="privacy_map",
            )
        return (_number(value[0]), _number(value[1]))
    return _number(value)


def _number(value) -> float:
    if is_foreign_number(value):
        value = exact_scalar(value, "privacy_map", FailedMapError)
    kind = type(value)
    exact = type_is(value, int, float) or is_exact_fraction(value)
    if not exact or value != value or value < 0:
        raise FailedMapError(
            f"the user's privacy map must return a non-negative number, got {shown(value)}",
            parameter="privacy_map",
        )
    if kind is float and math.isinf(value):
        return value
    try:
        return inf_cast(Fraction(value), "f64")  # label: user-round-up
    except ArithmeticOverflowError:
        return math.inf
