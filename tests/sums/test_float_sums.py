"""The four float sum constructors: figures, domains, bad inputs, contracts, truncation."""

import math
import sys
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import Phase, settings

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import (
    ArithmeticOverflowError,
    ContractError,
    FailedFunctionError,
    MakeTransformationError,
)
from certdp.transformations.bounded_float_checked_sum.make_bounded_float_checked_sum import (
    uniform_subset,
)

MAX64 = sys.float_info.max
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target)
SIZED = ["make_sized_bounded_float_checked_sum", "make_sized_bounded_float_ordered_sum"]
UNSIZED = ["make_bounded_float_checked_sum", "make_bounded_float_ordered_sum"]
ALL = SIZED + UNSIZED


def build(name, *args, **kwargs):
    return getattr(dp.t, name)(*args, **kwargs)


# -- the figures of the user guide ------------------------------------------------------------


def test_user_guide_figures():
    sized = dp.t.make_sized_bounded_float_checked_sum(1000, (-10.0, 10.0))
    assert sized.map(2) == 20.00000000004426
    assert repr(sized.map(2)) == "20.00000000004426"
    unsized = dp.t.make_bounded_float_checked_sum(2**20, (-10.0, 10.0))
    assert unsized.map(1) == 20.00000009313226
    assert dp.t.make_bounded_float_checked_sum(2**20, (-10.0, 0.0)).map(1) == 10.00000009313226
    assert dp.t.make_bounded_float_checked_sum(size_limit=100, bounds=(-10.0, 0.0)).map(1) == (
        10.00000000000295
    )


def test_stair_steps_and_relaxation_growth():
    sized = dp.t.make_sized_bounded_float_checked_sum(3, (-10.0, 10.0), S="Sequential<f64>")
    relaxation = sized.map(0)
    assert relaxation > 0
    assert sized.map(1) == relaxation  # one change of a sized dataset is two edits
    assert sized.map(2) == 20.0 + relaxation or sized.map(2) > 20.0
    sequential = [
        dp.t.make_sized_bounded_float_checked_sum(n, (0.0, 10.0), S="Sequential<f64>").map(0)
        for n in (10, 100, 1000)
    ]
    pairwise = [
        dp.t.make_sized_bounded_float_checked_sum(n, (0.0, 10.0), S="Pairwise<f64>").map(0)
        for n in (10, 100, 1000)
    ]
    assert all(p < s for p, s in zip(pairwise, sequential))
    assert sequential[2] / sequential[1] > 90  # quadratic
    f32 = dp.t.make_sized_bounded_float_checked_sum(1000, (0.0, 10.0), S="Pairwise<f32>")
    assert f32.map(0) > 1e6 * pairwise[2]


# -- spaces --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_spaces(name):
    size_or_limit = 5
    built = build(name, size_or_limit, (-1.0, 2.0), S="Sequential<f32>")
    element = dp.atom_domain(bounds=(-1.0, 2.0), T="f32")
    size = size_or_limit if name in SIZED else None
    assert built.input_domain == dp.vector_domain(element, size=size)
    assert built.output_domain == dp.atom_domain(T="f32", nan=False)
    metric = dp.insert_delete_distance() if "ordered" in name else dp.symmetric_distance()
    assert built.input_metric == metric
    assert built.output_metric == dp.absolute_distance("f32")


@pytest.mark.parametrize("name", ALL)
def test_default_strategy_is_pairwise_in_the_type_of_the_bounds(name):
    default = build(name, 100, (np.float32(-1.0), np.float32(1.0)))
    explicit = build(name, 100, (-1.0, 1.0), S="Pairwise<f32>")
    assert default.map(1) == explicit.map(1)
    assert build(name, 100, (-1.0, 1.0)).map(1) == build(
        name, 100, (-1.0, 1.0), S="Pairwise<f64>"
    ).map(1)


def test_no_partial_forms():
    # OpenDP 0.16 offers no then_ form for these constructors (they take no input domain)
    names = set(dp.t.__all__)
    for name in ALL:
        assert name in names
        assert name.replace("make_", "then_") not in names


