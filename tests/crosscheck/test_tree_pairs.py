"""The b-ary tree's own pairs (certdp.crosscheck.tree_pairs) and the per-argument floor of its
contract bound (mapcheck.exact_bound)."""

import pytest

import certdp.prelude as dp
from certdp.core import switches
from certdp.crosscheck.mapcheck import exact_bound
from certdp.crosscheck.tree_pairs import check_tree, spread_pair, tree_squared, wrap_pairs


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _tree(T, metric, n, b):
    return dp.t.make_b_ary_tree(dp.vector_domain(dp.atom_domain(T=T)), metric(T=T), n, b)


def test_spread_pair_finds_the_referees_pairs():
    assert spread_pair(16, 2, 4) == ([0] * 16, [1] * 16)
    assert spread_pair(16, 2, 5) == ([0] * 16, [2, 2, 2] + [1] * 13)
    assert spread_pair(5, 2, 5)[1] == [3, 2, 2, 2, 2]  # 9 + 4 * 4 = 25
    for n, b, d in [(16, 2, 5), (9, 3, 4), (30, 10, 2), (1, 2, 3)]:
        x_prime = spread_pair(n, b, d)[1]
        assert sum(v * v for v in x_prime) == d * d


@pytest.mark.parametrize(("n", "b"), [(1, 2), (5, 2), (9, 3), (16, 2), (30, 10)])
def test_tree_squared_is_the_code_squared_norm(n, b):
    delta = [(7 * i) % 5 - 2 for i in range(n)]
    assert tree_squared(delta, b) == sum(v * v for v in _tree("i32", dp.l1_distance, n, b)(delta))


def test_spread_pair_beats_the_opendp_l2_map_at_16_leaves():
    x_prime = spread_pair(16, 2, 4)[1]
    assert tree_squared(x_prime, 2) == 496 > (4 * 5) ** 2  # OpenDP 0.16's map(4) = 4 * L = 20


def test_wrap_pairs_sit_at_the_type_limits():
    assert wrap_pairs(1, "i32") == []
    assert wrap_pairs(3, "u32") == [([2**32 - 1, 0, 0], [2**32 - 1, 1, 0])]
    assert wrap_pairs(2, "i64") == [
        ([2**63 - 1, 0], [2**63 - 1, 1]),
        ([-(2**63), 0], [-(2**63), -1]),
    ]


@pytest.mark.parametrize("metric", [dp.l1_distance, dp.l2_distance])
@pytest.mark.parametrize(("n", "b", "T"), [(5, 2, "i32"), (16, 2, "u32"), (30, 10, "i64")])
def test_certdp_own_tree_has_no_tree_counterexample(metric, n, b, T):
    """certdp saturates and maps L2 by sqrt(S): none of the pairs exceeds its map."""
    built = _tree(T, metric, n, b)
    space = (built.input_domain, built.input_metric)
    found, searched = check_tree(built, space, (n, b, T), (0, 1, 2, 4, 5))
    spread = 4 if metric is dp.l2_distance else 0  # d = 1, 2, 4, 5, each fits in n leaves
    assert found == [] and searched.pairs == len(wrap_pairs(n, T)) + spread
    assert searched.unchecked == 0  # certdp claims something on every pair


def test_a_wrapping_tree_is_caught():
    """A stand-in for a tree that wraps its branch sums (i32, 2 leaves) and claims L * d_in."""

    class Wrapping:
        output_metric = "L1Distance(i32)"

        def __call__(self, data):
            root = (data[0] + data[1] + 2**31) % 2**32 - 2**31
            return [root] + list(data)

        def map(self, d_in):
            return 2 * d_in

    space = (dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32"))
    found, _ = check_tree(Wrapping(), space, (2, 2, "i32"), (1,))
    assert [family for family, _ in found] == ["wrap"]
    assert found[0][1].actual == 2**32 and found[0][1].claimed == 2


def test_the_l2_bound_is_no_floor_the_l1_bound_is():
    contracts = switches.contracts.enabled
    switches.contracts.enabled = True
    try:
        l1 = _tree("i32", dp.l1_distance, 9, 3)
        l2 = _tree("i32", dp.l2_distance, 9, 3)
    finally:
        switches.contracts.enabled = contracts
    assert exact_bound(l1, 1) == 3  # attained: one leaf moved by 1 moves 3 nodes by 1
    assert exact_bound(l2, 1) is None  # sqrt(13) is an upper bound, sqrt(3) is attained


class _Refusing:
    """A stand-in tree (i32, L1) whose map refuses every distance above 0 (as OpenDP's refuses
    a distance beyond its type); its function runs."""

    output_metric = "L1Distance(i32)"

    def __call__(self, data):
        return [sum(data)] + list(data)

    def map(self, d_in):
        raise ValueError(f"{d_in} is not representable by i32")


def test_pairs_the_target_refuses_are_unchecked_with_reasons_not_tried():
    space = (dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32"))
    found, searched = check_tree(_Refusing(), space, (3, 2, "i32"), (1,))
    assert found == [] and searched.pairs == 2 and searched.unchecked == 2
    (reason,) = searched.reasons
    assert "map refuses the distance" in reason and "not representable by i32" in reason
    assert searched.reasons[reason] == 2


def test_l2_pairs_are_checked_or_unchecked_as_the_map_answers():
    # two wrap pairs and the spread pair at d = 1 (L2): all checked under a map that is met,
    # all unchecked under a map that refuses
    class Tree(_Refusing):
        def map(self, d_in):
            return 4 * d_in

    space = (dp.vector_domain(dp.atom_domain(T="i32")), dp.l2_distance(T="i32"))
    found, searched = check_tree(Tree(), space, (2, 2, "i32"), (1,))
    assert found == [] and searched.unchecked == 0 and searched.pairs == 3
    found, searched = check_tree(_Refusing(), space, (2, 2, "i32"), (1,))
    assert searched.pairs == searched.unchecked == 3
