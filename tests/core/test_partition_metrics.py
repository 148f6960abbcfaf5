"""linf_distance, l01inf_distance, l02inf_distance: exact distances and closeness."""

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.core.errors import FailedCastError, FailedMapError, MakeDomainError


def test_linf_is_the_largest_coordinate_difference():
    metric = dp.linf_distance("i32")
    assert repr(metric) == "LInfDistance(T=i32)" and metric.distance_type == "i32"
    assert metric.distance([1, 2, 3], [3, 2, 1]) == 2
    assert metric.distance([], []) == 0
    assert metric.distance([1], [1, 2]) == math.inf
    f64 = dp.linf_distance("f64")
    assert f64.distance([0.1, 0.0], [0.2, 0.0]) == Fraction(0.2) - Fraction(0.1)
    assert f64.distance([math.nan], [0.0]) == math.inf
    assert f64.close([0.0, 1.0], [0.5, 1.0], 0.5) and not f64.close([0.0], [0.5], 0.25)


def test_monotonic_linf_is_infinite_for_crossing_vectors():
    metric = dp.linf_distance("f64", monotonic=True)
    assert repr(metric) == "LInfDistance(monotonic, T=f64)"
    assert metric.distance([1.0, 2.0], [3.0, 2.0]) == 2
    assert metric.distance([1.0, 2.0], [3.0, 1.0]) == math.inf
    assert metric.distance([3.0, 2.0], [1.0, 2.0]) == 2
    assert dp.linf_distance("f64").distance([1.0, 2.0], [3.0, 1.0]) == 2
    assert metric != dp.linf_distance("f64")
    assert metric == dp.linf_distance(float, monotonic=True)


@pytest.mark.parametrize(
    ("arguments", "parameter"), [(("bool",), "T"), (("String",), "T"), (("i32", 1), "monotonic")]
)
def test_linf_constructor_refusals(arguments, parameter):
    with pytest.raises(MakeDomainError) as info:
        dp.linf_distance(*arguments)
    assert info.value.parameter == parameter


def test_l01inf_between_maps_counts_changed_keys():
    metric = dp.l01inf_distance(dp.absolute_distance("i32"))
    assert repr(metric) == "L01InfDistance(AbsoluteDistance(i32))"
    assert metric.distance_type == "(u32, i32, i32)"
    a, b = {"a": 2, "b": 1, "same": 5}, {"a": 1, "c": 4, "same": 5}
    assert metric.distance(a, b) == (3, 6, 4)
    assert metric.close(a, b, (3, 6, 4))
    assert not metric.close(a, b, (2, 6, 4))
    assert not metric.close(a, b, (3, 5, 4))
    assert not metric.close(a, b, (3, 6, 3))
    # a key on one side only is changed even when its value is the zero
    assert metric.distance({"a": 0}, {}) == (1, 0, 0)
    assert metric.distance({}, {}) == (0, 0, 0)


def test_l02inf_uses_the_euclidean_norm_exactly():
    metric = dp.l02inf_distance(dp.absolute_distance("f64"))
    a, b = {"a": 2.0, "b": 1.0}, {"a": 1.0, "c": 4.0}
    assert metric.distance(a, b) == (3, 3 * sympy.sqrt(2), 4)
    root = 3 * math.sqrt(2)  # 4.242640687119286, above 3*sqrt(2)
    assert metric.close(a, b, (3, root, 4))
    assert not metric.close(a, b, (3, math.nextafter(root, 0), 4))
    assert not metric.close(a, b, (3, -1.0, 4))


def test_vectors_and_symmetric_inner_metric():
    metric = dp.l01inf_distance(dp.absolute_distance("i64"))
    assert metric.distance([1, 2, 3], [1, 5, 4]) == (2, 4, 3)
    assert metric.distance([1], [1, 2]) == (math.inf, math.inf, math.inf)
    partitions = dp.l01inf_distance(dp.symmetric_distance())
    assert partitions.distance_type == "(u32, u32, u32)"
    assert partitions.distance({"x": [1, 2], "y": [3]}, {"x": [1]}) == (2, 2, 1)
    with pytest.raises(FailedCastError):
        metric.distance({"a": 1}, [1])


def test_bounds_must_be_triples():
    metric = dp.l01inf_distance(dp.absolute_distance("i32"))
    with pytest.raises(FailedMapError, match="triple"):
        metric.close({}, {}, 1)
    with pytest.raises(FailedMapError, match="NaN"):
        metric.close({}, {}, (0, math.nan, 0))
    assert metric.close({"a": 1}, {}, (1, math.inf, 1))


