"""The bulk path of the quantile candidates (``_plain_values`` then one pass of ``<``) returns
what the per-entry path returns, and raises the same error, on hostile candidate lists.

The per-entry path is reached by giving the same values as NumPy scalars (``exact_argument``
turns them into the same Python values, but ``_plain_values`` is false for them)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from certdp.core.types import carrier
from certdp.measurements.private_quantile.make_private_quantile import _sorted_candidates
from certdp.transformations.quantile_score_candidates.make_quantile_score_candidates import (
    _candidates,
    _plain_values,
)

NAN = math.nan
INF = math.inf
BIG = float(2**1023)

FLOAT_CASES = [
    [0.5],
    [NAN],
    [-INF, 0.0, INF],
    [-0.0, 0.0],
    [0.0, -0.0],
    [1.0, 1.0],
    [1.0, 2.0, 2.0, 3.0],
    [3.0, 2.0, 1.0],
    [0.0, NAN, 1.0],
    [NAN, 0.0],
    [0.0, NAN],
    [-BIG, -5e-324, 5e-324, BIG],
    [1.0, 2.0, 3.0, 2.5],
    [float(i) / 7 for i in range(50)],
]

INT_CASES = [
    [0],
    [-(2**63), 0, 2**63 - 1],
    [-(2**63) - 1, 0],
    [0, 2**63],
    [5, 5],
    [3, 2, 1],
    [-1, 0, 1, 100, 99],
    list(range(-20, 20, 3)),
]


def outcome(function, *arguments):
    """The value returned, or the type and message of the error raised."""
    try:
        return "returned", function(*arguments)
    except Exception as error:  # noqa: BLE001 - the error itself is compared
        return "raised", type(error), str(error), getattr(error, "parameter", None)


def same(left, right) -> bool:
    """Equal outcomes; returned tuples equal entry by entry with the sign of zero kept."""
    if left[0] != right[0] or len(left) != len(right):
        return False
    if left[0] == "raised":
        return left == right
    a, b = left[1], right[1]
    return (
        type(a) is type(b)
        and len(a) == len(b)
        and all(type(x) is type(y) and repr(x) == repr(y) for x, y in zip(a, b))
    )


@pytest.mark.parametrize("values", FLOAT_CASES, ids=repr)
@pytest.mark.parametrize("shape", [list, tuple])
def test_floats_bulk_equals_per_entry(values, shape):
    T = carrier("f64")
    plain = shape(values)
    wrapped = shape(np.float64(v) for v in values)
    assert not _plain_values(wrapped, T)
    assert _plain_values(plain, T) == (not any(map(math.isnan, values)))
    for function in (_candidates, _sorted_candidates):
        assert same(outcome(function, plain, T), outcome(function, wrapped, T)), function


@pytest.mark.parametrize("values", INT_CASES, ids=repr)
@pytest.mark.parametrize("name", ["i64", "i32", "u64", "u8"])
def test_ints_bulk_equals_per_entry(values, name):
    T = carrier(name)
    plain = list(values)
    # every case holds an entry of the int64 range, so the wrapped list is never plain
    wrapped = [np.int64(v) if -(2**63) <= v < 2**63 else v for v in values]
    assert not _plain_values(wrapped, T)
    assert _plain_values(plain, T) == (T.min <= min(values) and max(values) <= T.max)
    for function in (_candidates, _sorted_candidates):
        assert same(outcome(function, plain, T), outcome(function, wrapped, T)), function


def test_bools_and_mixed_kinds_are_not_plain():
    assert not _plain_values([True, False], carrier("i64"))
    assert not _plain_values([0, 1.0], carrier("f64"))
    assert not _plain_values([0, 1], carrier("f64"))
    assert not _plain_values([0.0, 1.0], carrier("f32"))
    assert not _plain_values([0, 1], carrier("i128"))
    assert not _plain_values([], carrier("f64"))
    assert not _plain_values(range(3), carrier("i64"))


def test_bulk_refusals_name_the_rule():
    f64 = carrier("f64")
    for values, words in (
        ([1.0, 1.0], "strictly increasing"),
        ([-0.0, 0.0], "strictly increasing"),
        ([NAN], "non-NaN"),
        ([0.0, NAN], "non-NaN"),
    ):
        kind, *rest = outcome(_candidates, values, f64)
        assert kind == "raised" and words in rest[1] and rest[2] == "candidates", rest


def test_bulk_result_is_a_snapshot():
    values = [0.0, 0.5, 1.0]
    frozen = _candidates(values, carrier("f64"))
    values[1] = math.nan
    assert frozen == (0.0, 0.5, 1.0) and type(frozen) is tuple
