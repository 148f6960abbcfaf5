"""The seven specialised integer sums: values, saturation at every width, stability maps,
refusals and typed errors.

Expected saturating results come from a direct model of Rust's ``fold(0, saturating_add)``
written here, independently of certdp's vectorised kernels.
"""

from collections import deque

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.core.errors import (
    ArithmeticOverflowError,
    FailedCastError,
    FailedFunctionError,
    MakeDomainError,
    MakeTransformationError,
)
from certdp.core.types import carrier

WIDTHS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize"]
SIGNED = [T for T in WIDTHS if T.startswith("i")]

UNSIZED = [
    "make_bounded_int_monotonic_sum",
    "make_bounded_int_ordered_sum",
    "make_bounded_int_split_sum",
]
SIZED = [
    "make_sized_bounded_int_checked_sum",
    "make_sized_bounded_int_monotonic_sum",
    "make_sized_bounded_int_ordered_sum",
    "make_sized_bounded_int_split_sum",
]
ALL = UNSIZED + SIZED


def saturating_fold(values, T):
    """Rust's ``values.iter().fold(0, |s, v| s.saturating_add(v))``."""
    T = carrier(T)
    total = 0
    for value in values:
        total = min(max(total + value, T.min), T.max)
    return total


def split_fold(values, T):
    """OpenDP's split sum: folds of the negatives and of the positives, then their sum."""
    T = carrier(T)
    negatives = saturating_fold([v for v in values if v < 0], T)
    positives = saturating_fold([v for v in values if v > 0], T)
    return min(max(negatives + positives, T.min), T.max)


def build(name, bounds, T, size=0):
    """``name`` called with ``bounds`` and ``T`` (and ``size``, if it takes one)."""
    constructor = getattr(dp.t, name)
    if name.startswith("make_sized"):
        return constructor(size, bounds, T=T)
    return constructor(bounds, T=T)


# -- the seed's figures and simple values ------------------------------------------------


def test_seed_checked_sum_constructs():
    t = dp.t.make_sized_bounded_int_checked_sum(1234, (-2, 4), T="i32")
    assert t.input_domain == dp.vector_domain(dp.atom_domain(bounds=(-2, 4), T="i32"), size=1234)
    assert t.output_domain == dp.atom_domain(T="i32")
    assert t.output_metric == dp.absolute_distance("i32")
    assert t([4] * 1234) == 4936
    assert [t.map(d) for d in range(6)] == [0, 0, 6, 6, 12, 12]


@pytest.mark.parametrize("name", UNSIZED)
def test_unsized_sums_value_and_map(name):
    t = build(name, (0, 10), "i32")
    assert t([1, 2, 4]) == 7
    assert t([]) == 0
    assert [t.map(d) for d in range(4)] == [0, 10, 20, 30]
    expected_metric = dp.insert_delete_distance() if "ordered" in name else dp.symmetric_distance()
    assert t.input_metric == expected_metric
    assert t.input_domain == dp.vector_domain(dp.atom_domain(bounds=(0, 10)))


@pytest.mark.parametrize("name", [n for n in UNSIZED if "monotonic" not in n])
def test_unsized_map_scales_with_largest_magnitude(name):
    assert build(name, (-7, 3), "i64").map(2) == 14
    assert build(name, (-3, 7), "i64").map(2) == 14


@pytest.mark.parametrize("name", [n for n in SIZED if "monotonic" not in n])
def test_sized_map_is_a_stair_step_in_the_range(name):
    t = build(name, (-10, 10), "i32", size=3)
    assert t([1, 2, 4]) == 7
    assert [t.map(d) for d in range(10)] == [0, 0, 20, 20, 40, 40, 60, 60, 80, 80]


