"""Discrete Gaussian noise on the grid ``2^k Z`` around floats, rounded back to floats.

Guarantee (discrete_gaussian_z2k.tex): for finite values ``x_1, ..., x_n`` of ``T``, an
exact rational ``scale >= 0`` and an integer ``k``, the sampler built by
``discrete_gaussian_Z2k_sampler(scale, k, T)`` returns ``[round_T(2^k (c_i + Z_i))]`` where
``c_i = nearest_grid_index(x_i, k)`` and the ``Z_i`` are independent draws of
``N_Z(0, (scale / 2^k)^2)``; ``round_T`` rounds to the nearest value of ``T`` (ties to even;
beyond the finite range, the infinity of the sign).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from certdp.core.errors import FailedFunctionError, shown
from certdp.core.types import FLOAT_TYPES, carrier
from certdp.numeric import is_representable

from ._arguments import exact_rational
from .discrete_gaussian import SPLIT_FROM, acceptance_exponent, discrete_gaussian_batch_sampler
from .discrete_gaussian_split import split_gaussian
from .discrete_laplace_z2k import grid_point_to_float, nearest_grid_index
from .discrete_laplace_z2k_batch import split_to_floats
from .uniform import EntropySource, entropy_source

__all__ = ["discrete_gaussian_Z2k_sampler", "sample_discrete_gaussian_Z2k"]


# proof: begin gaussian-z2k-sampler
def discrete_gaussian_Z2k_sampler(
    scale: Fraction, k: int, T: str
) -> Callable[[EntropySource, Sequence[float]], list[float]]:
    """A sampler of ``[round_T(2^k (c_i + Z_i))]``, ``c_i = nearest_grid_index(x_i, k)``,
    ``Z_i ~ N_Z(0, (scale / 2^k)^2)`` independent."""
    grid_scale = scale * (Fraction(1, 1 << k) if k >= 0 else (1 << -k))  # label: grid-scale
    exponent = acceptance_exponent(grid_scale) if scale else None  # label: z2k-exponent
    if T == "f64" and exponent and exponent[0] >= SPLIT_FROM:  # label: z2k-split-case
        j, low, draw = split_gaussian(grid_scale, exponent)  # label: z2k-split

        def sample_split(source: EntropySource, shifts: Sequence[float]) -> list[float]:
            draws = draw(source, len(shifts))  # label: z2k-split-draws
            return split_to_floats(source, shifts, k, j, low, draws)  # label: z2k-split-round

        return sample_split

    noise = discrete_gaussian_batch_sampler(grid_scale)  # label: grid-noise

    def sample(source: EntropySource, shifts: Sequence[float]) -> list[float]:
        draws = noise(source, len(shifts))  # label: draws
        return [
            grid_point_to_float(nearest_grid_index(x, k) + int(z), k, T)  # label: noisy-point
            for x, z in zip(shifts, draws)
        ]

    return sample


# proof: end gaussian-z2k-sampler


def sample_discrete_gaussian_Z2k(shift, scale, k: int, T: str = "f64") -> float:
    """One draw of ``shift`` rounded to ``2^k Z``, plus exact discrete Gaussian noise of
    ``scale`` (in the units of ``shift``), rounded to the nearest value of ``T``."""
    if T not in FLOAT_TYPES:
        raise FailedFunctionError(f"must be f32 or f64, got {shown(T)}", parameter="T")
    if isinstance(k, bool) or not isinstance(k, int):
        raise FailedFunctionError(f"must be an integer, got {shown(k)}", parameter="k")
    if not carrier(T).contains(shift) or not is_representable(shift, T):
        raise FailedFunctionError(
            f"must be a finite value of {T}, got {shown(shift)}", parameter="shift"
        )
    scale = exact_rational(scale, "scale")
    if scale < 0:
        raise FailedFunctionError(f"must be non-negative, got {shown(scale)}", parameter="scale")
    return discrete_gaussian_Z2k_sampler(scale, k, T)(entropy_source(), [shift])[0]