@pytest.mark.parametrize("name", ALL)
def test_accepts_lists_and_arrays(name):
    built = build(name, 4, (-1.0, 3.0), S="Sequential<f64>")
    assert built([1.0, 2.0, -1.0, 0.5]) == 2.5
    assert built(np.array([1.0, 2.0, -1.0, 0.5])) == 2.5
    built32 = build(name, 4, (-1.0, 3.0), S="Pairwise<f32>")
    assert built32(np.array([1.0, 2.0, -1.0, 0.5], dtype=np.float32)) == 2.5
    assert built32([1.0, 2.0, -1.0, 0.5]) == 2.5


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(
    "data",
    [
        [1.0, 2.0, 5.0, 0.0],  # above the upper bound
        [1.0, float("nan"), 0.0, 0.0],
        [1.0, float("inf"), 0.0, 0.0],
        [1, 2, 0, 0],  # integers are not floats
        np.array([[1.0, 2.0, 0.0, 0.0]]),  # a 2-d array
        np.ma.masked_array([1.0, 2.0, 0.0, 1e300], mask=[0, 0, 0, 1]),  # hidden out-of-bounds
        np.array([0.1, 0.0, 0.0, 0.0]),  # not values of f32 (for the f32 sum below)
        "abcd",
    ],
)
def test_out_of_domain_data_is_refused_at_invocation(name, data):
    T = "f32" if isinstance(data, np.ndarray) and data.ndim == 1 and data[0] == 0.1 else "f64"
    built = build(name, 4, (-1.0, 3.0), S=f"Sequential<{T}>")
    with pytest.raises(FailedFunctionError, match="^arg: not a member"):
        built(data)


@pytest.mark.parametrize("name", ALL)
def test_python_floats_for_f32_are_rounded_to_nearest_as_in_opendp(name):
    # the bound 0.1 and the records 0.1 become float32(0.1), as OpenDP converts them
    built = build(name, 4, (0.0, 0.1), S="Sequential<f32>")
    tenth = float(np.float32(0.1))
    assert built.input_domain.element_domain.bounds == (0.0, tenth)
    assert built([0.1, 0.0, 0.0, 0.0]) == tenth


@pytest.mark.parametrize("name", SIZED)
def test_sized_sums_refuse_other_lengths(name):
    built = build(name, 3, (-1.0, 3.0))
    with pytest.raises(FailedFunctionError):
        built([1.0, 2.0])


def test_ordered_unsized_sum_keeps_the_first_records():
    built = dp.t.make_bounded_float_ordered_sum(2, (0.0, 10.0), S="Sequential<f64>")
    assert built([1.0, 2.0, 4.0, 8.0]) == 3.0
    assert built(np.array([4.0, 8.0, 1.0])) == 12.0


# -- bad inputs -----------------------------------------------------------------------------------


BAD_ARGUMENTS = [
    ((10, (float("nan"), 1.0)), MakeTransformationError, "bounds: lower bound must be finite"),
    ((10, (0.0, float("inf"))), MakeTransformationError, "bounds: upper bound must be finite"),
    ((10, (2.0, 1.0)), MakeTransformationError, "bounds: lower bound 2.0 must not exceed"),
    ((10, (0, 1)), MakeTransformationError, "bounds: .*must be floats"),
    ((10, (0.0, 1)), MakeTransformationError, "bounds: upper bound 1 must be a float"),
    ((10, (0.0,)), MakeTransformationError, "bounds: .*(must be a pair|must be floats)"),
    ((10, "01"), MakeTransformationError, "bounds: .*must be floats|bounds: must be a pair"),
    ((-1, (0.0, 1.0)), MakeTransformationError, "must be non-negative, got -1"),
    ((2.0, (0.0, 1.0)), MakeTransformationError, "must be an integer, got 2.0"),
    ((True, (0.0, 1.0)), MakeTransformationError, "must be an integer, got True"),
    ((10, (0.0, 1.0), "Kahan<f64>"), MakeTransformationError, "S: unknown summation strategy"),
    ((10, (0.0, 1.0), "Pairwise<i32>"), MakeTransformationError, "S: unknown summation strategy"),
    (
        (10, (0.0, 1e300), "Pairwise<f32>"),
        MakeTransformationError,
        "bounds: upper bound is beyond the range of f32",
    ),
    (
        (2**24 + 1, (0.0, 1.0), "Sequential<f32>"),
        MakeTransformationError,
        "size: 16777217 is not exactly",
    ),
    ((0, (0.0, 1.0), "Pairwise<f64>"), ArithmeticOverflowError, "could overflow|log2"),
]


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("arguments, error, message", BAD_ARGUMENTS)
def test_bad_arguments_raise_typed_errors(name, arguments, error, message):
    size_name = "size" if name in SIZED else "size_limit"
    message = message.replace("must be non-negative", f"{size_name}: must be non-negative")
    message = message.replace("must be an integer", f"{size_name}: must be an integer")
    with pytest.raises(error, match=message):
        build(name, *arguments)


@pytest.mark.parametrize("name", [n for n in ALL if "checked" in n])
@pytest.mark.parametrize("S", ["Sequential<f64>", "Pairwise<f64>", "Exact<f64>"])
def test_checked_sums_refuse_possible_overflow(name, S):
    with pytest.raises(ArithmeticOverflowError, match="^bounds: a .* could overflow f64"):
        build(name, 10, (0.0, 1e308), S=S)
    build(name, 10, (0.0, 1e307), S=S)  # 10 * 2^1020 is finite


