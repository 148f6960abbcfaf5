"""Values a user can hand certdp that the proofs never imagined, as hypothesis strategies."""

import decimal
import math
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

INTEGER_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64, np.longdouble]


def _read_only(array):
    array.setflags(write=False)
    return array


def fixed_values():
    """Hand-picked hostile values: every kind the boundary must convert or refuse."""
    return [
        True, False, np.bool_(True), None,
        0, 1, -1, 2**53 - 1, 2**53, 2**53 + 1, 2**63, 2**64, 2**1100, -(2**1100),
        0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
        math.inf, -math.inf, math.nan, 0.1, 0.25, 1.0, 2.0, -2.0, 1e16,
        Fraction(1, 3), Fraction(5, 2), Fraction(-1, 2), Fraction(2**60 + 1, 2),
        decimal.Decimal("0.1"), decimal.Decimal("2"), decimal.Decimal("NaN"),
        decimal.Decimal("-Infinity"), decimal.Decimal("sNaN"),
        np.longdouble(1) / np.longdouble(3), np.longdouble(2), np.longdouble("inf"),
        np.float16(0.1), np.float16(65504), np.float32(0.1), np.float32(1e-45),
        np.float64(5e-324), np.float64(-0.0), np.float64("nan"),
        np.int8(-128), np.int8(64), np.uint8(255), np.int64(-(2**63)), np.uint64(2**64 - 1),
        np.array(2.0), np.array(3), np.array(True), np.array([1.0, 2.0]), np.array([[1.0]]),
        np.ma.masked_array([1.0, 2.0], mask=[0, 1]), np.ma.masked_array(1.0),
        np.array([1.0, 2.0], dtype=">f8"), np.arange(6.0)[::2], _read_only(np.arange(3.0)),
        np.array([1, 2], dtype=object), np.array("f64"),
        b"1", bytearray(b"12"), memoryview(b"1"), "1", "f64", "f32", "i32", "nonsense", "",
        np.str_("f64"), complex(1, 1), np.complex128(1), [1, np.int8(2), 3.0], (1.0,),
        (0.0, 1.0), (0, 10), [np.float32(0.0), np.float32(1.0)], (np.int8(0), np.int64(5)),
        (1.0, 0.0), (0.0, math.nan), (decimal.Decimal(0), decimal.Decimal(1)),
        (Fraction(0), Fraction(1, 2)), (b"0", b"1"), [], {}, set(), object(), float, int,
        np.float32, np.datetime64("2020-01-01"), range(3),
    ]  # fmt: skip


def numpy_scalars():
    """NumPy scalars of every dtype, with values across each dtype's range."""
    integers = [
        st.integers(int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)).map(dtype)
        for dtype in INTEGER_DTYPES
    ]
    floats = [
        st.floats(width=width).map(dtype)
        for dtype, width in ((np.float16, 16), (np.float32, 32), (np.float64, 64))
    ]
    longdoubles = st.tuples(st.floats(allow_nan=False), st.floats(allow_nan=False)).map(
        lambda pair: np.longdouble(pair[0]) + np.longdouble(pair[1]) * np.longdouble(2**-70)
    )
    return st.one_of(*integers, *floats, longdoubles, st.booleans().map(np.bool_))


def hostile_values():
    return st.one_of(st.sampled_from(fixed_values()), numpy_scalars())


def exact_twin(value):
    """The plain Python value that ``value`` denotes exactly, or ``None`` if there is none."""
    from certdp.core.conversion import exact_scalar
    from certdp.core.errors import DPError

    try:
        return exact_scalar(value, "value")
    except DPError:
        return None
