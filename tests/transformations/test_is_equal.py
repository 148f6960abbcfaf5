import math

import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedFunctionError, MakeTransformationError


def test_issue_example():
    t = dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 3)
    assert t([1, 3, 3]) == [False, True, True]
    assert t.map(2) == 2
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="bool"))
    assert t.output_metric == dp.symmetric_distance()


def test_partial_with_floats_and_ieee_semantics():
    t = (dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance()) >> dp.t.then_is_equal(
        0.0
    )
    assert t([-0.0, 0.0, math.nan, 1e-300]) == [True, True, False, False]
    nan_t = (
        dp.vector_domain(dp.atom_domain(T="f64")),
        dp.symmetric_distance(),
    ) >> dp.t.then_is_equal(math.nan)
    assert nan_t([math.nan, 1.0]) == [False, False]


def test_size_and_metric_are_kept():
    domain = dp.vector_domain(dp.atom_domain(T="String"), size=2)
    t = dp.t.make_is_equal(domain, dp.insert_delete_distance(), "a")
    assert t(["a", "b"]) == [True, False]
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="bool"), size=2)
    assert t.output_metric == dp.insert_delete_distance()


def test_l1_metric_is_refused():
    with pytest.raises(MakeTransformationError, match="symmetric_distance") as error:
        dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance("i32"), 3)
    assert error.value.parameter == "input_metric"


@pytest.mark.parametrize(
    "T, value", [("i32", 1.0), ("f64", 2**53 + 1), ("i8", 200), ("f32", 1e300), ("bool", 1)]
)
def test_value_of_wrong_type_is_refused(T, value):
    with pytest.raises(MakeTransformationError, match="not a value of the carrier type") as error:
        dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T=T)), dp.symmetric_distance(), value)
    assert error.value.parameter == "value"


def test_non_vector_domain_is_refused():
    with pytest.raises(MakeTransformationError, match="vector_domain") as error:
        dp.t.make_is_equal(dp.atom_domain(T="i32"), dp.symmetric_distance(), 1)
    assert error.value.parameter == "input_domain"
    nested = dp.vector_domain(dp.vector_domain(dp.atom_domain(T="i32")))
    with pytest.raises(MakeTransformationError, match="atom_domain"):
        dp.t.make_is_equal(nested, dp.symmetric_distance(), 1)


def test_out_of_domain_data_is_refused():
    t = dp.t.make_is_equal(
        dp.vector_domain(dp.atom_domain(bounds=(0, 5))), dp.symmetric_distance(), 3
    )
    with pytest.raises(FailedFunctionError, match="not a member"):
        t([1, 6])
    with pytest.raises(FailedFunctionError):
        t([1.0])


def test_float32_scalars_are_compared_by_their_exact_value():
    """numpy compares a float32 scalar with a Python float in binary32 (float32(0.1) == 0.1 is
    true there); the boundary makes the record the exact Python float it denotes first."""
    import numpy as np

    t = dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance(), 0.1)
    assert t([np.float32(0.1)]) == [False]
    assert t([float(np.float32(0.1)), 0.1, np.float64(0.1)]) == [False, True, True]


def test_float16_and_longdouble_arrays_are_compared_exactly():
    """numpy compares a float16 with a Python float in binary16: float16(0.1) would equal the
    f32 value 0.1f32 while the same record, as a Python float, would not."""
    import numpy as np

    value = float(np.float32(0.1))
    t = dp.t.make_is_equal(
        dp.vector_domain(dp.atom_domain(T="f32")), dp.symmetric_distance(), value
    )
    halves = np.array([0.1], dtype=np.float16)
    assert bool(halves[0] == value)  # the comparison that made the pair a counterexample
    assert t(halves) == [False]
    assert t([halves[0]]) == [False]
    assert t(np.array([0.5, value], dtype=np.longdouble)) == [False, True]
    with pytest.raises(FailedFunctionError, match="type: an element is not a value of f32"):
        t(np.array([np.longdouble(1) / 3], dtype=np.longdouble))
    assert t(np.array([value, 0.5], dtype=np.float64)) == [True, False]
