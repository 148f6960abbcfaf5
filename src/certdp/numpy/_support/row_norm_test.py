"""An exact test of the row bound ``||r - origin||_p <= norm`` for every row ``r`` of an array.

The test is exact (its answer is the answer of exact rational arithmetic) but mostly runs
in float64: for each row it computes an estimate ``q_hat`` of ``q = ||r - origin||_p ** p``
with numpy, and compares it with two thresholds chosen so that

* ``q_hat <= accept_below`` proves ``q <= norm ** p`` (the row is within the bound);
* ``q_hat > reject_above`` with ``q_hat`` finite proves ``q > norm ** p`` (it is not);

and only the rows in between, or with a non-finite estimate, are decided with
:class:`fractions.Fraction`.  The thresholds come from the rounding error of the estimate,
proven in ``row_norm_test.tex``: ``|q_hat - q| <= gamma(m) q + e`` with ``m = k + 1``,
``e = 0`` for ``p = 1`` and ``m = k + 3``, ``e = k 2**-1074`` for ``p = 2`` (``k`` columns).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from certdp.core.errors import ArithmeticOverflowError
from certdp.numeric import round_rational

from .error_bounds import gamma, subnormal_half_spacing

__all__ = ["RowNormTest", "CHUNK_ROWS", "threshold_bounds"]

# proof: begin row-norm-test
#: Rows handled per numpy call: large enough to amortise the call, small enough for the cache.
CHUNK_ROWS = 1 << 14  # label: chunk-rows

# Rows per repetition of the origin when subtracting it from a contiguous block.
_TILE = 64  # label: tile
# Integers of magnitude at most 2**53 convert to float64 exactly.
_EXACT_INTEGER_LIMIT = 1 << 53  # label: exact-integer-limit


def threshold_bounds(bound: Fraction, p: int, k: int, W: str = "f64") -> tuple[Fraction, Fraction]:
    """Exact ``(R^p (1 - gamma) - e, R^p (1 + gamma) + e)`` for ``bound = R^p``, rows of ``k``
    columns and estimates computed in the format ``W``."""
    if p == 1:
        g, e = gamma(k + 1, W), Fraction(0)  # label: p1-constants
    else:
        g, e = gamma(k + 3, W), 2 * k * subnormal_half_spacing(W)  # label: p2-constants
    accept = bound * (1 - g) - e  # label: accept-exact
    reject = bound * (1 + g) + e  # label: reject-exact
    return accept, reject


class RowNormTest:
    """Decides exactly whether rows ``r`` satisfy ``||r - origin||_p <= norm``.

    ``origin`` is a 1-D float64 array of the origin's exact values, or ``None`` for the
    origin 0 (then rows of any width are tested).
    """

    def __init__(self, norm: float, p: int, origin: np.ndarray | None):
        self.norm = norm
        self.p = p
        if origin is not None and not np.any(origin):
            origin = None  # zeros change no value  # label: zero-origin-dropped
        self.origin = origin
        self._origin_exact = None if origin is None else [Fraction(v) for v in origin.tolist()]
        self._tiled_origin = None if origin is None else np.tile(origin, _TILE)  # label: tiled
        self._bound = Fraction(norm) ** p  # label: bound
        self._thresholds: dict[int, tuple[float, float]] = {}

    # proof: begin thresholds
    def thresholds(self, k: int) -> tuple[float, float]:
        """``(accept_below, reject_above)`` for rows of ``k`` columns."""
        if k not in self._thresholds:
            accept, reject = threshold_bounds(self._bound, self.p, k)  # label: threshold-bounds
            accept_below = -1.0 if accept < 0 else round_rational(accept, "f64", "down")
            try:
                reject_above = round_rational(reject, "f64", "up")  # label: reject-rounded
            except ArithmeticOverflowError:
                reject_above = math.inf  # label: reject-never
            self._thresholds[k] = (accept_below, reject_above)
        return self._thresholds[k]

    # proof: end thresholds

    # proof: begin estimate
    def estimate(self, block: np.ndarray, scratch: np.ndarray | None = None):
        """Float64 estimates ``q_hat`` of ``||r - origin||_p ** p`` for the rows of ``block``,
        and a mask of rows whose values do not all convert to float64 exactly (or ``None``).

        ``scratch``, if given, is a float64 array of at least ``block``'s size to work in.
        """
        if scratch is None or scratch.size < block.size:
            scratch = np.empty(block.size, dtype=np.float64)
        work = scratch[: block.size].reshape(block.shape)
        inexact = None
        if block.dtype.kind in "iu" and block.dtype.itemsize == 8:
            too_large = block > _EXACT_INTEGER_LIMIT
            if block.dtype.kind == "i":
                too_large |= block < -_EXACT_INTEGER_LIMIT
            inexact = too_large.any(axis=1)  # label: inexact-rows
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            if self.origin is not None:
                # the same subtractions, with the origin repeated along longer rows (faster)
                rows, columns = block.shape
                if rows % _TILE == 0 and block.flags.c_contiguous:
                    np.subtract(
                        block.reshape(rows // _TILE, _TILE * columns), self._tiled_origin,
                        out=work.reshape(rows // _TILE, _TILE * columns), dtype=np.float64,
                    )  # fmt: skip
                else:
                    np.subtract(block, self.origin, out=work, dtype=np.float64)
                offsets = work  # label: offsets
            elif block.dtype == np.float64:
                offsets = block  # label: zero-origin
            else:
                np.copyto(work, block)  # label: exact-conversion
                offsets = work
            if self.p == 2:
                estimates = np.einsum("ij,ij->i", offsets, offsets)  # label: sum-squares
            else:
                estimates = np.einsum("ij->i", np.abs(offsets, out=work))  # label: sum-abs
        return estimates, inexact

    def classify(self, block: np.ndarray, scratch: np.ndarray | None = None):
        """Masks ``(accepted, undecided)`` of the rows of ``block``; the other rows are outside."""
        estimates, inexact = self.estimate(block, scratch)
        accept_below, reject_above = self.thresholds(block.shape[1])
        accepted = estimates <= accept_below  # label: accept
        rejected = np.isfinite(estimates) & (estimates > reject_above)  # label: reject
        if inexact is not None:
            accepted &= ~inexact
            rejected &= ~inexact
        return accepted, ~(accepted | rejected)  # label: undecided

    # proof: end estimate

    # proof: begin exact
    def exact(self, row: np.ndarray) -> bool:
        """``||row - origin||_p <= norm``, decided in exact rational arithmetic."""
        total = Fraction(0)
        for j, value in enumerate(row.tolist()):
            if isinstance(value, float) and not math.isfinite(value):
                return False  # label: exact-nonfinite
            offset = (
                Fraction(value)
                if self._origin_exact is None
                else Fraction(value) - self._origin_exact[j]
            )
            total += abs(offset) if self.p == 1 else offset * offset
            if total > self._bound:
                return False
        return True

    # proof: end exact

    # proof: begin decide
    def within(self, array: np.ndarray) -> np.ndarray:
        """Per row of a 2-D array: is it within the bound?  (Exact.)"""
        answer = np.empty(array.shape[0], dtype=bool)
        scratch = np.empty(min(array.shape[0], CHUNK_ROWS) * array.shape[1], dtype=np.float64)
        for start in range(0, array.shape[0], CHUNK_ROWS):
            block = array[start : start + CHUNK_ROWS]
            accepted, undecided = self.classify(block, scratch)
            for i in np.flatnonzero(undecided):
                accepted[i] = self.exact(block[i])  # label: within-exact
            answer[start : start + CHUNK_ROWS] = accepted
        return answer

    def all_within(self, array: np.ndarray) -> bool:
        """Is every row of a 2-D array within the bound?  (Exact; stops at the first row that is not.)"""
        scratch = np.empty(min(array.shape[0], CHUNK_ROWS) * array.shape[1], dtype=np.float64)
        for start in range(0, array.shape[0], CHUNK_ROWS):
            block = array[start : start + CHUNK_ROWS]
            accepted, undecided = self.classify(block, scratch)
            if accepted.all():
                continue
            if not (accepted | undecided).all():
                return False  # label: all-rejected
            if not all(self.exact(block[i]) for i in np.flatnonzero(undecided)):  # label: all-exact
                return False
        return True

    # proof: end decide


# proof: end row-norm-test
