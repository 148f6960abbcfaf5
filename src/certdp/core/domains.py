"""Domains: the sets of values a transformation accepts or produces.

``atom_domain`` is a set of scalars of one carrier type, optionally restricted to
a closed interval and/or to non-NaN floats; ``vector_domain`` is the set of
sequences of members of an atom domain, optionally of one known length.
Every domain has an exact :meth:`member` test.  The lemmas: domains.tex (beside this file).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .admission import exact_vector, snapshot
from .conversion import exact_argument, exact_scalar
from .errors import FailedFunctionError, MakeDomainError, shown, type_mismatch
from .exact_type import type_is
from .fpenv import require_ieee_environment
from .frozen import Frozen
from .types import CarrierType, carrier, infer_type

__all__ = ["Domain", "AtomDomain", "VectorDomain", "atom_domain", "vector_domain"]


# proof: begin domain-model
class Domain(Frozen, sealed=False):
    """A set of values with an exact membership test; immutable once built.

    :meth:`admit` is the boundary through which data enters a function: it returns the
    value the function computes on (numpy scalars made exact Python values, arrays in the
    carrier's native dtype) or raises :class:`FailedFunctionError` saying which rule failed,
    without echoing the data.  :meth:`member` tells whether :meth:`admit` would succeed.
    """

    frozen_error = MakeDomainError

    def admit(self, value):
        raise NotImplementedError

    def admit_each(self, values) -> list:
        """``[self.admit(v) for v in values]``, read once (a domain may compute it faster)."""
        return [self.admit(value) for value in values]  # label: admit-each

    def member(self, value) -> bool:
        require_ieee_environment()  # label: member-environment
        try:
            self.admit(value)  # label: member
        except FailedFunctionError:
            return False
        return True

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self._key() == other._key()  # label: eq

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def _key(self) -> tuple:
        raise NotImplementedError


def refuse(domain: Domain, rule: str):
    """The error of a value outside ``domain``: names the broken rule, never the value (a
    ``TypeError`` too when the rule is the value's type, as in OpenDP)."""
    error = type_mismatch(FailedFunctionError) if rule.startswith("type:") else FailedFunctionError
    return error(f"not a member of {domain}: {rule}", parameter="arg")  # label: refuse


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

    def admit(self, value):
        if type(value) is np.ndarray and value.ndim == 0:  # label: atom-zero-d
            value = value[()]  # a 0-d array is its one element, as at the boundary (and OpenDP)
        value = self.T.exact(value)  # label: atom-exact
        if value is None:
            raise refuse(self, f"type: not a value of {self.T}")
        if self.T.is_float and math.isnan(value):  # label: atom-nan
            if not self.nan:
                raise refuse(self, "NaN: the domain excludes NaN")
            return value
        if self.bounds is not None and not (self.bounds[0] <= value <= self.bounds[1]):
            raise refuse(self, "bounds: outside the bounds")  # label: atom-bounds
        return value

    def admit_all(self, values):
        """Vectorised :meth:`admit` over a sequence already made exact by :func:`exact_vector`."""
        if type(values) is np.ndarray:
            if values.dtype == object or values.dtype.kind in "bU":  # label: all-other-array
                return values
            array = values  # label: all-array
        elif self.T.is_float:
            if not values:
                return values
            array = np.asarray(values, dtype=np.float64)
            if self.T.name == "f32":
                with np.errstate(over="ignore", invalid="ignore"):
                    narrowed = array.astype(np.float32).astype(np.float64)
                if not np.array_equal(narrowed, array, equal_nan=True):  # label: all-f32
                    raise refuse(self, f"type: an element is not a value of {self.T}")
        elif self.T.is_integer:
            if not values:
                return values
            low, high = min(values), max(values)  # label: all-int
            if low < self.T.min or high > self.T.max:
                raise refuse(self, f"type: an element is outside the range of {self.T}")
            if self.bounds is not None and (low < self.bounds[0] or high > self.bounds[1]):
                raise refuse(self, "bounds: an element is outside the bounds")
            return values
        else:
            return values  # label: all-other
        if self.T.is_float and not self.nan and np.isnan(array).any():  # label: all-nan
            raise refuse(self, "NaN: an element is NaN and the domain excludes NaN")
        if self.bounds is not None:
            with np.errstate(invalid="ignore"):  # label: all-bounds
                inside = np.all((array >= self.bounds[0]) & (array <= self.bounds[1]))
            if not inside:
                raise refuse(self, "bounds: an element is outside the bounds")
        return values

    def _key(self) -> tuple:
        return (self.T, self.bounds, self.nan)

    def __repr__(self) -> str:
        parts = []
        if self.bounds is not None:
            parts.append(f"bounds=[{shown(self.bounds[0])}, {shown(self.bounds[1])}]")
        if self.nan:  # OpenDP's form: only a NaN-admitting domain says so
            parts.append("nan=true")
        parts.append(f"T={self.T}")
        return f"AtomDomain({', '.join(parts)})"


class VectorDomain(Domain):
    """Sequences whose elements are members of ``element_domain``; of length ``size`` if given."""

    def __init__(self, element_domain: Domain, size: int | None):
        self.element_domain = element_domain
        self.size = size

    def admit(self, value, nearest: bool = False):
        """``nearest``: round Python floats given for ``f32`` elements to the nearest binary32
        value (OpenDP's conversion; only under dataset metrics, where it moves no two datasets
        apart)."""
        if type(self.element_domain) is AtomDomain:
            data = exact_vector(value, self.element_domain.T, nearest)  # label: vector-exact
            if type(data) is str:
                raise refuse(self, f"type: {data}")
        else:
            data = snapshot(value)  # label: vector-snapshot
            if type(data) is str:
                raise refuse(self, f"type: {data}")
            if type(data) is list and data is value:  # the caller's list: read it once, here
                data = list(data)  # label: vector-copy
        if self.size is not None and len(data) != self.size:  # label: vector-size
            raise refuse(self, f"size: the length is not {self.size}")
        if type(self.element_domain) is AtomDomain:
            return self.element_domain.admit_all(data)  # label: vector-atoms
        return self.element_domain.admit_each(data)  # label: vector-elements

    def _key(self) -> tuple:
        return (self.element_domain, self.size)

    def __repr__(self) -> str:
        size = "" if self.size is None else f", size={shown(self.size)}"
        return f"VectorDomain({shown(self.element_domain)}{size})"


# proof: end domain-model


# proof: begin domain-constructors
def carrier_bound(name: str, value, T: CarrierType):
    """A bound of ``T`` as its exact Python value, after the conversions OpenDP makes.

    A Python float given for ``f32`` is rounded to the nearest binary32 value (as OpenDP
    does); an integer or rational given for a float type must be exactly a value of it.
    """
    require_ieee_environment()  # label: bound-environment
    value = exact_scalar(value, "bounds", MakeDomainError)  # label: bound-exact
    if not T.is_numeric:
        raise type_mismatch(MakeDomainError)(
            f"bounds are only defined for numeric types, not {T}", parameter="bounds"
        )
    if not type_is(value, int, float, Fraction):  # label: bound-number
        raise type_mismatch(MakeDomainError)(
            f"{name} must be a number, not {type(value).__name__}", parameter="bounds"
        )
    if T.is_integer:  # label: bound-integer
        if type(value) is not int:
            raise type_mismatch(MakeDomainError)(
                f"{name} {shown(value)} is not a value of {T}", parameter="bounds"
            )
        if not T.contains(value):
            raise MakeDomainError(
                f"{name} {shown(value)} is not a value of {T} (outside its range)",
                parameter="bounds",
            )
        return value
    if type(value) is float:  # label: bound-float
        if math.isnan(value):
            raise MakeDomainError(f"{name} must not be NaN", parameter="bounds")
        if math.isinf(value):
            raise MakeDomainError(f"{name} must be finite, got {shown(value)}", parameter="bounds")
        if T.name == "f32":
            value = nearest_binary32(value)  # label: bound-round
            if math.isinf(value):
                raise MakeDomainError(f"{name} is beyond the range of {T}", parameter="bounds")
        return value
    try:
        as_float = float(value)  # label: bound-rational
    except OverflowError:
        as_float = math.inf
    if not math.isfinite(as_float) or Fraction(as_float) != value or not T.contains(as_float):
        raise MakeDomainError(  # label: bound-exactly
            f"{name} {shown(value)} is not exactly representable in {T}", parameter="bounds"
        )
    return as_float


def carrier_constant(value, T: CarrierType):
    """The value of ``T`` OpenDP makes of the exact scalar ``value``, or ``None``: a Python
    float given for ``f32`` becomes the nearest binary32 value (``None`` if that overflows); an
    ``int`` or ``Fraction`` given for a float type becomes the float of the same value when
    there is one; otherwise ``T.exact(value)``."""
    if T.is_float and type(value) is float and T.name == "f32" and math.isfinite(value):
        rounded = nearest_binary32(value)  # label: constant-round
        return rounded if math.isfinite(rounded) else None
    if T.is_float and type_is(value, int, Fraction):
        try:
            as_float = float(value)  # label: constant-rational
        except OverflowError:
            return None
        return as_float if Fraction(as_float) == value and T.contains(as_float) else None
    return T.exact(value)  # label: constant-exact


def nearest_binary32(value: float) -> float:
    """The binary32 value nearest to ``value`` (ties to even), as a Python float.

    NumPy rounds in the thread's rounding mode, so the mode is checked first.
    """
    require_ieee_environment()  # label: nearest-environment
    with np.errstate(over="ignore"):
        return float(np.float32(value))  # label: nearest


def atom_domain(bounds=None, nan=None, T=None) -> AtomDomain:
    """The domain of scalars of type ``T``, optionally within closed ``bounds = (L, U)``.

    ``T`` is inferred from the bounds when omitted (Python int → ``"i32"``, float →
    ``"f64"``).  For floats, ``nan`` defaults to ``True`` without bounds and must be
    false with bounds (a bounded domain contains no NaN).
    """
    require_ieee_environment()  # label: atom-environment
    if T is None:
        if bounds is None:
            raise MakeDomainError("must be given when bounds are not", parameter="T")
        if not type_is(bounds, tuple, list) or len(bounds) != 2:
            raise type_mismatch(MakeDomainError)(
                "must be a pair (lower, upper)", parameter="bounds"
            )
        T = infer_type(bounds[0])  # label: infer
    T = carrier(T)  # label: carrier
    if bounds is not None:
        if not type_is(bounds, tuple, list) or len(bounds) != 2:
            raise type_mismatch(MakeDomainError)(
                "must be a pair (lower, upper)", parameter="bounds"
            )
        lower = carrier_bound("lower bound", bounds[0], T)
        upper = carrier_bound("upper bound", bounds[1], T)
        if lower > upper:  # label: ordered
            raise MakeDomainError(
                f"lower bound {shown(lower)} must not exceed upper bound {shown(upper)}",
                parameter="bounds",
            )
        bounds = (lower, upper)
    nan = exact_argument(nan, "nan", MakeDomainError)  # label: nan-flag
    if nan is not None and type(nan) is not bool:
        raise type_mismatch(MakeDomainError)(
            f"must be True, False or None, got {shown(nan)}", parameter="nan"
        )
    if nan is None:
        nan = T.is_float and bounds is None
    if nan and not T.is_float:
        raise MakeDomainError(f"only float domains may contain NaN, not {T}", parameter="nan")
    if nan and bounds is not None:
        raise MakeDomainError("a bounded domain cannot contain NaN", parameter="nan")
    return AtomDomain(T, bounds, bool(nan))  # label: atom-domain


def vector_domain(atom_domain: Domain, size: int | None = None) -> VectorDomain:
    """The domain of vectors of members of ``atom_domain``; of exactly ``size`` elements if given."""
    require_ieee_environment()  # label: vector-environment
    if not issubclass(type(atom_domain), Domain):  # label: vector-element
        raise type_mismatch(MakeDomainError)(
            f"must be a domain, got {shown(atom_domain)}", parameter="atom_domain"
        )
    if size is not None:
        size = exact_scalar(size, "size", type_mismatch(MakeDomainError))  # label: size
        if type(size) is not int:
            raise type_mismatch(MakeDomainError)(
                f"must be an integer, got {shown(size)}", parameter="size"
            )
        if size < 0:
            raise MakeDomainError(f"must be non-negative, got {shown(size)}", parameter="size")
    return VectorDomain(atom_domain, size)  # label: vector-domain


# proof: end domain-constructors
