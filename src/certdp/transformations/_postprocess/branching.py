"""``choose_branching_factor``: OpenDP 0.16's pick of a b-ary tree's branching factor.

Guarantee: for an integer ``size_guess`` ``n`` in ``[0, 2**32)`` it returns the least ``b`` in
``[2, n]`` minimising ``v(b) = (b - 1) h**3 - 2 (b + 1) h**2 / 3`` with ``h = ln(n) / ln(b)``
(the average variance of Qardaji, Yang and Li's formula (3)), each operation the binary64
operation OpenDP evaluates (``math.log`` is the C library's ``log``, as Rust's ``ln``), and ``n``
itself when ``n < 2`` or ``n = 2**32 - 1``.  The last case is OpenDP 0.16's own value
(``choose_branching_factor(4294967295)`` returns 4294967295), matched as observed: it is what a
scan of ``b`` up to ``n + 1`` computed in u32, which wraps to 0 there, yields (no ``b`` scanned,
so ``n`` is kept); the factor is public and any ``b >= 2`` gives a valid tree.  A pure helper: it reads no data and costs no privacy.  The scan stops
at the first ``b > 5`` with ``(b - 5) / 3 > 2 |best| + 1``: for ``b <= n`` the exact ``v(b)`` is
at least ``h**2 (b - 5) / 3 >= (b - 5) / 3`` (``h >= 1``), so no later ``b`` can be the minimum
unless the binary64 evaluation errs by more than ``|best| + 1``, which its relative error
(below ``2**-48`` on every term) does not reach.
"""

from __future__ import annotations

import math

from certdp.core.errors import MakeTransformationError, shown, type_mismatch

__all__ = ["choose_branching_factor"]


def _average_variance(n: float, b: float) -> float:
    """``v(b)`` in binary64, the operations in OpenDP's order (``powi`` as products)."""
    h = math.log(n) / math.log(b)
    square = h * h
    return (b - 1.0) * (h * square) - 2.0 * (b + 1.0) * square / 3.0


def choose_branching_factor(size_guess) -> int:
    """The branching factor OpenDP 0.16 chooses for a dataset of about ``size_guess`` rows."""
    if type(size_guess) is not int:
        raise type_mismatch(MakeTransformationError)(
            f"must be an integer, got {shown(size_guess)}", parameter="size_guess"
        )
    if not 0 <= size_guess < 1 << 32:
        raise MakeTransformationError(
            f"must be in [0, 2**32) (OpenDP's u32), got {size_guess}", parameter="size_guess"
        )
    if size_guess == (1 << 32) - 1:
        return size_guess  # OpenDP 0.16's value here (its u32 scan bound wraps to 0)
    n, best, best_b = float(size_guess), math.inf, size_guess
    for b in range(2, size_guess + 1):
        if b > 5 and (b - 5) / 3 > 2 * abs(best) + 1:
            break
        value = _average_variance(n, float(b))
        if value < best:
            best, best_b = value, b
    return best_b
