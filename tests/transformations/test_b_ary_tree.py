import dataclasses
import math

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import ArithmeticOverflowError, DPError, MakeTransformationError
from certdp.transformations.b_ary_tree.make_b_ary_tree import layer_count


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def tree(leaf_count, b, T="i32", metric=dp.l1_distance, Q=None, **kwargs):
    domain = dp.vector_domain(dp.atom_domain(T=T, **kwargs))
    return dp.t.make_b_ary_tree(domain, metric(T=Q or T), leaf_count, b)


# Outputs printed by OpenDP 0.16: dp.t.make_b_ary_tree(dp.vector_domain(dp.atom_domain(T='i32')),
# dp.l1_distance(T='i32'), n, b)(data) for the same n, b, data.
@pytest.mark.parametrize(
    ("n", "b", "data", "expected"),
    [
        (1, 2, [1], [1]),
        (2, 2, [1, 1], [2, 1, 1]),
        (3, 2, [1, 1, 1], [3, 2, 1, 1, 1, 1]),
        (4, 2, [1, 1, 1, 1], [4, 2, 2, 1, 1, 1, 1]),
        (5, 2, [1] * 5, [5, 4, 1, 2, 2, 1, 0, 1, 1, 1, 1, 1]),
        (
            9,
            2,
            [1] * 9,
            [9, 8, 1, 4, 4, 1, 0, 2, 2, 2, 2, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        ),
        (
            10,
            3,
            [1] * 10,
            [10, 9, 1, 0, 3, 3, 3, 1, 0, 0, 0, 0, 0] + [1] * 10,
        ),
        # shorter data: missing leaves count zero and are not released
        (5, 2, [1, 2], [3, 3, 0, 3, 0, 0, 0, 1, 2]),
        # longer data: cut to leaf_count
        (5, 2, [1, 2, 3, 4, 5, 6, 7], [15, 10, 5, 3, 7, 5, 0, 1, 2, 3, 4, 5]),
        # negative counts are counts of the type too (OpenDP 0.16 gives the same)
        (5, 2, [-3, 1, 0, 0, 0], [-2, -2, 0, -2, 0, 0, 0, -3, 1, 0, 0, 0]),
        (5, 2, [], [0, 0, 0, 0, 0, 0, 0]),
    ],
)
def test_tree_like_opendp(n, b, data, expected):
    for metric in (dp.l1_distance, dp.l2_distance):
        t = tree(n, b, metric=metric)
        assert t(data) == expected
        assert t(np.array(data, dtype=np.int32)) == expected
        assert all(type(v) is int for v in t(np.array(data, dtype=np.int32)))


def test_output_lengths_like_opendp():
    # len(OpenDP 0.16's tree) for 27 (b=3), 28 (b=3), 100 (b=10) ones
    assert len(tree(27, 3)([1] * 27)) == 40
    assert len(tree(28, 3)([1] * 28)) == 68
    assert len(tree(100, 10)([1] * 100)) == 111


@pytest.mark.parametrize(
    ("n", "b", "layers"),
    # OpenDP 0.16: make_b_ary_tree(..., l1_distance(T='i64'), n, b).map(1)
    [
        (1, 2, 1),
        (2, 2, 2),
        (3, 2, 3),
        (4, 2, 3),
        (5, 2, 4),
        (8, 2, 4),
        (9, 2, 5),
        (10, 3, 4),
        (27, 3, 4),
        (28, 3, 5),
        (100, 10, 3),
        (2**32 - 1, 2, 33),
        (2**31, 2, 32),
        (2**31 + 1, 2, 33),
        (1, 2**32 - 1, 1),
        (2, 2**32 - 1, 2),
        (2**32 - 1, 2**32 - 1, 2),
        (3**20, 3, 21),
        (3**20 + 1, 3, 22),
    ],
)
def test_layer_count_like_opendp(n, b, layers):
    assert layer_count(n, b) == layers
    if n <= 2**24:
        assert tree(n, b).map(1) == layers
        assert tree(n, b, T="i64").map(3) == 3 * layers


def test_l1_maps_like_opendp():
    # OpenDP 0.16 L1Distance<i32>: n=5, b=2 gives map(1) = 4, map(3) = 12; map(0) = 0
    t = tree(5, 2)
    assert [t.map(0), t.map(1), t.map(3)] == [0, 4, 12]
    # OpenDP: "536870912 * 4 overflows"
    with pytest.raises(ArithmeticOverflowError, match="largest value of i32"):
        t.map(2**29)
    assert tree(5, 2, Q="i64").map(2**29) == 2**31


def test_l2_map_is_sound_where_opendp_is_not():
    # OpenDP 0.16 states map(4) = 20 here, but these 4-close leaf vectors are sqrt(496) apart
    t = tree(16, 2, metric=dp.l2_distance)
    x, x_prime = [0] * 16, [1] * 16
    assert t.input_metric.squared_distance(x, x_prime) == 16
    assert t.output_metric.squared_distance(t(x), t(x_prime)) == 496
    assert 20 < math.sqrt(496) <= t.map(4) == 23  # ceil(4 * sqrt(31))
    # S = 1 + 2 = 3 for n = 2: ceil(d_in * sqrt 3)
    t = tree(2, 2, metric=dp.l2_distance)
    assert [t.map(d) for d in (0, 1, 2, 7)] == [0, 2, 4, 13]
    assert tree(1, 5, metric=dp.l2_distance).map(9) == 9


def test_branches_saturate_instead_of_wrapping():
    # OpenDP 0.16 wraps: [2**31 - 1, 1, ...] gives -2147483648 at the root
    t = tree(5, 2)
    assert t([2**31 - 1, 1, 0, 0, 0])[:4] == [2**31 - 1, 2**31 - 1, 0, 2**31 - 1]
    assert tree(2, 2)([-(2**31), -1]) == [-(2**31), -(2**31), -1]
    u = tree(3, 2, T="u8", Q="u32")
    assert u([200, 100, 1]) == [255, 255, 1, 200, 100, 1]


def test_output_domain_drops_bounds_and_size():
    t = dp.t.make_b_ary_tree(
        dp.vector_domain(dp.atom_domain(T="i32", bounds=(0, 5)), size=3),
        dp.l1_distance(T="i32"),
        3,
        2,
    )
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="i32"))
    assert t([5, 5, 5]) == [15, 10, 5, 5, 5, 5]
    assert t.output_metric == dp.l1_distance(T="i32")