@pytest.mark.parametrize(
    "inner", [dp.l1_distance("i32"), dp.insert_delete_distance(), "AbsoluteDistance<i32>"]
)
def test_inner_metrics_other_than_absolute_and_symmetric_are_refused(inner):
    for build in (dp.l01inf_distance, dp.l02inf_distance):
        with pytest.raises(MakeDomainError) as info:
            build(inner)
        assert info.value.parameter == "metric"
        assert isinstance(info.value, TypeError) == isinstance(inner, str)


counts = st.dictionaries(st.sampled_from("abcde"), st.integers(-50, 50), max_size=5)


@given(counts, counts)
def test_l0pinf_matches_the_definition(a, b):
    keys = a.keys() | b.keys()
    d = {k: abs(a.get(k, 0) - b.get(k, 0)) for k in keys}
    changed = sum(1 for k in keys if (k in a) != (k in b) or d[k] > 0)
    l1 = dp.l01inf_distance(dp.absolute_distance("i32"))
    l2 = dp.l02inf_distance(dp.absolute_distance("i32"))
    largest = max(d.values(), default=0)
    assert l1.distance(a, b) == (changed, sum(d.values()), largest)
    assert l2.distance(a, b) == (changed, sympy.sqrt(sum(v * v for v in d.values())), largest)
    assert l1.distance(a, b) == l1.distance(b, a)


def test_names_and_distance_types_agree_with_opendp():
    odp = pytest.importorskip("opendp.prelude")
    pairs = [
        (dp.linf_distance("i32"), odp.linf_distance("i32")),
        (dp.linf_distance("f64", monotonic=True), odp.linf_distance("f64", monotonic=True)),
        (
            dp.l01inf_distance(dp.absolute_distance("i32")),
            odp.l01inf_distance(odp.absolute_distance("i32")),
        ),
        (
            dp.l02inf_distance(dp.absolute_distance("f64")),
            odp.l02inf_distance(odp.absolute_distance("f64")),
        ),
        (
            dp.l01inf_distance(dp.symmetric_distance()),
            odp.l01inf_distance(odp.symmetric_distance()),
        ),
    ]
    for ours, theirs in pairs:
        assert repr(ours) == str(theirs)
        assert ours.distance_type == theirs.distance_type


def test_change_one_hamming_and_discrete_distances():
    change_one = dp.change_one_distance()
    assert change_one.distance([1, 2, 3], [3, 2, 1]) == 0
    assert change_one.distance([1, 2, 3], [4, 2, 5]) == 2
    assert change_one.distance([1], [1, 2]) == math.inf
    hamming = dp.hamming_distance()
    assert hamming.distance([1, 2, 3], [3, 2, 1]) == 2
    assert hamming.distance([0.0, math.nan], [-0.0, math.nan]) == 1
    assert hamming.distance([1], []) == math.inf
    discrete = dp.discrete_distance()
    assert discrete.distance("a", "a") == 0 and discrete.distance("a", "b") == 1
    assert discrete.close(1, 2, 1) and not discrete.close(1, 2, 0)
    assert change_one != hamming and change_one == dp.change_one_distance()


@given(st.lists(st.integers(0, 3), max_size=6), st.lists(st.integers(0, 3), max_size=6))
def test_change_one_is_half_the_symmetric_distance(a, b):
    b = (b + a)[: len(a)] if len(b) < len(a) else b[: len(a)]
    assert dp.change_one_distance().distance(a, b) * 2 == dp.symmetric_distance().distance(a, b)


def test_change_metric_names_agree_with_opendp():
    odp = pytest.importorskip("opendp.prelude")
    for name in ("change_one_distance", "hamming_distance", "discrete_distance"):
        ours, theirs = getattr(dp, name)(), getattr(odp, name)()
        assert repr(ours) == str(theirs) and ours.distance_type == theirs.distance_type


def test_triples_are_ordered_component_by_component():
    from certdp.core.partition_metrics import Triple

    t = Triple((1, 5, 5))
    assert not t <= (2, 0, 0)  # lexicographically it would be below
    assert t <= (1, 5, 5) and t <= [2, 6, 5] and (3, 5, 6) >= t
    assert not (2, 0, 0) >= t
    assert t >= (0, 0, 5) and not t >= (0, 6, 0)
    for refused in (lambda: t < (2, 0, 0), lambda: t > (0, 0, 0), lambda: (2, 0, 0) > t):
        with pytest.raises(TypeError):
            refused()
    with pytest.raises(TypeError):
        assert t <= (1, 2)
    assert t == (1, 5, 5) and repr(t) == "(1, 5, 5)"


