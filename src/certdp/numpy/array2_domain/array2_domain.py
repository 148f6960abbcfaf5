"""``array2_domain``: 2-D numpy arrays, optionally with every row in a p-norm ball.

A member is a 2-D ``numpy.ndarray`` (not a subclass) of the numpy dtype of ``T``, with
``num_columns`` columns and ``size`` rows when these are given, free of NaN unless ``nan``,
and, when ``norm`` is given, with ``||r - origin||_p <= norm`` for every row ``r``, decided
in exact arithmetic (see ``_support/row_norm_test.py``).  The records of such a dataset are
its rows.
"""

from __future__ import annotations

import math
import weakref
from fractions import Fraction

import numpy as np

from certdp.core.conversion import exact_argument
from certdp.core.domains import Domain, refuse
from certdp.core.errors import MakeDomainError, shown
from certdp.core.exact_type import type_is
from certdp.core.types import FLOAT_TYPES, INTEGER_TYPES, CarrierType, carrier
from certdp.numpy._support.row_norm_test import RowNormTest

__all__ = ["NPArray2Domain", "array2_domain", "is_array2_domain"]

# proof: begin array2-domain
_DTYPES = {
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "usize": np.uint64,
    "f32": np.float32, "f64": np.float64, "bool": np.bool_,
}  # fmt: skip  # label: dtypes
#: The widest row an array2_domain describes: 2^32 columns (a row of 32 GiB in f64).
MAX_COLUMNS = 1 << 32  # label: max-columns
_ORIGIN_TYPES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}  # label: origin-types
#: The key only array2_domain passes to NPArray2Domain: a call of the class elsewhere is refused.
_BUILDER = object()  # label: builder
#: Every domain array2_domain has returned, by identity (a dead domain leaves the table).
_BUILT: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # label: built-table


class NPArray2Domain(Domain):
    """2-D numpy arrays of ``T``; see the module docstring.  Only :func:`array2_domain`, which
    checks its rules, builds one; a direct call of the class raises ``MakeDomainError``.

    ``origin`` is ``None`` (no norm), a 0-d zero array (origin 0, width free) or a 1-D array
    of length ``num_columns``, of dtype float32 or float64, holding finite values.
    """

    def __init__(self, *, origin, norm, p, size, num_columns, nan, T: CarrierType, builder=None):
        if builder is not _BUILDER:  # label: builder-check
            raise MakeDomainError(
                "is built by array2_domain(...), which checks its rules, not directly",
                parameter="NPArray2Domain",
            )
        if origin is not None:
            origin = origin.copy()  # label: origin-own
            origin.flags.writeable = False  # label: origin-read-only
        self.origin = origin
        self.norm = norm
        self.p = p
        self.size = size
        self.num_columns = num_columns
        self.nan = nan
        self.T = T
        self.dtype = np.dtype(_DTYPES[T.name])  # label: member-dtype
        self.row_test = None
        if norm is not None:
            vector = origin.astype(np.float64) if origin.ndim == 1 else None
            self.row_test = RowNormTest(norm, p, vector)  # label: row-test

    @property
    def descriptor(self) -> NPArray2Domain:
        """The domain itself (OpenDP reads these attributes from ``domain.descriptor``)."""
        return self

    def origin_vector(self, num_columns: int) -> np.ndarray:
        """The origin as a float64 vector of ``num_columns`` exact values."""
        if self.origin.ndim == 0:
            return np.zeros(num_columns, dtype=np.float64)  # label: origin-zero
        return self.origin.astype(np.float64)  # label: origin-vector

    def admit(self, value):
        """``value`` itself when it is a member; otherwise the rule it breaks, without data."""
        if type(value) is not np.ndarray:  # label: admit-type
            kind = type(value).__name__
            if isinstance(value, np.ndarray):
                raise refuse(self, f"type: a {kind} (an ndarray subclass) is refused")
            raise refuse(self, f"type: a {kind} is not a numpy.ndarray")
        if value.ndim != 2:  # label: admit-ndim
            raise refuse(self, f"shape: a {value.ndim}-d array is not 2-d")
        if value.dtype != self.dtype:  # label: admit-dtype
            raise refuse(self, f"type: dtype {value.dtype.str} is not {self.dtype.str}")
        if self.num_columns is not None and value.shape[1] != self.num_columns:  # label: width
            raise refuse(self, f"width: the number of columns is not {self.num_columns}")
        if self.size is not None and value.shape[0] != self.size:  # label: admit-size
            raise refuse(self, f"size: the number of rows is not {self.size}")
        if self.row_test is not None:
            # a NaN row has no norm: the row test rejects it
            if not self.row_test.all_within(value):  # label: admit-norm
                raise refuse(self, "norm: a row is outside the norm ball (or holds NaN)")
        elif self.T.is_float and not self.nan and np.isnan(value).any():  # label: admit-nan
            raise refuse(self, "NaN: an entry is NaN and the domain excludes NaN")
        return value  # label: admit-member

    def _key(self) -> tuple:
        origin = None
        if self.origin is not None:
            origin = (self.origin.dtype.str, self.origin.shape, self.origin.tobytes())
        return (origin, self.norm, self.p, self.size, self.num_columns, self.nan, self.T)

    def __repr__(self) -> str:
        fields = {
            "origin": None if self.origin is None else str(self.origin),
            "norm": self.norm,
            "p": self.p,
            "size": self.size,
            "num_columns": self.num_columns,
            "nan": self.nan,
            "T": self.T,
        }
        return (
            f"NPArray2Domain({', '.join(f'{k}={v}' for k, v in fields.items() if v is not None)})"
        )