def test_then_form():
    space = dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32")
    t = space >> dp.t.then_b_ary_tree(leaf_count=4, branching_factor=2)
    assert t([1, 2, 3, 4]) == [10, 3, 7, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("kwargs", "parameter", "message"),
    [
        ({"leaf_count": 0}, "leaf_count", "at least 1"),
        ({"leaf_count": -4}, "leaf_count", "at least 1"),
        ({"leaf_count": 2**24 + 1}, "leaf_count", "at most 16777216"),
        ({"leaf_count": 2**40}, "leaf_count", "at most"),
        ({"leaf_count": 2.0}, "leaf_count", "integer"),
        ({"leaf_count": True}, "leaf_count", None),
        ({"branching_factor": 1}, "branching_factor", "at least 2"),
        ({"branching_factor": 0}, "branching_factor", "at least 2"),
        ({"branching_factor": 2**32}, "branching_factor", "at most 4294967295"),
        ({"branching_factor": float("nan")}, "branching_factor", None),
        ({"branching_factor": "2"}, "branching_factor", "integer"),
    ],
)
def test_bad_parameters(kwargs, parameter, message):
    arguments = {
        "input_domain": dp.vector_domain(dp.atom_domain(T="i32")),
        "input_metric": dp.l1_distance(T="i32"),
        "leaf_count": 4,
        "branching_factor": 2,
        **kwargs,
    }
    with pytest.raises(DPError) as error:
        dp.t.make_b_ary_tree(**arguments)
    assert error.value.parameter == parameter
    if message:
        assert message in str(error.value)


