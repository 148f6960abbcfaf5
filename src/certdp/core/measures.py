"""Privacy measures: how far apart two output distributions may be."""

from __future__ import annotations

import math
from fractions import Fraction

from .conversion import exact_scalar
from .errors import FailedMapError, MeasureMismatchError, shown, type_mismatch
from .exact_type import is_exact_fraction, type_is
from .fpenv import require_ieee_environment
from .frozen import Frozen

__all__ = [
    "Measure",
    "MaxDivergence",
    "max_divergence",
    "ZeroConcentratedDivergence",
    "zero_concentrated_divergence",
    "SmoothedMaxDivergence",
    "smoothed_max_divergence",
    "ApproximateDivergence",
    "approximate",
    "PrivacyProfile",
]


# proof: begin measures
def _require_number(value, parameter: str) -> None:
    """Refuse a distance that is not of exact type ``int``, ``float`` or ``Fraction`` (with
    the fields its constructor stores: :func:`~certdp.core.exact_type.is_exact_fraction`), or
    is NaN."""
    kind = type(value)
    exact = type_is(value, int, float) or is_exact_fraction(value)
    if not exact:  # label: number-type
        raise FailedMapError(
            f"must be an int, float or Fraction, not {kind.__name__}", parameter=parameter
        )
    if kind is float and math.isnan(value):  # label: number-nan
        raise FailedMapError("must not be NaN", parameter=parameter)


class Measure(Frozen, sealed=False):
    """A divergence between distributions; distances are ``distance_type`` values.  Immutable
    once built."""

    distance_type = "f64"
    frozen_error = MeasureMismatchError

    def __eq__(self, other) -> bool:
        return type(self) is type(other)  # label: measure-eq

    def __hash__(self) -> int:
        return hash(type(self).__name__)

    def __repr__(self) -> str:
        return type(self).__name__

    @staticmethod
    def ordered(d_a, d_b) -> bool:
        """Is the distance ``d_a`` at most ``d_b``?  Both must be of exact type ``int``,
        ``float`` or ``Fraction`` (so the comparison is exact); anything else raises
        :class:`FailedMapError`."""
        _require_number(d_a, "d_a")
        _require_number(d_b, "d_b")
        return d_a <= d_b  # label: ordered


class MaxDivergence(Measure):
    """Pure differential privacy: sup over events of ln(P[M(x) in S] / P[M(x') in S])."""


def max_divergence() -> MaxDivergence:
    """The max-divergence (ε of pure DP)."""
    return MaxDivergence()


class ZeroConcentratedDivergence(Measure):
    """Zero-concentrated DP: ``rho`` such that D_alpha(P || Q) <= rho * alpha for every
    Rényi order alpha > 1 (Bun and Steinke 2016)."""


class SmoothedMaxDivergence(Measure):
    """Approximate DP as a privacy profile: the distance is a :class:`PrivacyProfile`, the
    curve ``epsilon -> delta(epsilon)`` such that the distributions are (epsilon, delta)-close
    for every epsilon >= 0."""

    distance_type = "PrivacyProfile"


class ApproximateDivergence(Measure):
    """``Approximate(measure)``: the distance is a pair ``(d, delta)``; the distributions are
    ``d``-close under ``measure`` up to an event of probability at most ``delta``."""

    def __init__(self, measure: Measure):
        # OpenDP 0.16 builds Approximate over these three only (a Renyi or an Approximate
        # measure is refused there too)
        if not type_is(measure, MaxDivergence, ZeroConcentratedDivergence, SmoothedMaxDivergence):
            raise MeasureMismatchError(  # label: inner-measure
                "must be MaxDivergence, ZeroConcentratedDivergence or SmoothedMaxDivergence, "
                f"got {shown(measure)}",
                parameter="measure",
            )
        self.measure = measure

    @property
    def distance_type(self) -> str:
        return f"({self.measure.distance_type}, f64)"

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.measure == other.measure

    def __hash__(self) -> int:
        return hash(("Approximate", self.measure))

    def __repr__(self) -> str:
        return f"Approximate({shown(self.measure)})"

    @staticmethod
    def ordered(d_a, d_b) -> bool:
        """The product order on pairs: is ``d_a <= d_b`` in both coordinates?  Both must be
        tuples of exactly two numbers of exact type ``int``, ``float`` or ``Fraction``;
        anything else raises :class:`FailedMapError`."""
        for value, parameter in ((d_a, "d_a"), (d_b, "d_b")):
            if type(value) is not tuple or len(value) != 2:  # label: pair
                error = FailedMapError if type(value) is tuple else type_mismatch(FailedMapError)
                raise error("must be a pair (d, delta) of numbers", parameter=parameter)
            _require_number(value[0], parameter)
            _require_number(value[1], parameter)
        return d_a[0] <= d_b[0] and d_a[1] <= d_b[1]  # label: product-order