def is_array2_domain(value) -> bool:
    """Whether ``value`` is a domain :func:`array2_domain` returned (so its rules hold); false
    for any other object, a subclass's or one made by ``object.__new__`` included."""
    return type_is(value, NPArray2Domain) and _BUILT.get(id(value)) is value  # label: built


def _non_negative_int(value, name: str):
    if value is None:
        return None
    # after exact_argument an integer is a Python int: nothing else (a bool, a subclass, an
    # object naming int as its __class__) is read as one
    if not type_is(value, int):  # label: count-type
        raise MakeDomainError(f"must be an integer, got {shown(value)}", parameter=name)
    if value < 0:
        raise MakeDomainError(f"must be non-negative, got {shown(value)}", parameter=name)
    return value  # label: count-value


def _exact_in_f64(value: int) -> bool:
    try:
        return Fraction(float(value)) == value
    except OverflowError:  # beyond the range of f64
        return False


def _check_norm(norm) -> int | float:
    # after exact_argument a number is a Python int or float (a NumPy one converted exactly);
    # nothing else (a bool, a subclass, an object naming float as its __class__) is read as one
    if not type_is(norm, int, float):  # label: norm-type
        raise MakeDomainError(f"must be a number, got {shown(norm)}", parameter="norm")
    if type_is(norm, float) and math.isnan(norm):
        raise MakeDomainError("must not be NaN", parameter="norm")
    if type_is(norm, float) and math.isinf(norm):
        raise MakeDomainError(f"must be finite, got {shown(norm)}", parameter="norm")
    if type_is(norm, int) and not _exact_in_f64(norm):
        raise MakeDomainError(
            f"{shown(norm)} is not exactly representable in f64", parameter="norm"
        )
    if norm < 0:
        raise MakeDomainError(f"must be non-negative, got {shown(norm)}", parameter="norm")
    # an integer norm stays an integer, as OpenDP keeps and prints it
    return norm  # label: norm-value


def _origin_array(origin) -> np.ndarray:
    """``origin`` as a float32 or float64 array of dimension 0 or 1 with finite, exact values."""
    # after exact_argument a scalar is a Python bool, int or float, by exact type
    if type_is(origin, bool):
        raise MakeDomainError(f"must be numeric, got {shown(origin)}", parameter="origin")
    if type_is(origin, int, float):  # label: origin-scalar
        array = np.asarray(origin)
    elif type_is(origin, np.ndarray, list, tuple):  # label: origin-sequence
        try:
            array = np.asarray(origin)
        except ValueError as error:
            raise MakeDomainError(
                f"must be a scalar or a vector: {error}", parameter="origin"
            ) from None
    else:
        raise MakeDomainError(
            f"must be a scalar, a 1-D array or sequence, or None; got {type(origin).__name__}",
            parameter="origin",
        )
    if array.ndim > 1:
        raise MakeDomainError(f"must have 0 or 1 dimensions, got {array.ndim}", parameter="origin")
    if array.dtype.kind in "iu":
        converted = array.astype(np.float64)
        if not all(Fraction(float(c)) == int(v) for c, v in zip(converted.ravel(), array.ravel())):
            raise MakeDomainError(
                "integers must be exactly representable in f64", parameter="origin"
            )
        array = converted
    elif array.dtype not in _ORIGIN_TYPES:
        raise MakeDomainError(
            f"must hold float32, float64 or integer values, not {array.dtype}", parameter="origin"
        )
    if not np.all(np.isfinite(array)):
        raise MakeDomainError("must be finite", parameter="origin")
    return array