@pytest.mark.parametrize(
    ("domain", "metric", "parameter"),
    [
        (dp.vector_domain(dp.atom_domain(T="f64")), dp.l1_distance(T="f64"), "input_domain"),
        (dp.vector_domain(dp.atom_domain(T="String")), dp.l1_distance(T="i32"), "input_domain"),
        (dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), "input_domain"),
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), "input_metric"),
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="f64"), "input_metric"),
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.l2_distance(T="f32"), "input_metric"),
    ],
)
def test_bad_spaces(domain, metric, parameter):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_b_ary_tree(domain, metric, 4, 2)
    assert error.value.parameter == parameter


def test_hostile_data_is_refused_by_the_domain():
    t = tree(4, 2)
    for data in ([float("nan"), 1], [1.5, 2], [2**31], "abc"):
        with pytest.raises(DPError):
            t(data)


def test_hostile_d_in_is_refused():
    t = tree(4, 2)
    assert t.map(1.5) == 5  # ceil(1.5 * 3): the distance type is i32
    for d_in in (-1, float("nan"), "1", float("inf")):
        with pytest.raises(DPError):
            t.map(d_in)


def test_huge_leaf_count_builds_in_bounded_memory():
    t = tree(2**24, 2**32 - 1)  # two layers: one root over 2**24 leaves
    assert t([1, 2, 3]) == [6, 1, 2, 3]
    assert t.map(1) == 2


def test_contract_verifies():
    report = contract_of(dp.t.make_b_ary_tree).verify(max_examples=100)
    assert report.examples > 0 and report.max_tightness == 1


@pytest.mark.parametrize("metric", [dp.l1_distance, dp.l2_distance])
def test_a_map_one_layer_short_is_refuted(metric):
    fixed = dataclasses.replace(
        contract_of(dp.t.make_b_ary_tree),
        arguments=lambda: __import__("hypothesis").strategies.just(
            {
                "input_domain": dp.vector_domain(dp.atom_domain(T="i32")),
                "input_metric": metric(T="i32"),
                "leaf_count": 4,
                "branching_factor": 2,
            }
        ),
    )
    # one leaf moved by d moves one node per layer: 3 d in L1, sqrt(3) d in L2
    wrong = (lambda d: 2 * d) if metric is dp.l1_distance else (lambda d: d)
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=wrong)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert tree(4, 2)([1, 2, 3, 4]) == [10, 3, 7, 1, 2, 3, 4]
    with pytest.raises(dp.ContractError) as error:
        tree(4, 1)
    assert error.value.condition == "branching-factor-range"


def test_fractional_d_in_rounds_up():
    from fractions import Fraction

    t = tree(16, 2, metric=dp.l2_distance)
    assert t.map(0.5) == 3  # ceil(sqrt(31 / 4))
    assert t.map(Fraction(1, 3)) == 2  # ceil(sqrt(31 / 9))
    assert tree(5, 2).map(0.25) == 1


# --- sequences the vector domain admits: every one gives the list's tree (OpenDP accepts a
# tuple too); the others are refused with a typed error naming the argument -----------------


def _tree():
    dp.enable_features("contrib")
    return dp.t.make_b_ary_tree(
        dp.vector_domain(dp.atom_domain(T=int)),
        dp.l1_distance(T=int),
        leaf_count=4,
        branching_factor=2,
    )


@pytest.mark.parametrize(
    "data", [(1, 2, 3, 4), np.array([1, 2, 3, 4]), (1, 2)], ids=["tuple", "array", "short-tuple"]
)
def test_an_admitted_sequence_gives_the_trees_of_its_list(data):
    tree = _tree()
    as_list = list(data.tolist() if type(data) is np.ndarray else data)
    assert tree(data) == tree(as_list)
    assert tree((1, 2, 3, 4)) == [10, 3, 7, 1, 2, 3, 4]


@pytest.mark.parametrize(
    "data",
    [{1, 2, 3, 4}, {1: 1, 2: 2}, (i for i in range(4)), "1234"],
    ids=["set", "dict", "generator", "str"],
)
def test_an_unordered_or_lazy_collection_is_refused_typed(data):
    with pytest.raises(DPError) as caught:
        _tree()(data)
    assert caught.value.parameter == "arg"
