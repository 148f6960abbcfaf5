"""Domains: the sets of values a transformation accepts or produces.

``atom_domain`` is a set of scalars of one carrier type, optionally restricted to
a closed interval and/or to non-NaN floats; ``vector_domain`` is the set of
sequences of members of an atom domain, optionally of one known length.
Every domain has an exact :meth:`member` test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from .errors import MakeDomainError
from .types import CarrierType, carrier, infer_type

__all__ = ["Domain", "AtomDomain", "VectorDomain", "atom_domain", "vector_domain"]


class Domain:
    """A set of values with an exact membership test."""

    def member(self, value) -> bool:
        raise NotImplementedError

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def _key(self) -> tuple:
        raise NotImplementedError


class AtomDomain(Domain):
    """Scalars of carrier type ``T``, within ``bounds`` if given, NaN-free unless ``nan``."""

    def __init__(self, T: CarrierType, bounds: tuple | None, nan: bool):
        self.T = T
        self.bounds = bounds
        self.nan = nan

    @property
    def lower(self):
        return None if self.bounds is None else self.bounds[0]

    @property
    def upper(self):
        return None if self.bounds is None else self.bounds[1]

    def member(self, value) -> bool:
        if not self.T.contains(value):
            return False
        if self.T.is_float and math.isnan(value):
            return self.nan
        if self.bounds is not None:
            return self.bounds[0] <= value <= self.bounds[1]
        return True

    def all_members(self, values) -> bool:
        """Vectorised :meth:`member` over a 1-D sequence or array."""
        if isinstance(values, np.ndarray):
            if values.dtype.kind == "f" and self.T.is_float:
                array = values
                if self.T.name == "f32" and values.dtype != np.float32:
                    # as in CarrierType.contains: float16 or longdouble scalars are no f32
                    # values (numpy compares float16 with a Python float in binary16)
                    if values.dtype != np.float64:
                        return False
                    if not np.array_equal(
                        values.astype(np.float32).astype(values.dtype), values, equal_nan=True
                    ):
                        return False
                if self.T.name == "f64" and values.dtype != np.float64:
                    return False
            elif values.dtype.kind in "iu" and self.T.is_integer and self.T.bits <= 64:
                array = values
                if values.size and (values.min() < self.T.min or values.max() > self.T.max):
                    return False
            else:
                return all(self.member(value) for value in values)
        elif self.T.name == "f64" and all(type(value) is float for value in values):
            array = np.asarray(values, dtype=np.float64)
        elif self.T.is_integer and all(type(value) is int for value in values):
            if not values:
                return True
            low, high = min(values), max(values)
            if low < self.T.min or high > self.T.max:
                return False
            return self.bounds is None or (self.bounds[0] <= low and high <= self.bounds[1])
        else:
            return all(self.member(value) for value in values)
        if self.T.is_float and not self.nan and np.isnan(array).any():
            return False
        if self.bounds is not None:
            with np.errstate(invalid="ignore"):
                return bool(np.all((array >= self.bounds[0]) & (array <= self.bounds[1])))
        return True

    def _key(self) -> tuple:
        return (self.T, self.bounds, self.nan)

    def __repr__(self) -> str:
        parts = []
        if self.bounds is not None:
            parts.append(f"bounds=[{self.bounds[0]!r}, {self.bounds[1]!r}]")
        parts.append(f"T={self.T}")
        if self.T.is_float and not self.nan:
            parts.append("nan=False")
        return f"AtomDomain({', '.join(parts)})"


class VectorDomain(Domain):
    """Sequences whose elements are members of ``element_domain``; of length ``size`` if given."""

    def __init__(self, element_domain: Domain, size: int | None):
        self.element_domain = element_domain
        self.size = size

    def member(self, value) -> bool:
        if isinstance(value, np.ndarray):
            if value.ndim != 1:
                return False
        elif not isinstance(value, Sequence) or isinstance(value, str):
            return False
        if self.size is not None and len(value) != self.size:
            return False
        if isinstance(self.element_domain, AtomDomain):
            return self.element_domain.all_members(value)
        return all(self.element_domain.member(element) for element in value)

    def _key(self) -> tuple:
        return (self.element_domain, self.size)

    def __repr__(self) -> str:
        size = "" if self.size is None else f", size={self.size}"
        return f"VectorDomain({self.element_domain!r}{size})"


def _check_bound(name: str, value, T: CarrierType):
    if T.is_float:
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            exact = int(value)
            try:
                value = float(exact)
            except OverflowError:
                value = math.inf
            if not math.isfinite(value) or Fraction(value) != exact:
                raise MakeDomainError(
                    f"{name} {exact} is not exactly representable in {T}", parameter="bounds"
                )
        if not T.contains(value):
            raise MakeDomainError(f"{name} {value!r} is not a value of {T}", parameter="bounds")
        if math.isnan(value):
            raise MakeDomainError(f"{name} must not be NaN", parameter="bounds")
        if math.isinf(value):
            raise MakeDomainError(f"{name} must be finite, got {value!r}", parameter="bounds")
        return float(value)
    if not T.is_numeric:
        raise MakeDomainError(
            f"bounds are only defined for numeric types, not {T}", parameter="bounds"
        )
    if not T.contains(value):
        raise MakeDomainError(f"{name} {value!r} is not a value of {T}", parameter="bounds")
    return int(value)


def atom_domain(bounds=None, nan=None, T=None) -> AtomDomain:
    """The domain of scalars of type ``T``, optionally within closed ``bounds = (L, U)``.

    ``T`` is inferred from the bounds when omitted (Python int → ``"i32"``, float →
    ``"f64"``).  For floats, ``nan`` defaults to ``True`` without bounds and must be
    false with bounds (a bounded domain contains no NaN).
    """
    if T is None:
        if bounds is None:
            raise MakeDomainError("must be given when bounds are not", parameter="T")
        T = infer_type(bounds[0])
    T = carrier(T)
    if bounds is not None:
        if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
            raise MakeDomainError("must be a pair (lower, upper)", parameter="bounds")
        lower = _check_bound("lower bound", bounds[0], T)
        upper = _check_bound("upper bound", bounds[1], T)
        if lower > upper:
            raise MakeDomainError(
                f"lower bound {lower!r} must not exceed upper bound {upper!r}", parameter="bounds"
            )
        bounds = (lower, upper)
    if nan is None:
        nan = T.is_float and bounds is None
    if nan and not T.is_float:
        raise MakeDomainError(f"only float domains may contain NaN, not {T}", parameter="nan")
    if nan and bounds is not None:
        raise MakeDomainError("a bounded domain cannot contain NaN", parameter="nan")
    return AtomDomain(T, bounds, bool(nan))


def vector_domain(atom_domain: Domain, size: int | None = None) -> VectorDomain:
    """The domain of vectors of members of ``atom_domain``; of exactly ``size`` elements if given."""
    if not isinstance(atom_domain, Domain):
        raise MakeDomainError(f"must be a domain, got {atom_domain!r}", parameter="atom_domain")
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
            raise MakeDomainError(f"must be an integer, got {size!r}", parameter="size")
        if size < 0:
            raise MakeDomainError(f"must be non-negative, got {size}", parameter="size")
        size = int(size)
    return VectorDomain(atom_domain, size)