def test_ordered_sums_saturate_instead():
    built = dp.t.make_sized_bounded_float_ordered_sum(2, (0.0, MAX64), S="Pairwise<f64>")
    assert built([MAX64, MAX64]) == MAX64
    built = dp.t.make_bounded_float_ordered_sum(4, (-MAX64 / 4, MAX64 / 2), S="Sequential<f64>")
    assert built([MAX64 / 2, MAX64 / 2, MAX64 / 2, -MAX64 / 4]) == MAX64 - MAX64 / 4


def test_ordered_pairwise_refuses_where_no_map_is_proven():
    # three or more records, bounds of both signs, a sum that could saturate
    with pytest.raises(ArithmeticOverflowError, match="^S: a saturating Pairwise<f64> sum"):
        dp.t.make_sized_bounded_float_ordered_sum(16, (-0.2 * MAX64, 0.75 * MAX64))
    dp.t.make_sized_bounded_float_ordered_sum(16, (0.0, 0.75 * MAX64))  # one sign: proven
    dp.t.make_sized_bounded_float_ordered_sum(16, (-0.2 * MAX64, 0.75 * MAX64), S="Sequential<f64>")
    dp.t.make_sized_bounded_float_ordered_sum(2, (-0.2 * MAX64, 0.75 * MAX64))  # one addition


def test_map_rejects_bad_d_in():
    built = dp.t.make_sized_bounded_float_checked_sum(10, (0.0, 1.0))
    for d_in in (-1, 1.5, float("nan"), "1", True):
        with pytest.raises(dp.FailedMapError):
            built.map(d_in)


def test_map_overflow_is_an_error():
    built = dp.t.make_sized_bounded_float_ordered_sum(2, (-MAX64 / 2, MAX64 / 2), S="Pairwise<f64>")
    assert built.map(1) == built.map(0)
    with pytest.raises(ArithmeticOverflowError):
        built.map(2)


# -- contracts --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_contract_holds(name):
    report = contract_of(getattr(dp.t, name)).verify()
    assert report.examples > 0


@pytest.mark.parametrize("name", ALL)
def test_a_map_without_relaxation_is_refuted(name):
    """The naive map d_in * (ideal sensitivity), no rounding term, is refuted by a pair."""
    contract = contract_of(getattr(dp.t, name))

    def naive(d_in):
        return 0.0  # reordering alone (d_in = 0) already moves a float sum

    # any violating pair will do: skip shrinking it (the slow part), keep the active profile
    active = settings()
    settings.register_profile("float-sums-no-shrink", active, phases=NO_SHRINK)
    settings.load_profile("float-sums-no-shrink")
    try:
        with pytest.raises(StabilityViolation):
            contract.verify(map_override=naive)
    finally:
        settings.register_profile("float-sums-restore", active)
        settings.load_profile("float-sums-restore")


@pytest.mark.parametrize("name", ALL)
def test_runtime_enforcement(name):
    dp.enable_contracts()
    built = build(name, 100, (-10.0, 10.0), S="Pairwise<f64>")
    assert built.map(2) >= 20.0
    assert built.last_map_slack >= 0
    with pytest.raises(ContractError, match="bounds-ordered"):
        build(name, 100, (10.0, -10.0))
    with pytest.raises(ContractError, match="strategy-known"):
        build(name, 100, (-10.0, 10.0), S="Kahan<f64>")
    size_id = "size-non-negative" if name in SIZED else "size-limit-non-negative"
    with pytest.raises(ContractError, match=size_id):
        build(name, -1, (-10.0, 10.0))
    # a wrong map is caught when contracts are on
    built._map = lambda d_in: 0.0
    with pytest.raises(ContractError, match="stability-map"):
        built.map(2)


# -- truncation to a random subset ----------------------------------------------------------


def test_uniform_subset_is_exactly_uniform():
    """Every assignment of keys gives a subset; over all key orders, each subset equally often."""
    population, chosen = 5, 2
    counts = Counter()
    # keys 0..4 in every order: enumerate via permutations of small distinct keys
    from itertools import permutations

    for ranks in permutations(range(population)):
        keys = np.array(ranks, dtype=np.uint64).tobytes()
        counts[tuple(uniform_subset(population, chosen, lambda size, k=keys: k).tolist())] += 1
    assert set(counts) == set(combinations(range(population), chosen))
    assert len(set(counts.values())) == 1


def test_uniform_subset_redraws_ties():
    draws = iter(
        [
            np.array([1, 1, 1], dtype=np.uint64).tobytes(),  # tie at the boundary: redraw
            np.array([3, 1, 2], dtype=np.uint64).tobytes(),
        ]
    )
    assert uniform_subset(3, 2, lambda size: next(draws)).tolist() == [1, 2]


