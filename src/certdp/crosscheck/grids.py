"""The edges a cross-check grid hits: bounds, carrier types, sizes and input distances.

Each list names values where implementations go wrong: the ends of every integer width, f32
and f64 bounds so large that sums saturate, so tiny that they are subnormal, and where the
spacing of floats is 2 or 4 (every addition rounds); sizes 0, 1, 2, a block size and a large
one; distances 0, 1, odd, even and huge (past 2**31, 2**53 and 2**63).
"""

from __future__ import annotations

import sys

import numpy as np

__all__ = [
    "INT_TYPES",
    "FLOAT_TYPES",
    "int_range",
    "int_bounds",
    "float_bounds",
    "DATASET_D_INS",
    "QUICK_DATASET_D_INS",
    "numeric_d_ins",
    "SIZES",
    "QUICK_SIZES",
    "SEARCH_SIZE_LIMIT",
]

INT_TYPES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
FLOAT_TYPES = ("f32", "f64")

MAX64 = sys.float_info.max
MAX32 = float(np.finfo(np.float32).max)
TINY64 = 5e-324  # the least positive subnormal f64
TINY32 = float(np.float32(1.4e-45))


def int_range(T: str) -> tuple[int, int]:
    info = np.iinfo(np.dtype(T.replace("i", "int").replace("u", "uint")))
    return int(info.min), int(info.max)


def int_bounds(T: str, quick: bool = False) -> list[tuple[int, int]]:
    """Bounds of an integer type: tiny, around zero, the whole type, and its top end."""
    low, high = int_range(T)
    if low < 0:
        bounds = [(-1, 1), (0, 1), (low, high), (low, 0), (high - 1, high)]
    else:
        bounds = [(0, 1), (0, high), (high - 1, high), (1, 3)]
    return bounds[:2] if quick else bounds


def float_bounds(T: str, quick: bool = False) -> list[tuple[float, float]]:
    """Bounds of a float type: tiny (subnormal), unit, the last exactly spaced integers (every
    sum rounds), huge with both signs (sums saturate), huge with one sign."""
    top, tiny = (MAX64, TINY64) if T == "f64" else (MAX32, TINY32)
    spaced = 2.0**53 if T == "f64" else 2.0**24
    bounds = [
        (-1.0, 1.0),
        (0.0, 1.0),
        (0.0, tiny),
        (-tiny, tiny),
        (spaced, spaced + 4.0),
        (-0.2 * top, 0.75 * top),
        (0.0, 0.25 * top),
        (-0.5 * top, 0.5 * top),
    ]
    cast = _caster(T)
    bounds = [(float(cast(a)), float(cast(b))) for a, b in bounds]
    return [bounds[0], bounds[5]] if quick else bounds


def _caster(T: str):
    return np.float32 if T == "f32" else np.float64


#: Distances for dataset metrics: 0, 1, odd, even, and past 2**31, 2**53 and 2**63.
DATASET_D_INS = (0, 1, 2, 3, 4, 7, 2**31 - 1, 2**53 + 1, 2**63 + 2)
QUICK_DATASET_D_INS = (0, 1, 2, 3, 2**53 + 1)


def numeric_d_ins(T: str, quick: bool = False) -> tuple:
    """Distances for numeric metrics of type ``T``: 0, 1, a fraction, odd, huge."""
    if T.startswith(("i", "u")):
        values = (0, 1, 2, 3, int_range(T)[1])
    else:
        top = MAX64 if T == "f64" else MAX32
        values = (0.0, 1.0, 0.5, 3.0, 2.0**53 + 2.0, 0.5 * top)
    return values[:3] if quick else values


#: Dataset sizes: empty, one, two, a block of 16 (pairwise sums split there), large.
SIZES = (0, 1, 2, 16, 1_000_000)
QUICK_SIZES = (1, 16)

#: Datasets longer than this are not searched record by record (their maps are still checked).
SEARCH_SIZE_LIMIT = 64
