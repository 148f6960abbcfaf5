"""exact_argument's bulk path for tuples and lists of plain items (core/conversion.tex, item 2):
the result equals, item by item and object by object, the per-item conversion, which the
reference below spells out from item 1; and the items are read once (a snapshot)."""

from __future__ import annotations

import decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from certdp.core.conversion import MAX_EXACT_BITS, exact_argument
from certdp.core.errors import DPError, FailedCastError


def per_item(value, parameter="p"):
    """The conversion without the bulk path: each item converted by its own call."""
    return type(value)(exact_argument(item, parameter) for item in value)


plain = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.integers(-(2**70), 2**70),
)
mixed = st.one_of(
    plain,
    st.fractions(max_denominator=100),
    st.integers(-(10**6), 10**6).map(np.int32),
    st.floats(-1e6, 1e6).map(np.float32),
    st.just(decimal.Decimal("0.1")),
)


@settings(max_examples=300, deadline=None)
@given(items=st.lists(st.one_of(plain, mixed), max_size=12), as_tuple=st.booleans())
def test_bulk_and_per_item_conversions_agree(items, as_tuple):
    value = tuple(items) if as_tuple else items
    result = exact_argument(value, "p")
    reference = per_item(value)
    assert type(result) is type(value)
    assert len(result) == len(reference)
    for got, want in zip(result, reference):
        assert type(got) is type(want)
        assert got == want or (got != got and want != want)  # NaN equals itself here
    if type(value) is list:
        assert result is not value  # a new list: the caller's later edits do not reach it


@settings(max_examples=200, deadline=None)
@given(items=st.lists(plain, max_size=12))
def test_plain_items_come_back_as_the_same_objects(items):
    result = exact_argument(items, "p")
    assert result is not items and all(a is b for a, b in zip(result, items, strict=True))


def test_a_large_plain_list_is_copied_not_aliased():
    floats = [i / 7 for i in range(10**5)]
    result = exact_argument(floats, "candidates")
    assert result == floats and result is not floats
    floats[0] = np.float64(1.5)
    assert type(result[0]) is float and result[0] == 0.0
    ints = list(range(-(10**5), 10**5))
    assert exact_argument(ints, "candidates") == ints


@pytest.mark.parametrize("position", [0, 1, -1])
def test_an_oversized_int_anywhere_is_still_refused(position):
    ints = [1, 2, 3]
    ints[position] = -(2**MAX_EXACT_BITS) if position == 1 else 2**MAX_EXACT_BITS
    with pytest.raises(DPError) as caught:
        exact_argument(ints, "candidates")
    assert caught.value.parameter == "candidates"
    ok = [2**MAX_EXACT_BITS - 1, -(2**MAX_EXACT_BITS - 1), 0]
    assert exact_argument(ok, "candidates") == ok


def test_one_foreign_item_sends_the_list_through_the_per_item_path():
    value = [0.5] * 1000 + [np.float32(0.25)] + [1.0]
    result = exact_argument(value, "candidates")
    assert type(result[1000]) is float and result[1000] == 0.25
    assert all(type(x) is float for x in result)
    value = [1, 2, True, Fraction(1, 3), np.int64(7)]
    assert [type(x) for x in exact_argument(value, "c")] == [int, int, bool, Fraction, int]


def test_nesting_is_still_refused_and_nested_plain_lists_convert():
    nested: list = []
    nested.append(nested)
    with pytest.raises(FailedCastError):
        exact_argument(nested, "bounds")
    assert exact_argument([[1.0, 2.0], (np.int8(3), 4)], "bounds") == [[1.0, 2.0], (3, 4)]
    assert exact_argument((), "bounds") == () and exact_argument([], "bounds") == []