def test_truncation_draws_from_the_os():
    built = dp.t.make_bounded_float_checked_sum(2, (0.0, 10.0), S="Sequential<f64>")
    outputs = {built([1.0, 2.0, 4.0]) for _ in range(200)}
    assert outputs == {3.0, 5.0, 6.0}


def test_coupled_truncation_stays_within_the_map():
    """The coupling of the proof: x' = x plus one record z.  Draw the subset S' of x'; if it
    avoids z, S = S', else S = S' - {z} + {w} for w uniform outside S'.  Then the two sums are
    within map(1), for every draw (checked exhaustively on small cases)."""
    bounds = (-3.0, 7.0)
    limit = 3
    built = dp.t.make_bounded_float_checked_sum(limit, bounds, S="Pairwise<f64>")
    stated = Fraction(built.map(1))
    from certdp.transformations._summation.float_summation import float_sum, parse_summation

    summation = parse_summation("Pairwise<f64>")
    x = [7.0, -3.0, 2.5, 7.0, 0.1]
    for z in (-3.0, 7.0, 0.0):
        x_prime = x + [z]
        for subset_prime in combinations(range(len(x_prime)), limit):
            if len(x) in subset_prime:
                kept = [i for i in subset_prime if i != len(x)]
                partners = [[*kept, w] for w in range(len(x)) if w not in subset_prime]
            else:
                partners = [list(subset_prime)]
            for subset in partners:
                left = float_sum(summation, [x[i] for i in sorted(subset)])
                right = float_sum(summation, [x_prime[i] for i in subset_prime])
                assert abs(Fraction(left) - Fraction(right)) <= stated


@pytest.mark.parametrize("population, limit", [(3, 3), (4, 3), (6, 2), (7, 4), (5, 1)])
def test_coupling_of_the_proof_has_the_right_marginals(population, limit):
    """x' = x plus one record (index ``population``): S' uniform over the limit-subsets of x';
    S = S' if it avoids the new index, else S' with it swapped for a uniform w outside S'.
    Exactly (Fractions): S is uniform over the limit-subsets of x, and S, S' differ by at
    most one index on each side."""
    from math import comb

    law = Counter()
    new = population
    for subset_prime in combinations(range(population + 1), limit):
        weight = Fraction(1, comb(population + 1, limit))
        if new not in subset_prime:
            law[subset_prime] += weight
            continue
        kept = [i for i in subset_prime if i != new]
        outside = [w for w in range(population) if w not in subset_prime]
        for w in outside:
            subset = tuple(sorted([*kept, w]))
            assert len(set(subset) - set(subset_prime)) == 1
            law[subset] += weight / len(outside)
    assert set(law) == set(combinations(range(population), limit))
    assert set(law.values()) == {Fraction(1, comb(population, limit))}


def test_large_unsized_input_is_truncated():
    built = dp.t.make_bounded_float_checked_sum(1000, (0.0, 1.0), S="Pairwise<f64>")
    data = np.ones(5000)
    assert built(data) == 1000.0
    assert math.isfinite(built(data.tolist()))


def test_ordered_sum_accepts_any_sequence_of_records():
    """A deque is a member of the vector domain: truncating it must not need slicing."""
    from collections import deque

    import certdp.prelude as dp

    t = dp.t.make_bounded_float_ordered_sum(2, (0.0, 1e303))
    assert t(deque([1.0, 2.0, 4.0])) == 3.0
    assert t([1.0, 2.0, 4.0]) == 3.0


@pytest.mark.parametrize(
    "strategy",
    [
        "Bogus",  # an algorithm the lemmas do not cover
        "f16",  # a type that is not a float carrier of the sums
    ],
)
def test_a_hand_built_strategy_outside_the_proven_ones_is_refused(strategy):
    from certdp.transformations._summation.float_summation import FloatSummation

    S = FloatSummation("Bogus", "f32") if strategy == "Bogus" else FloatSummation("Pairwise", "f16")
    dp.enable_features("contrib")
    with pytest.raises(dp.DPError, match="^S: a FloatSummation must be exactly that class"):
        dp.t.make_sized_bounded_float_checked_sum(4, (1.0, 2.0), S=S)


def test_a_subclass_of_the_strategy_is_refused():
    from certdp.transformations._summation.float_summation import FloatSummation

    class Sneaky(FloatSummation):
        @property
        def mantissa_bits(self):
            return 200

    dp.enable_features("contrib")
    with pytest.raises(dp.DPError, match="^S: "):
        dp.t.make_bounded_float_checked_sum(4, (1.0, 2.0), S=Sneaky("Pairwise", "f64"))
