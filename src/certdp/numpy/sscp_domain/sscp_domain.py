"""``_sscp_domain``: matrices ``X^T X`` of sums of squares and cross products, and the one
fixed way certdp computes them (``sscp_matrix``).

Guarantee (``sscp_domain.tex``): ``sscp_matrix(x)``, for a 2-D float32/float64 array ``x`` of
``n`` rows and ``k`` columns without NaN, returns without raising a new ``k x k`` array of the
same dtype whose entry ``(i, j)`` is the sum, from the first row to the last and rounded after
every step in that dtype, of the rounded products ``x[r, i] * x[r, j]``; it is symmetric and
its diagonal is ``>= 0`` (``+inf`` possible, NaN impossible), and it is a member of every
``_sscp_domain`` of that dtype with ``num_features`` ``None`` or ``k``.  Membership checks
only that shape, dtype, symmetry and diagonal: it does not claim finiteness or positive
semi-definiteness (rounding may break both).  ``norm``, ``p`` and ``size`` describe the
datasets a matrix was computed from (see ``make_np_sscp``); they are not read off a matrix.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from certdp.core.conversion import exact_argument
from certdp.core.domains import Domain, refuse
from certdp.core.errors import MakeDomainError, shown
from certdp.core.exact_type import type_is
from certdp.core.types import carrier

__all__ = ["MAX_FEATURES", "NPSSCPDomain", "_sscp_domain", "sscp_matrix"]

# proof: begin sscp-domain
_DTYPES = {"f32": np.float32, "f64": np.float64}  # label: sscp-dtypes
#: Products held in memory at once by ``sscp_matrix`` (a block of rows); the result does not
#: depend on it.
_BLOCK_ENTRIES = 1 << 22  # label: block-entries
#: The most features an sscp domain describes: a 2^28 x 2^28 matrix (2^59 bytes in f64), so
#: that NumPy can address every array ``sscp_matrix`` makes (at most 2^60 bytes).
MAX_FEATURES = 1 << 28  # label: max-features


def sscp_matrix(x: np.ndarray) -> np.ndarray:
    """``x.T @ x`` summed row by row, in order, in the dtype of ``x`` (see the module)."""
    n, k = x.shape  # label: gram-shape
    total = np.zeros((k, k), dtype=x.dtype)  # label: gram-zero
    block = max(1, _BLOCK_ENTRIES // max(1, k * k))  # label: gram-block
    with np.errstate(all="ignore"):  # overflow gives +-inf, inf * 0 gives NaN: no warning
        for start in range(0, n, block):  # label: gram-blocks
            rows = x[start : start + block]
            products = rows[:, :, None] * rows[:, None, :]  # label: gram-products
            steps = np.concatenate((total[None], products))  # label: gram-stack
            total = np.add.accumulate(steps, axis=0)[-1].copy()  # label: gram-accumulate
    return total  # label: gram-result


class NPSSCPDomain(Domain):
    """Square symmetric float matrices with a non-negative diagonal; see the module docstring.
    Build it with :func:`_sscp_domain`."""

    def __init__(self, *, num_features, norm, p, size, T):
        self.num_features = num_features
        self.norm = norm
        self.p = p
        self.size = size
        self.T = T
        self.dtype = np.dtype(_DTYPES[T.name])  # label: sscp-member-dtype

    @property
    def descriptor(self) -> NPSSCPDomain:
        """The domain itself (OpenDP reads these attributes from ``domain.descriptor``)."""
        return self

    def admit(self, value):
        """``value`` itself when it is a member; otherwise the rule it breaks, without data."""
        if type(value) is not np.ndarray:  # label: sscp-admit-type
            raise refuse(self, f"type: a {type(value).__name__} is not a numpy.ndarray")
        if value.ndim != 2 or value.shape[0] != value.shape[1]:  # label: sscp-admit-square
            raise refuse(self, f"shape: an array of shape {value.shape} is not a square matrix")
        if value.dtype != self.dtype:  # label: sscp-admit-dtype
            raise refuse(self, f"type: dtype {value.dtype.str} is not {self.dtype.str}")
        k = self.num_features
        if k is not None and value.shape[0] != k:  # label: sscp-admit-features
            raise refuse(self, f"shape: the matrix is not {k} x {k}")
        if not np.array_equal(value, value.T, equal_nan=True):  # label: sscp-admit-symmetric
            raise refuse(self, "symmetry: an entry differs from its transpose")
        if not np.all(np.diagonal(value) >= 0):  # label: sscp-admit-diagonal
            raise refuse(self, "diagonal: a diagonal entry is negative or NaN")
        return value  # label: sscp-admit-member

    def _key(self) -> tuple:
        return (self.num_features, self.norm, self.p, self.size, self.T)

    def __repr__(self) -> str:
        fields = {
            "num_features": self.num_features,
            "norm": self.norm,
            "p": self.p,
            "size": self.size,
            "T": self.T,
        }
        shown_fields = ", ".join(f"{k}={v}" for k, v in fields.items() if v is not None)
        return f"NPSSCPDomain({shown_fields})"


def _finite_non_negative_f64(value) -> bool:
    if not type_is(value, int, float, Fraction):
        return False
    try:
        as_float = float(value)
    except OverflowError:  # an integer or fraction beyond the range of f64
        return False
    return math.isfinite(as_float) and Fraction(as_float) == value and as_float >= 0


def _count(value, name: str):
    if value is None:
        return None
    if type(value) is not int:  # label: sscp-count-type
        raise MakeDomainError(f"must be an integer, got {shown(value)}", parameter=name)
    if value < 0:
        raise MakeDomainError(f"must be non-negative, got {shown(value)}", parameter=name)
    return value


def _sscp_domain(*, norm=None, p=None, size=None, num_features=None, T="f64") -> NPSSCPDomain:
    """The domain of ``num_features x num_features`` matrices ``X^T X`` of ``T`` (f32 or f64).

    :param norm: the bound on the p-norm of every row of the datasets ``X`` (a description,
        not a property of the matrix); given exactly when ``p`` is
    :param p: the order of that norm, 1 or 2
    :param size: the number of rows of those datasets, if known (a description too)
    :param num_features: the number of rows and columns of the matrix, if known
    :param T: the entry type, ``f32`` or ``f64``
    """
    norm, p, size, num_features = (
        exact_argument(value, name, MakeDomainError)
        for value, name in ((norm, "norm"), (p, "p"), (size, "size"), (num_features, "num_features"))
    )  # fmt: skip
    if (norm is None) != (p is None):  # label: sscp-norm-p-together
        raise MakeDomainError(
            "norm and p must be given together", parameter="p" if p is None else "norm"
        )
    if norm is not None:
        if not _finite_non_negative_f64(norm):  # label: sscp-norm-check
            raise MakeDomainError(
                f"must be a non-negative number that is exactly a finite f64, got {shown(norm)}",
                parameter="norm",
            )
        if not type_is(p, int, float, Fraction) or p not in (1, 2):  # label: sscp-p-check
            raise MakeDomainError(f"must be 1 or 2, got {shown(p)}", parameter="p")
        # an int norm stays an int (OpenDP keeps and prints it so); any other becomes a float
        norm, p = (norm if type(norm) is int else float(norm)), int(p)  # label: sscp-norm-store
    size = _count(size, "size")
    num_features = _count(num_features, "num_features")
    if num_features is not None and num_features > MAX_FEATURES:  # label: sscp-features-cap
        raise MakeDomainError(
            f"must be at most {MAX_FEATURES} (a matrix NumPy can address), got {num_features}",
            parameter="num_features",
        )
    T = carrier(T)
    if T.name not in _DTYPES:  # label: sscp-t-check
        raise MakeDomainError(f"must be f32 or f64, not {T}", parameter="T")
    return NPSSCPDomain(num_features=num_features, norm=norm, p=p, size=size, T=T)


# proof: end sscp-domain