def array2_domain(
    *, norm=None, p=None, origin=None, size=None, num_columns=None, nan=None, T=None
) -> NPArray2Domain:
    """The domain of 2-D numpy arrays of ``T`` (see :class:`NPArray2Domain`).

    :param norm: if given, every row ``r`` satisfies ``||r - origin||_p <= norm`` exactly
    :param p: the order of the norm, 1 or 2; given exactly when ``norm`` is
    :param origin: centre of the norm ball: a scalar (0 unless ``num_columns`` is given) or a
        vector of length ``num_columns``; defaults to 0; only with ``norm``
    :param size: the number of rows, if known
    :param num_columns: the number of columns, if known (a vector origin implies it)
    :param nan: whether float entries may be NaN; defaults to true for float ``T`` without
        ``norm`` (a row with a NaN has no norm, so a bounded domain has ``nan=False``)
    :param T: the carrier type of the entries; inferred from a float32/float64 origin, else
        f64 when ``norm`` is given
    """
    norm, p, size, nan = (
        exact_argument(value, name, MakeDomainError)
        for value, name in ((norm, "norm"), (p, "p"), (size, "size"), (nan, "nan"))
    )
    num_columns = exact_argument(num_columns, "num_columns", MakeDomainError)
    origin = exact_argument(origin, "origin", MakeDomainError)
    if (norm is None) != (p is None):
        missing = "p" if p is None else "norm"
        raise MakeDomainError("norm and p must be given together", parameter=missing)
    if p is not None and (not type_is(p, int, float, Fraction) or p not in (1, 2)):
        raise MakeDomainError(  # label: p-check
            f"must be 1 or 2 (a number), got a {type(p).__name__}", parameter="p"
        )
    if norm is not None:
        norm = _check_norm(norm)
        p = int(p)
    elif origin is not None:
        raise MakeDomainError("may only be given together with norm and p", parameter="origin")
    size = _non_negative_int(size, "size")
    num_columns = _non_negative_int(num_columns, "num_columns")
    if num_columns is not None and num_columns > MAX_COLUMNS:
        raise MakeDomainError(
            f"must be at most {MAX_COLUMNS} (the columns of one row must fit in memory), "
            f"got {shown(num_columns)}",
            parameter="num_columns",
        )

    if norm is not None:
        origin = _origin_array(0.0 if origin is None else origin)
        if origin.ndim == 0:
            if num_columns is not None:
                try:
                    origin = np.repeat(origin, num_columns)
                except MemoryError:
                    raise MakeDomainError(
                        f"{shown(num_columns)} columns do not fit in memory",
                        parameter="num_columns",
                    ) from None
            elif origin != 0:
                raise MakeDomainError(
                    "a non-zero scalar origin needs num_columns (or pass a vector)",
                    parameter="origin",
                )
        elif num_columns is None:
            num_columns = origin.size
        elif num_columns != origin.size:
            raise MakeDomainError(
                f"must have num_columns={shown(num_columns)} values, got {origin.size}",
                parameter="origin",
            )

    if T is None:
        if origin is None:
            raise MakeDomainError("must be given when norm is not", parameter="T")
        T = _ORIGIN_TYPES[origin.dtype]
    T = carrier(T)
    if T.name not in _DTYPES:
        raise MakeDomainError(
            f"must be a numeric type with a numpy dtype or bool, not {T}", parameter="T"
        )
    if norm is not None and T.name not in FLOAT_TYPES + INTEGER_TYPES:
        raise MakeDomainError(f"a norm bound needs a numeric T, not {T}", parameter="norm")

    if nan is None:
        nan = T.is_float and norm is None
    if not type_is(nan, bool):  # label: nan-type
        raise MakeDomainError(f"must be a boolean, got {shown(nan)}", parameter="nan")
    if nan and not T.is_float:
        raise MakeDomainError(f"only float arrays may contain NaN, not {T}", parameter="nan")
    if nan and norm is not None:
        raise MakeDomainError(
            "must be False when norm is given: a row holding NaN has no norm", parameter="nan"
        )
    domain = NPArray2Domain(
        origin=origin, norm=norm, p=p, size=size, num_columns=num_columns, nan=nan, T=T,
        builder=_BUILDER,
    )  # fmt: skip  # label: build
    _BUILT[id(domain)] = domain  # label: record
    return domain


# proof: end array2-domain