@pytest.mark.parametrize(
    "left",
    [
        np.float64(1),
        np.float32(0.5),
        np.int64(7),
        np.bool_(True),
        np.array(9),
        np.array([0, 0, 0]),
        np.array([9, 9, 9]),
        1,
        1.5,
        Fraction(1),
        "x",
        None,
    ],
)
def test_reflected_comparisons_call_the_triples_method(left):
    """Lemma [triples], item 1: with a NumPy array or scalar (or a Python scalar) on the left,
    every comparison with a Triple raises TypeError instead of answering elementwise."""
    from certdp.core.partition_metrics import Triple

    t = Triple((1, 1, 1))
    comparisons = (
        lambda: left >= t,
        lambda: left <= t,
        lambda: left > t,
        lambda: left < t,
        lambda: t >= left,
        lambda: t <= left,
    )
    for comparison in comparisons:
        with pytest.raises(TypeError):
            comparison()


def test_reflected_comparison_with_a_list_or_tuple_is_the_product_order():
    from certdp.core.partition_metrics import Triple

    t = Triple((1, 5, 5))
    assert [2, 5, 5] >= t and not [2, 0, 0] >= t and [0, 5, 5] <= t and not [0, 6, 0] <= t
    assert (1, 5, 5) <= t and not (2, 0, 0) <= t
    with pytest.raises(TypeError):
        [0, 0, 0] < t  # noqa: B015


def test_l0pinf_components_are_fractions_for_both_inner_metrics():
    """l_p and l_inf are Fractions (or +inf) whatever the inner metric; l0 is an int."""
    symmetric = dp.l01inf_distance(dp.symmetric_distance())
    absolute = dp.l01inf_distance(dp.absolute_distance("i32"))
    for metric, a, b in (
        (symmetric, {"a": [1, 2]}, {"a": [1], "b": [3]}),
        (absolute, {"a": 3}, {"a": 1, "b": 0}),
        (symmetric, {}, {}),
        (absolute, {}, {}),
    ):
        l0, l1, linf = metric.distance(a, b)
        assert type(l0) is int and type(l1) is Fraction and type(linf) is Fraction
    assert symmetric.distance({"a": [1, 2]}, {"a": [1], "b": [3]}) == (2, 2, 1)
    assert absolute.distance({"a": 3}, {"a": 1, "b": 0}) == (2, 2, 2)
    squared = dp.l02inf_distance(dp.symmetric_distance())._components({"a": [1, 1]}, {})
    assert squared == (1, 4, 2) and type(squared[2]) is Fraction
    assert dp.l01inf_distance(dp.absolute_distance("f64")).distance(
        {"a": math.inf}, {"a": 0.0}
    ) == (1, math.inf, math.inf)


@pytest.mark.parametrize(
    ("d_in", "expected"),
    [((1, 2, 3), (1, 2, 3)), ([0, 0.5, math.inf], (0, 0.5, math.inf)), ((2, -0.0, 1), (2, 0.0, 1))],
)
def test_triple_d_in_accepts_triples(d_in, expected):
    from certdp.core.partition_metrics import triple_d_in

    validated = triple_d_in(d_in)
    assert validated == expected and triple_d_in(validated) == validated
    assert math.copysign(1, validated[1]) == 1


@pytest.mark.parametrize(
    "d_in", [1, (1, 2), (1.0, 1, 1), (True, 1, 1), (1, math.nan, 1), (-1, 1, 1), (1, 1, -0.5)]
)
def test_triple_d_in_refuses_what_is_no_distance(d_in):
    from certdp.core.partition_metrics import triple_d_in
    from certdp.core.transformation import validate_d_in

    with pytest.raises(FailedMapError) as info:
        triple_d_in(d_in)
    assert info.value.parameter == "d_in"
    with pytest.raises(FailedMapError):
        validate_d_in(dp.l01inf_distance(dp.absolute_distance("i32")), d_in)


def test_referee_lone_zero_key_is_counted_and_l2_is_compared_squared():
    """referee-hist (session 7): l0 counts a key on one side only even with value 0; close() on
    l2 compares the square exactly; a NaN bound is a typed refusal."""
    metric = dp.l01inf_distance(dp.absolute_distance(T="i32"))
    assert metric.distance({"a": 1, "b": 3}, {"a": 2, "c": 0}) == (3, 4, 3)
    assert metric.distance({"z": 0}, {}) == (1, 0, 0)
    l2 = dp.l02inf_distance(dp.absolute_distance(T="i32"))
    assert l2.close({"a": 1, "b": 3}, {"a": 2}, (2, math.sqrt(10) + 1e-9, 3))
    assert not l2.close({"a": 1, "b": 3}, {"a": 2}, (2, math.sqrt(10) - 1e-9, 3))
    assert not l2.close({}, {}, (0, -1, 0))
    with pytest.raises(FailedMapError):
        metric.close({"a": 1}, {}, (1, math.nan, 1))
