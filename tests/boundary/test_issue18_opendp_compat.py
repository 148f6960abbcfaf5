"""Issue 18, part 6: OpenDP 0.16 code runs unchanged where certdp has the constructor.

The expected numbers are OpenDP 0.16.0's (recorded by running it); where OpenDP is installed
the test compares with it directly too.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError

try:
    import opendp.prelude as odp
except ImportError:  # pragma: no cover - OpenDP is optional
    odp = None

needs_opendp = pytest.mark.skipif(odp is None, reason="OpenDP is not installed")


@pytest.fixture(autouse=True)
def _opendp_contrib():
    """OpenDP's feature set is global to the process, and another module's test run earlier on
    the same worker may have disabled ``contrib``: enable it for each test here."""
    if odp is not None:
        odp.enable_features("contrib")


def nearest_f32(value: float) -> float:
    return float(np.float32(value))


# -- floats given for f32 carriers are rounded as OpenDP rounds them --------------------------


def test_f32_sum_bounds_from_python_floats_round_to_nearest():
    summed = dp.t.make_bounded_float_ordered_sum(10, (-1e30, 1e30), S="Pairwise<f32>")
    bounds = summed.input_domain.element_domain.bounds
    assert bounds == (nearest_f32(-1e30), nearest_f32(1e30))
    # OpenDP 0.16.0's map at d_in = 1
    assert summed.map(1) == 2.0000080392284874e30


def test_f32_sum_bound_beyond_the_range_is_refused():
    with pytest.raises(dp.MakeTransformationError, match="beyond the range of f32"):
        dp.t.make_bounded_float_ordered_sum(10, (-1e300, 1e300), S="Pairwise<f32>")


def test_resize_float_constant_on_f32_rounds_to_nearest():
    space = dp.vector_domain(dp.atom_domain(T="f32")), dp.symmetric_distance()
    resized = dp.t.make_resize(*space, size=3, constant=0.1)
    assert resized([1.0]) == [1.0, nearest_f32(0.1), nearest_f32(0.1)]


def test_resize_int_constant_on_float_domain_when_exact():
    space = dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance()
    padded = dp.t.make_resize(*space, size=3, constant=5)([1.0])
    assert padded == [1.0, 5.0, 5.0] and all(type(x) is float for x in padded)


def test_resize_inexact_int_constant_is_refused():
    # OpenDP rounds 2**60 + 1 to 2**60; certdp refuses a constant it would change
    space = dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance()
    with pytest.raises(dp.MakeTransformationError, match="^constant: "):
        dp.t.make_resize(*space, size=3, constant=2**60 + 1)


def test_resize_rounded_constant_must_stay_within_bounds():
    bounded = dp.atom_domain(bounds=(0.0, nearest_f32(0.1)), T="f32")
    space = dp.vector_domain(bounded), dp.symmetric_distance()
    assert dp.t.make_resize(*space, size=2, constant=0.1)([]) == [nearest_f32(0.1)] * 2
    low = dp.atom_domain(bounds=(0.0, 0.09), T="f32")
    with pytest.raises(dp.MakeTransformationError, match="^constant: "):
        dp.t.make_resize(dp.vector_domain(low), dp.symmetric_distance(), size=2, constant=0.1)


def test_python_float_data_to_f32_domain_is_rounded_under_dataset_metrics():
    space = dp.vector_domain(dp.atom_domain(T="f32", nan=False)), dp.symmetric_distance()
    clamp = dp.t.make_clamp(*space, (0.0, 1.0))
    assert clamp([0.1, 0.2, 5.0]) == [nearest_f32(0.1), nearest_f32(0.2), 1.0]


def test_f64_array_to_f32_domain_is_still_refused_like_opendp():
    space = dp.vector_domain(dp.atom_domain(T="f32", nan=False)), dp.symmetric_distance()
    clamp = dp.t.make_clamp(*space, (0.0, 1.0))
    with pytest.raises(TypeError):
        clamp(np.array([0.1, 0.2]))


def test_python_float_data_to_f32_is_not_rounded_under_a_numeric_distance():
    # under the L1 distance rounding could move two vectors apart: refused as before
    space = dp.vector_domain(dp.atom_domain(T="f32", nan=False)), dp.l1_distance(T="f32")
    laplace = dp.m.make_laplace(*space, 1.0)
    with pytest.raises(dp.FailedFunctionError, match="not a value of f32"):
        laplace([0.1])


# -- Gaussian over integers with a float distance ---------------------------------------------


@pytest.mark.parametrize(
    ("scale", "d_in", "rho"),
    [(1.0, 1.0, 0.5), (1.0, 0.5, 0.125), (2.5, 1.7, 0.2312), (2.5, 2.0, 0.32)],
)
def test_gaussian_integer_data_float_distance_matches_opendp(scale, d_in, rho):
    atom = dp.m.make_gaussian(dp.atom_domain(T="i32"), dp.absolute_distance(T="f64"), scale)
    vector = dp.m.make_gaussian(
        dp.vector_domain(dp.atom_domain(T="i32")), dp.l2_distance(T="f64"), scale
    )
    assert atom.map(d_in) == rho
    assert vector.map(d_in) == rho
    assert atom.map(d_in) >= Fraction(d_in) ** 2 / (2 * Fraction(scale) ** 2)
    assert type(atom(5)) is int
    assert all(type(x) is int for x in vector([1, 2, 3]))


def test_gaussian_float_data_integer_distance_is_still_refused():
    with pytest.raises(dp.MakeMeasurementError, match="^input_metric: "):
        dp.m.make_gaussian(dp.atom_domain(T="f64", nan=False), dp.absolute_distance("i32"), 1.0)


@needs_opendp
@pytest.mark.parametrize("d_in", [0.0, 0.3, 1.0, 1.7, 2.0, 1e10])
def test_gaussian_integer_data_float_distance_equals_opendp_live(d_in):
    for scale in (0.7, 2.5, 1e3):
        ours = dp.m.make_gaussian(dp.atom_domain(T="i32"), dp.absolute_distance(T="f64"), scale)
        theirs = odp.m.make_gaussian(
            odp.atom_domain(T="i32"), odp.absolute_distance(T="f64"), scale
        )
        assert ours.map(d_in) == theirs.map(d_in)


@needs_opendp
def test_f32_sum_and_resize_equal_opendp_live():
    ours = dp.t.make_bounded_float_ordered_sum(10, (-1e30, 1e30), S="Pairwise<f32>")
    theirs = odp.t.make_bounded_float_ordered_sum(10, (-1e30, 1e30), S="Pairwise<f32>")
    for d_in in (0, 1, 2, 7):
        assert ours.map(d_in) == theirs.map(d_in)
    space = dp.vector_domain(dp.atom_domain(T="f32")), dp.symmetric_distance()
    ospace = odp.vector_domain(odp.atom_domain(T="f32")), odp.symmetric_distance()
    assert dp.t.make_resize(*space, size=3, constant=0.1)([1.0]) == odp.t.make_resize(
        *ospace, size=3, constant=0.1
    )([1.0])


# -- OpenDPException --------------------------------------------------------------------------


def test_opendp_exception_is_exported_with_variant_and_message():
    with pytest.raises(dp.OpenDPException) as caught:
        dp.m.make_laplace(dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), -1.0)
    assert caught.value.variant == "MakeMeasurement"
    assert caught.value.message == str(caught.value)
    assert caught.value.message.startswith("scale: ")
    assert dp.OpenDPException is DPError


@pytest.mark.parametrize(
    "call",
    [
        lambda: dp.atom_domain(bounds=("a", 1)),
        lambda: dp.t.make_clamp(
            dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), (0.0, 1.0)
        ),
        lambda: dp.m.make_laplace(
            dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), 1.0
        ).map("x"),
        lambda: dp.m.make_laplace(
            dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), 1.0
        )("x"),
        lambda: dp.t.make_resize(
            dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 3.0, 0
        ),
    ],
)
def test_where_opendp_raises_type_error_the_error_is_catchable_as_both(call):
    with pytest.raises(TypeError) as caught:
        call()
    assert isinstance(caught.value, dp.OpenDPException)


def test_value_errors_are_not_type_errors():
    with pytest.raises(DPError) as caught:
        dp.m.make_laplace(dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), -1.0)
    assert not isinstance(caught.value, TypeError)


# -- pandas Series as a vector -----------------------------------------------------------------

pd = pytest.importorskip("pandas")


def test_series_of_floats_is_a_vector():
    space = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()
    clamp = dp.t.make_clamp(*space, (0.0, 1.0))
    assert list(clamp(pd.Series([0.1, 2.0]))) == [0.1, 1.0]
    assert list(clamp(pd.Series([0.1, 2.0], index=[5, 3]))) == [0.1, 1.0]


def test_series_of_ints_and_of_object_ints():
    space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
    clamp = dp.t.make_clamp(*space, (0, 1))
    assert list(clamp(pd.Series([1, 2]))) == [1, 1]
    assert clamp(pd.Series([1, 2], dtype=object)) == [1, 1]
    assert dp.t.make_count(*space)(pd.Series([1, 2, 3])) == 3


def test_series_of_mixed_objects_is_refused():
    space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
    with pytest.raises(dp.FailedFunctionError, match="not a value of i32"):
        dp.t.make_clamp(*space, (0, 1))(pd.Series([1, "a"]))
    with pytest.raises(dp.FailedFunctionError):
        dp.t.make_clamp(*space, (0, 1))(pd.Series([1, 2.5], dtype=object))


def test_series_of_nullable_dtype_is_refused():
    space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
    with pytest.raises(dp.FailedFunctionError, match="extension dtype"):
        dp.t.make_count(*space)(pd.Series([1, None], dtype="Int64"))


def test_a_class_that_only_claims_to_be_pandas_is_not_a_series():
    Fake = type("Series", (), {"__module__": "pandas.core.series", "to_numpy": lambda self: 1})
    space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
    with pytest.raises(dp.FailedFunctionError, match="not a list"):
        dp.t.make_count(*space)(Fake())


def test_series_float_data_for_f32_is_refused_like_an_f64_array():
    space = dp.vector_domain(dp.atom_domain(T="f32", nan=False)), dp.symmetric_distance()
    with pytest.raises(dp.FailedFunctionError):
        dp.t.make_clamp(*space, (0.0, 1.0))(pd.Series([0.1]))
    assert math.isclose(
        dp.t.make_clamp(*space, (0.0, 1.0))(pd.Series([0.5], dtype="float32"))[0], 0.5
    )


@needs_opendp
@pytest.mark.parametrize("bounds", [(-0.1, 0.3), (0.0, 1e30), (-1e-40, 1e-40), (-3.3e38, 3.3e38)])
@pytest.mark.parametrize("S", ["Pairwise<f32>", "Sequential<f32>"])
@pytest.mark.parametrize(
    "name",
    [
        "make_bounded_float_checked_sum",
        "make_bounded_float_ordered_sum",
        "make_sized_bounded_float_checked_sum",
        "make_sized_bounded_float_ordered_sum",
    ],
)
def test_f32_sums_of_python_float_bounds_equal_opendp_live(name, S, bounds):
    def build(library):
        try:
            return getattr(library.t, name)(100, bounds, S=S), None
        except Exception as error:  # both must refuse, or neither
            return None, error

    ours, our_error = build(dp)
    theirs, their_error = build(odp)
    assert (ours is None) == (theirs is None), (our_error, their_error)
    if ours is None:
        assert isinstance(our_error, DPError)
        return
    for d_in in (0, 1, 2, 5):
        assert ours.map(d_in) == theirs.map(d_in)


def test_is_equal_float_value_for_f32_rounds_to_nearest():
    space = dp.vector_domain(dp.atom_domain(T="f32", nan=False)), dp.symmetric_distance()
    # OpenDP 0.16.0: [True, False] (value and records both rounded to float32)
    assert dp.t.make_is_equal(*space, 0.1)([0.1, 0.2]) == [True, False]
    f64 = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()
    assert dp.t.make_is_equal(*f64, 5)([5.0, 4.0]) == [True, False]
    with pytest.raises(dp.MakeTransformationError, match="^value: "):
        dp.t.make_is_equal(*f64, 2**60 + 1)
