"""The grid of a float Laplace measurement and the sensitivity it may add.

Guarantee (discretization.tex): ``get_discretization_consts(k, T)`` returns
``(k, relaxation)`` with ``k`` defaulting to ``K_MIN[T]`` (the exponent of the
smallest subnormal of ``T``), and ``relaxation = 2^k - 2^K_MIN[T]`` exactly, such
that for all finite values ``x, x'`` of ``T``

    |round_k(x) - round_k(x')| <= |x - x'| + relaxation,

where ``round_k`` rounds to the nearest multiple of ``2^k`` (ties toward +inf).
A ``k`` that is not an integer in ``[K_MIN[T], K_MAX[T]]`` is refused.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from certdp.core.errors import MakeMeasurementError, shown, type_mismatch

__all__ = ["K_MIN", "K_MAX", "get_discretization_consts"]

# proof: begin discretization-consts
#: Exponent of the smallest positive subnormal: every finite value is a multiple of 2^K_MIN.
K_MIN = {"f64": -1074, "f32": -149}  # label: k-min
#: Exponent of the largest power of two that is a finite value.
K_MAX = {"f64": 1023, "f32": 127}  # label: k-max


def get_discretization_consts(k, T: str) -> tuple[int, Fraction]:
    """``(k, 2^k - 2^K_MIN[T])``, exactly; ``k`` defaults to ``K_MIN[T]``."""
    if T not in K_MIN:  # label: float-type
        raise MakeMeasurementError(f"must be f32 or f64, got {T}", parameter="T")
    k_min, k_max = K_MIN[T], K_MAX[T]
    if k is None:
        k = k_min  # label: default-k
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise type_mismatch(MakeMeasurementError)(
            f"must be an integer or None, got {shown(k)}", parameter="k"
        )
    k = int(k)
    if k < k_min:  # label: k-too-small
        raise MakeMeasurementError(
            f"must not be smaller than {k_min} for {T}, got {shown(k)}: the grid 2^k would be finer "
            f"than the spacing 2^{k_min} of the subnormals of {T}",
            parameter="k",
        )
    if k > k_max:  # label: k-too-large
        raise MakeMeasurementError(
            f"must not exceed {k_max} for {T}, got {shown(k)}: the grid spacing 2^k must be a "
            f"finite value of {T}",
            parameter="k",
        )
    relaxation = Fraction(2) ** k - Fraction(2) ** k_min  # label: relaxation
    return k, relaxation


# proof: end discretization-consts
