"""Discrete Laplace noise on the grid ``2^k Z`` around a float, rounded back to a float.

Guarantee (discrete_laplace_z2k.tex): for a finite value ``shift`` of ``T``, an
exact rational ``scale >= 0`` and an integer ``k``,
``sample_discrete_laplace_Z2k(shift, scale, k, T)`` returns ``round_T(2^k (c + Z))``
where ``c = nearest_grid_index(shift, k)`` is the index of the multiple of
``2^k`` nearest to ``shift`` (ties toward +infinity), ``Z ~ DLap(0, scale / 2^k)``
exactly, and ``round_T`` rounds an exact rational to the nearest value of ``T``
(ties to even; beyond the finite range of ``T``, the infinity of its sign).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from certdp.core.errors import ArithmeticOverflowError, FailedFunctionError, shown
from certdp.core.types import FLOAT_TYPES, carrier
from certdp.numeric import is_representable, round_rational

from ._arguments import exact_inputs, exact_rational
from .discrete_laplace import discrete_laplace_sampler
from .uniform import EntropySource, entropy_source

__all__ = [
    "nearest_grid_index",
    "grid_point_to_float",
    "discrete_laplace_Z2k_sampler",
    "sample_discrete_laplace_Z2k",
]


# proof: begin nearest-grid-index
def nearest_grid_index(x: float, k: int) -> int:
    """``floor(x / 2^k + 1/2)``, exactly: the index of the multiple of ``2^k`` nearest to
    the finite float ``x``, the larger one on a tie."""
    n, d = float(x).as_integer_ratio()  # label: exact-value
    # x / 2^k + 1/2 == (2 n + d 2^k) / (2 d 2^k)
    if k >= 0:
        return ((n << 1) + (d << k)) // (d << (k + 1))  # label: index-nonnegative-k
    return ((n << (1 - k)) + d) // (d << 1)  # label: index-negative-k


# proof: end nearest-grid-index


# proof: begin grid-point-to-float
def grid_point_to_float(index: int, k: int, T: str) -> float:
    """The value of ``T`` nearest to ``index * 2^k`` (ties to even); the infinity of its
    sign when the rounded magnitude exceeds the finite range of ``T``."""
    if T == "f64":
        try:
            if k >= 0:
                return (index << k) / 1  # label: f64-division-nonnegative-k
            return index / (1 << -k)  # label: f64-division-negative-k
        except OverflowError:
            return math.inf if index > 0 else -math.inf  # label: f64-overflow
    exact = Fraction(index << k) if k >= 0 else Fraction(index, 1 << -k)
    try:
        return round_rational(exact, T)  # label: round-rational
    except ArithmeticOverflowError:
        return math.inf if index > 0 else -math.inf  # label: round-overflow


# proof: end grid-point-to-float


# proof: begin z2k-sampler
def discrete_laplace_Z2k_sampler(
    scale: Fraction, k: int, T: str
) -> Callable[[EntropySource, float], float]:
    """A sampler of ``round_T(2^k (c + Z))``, ``c = nearest_grid_index(shift, k)``,
    ``Z ~ DLap(0, scale / 2^k)``."""
    grid_scale = scale * (Fraction(1, 1 << k) if k >= 0 else (1 << -k))  # label: grid-scale
    noise = discrete_laplace_sampler(grid_scale)  # label: grid-noise

    def sample(source: EntropySource, shift: float) -> float:
        index = nearest_grid_index(shift, k) + noise(source)  # label: noisy-index
        return grid_point_to_float(index, k, T)  # label: to-float

    return sample


# proof: end z2k-sampler


@exact_inputs
def sample_discrete_laplace_Z2k(shift, scale, k: int, T: str = "f64") -> float:
    """One draw of ``shift`` rounded to ``2^k Z``, plus exact discrete Laplace noise of
    ``scale`` (in the units of ``shift``), rounded to the nearest value of ``T``."""
    if T not in FLOAT_TYPES:
        raise FailedFunctionError(f"must be f32 or f64, got {shown(T)}", parameter="T")
    if isinstance(k, bool) or not isinstance(k, int):
        raise FailedFunctionError(f"must be an integer, got {shown(k)}", parameter="k")
    if not -1074 <= k <= 1023:
        raise FailedFunctionError(
            f"must lie in [-1074, 1023] (the exponents of f64), got {shown(k)}", parameter="k"
        )
    if not carrier(T).contains(shift) or not is_representable(shift, T):
        raise FailedFunctionError(
            f"must be a finite value of {T}, got {shown(shift)}", parameter="shift"
        )
    scale = exact_rational(scale, "scale")
    if scale < 0:
        raise FailedFunctionError(f"must be non-negative, got {shown(scale)}", parameter="scale")
    return discrete_laplace_Z2k_sampler(scale, k, T)(entropy_source(), shift)