def zero_concentrated_divergence() -> ZeroConcentratedDivergence:
    """The zero-concentrated divergence (rho of zCDP)."""
    return ZeroConcentratedDivergence()


def smoothed_max_divergence() -> SmoothedMaxDivergence:
    """The smoothed max-divergence (a privacy profile epsilon -> delta)."""
    return SmoothedMaxDivergence()


def approximate(measure: Measure) -> ApproximateDivergence:
    """``Approximate(measure)``: distances ``(d, delta)``, e.g. (epsilon, delta) over
    :func:`max_divergence`."""
    return ApproximateDivergence(measure)


# proof: end measures


# proof: begin privacy-profile
class PrivacyProfile:
    """A curve ``epsilon -> delta`` (OpenDP's ``PrivacyProfile``): ``delta(epsilon)`` is valid
    for every ``epsilon >= 0``; :meth:`epsilon` returns an ``epsilon`` at which the curve was
    evaluated and found ``<= delta`` (never an interpolated value)."""

    def __init__(self, curve):
        self._curve = curve

    def delta(self, epsilon) -> float:
        """A ``delta`` such that the distributions are (epsilon, delta)-close; ``epsilon`` passes
        the boundary first, so the curve is given an exact ``int``, ``float`` or ``Fraction``
        (a NumPy float is never compared in its own arithmetic), and the curve runs only in the
        IEEE default floating-point environment, checked first."""
        epsilon = exact_scalar(epsilon, "epsilon", FailedMapError)  # label: epsilon-exact
        if not type_is(epsilon, int, float, Fraction):  # label: epsilon-type
            raise type_mismatch(FailedMapError)(
                f"must be a number, got {shown(epsilon)}", parameter="epsilon"
            )
        if epsilon != epsilon or epsilon < 0:  # NaN; no float() of a huge int or Fraction
            raise FailedMapError(f"must be non-negative, got {shown(epsilon)}", parameter="epsilon")
        require_ieee_environment()  # label: delta-environment
        value = self._curve(epsilon)  # label: curve
        _require_number(value, "curve")  # label: curve-value
        return value  # label: curve-return

    def epsilon(self, delta) -> float:
        """The smallest ``epsilon`` the bisection finds with ``delta(epsilon) <= delta``.

        The bisection is OpenDP's: ``e_max`` starts at 2 and is squared until
        ``delta(e_max) <= delta``; then ``[e_min, e_max]`` is halved until its midpoint stops
        changing.  The invariant ``delta(e_max) <= delta`` holds throughout, and the answer is
        ``e_max`` (or ``e_min`` when ``delta(e_min) == delta``): a point where the curve was
        evaluated, so the (epsilon, delta) pair returned is itself valid.
        """
        delta = exact_scalar(delta, "delta", FailedMapError)  # label: delta-exact
        if not type_is(delta, int, float, Fraction):  # label: delta-type
            raise type_mismatch(FailedMapError)(
                f"must be a number, got {shown(delta)}", parameter="delta"
            )
        if delta != delta or not 0 <= delta <= 1 or math.copysign(1.0, delta) < 0:
            raise FailedMapError(f"must lie in [0, 1], got {shown(delta)}", parameter="delta")
        if delta == 1:
            return 0.0  # label: delta-one
        e_min, e_max = 0.0, 2.0
        while self.delta(e_max) > delta:  # label: grow
            e_max *= e_max
            if math.isinf(e_max):
                return math.inf  # label: unbounded
        e_mid = e_min
        while True:
            new_mid = e_min + (e_max - e_min) / 2.0
            if new_mid == e_mid:
                return e_min if self.delta(e_min) == delta else e_max  # label: answer
            e_mid = new_mid
            d_mid = self.delta(e_mid)
            if d_mid > delta:
                e_min = e_mid  # label: raise-min
            else:
                e_max = e_mid  # label: lower-max

    def __repr__(self) -> str:
        return "PrivacyProfile(epsilon -> delta)"


# proof: end privacy-profile