def test_default_type_is_i32_and_python_int_is_accepted():
    assert dp.t.make_bounded_int_split_sum((0, 5)).output_domain == dp.atom_domain(T="i32")
    assert dp.t.make_bounded_int_split_sum((0, 5), T=int).output_domain == dp.atom_domain(T="i32")
    with pytest.raises(MakeTransformationError, match="not a value of i32") as error:
        dp.t.make_bounded_int_split_sum((0, 2**40))
    assert error.value.parameter == "bounds"


@pytest.mark.parametrize("name", ALL)
def test_numpy_input_gives_the_same_python_int(name):
    T = "i16"
    bounds = {"monotonic": (0, 16000), "checked": (-5000, 5000)}.get(
        name.split("_")[-2], (-16000, 16000)
    )
    lower, upper = bounds
    data = [upper, upper, lower, 17, lower, upper]
    t = build(name, bounds, T, size=len(data))
    for values in (data, np.array(data, dtype=np.int16), np.array(data, dtype=np.int64)):
        result = t(values)
        assert type(result) is int
        assert result == t(data)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("T", ["i8", "i128"])
def test_any_sequence_is_summed_even_one_that_cannot_be_sliced(name, T):
    # a deque is a Sequence, so a member of the input domain, but refuses slices: the
    # ordered sum once sliced its input after the first saturating record, an error that
    # depended on the data
    top = carrier(T).max
    bounds = {"monotonic": (0, top // 2), "checked": (-(top // 8), top // 8)}.get(
        name.split("_")[-2], (-(top // 2), top // 2)
    )
    lower, upper = bounds
    for data in ([upper, upper, upper, lower], [upper, lower, 0, upper], [lower] * 4):
        t = build(name, bounds, T, size=len(data))
        assert t(deque(data)) == t(tuple(data)) == t(data)


# -- saturation at each width's boundary -------------------------------------------------


@pytest.mark.parametrize("T", WIDTHS)
def test_monotonic_sums_saturate_at_the_top(T):
    top = carrier(T).max
    for name in ("make_bounded_int_monotonic_sum", "make_sized_bounded_int_monotonic_sum"):
        for data, expected in [
            ([top - 1, 1], top),  # exactly T.max: no saturation
            ([top, 1], top),
            ([top, top, top], top),
            ([top // 2, top // 2 + 1], top),
            ([top // 2, top // 2], top - 1),
        ]:
            t = build(name, (0, top), T, size=len(data))
            assert t(data) == expected == saturating_fold(data, T)
            array = np.array(data, dtype=carrier(T).numpy_dtype)
            assert t(array) == expected


@pytest.mark.parametrize("T", SIGNED)
def test_monotonic_sums_saturate_at_the_bottom(T):
    low, top = carrier(T).min, carrier(T).max
    for data, expected in [
        ([-top, -1], low),  # exactly T.min
        ([-top, -2], low),
        ([-top, -top, -top], low),
        ([-top, 0, -5, -top], low),
    ]:
        assert dp.t.make_bounded_int_monotonic_sum((-top, 0), T=T)(data) == expected
        sized = dp.t.make_sized_bounded_int_monotonic_sum(len(data), (low, -1), T=T)
        clipped = [min(value, -1) for value in data]
        assert sized(clipped) == saturating_fold(clipped, T) == low


@pytest.mark.parametrize("T", SIGNED)
def test_split_sum_saturates_each_side_before_adding(T):
    top = carrier(T).max
    data = [top, top, -top, -top, -top]
    # positives saturate at T.max, negatives at T.min: their sum is -1
    assert split_fold(data, T) == -1
    assert saturating_fold(data, T) == carrier(T).min  # the order-dependent fold differs
    assert dp.t.make_bounded_int_split_sum((-top, top), T=T)(data) == -1
    # the sized form needs U - L to be a value of T
    half = top // 2
    sized = dp.t.make_sized_bounded_int_split_sum(5, (-half, half), T=T)
    halves = [half, half, half, -half, -half]
    # the positives saturate (3 * half > T.max) although the exact sum, half, is a value of T
    assert sized(halves) == split_fold(halves, T) == 1
    for data in ([half] * 5, [-half] * 5, [half, -half] * 2 + [0]):
        assert sized(data) == split_fold(data, T)


@pytest.mark.parametrize("T", ["u8", "u16", "u32", "u64", "usize"])
def test_unsigned_split_and_ordered_sums_saturate_at_the_top(T):
    top = carrier(T).max
    for name in ("make_bounded_int_split_sum", "make_bounded_int_ordered_sum"):
        t = build(name, (0, top), T)
        assert t([top, 1, 0]) == top
        assert t([top - 2, 1, 1]) == top
        assert t([top // 2, top // 2]) == top - 1


@pytest.mark.parametrize("T", SIGNED)
def test_ordered_sum_follows_the_saturating_fold(T):
    top = carrier(T).max
    t = dp.t.make_bounded_int_ordered_sum((-top, top), T=T)
    for data in (
        [top, top, -top],  # saturates up, then comes back down
        [-top, -top, top],
        [top, top, -top, -top, -top],
        [top, -top, top, -top],
        [-top, -1, top, top],
    ):
        assert t(data) == saturating_fold(data, T)
        assert t(np.array(data, dtype=carrier(T).numpy_dtype)) == saturating_fold(data, T)
    assert t([top, top, -top]) == 0
    assert t([-top, top, top]) == top


@given(st.data())
def test_saturating_kernels_match_the_fold_model(data):
    T = data.draw(st.sampled_from(WIDTHS))
    ty = carrier(T)
    lower = data.draw(st.sampled_from([-ty.max, -(ty.max // 2), 0])) if ty.is_signed else 0
    values = data.draw(
        st.lists(
            st.one_of(st.sampled_from([lower, ty.max]), st.integers(lower, ty.max)), max_size=9
        )
    )
    ordered = dp.t.make_bounded_int_ordered_sum((lower, ty.max), T=T)
    split = dp.t.make_bounded_int_split_sum((lower, ty.max), T=T)
    array = np.array(values, dtype=ty.numpy_dtype)
    assert ordered(values) == ordered(array) == saturating_fold(values, T)
    assert split(values) == split(array) == split_fold(values, T)
    if lower == 0:
        monotonic = dp.t.make_bounded_int_monotonic_sum((0, ty.max), T=T)
        assert monotonic(values) == monotonic(array) == saturating_fold(values, T)


# -- the associativity argument: reorderings ------------------------------------------------


@given(st.data())
def test_monotonic_and_split_sums_ignore_the_order_of_records(data):
    T = data.draw(st.sampled_from(WIDTHS))
    ty = carrier(T)
    lower = -ty.max if ty.is_signed else 0
    values = data.draw(
        st.lists(
            st.sampled_from([lower, ty.max, ty.max // 2, -1 if ty.is_signed else 1, 0]), max_size=9
        )
    )
    reordered = data.draw(st.permutations(values))
    split = dp.t.make_bounded_int_split_sum((lower, ty.max), T=T)
    assert split(values) == split(reordered)
    for bounds in ((0, ty.max), (lower, 0)):
        monotonic = dp.t.make_bounded_int_monotonic_sum(bounds, T=T)
        clipped = [min(max(v, bounds[0]), bounds[1]) for v in values]
        clipped_reordered = [min(max(v, bounds[0]), bounds[1]) for v in reordered]
        assert monotonic(clipped) == monotonic(clipped_reordered)


def test_saturating_fold_depends_on_order_so_the_ordered_sum_needs_insert_delete():
    t = dp.t.make_bounded_int_ordered_sum((-100, 100), T="i8")
    x, x_reordered = [100, 100, -100], [-100, 100, 100]
    # the same multiset: symmetric distance 0, yet the saturating fold differs by 73
    assert dp.symmetric_distance().distance(x, x_reordered) == 0
    assert (t(x), t(x_reordered)) == (27, 100)
    # under the insert-delete distance they are 2 apart, within 2 * max(|L|, U) = 200 (which
    # is not an i8, so the map refuses rather than rounding down)
    assert dp.insert_delete_distance().distance(x, x_reordered) == 2
    assert abs(t(x) - t(x_reordered)) <= 2 * 100
    with pytest.raises(ArithmeticOverflowError):
        t.map(2)
    assert t.map(1) == 100
    # the split sum of the same records is one value whatever the order: min(200, 127) - 100
    split = dp.t.make_bounded_int_split_sum((-100, 100), T="i8")
    assert split(x) == split(x_reordered) == 27


# -- the checked sum's overflow refusal --------------------------------------------------


@pytest.mark.parametrize("T", WIDTHS)
def test_checked_sum_refuses_exactly_when_the_sum_could_overflow(T):
    top = carrier(T).max
    magnitude = 3
    edge = top // magnitude  # edge * 3 <= T.max < (edge + 1) * 3
    bounds = (-magnitude, 2) if carrier(T).is_signed else (0, magnitude)
    if edge < 2**20:
        t = dp.t.make_sized_bounded_int_checked_sum(edge, bounds, T=T)
        assert t.input_domain.size == edge
        worst = [bounds[0]] * edge if carrier(T).is_signed else [magnitude] * edge
        assert abs(t(worst)) == edge * magnitude <= top
    else:
        assert dp.t.make_sized_bounded_int_checked_sum(edge, bounds, T=T).input_domain.size == edge
    with pytest.raises(MakeTransformationError, match="may overflow") as error:
        dp.t.make_sized_bounded_int_checked_sum(edge + 1, bounds, T=T)
    assert error.value.parameter == "bounds"


def test_checked_sum_refuses_sizes_and_magnitudes_outside_the_type():
    with pytest.raises(MakeTransformationError, match="may overflow"):
        dp.t.make_sized_bounded_int_checked_sum(2, (0, 255), T="u8")
    with pytest.raises(MakeTransformationError, match="may overflow"):
        dp.t.make_sized_bounded_int_checked_sum(300, (0, 0), T="i8")  # size is not an i8
    with pytest.raises(MakeTransformationError, match="may overflow"):
        dp.t.make_sized_bounded_int_checked_sum(1, (-128, 0), T="i8")  # |-128| is not an i8
    assert dp.t.make_sized_bounded_int_checked_sum(1, (0, 255), T="u8")([255]) == 255
    assert dp.t.make_sized_bounded_int_checked_sum(127, (0, 1), T="i8")([1] * 127) == 127


# -- refusals of the constants -----------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in SIZED if "checked" not in n])
def test_sized_sums_refuse_a_range_outside_the_type(name):
    bounds = (-128, 0) if "monotonic" in name else (-100, 100)
    with pytest.raises(ArithmeticOverflowError, match="not a value of i8") as error:
        build(name, bounds, "i8", size=2)
    assert error.value.parameter == "bounds"


@pytest.mark.parametrize("name", UNSIZED)
def test_unsized_sums_refuse_a_magnitude_outside_the_type(name):
    with pytest.raises(ArithmeticOverflowError, match="not a value of i8") as error:
        build(name, (-128, 0), "i8")
    assert error.value.parameter == "bounds"
    assert build(name, (-127, 0), "i8").map(1) == 127


@pytest.mark.parametrize(
    "name", ["make_bounded_int_monotonic_sum", "make_sized_bounded_int_monotonic_sum"]
)
def test_monotonic_sums_refuse_bounds_of_mixed_sign(name):
    with pytest.raises(MakeTransformationError, match="one sign") as error:
        build(name, (-1, 1), "i32", size=2)
    assert error.value.parameter == "bounds"
    for bounds in ((-5, 0), (0, 5), (-5, -1), (2, 5), (0, 0)):
        assert build(name, bounds, "i32", size=2).map(2) >= 0


@pytest.mark.parametrize("name", [n for n in UNSIZED if "monotonic" not in n])
def test_unsized_map_overflow_is_a_typed_error(name):
    t = build(name, (0, 2**30), "i32")
    assert t.map(1) == 2**30
    with pytest.raises(ArithmeticOverflowError, match="overflows i32") as error:
        t.map(2)
    assert error.value.parameter == "d_in"
    with pytest.raises(FailedCastError, match="not a value of u8") as cast:
        build(name, (0, 1), "u8").map(300)
    assert cast.value.parameter == "d_in"


@pytest.mark.parametrize("name", SIZED)
def test_sized_map_overflow_is_a_typed_error(name):
    t = build(name, (0, 2**30 - 1), "i32", size=2)
    assert t.map(5) == 2 * (2**30 - 1)
    with pytest.raises(ArithmeticOverflowError):
        t.map(6)


# -- bad arguments --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_lower_above_upper_is_refused(name):
    with pytest.raises((MakeDomainError, MakeTransformationError)) as error:
        build(name, (5, 2), "i32", size=2)
    assert error.value.parameter == "bounds"


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(
    "bounds, T",
    [((-1, 5), "u8"), ((0, 300), "u8"), ((0.0, 1.0), "i32"), ((0, 1.5), "i64"), ((True, 2), "i32")],
)
def test_bounds_not_of_T_are_refused(name, bounds, T):
    with pytest.raises(MakeTransformationError, match="not a value of") as error:
        build(name, bounds, T, size=2)
    assert error.value.parameter == "bounds"


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("bounds", [None, (1,), (1, 2, 3), "ab"])
def test_bounds_not_a_pair_are_refused(name, bounds):
    with pytest.raises(MakeTransformationError, match="pair") as error:
        build(name, bounds, "i32", size=2)
    assert error.value.parameter == "bounds"


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("T", ["f64", "f32", float, "bool", "String"])
def test_non_integer_types_are_refused(name, T):
    with pytest.raises(MakeTransformationError, match="integer type") as error:
        build(name, (0, 1), T, size=2)
    assert error.value.parameter == "T"


@pytest.mark.parametrize("name", ALL)
def test_unknown_type_is_refused(name):
    with pytest.raises(MakeDomainError, match="unknown carrier type") as error:
        build(name, (0, 1), "i9", size=2)
    assert error.value.parameter == "T"


@pytest.mark.parametrize("name", SIZED)
@pytest.mark.parametrize(
    "size, rule", [(-1, "non-negative"), (1.5, "integer"), (True, "integer"), (None, "integer")]
)
def test_bad_sizes_are_refused(name, size, rule):
    with pytest.raises(MakeTransformationError, match=rule) as error:
        getattr(dp.t, name)(size, (0, 1), T="i32")
    assert error.value.parameter == "size"


@pytest.mark.parametrize("name", ALL)
def test_out_of_domain_data_is_refused_at_invocation(name):
    t = build(name, (0, 10), "i32", size=3)
    for data in ([1, 2, 11], [1, 2, -1], [1.0, 2, 3], [True, 2, 3], [1, 2, 2**40], "abc"):
        with pytest.raises(FailedFunctionError, match="not a member"):
            t(data)
    if name.startswith("make_sized"):
        with pytest.raises(FailedFunctionError):
            t([1, 2])
        with pytest.raises(FailedFunctionError):
            t(np.array([1, 2, 3, 4]))


# -- runtime contracts ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_runtime_contracts_check_preconditions_and_maps(name):
    dp.enable_contracts()
    t = build(name, (0, 10), "i64", size=4)
    assert t([1, 2, 3, 4]) == 10
    assert t.map(3) == (10 if name.startswith("make_sized") else 30)
    with pytest.raises(dp.ContractError) as error:
        build(name, (0, 1), "f64", size=4)
    assert error.value.condition == "T-integer"
    with pytest.raises(dp.ContractError) as error:
        build(name, (3, 1), "i64", size=4)
    assert error.value.condition in {"bounds-ordered", "bounds-share-sign", "sum-cannot-overflow"}
