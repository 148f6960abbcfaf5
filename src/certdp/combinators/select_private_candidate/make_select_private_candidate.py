"""``make_select_private_candidate``: run a scored measurement until a score clears a threshold.

Guarantee (make_select_private_candidate.tex): for a measurement whose output measure is
MaxDivergence and whose releases are pairs ``(score, candidate)``, a ``stop_probability`` in
``(0, 1)`` and a finite ``threshold``, the returned measurement invokes it repeatedly, releases
the first pair whose score is ``>= threshold``, and after each other pair stops with ``None``
with probability exactly ``stop_probability``; its privacy map is twice the inner one, rounded
up (Liu and Talwar 2019, Theorem 3.1).  ``stop_probability = 0`` (accepted by OpenDP 0.16) is
refused: a run could then loop for ever.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from certdp.contracts import certified
from certdp.core.conversion import NUMPY_BINARY64_FLOATS, NUMPY_INTEGER_TYPES, exact_argument
from certdp.core.errors import (
    ArithmeticOverflowError,
    FailedFunctionError,
    FailedMapError,
    MakeMeasurementError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import is_exact_fraction, type_is
from certdp.core.measures import MaxDivergence
from certdp.core.transformation import Measurement
from certdp.numeric import inf_cast
from certdp.samplers.bernoulli import bernoulli_ratio
from certdp.samplers.uniform import entropy_source

__all__ = ["make_select_private_candidate"]


# proof: begin constructor
def _exact_number(value, parameter: str, error):
    """``value`` as an exact ``int``, ``float`` or ``Fraction`` (``np.longdouble`` exactly), its type tested exactly (a
    ``bool`` or any other type raises ``error``); NaN is returned as NaN."""
    kind = type(value)
    if type_is(value, int, *NUMPY_INTEGER_TYPES):  # label: number-int
        return int(value)
    if type_is(value, float, *NUMPY_BINARY64_FLOATS):  # label: number-float
        return float(value)
    if kind is np.longdouble:  # label: number-longdouble
        return exact_argument(value, parameter, error)
    if kind is Fraction:  # one not as its constructor stores it: rebuilt exactly, or refused
        return (
            value if is_exact_fraction(value) else exact_argument(value, parameter, error)
        )  # label: number-fraction
    raise type_mismatch(error)(
        f"must be an int, float or Fraction, not {kind.__name__}", parameter=parameter
    )


@certified
def make_select_private_candidate(measurement, stop_probability, threshold) -> Measurement:
    """The first release of ``measurement`` whose score is ``>= threshold``, or ``None`` when a
    stop drawn with probability ``stop_probability`` after a miss comes first; twice its
    epsilon. Any ``stop_probability`` in (0, 1) is accepted: the run ends with probability one,
    but a tiny one (say 5e-324) with a threshold never reached takes about 1/stop_probability
    passes, i.e. it does not end in practice (as in OpenDP)."""
    if not isinstance(measurement, Measurement):  # label: is-measurement
        raise type_mismatch(MakeMeasurementError)("must be a measurement", parameter="measurement")
    if not isinstance(measurement.output_measure, MaxDivergence):  # label: measure-check
        raise MakeMeasurementError(
            f"output measure must be MaxDivergence, got {measurement.output_measure}",
            parameter="measurement",
        )
    gamma = _exact_number(stop_probability, "stop_probability", MakeMeasurementError)
    if not 0 < gamma < 1:  # label: gamma-range
        raise MakeMeasurementError(
            f"must lie in (0, 1), got {shown(stop_probability)} (0 is refused: a run whose "
            "scores never reach the threshold would never end)",
            parameter="stop_probability",
        )
    gamma = Fraction(gamma)  # label: gamma-exact
    tau = _exact_number(threshold, "threshold", MakeMeasurementError)
    if tau != tau or tau in (math.inf, -math.inf):  # label: tau-finite
        raise MakeMeasurementError(f"must be finite, got {shown(threshold)}", parameter="threshold")

    def function(arg):
        source = entropy_source()
        while True:
            release = measurement.invoke(arg)  # label: invoke
            score, candidate = pair(release)  # label: read-pair
            if score >= tau:  # label: hit
                return score, candidate  # label: release
            if bernoulli_ratio(source, gamma.numerator, gamma.denominator):  # label: stop-draw
                return None  # label: stop

    def pair(release):
        if not type_is(release, tuple, list) or len(release) != 2:  # label: pair-shape
            raise FailedFunctionError(
                "must release pairs (score, candidate), got "
                f"{type(release).__name__} {shown(release)}",
                parameter="measurement",
            )
        score = _exact_number(release[0], "measurement", FailedFunctionError)  # label: score
        if score != score:  # label: score-nan
            raise FailedFunctionError(
                "released a NaN score; scores must be numbers, not NaN", parameter="measurement"
            )
        return score, release[1]

    def privacy_map(d_in) -> float:
        return doubled(measurement.map(d_in))  # label: inner-map

    def doubled(epsilon) -> float:
        epsilon = _exact_number(epsilon, "measurement", FailedMapError)  # label: eps-read
        if epsilon == math.inf:  # label: eps-infinite
            return math.inf
        if epsilon != epsilon or epsilon < 0:  # label: eps-bad
            raise FailedMapError(
                f"the inner epsilon must be a number >= 0, got {shown(epsilon)}",
                parameter="measurement",
            )
        try:
            return inf_cast(2 * Fraction(epsilon), "f64")  # label: double
        except ArithmeticOverflowError:
            return math.inf  # label: overflow

    return Measurement(
        input_domain=measurement.input_domain,
        function=function,  # label: function
        input_metric=measurement.input_metric,
        output_measure=measurement.output_measure,  # label: output-measure
        privacy_map=privacy_map,
    )


# proof: end constructor
