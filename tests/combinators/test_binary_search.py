"""binary_search / binary_search_param / binary_search_chain: the value returned always
passed the predicate, and (for monotone predicates) its neighbour on the other side failed."""

from __future__ import annotations

import importlib
import math
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators._search import BinarySearchError
from certdp.core.errors import DPError, MakeMeasurementError

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


@given(st.floats(-1e300, 1e300, allow_nan=False), st.booleans())
def test_float_search_finds_the_adjacent_passing_float(threshold, increasing):
    seen = []

    def predicate(x):
        seen.append(x)
        return x >= threshold if increasing else x <= threshold

    found, sign = dp.binary_search(predicate, return_sign=True)
    assert predicate(found) and found in seen
    step = math.nextafter(found, -math.inf if increasing else math.inf)
    assert not predicate(step)
    assert sign == (1 if increasing else -1)


@given(st.integers(-(10**15), 10**15), st.booleans())
def test_integer_search_finds_the_adjacent_passing_integer(threshold, increasing):
    def predicate(x):
        return x >= threshold if increasing else x <= threshold

    found = dp.binary_search(predicate, T=int)
    assert isinstance(found, int) and predicate(found)
    assert not predicate(found - 1 if increasing else found + 1)


def test_bounds_and_types():
    assert dp.binary_search(lambda x: x > 5, bounds=(0, 100)) == 6
    assert dp.binary_search(lambda x: x < 5, bounds=(0, 100), return_sign=True) == (4, -1)
    assert dp.binary_search(lambda x: x >= 0.5, bounds=(0.0, 1.0)) == 0.5
    assert dp.binary_search(lambda x: x >= 3, T="i32") == 3


@pytest.mark.parametrize(
    "predicate, bounds, T",
    [
        (lambda x: True, (0, 10), None),  # constant within the bounds
        (lambda x: x > 50, (0, 10), None),  # boundary outside the bounds
        (lambda x: True, (None, None), float),  # constant everywhere
        (lambda x: x > 0, (0.0, math.inf), None),
        (lambda x: x > 0, (0.0, math.nan), None),
        (lambda x: x > 0, (0.0,), None),
        (lambda x: x > 0, (None, None), "String"),
    ],
)
def test_bad_searches_raise_typed_errors(predicate, bounds, T):
    with pytest.raises(BinarySearchError) as error:
        dp.binary_search(predicate, bounds, T)
    assert isinstance(error.value, DPError) and isinstance(error.value, ValueError)


def test_predicate_errors_count_as_failures():
    def predicate(x):
        if x < 0:
            raise dp.FailedFunctionError("negative", parameter="x")
        return x >= 2.5

    assert dp.binary_search(predicate) == 2.5


def test_always_raising_predicate_reraises_its_error():
    def predicate(x):
        raise dp.MakeMeasurementError("never", parameter="scale")

    with pytest.raises(dp.MakeMeasurementError):
        dp.binary_search(predicate)


def test_binary_search_param_returns_a_checked_scale():
    def make(scale):
        return dp.m.make_laplace(*ATOM, scale)

    scale = dp.binary_search_param(make, d_in=0.1, d_out=1.0)
    assert scale == 0.1 and make(scale).check(0.1, 1.0)
    assert not make(math.nextafter(scale, 0)).check(0.1, 1.0)


def test_binary_search_chain_for_an_approximate_dp_budget():
    vector = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.l2_distance(T="f64")

    def make(scale):
        gaussian = dp.m.make_gaussian(*vector, scale)
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), 1e-6)

    chain = dp.binary_search_chain(make, 1.0, (1.0, 1e-6))
    epsilon, delta = chain.map(1.0)
    assert epsilon <= 1.0 and delta == 1e-6
    assert chain.check(1.0, (1.0, 1e-6))


def test_binary_search_chain_rechecks_the_rebuilt_chain(monkeypatch):
    """Should the parameter found not pass when the chain is rebuilt (a chain whose check is
    not deterministic), binary_search_chain refuses to return it."""
    module = importlib.import_module("certdp.combinators._search.binary_search")

    monkeypatch.setattr(module, "binary_search_param", lambda *args: 0.5)

    class Chain:
        def __init__(self, parameter):
            self.parameter = parameter

        def check(self, d_in, d_out):
            return self.parameter >= 1.0

    with pytest.raises(BinarySearchError, match="no longer passes"):
        dp.binary_search_chain(Chain, 1, 1)
    monkeypatch.setattr(module, "binary_search_param", lambda *args: 2.0)
    assert dp.binary_search_chain(Chain, 1, 1).parameter == 2.0


@pytest.mark.parametrize("bounds", [(-0.0, 1.0), (None, None)])
def test_returned_float_is_one_the_predicate_passed_even_at_signed_zero(bounds):
    """Regression: -0.0 and 0.0 shared key 0, so a search whose passing end was -0.0 returned
    0.0, a value never evaluated (and failing here)."""
    evaluated = []

    def negative_sign(value):
        evaluated.append(value)
        return math.copysign(1.0, value) < 0

    found = dp.binary_search(negative_sign, bounds=bounds, T=float)
    assert math.copysign(1.0, found) < 0
    assert any(v == found and math.copysign(1.0, v) == math.copysign(1.0, found) for v in evaluated)


# -- safety: the search decides with check(d_in, d_out), never with map(d_in) <= d_out ---------
def _gaussian_with_delta(delta):
    vector = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.l2_distance(T="f64")

    def make(scale):
        gaussian = dp.m.make_gaussian(*vector, scale)
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), delta)

    return make


def test_a_chain_whose_delta_exceeds_the_budget_is_never_accepted():
    """Every scale gives delta 1e-5 > the budget's 1e-6, though epsilon falls below 1.0 for large
    scales: (epsilon, 1e-5) <= (1.0, 1e-6) holds as a tuple comparison, not as a budget."""
    make = _gaussian_with_delta(1e-5)
    assert make(100.0).map(1.0) < (1.0, 1e-6)  # the tuple order would accept it ...
    assert not make(100.0).check(1.0, (1.0, 1e-6))  # ... the budget does not
    with pytest.raises(BinarySearchError, match=r"d_out=\(1\.0, 1e-06\)") as error:
        dp.binary_search_param(make, d_in=1.0, d_out=(1.0, 1e-6))
    assert error.value.parameter == "d_out"
    with pytest.raises(BinarySearchError):
        dp.binary_search_chain(make, 1.0, (1.0, 1e-6), bounds=(0.5, 1000.0))


def _pair_measurement(parameter):
    """A measurement under Approximate(MaxDivergence) whose map is (1 / p, p / 1000): epsilon
    falls and delta grows with p, so the budget (1.0, 0.002) holds exactly for p in [1, 2]."""
    from certdp.core.measures import approximate, max_divergence
    from certdp.core.transformation import Measurement

    return Measurement(
        input_domain=ATOM[0],
        function=lambda x: x,
        input_metric=ATOM[1],
        output_measure=approximate(max_divergence()),
        privacy_map=lambda d_in: (1 / parameter, parameter / 1000),
    )


def test_the_delta_coordinate_of_the_budget_decides_where_epsilon_does_not():
    found = dp.binary_search_param(_pair_measurement, 1.0, (1.0, 0.002), bounds=(1.5, 3.0))
    epsilon, delta = _pair_measurement(found).map(1.0)
    assert epsilon <= 1.0 and delta <= 0.002
    assert not _pair_measurement(math.nextafter(found, math.inf)).check(1.0, (1.0, 0.002))
    chain = dp.binary_search_chain(_pair_measurement, 1.0, (1.0, 0.002), bounds=(1.5, 3.0))
    assert chain.map(1.0)[1] <= 0.002 and chain.map(1.0)[0] <= 1.0


def test_the_search_uses_the_chains_own_check():
    """A chain whose check is stricter than its map's order: only check may decide."""

    class Strict:
        def __init__(self, parameter):
            self.parameter = parameter

        def map(self, d_in):
            return 0.0  # every parameter would pass a comparison of the map

        def check(self, d_in, d_out):
            return self.parameter >= 7

    assert dp.binary_search_param(Strict, 1, 1.0, T=int) == 7
    assert dp.binary_search_param(Strict, 1, 1.0, bounds=(0, 100)) == 7


# -- hostile inputs: typed errors, few evaluations ------------------------------------------------
def test_an_impossible_target_fails_fast_naming_the_target():
    calls = []
    make = _gaussian_with_delta(1e-6)

    def counted(scale):
        calls.append(scale)
        return make(scale)

    with pytest.raises(BinarySearchError, match=r"d_in=1\.0, d_out=\(1\.0, 0\.0\)") as error:
        dp.binary_search_param(counted, d_in=1.0, d_out=(1.0, 0.0))
    assert isinstance(error.value, DPError) and error.value.parameter == "d_out"
    assert len(calls) <= 40  # every binade scale from 0 to the largest float, both signs


@pytest.mark.parametrize("outcome", [True, False])
def test_a_constant_predicate_is_refused_after_few_evaluations(outcome):
    calls = []

    def constant(x):
        calls.append(x)
        return outcome

    with pytest.raises(BinarySearchError, match="no decision boundary"):
        dp.binary_search(constant)
    assert len(calls) <= 40
    assert max(calls) == sys.float_info.max and min(calls) == -sys.float_info.max


@pytest.mark.parametrize(
    "bounds, expected",
    [((-0.0, 0.0), -0.0), ((0.0, -0.0), -0.0), ((-0.0, 1.0), -0.0), ((-1.0, 0.0), -0.0)],
)
def test_signed_zero_bounds(bounds, expected):
    found = dp.binary_search(lambda x: math.copysign(1.0, x) < 0, bounds=bounds)
    assert found == expected and math.copysign(1.0, found) == math.copysign(1.0, expected)
    assert dp.binary_search(lambda x: x >= 0.5, bounds=(-0.0, 1.0)) == 0.5
    assert dp.binary_search(lambda x: x >= 3, bounds=(-0.0, 10.0), T=int) == 3
    with pytest.raises(TypeError, match="must share one type"):  # as OpenDP: mixed bound types
        dp.binary_search(lambda x: x >= 3, bounds=(-0.0, 10), T=int)


def test_negative_scales_count_as_failures_and_negated_parameters_work():
    def make(scale):
        return dp.m.make_laplace(*ATOM, scale)

    assert dp.binary_search_param(make, 0.1, 1.0, bounds=(-1.0, 1.0)) == 0.1
    found, sign = dp.binary_search(
        lambda s: make(-s).check(0.1, 1.0), return_sign=True
    )  # passes for s <= -0.1 only
    assert (found, sign) == (-0.1, -1)


@pytest.mark.parametrize(
    "predicate, bounds, T, parameter",
    [
        (lambda x: "yes", (0.0, 1.0), None, "predicate"),
        (lambda x: x > 1, (0, 10**400), None, "bounds"),
        (lambda x: x > 1, (0.0, 2**53 + 1), None, "bounds"),
        (lambda x: x > 1, (True, 5), None, "bounds"),
        (lambda x: x > 1, ("0", 5), None, "bounds"),
        (lambda x: x > 1, (0.5, 5.0), int, "bounds"),
        (lambda x: x > 1, 5, None, "bounds"),
        (lambda x: x > 1, (1, 2, 3), None, "bounds"),
    ],
)
def test_hostile_arguments_raise_typed_errors(predicate, bounds, T, parameter):
    with pytest.raises(BinarySearchError) as error:
        dp.binary_search(predicate, bounds, T)
    assert error.value.parameter == parameter


def test_untyped_exceptions_of_the_predicate_become_a_typed_error():
    def broken(x):
        raise ZeroDivisionError("boom")

    with pytest.raises(BinarySearchError, match="ZeroDivisionError: boom"):
        dp.binary_search(broken)
    with pytest.raises(BinarySearchError, match="ZeroDivisionError"):
        dp.binary_search_param(broken, 1, 1.0)


def test_numpy_bounds_and_booleans_are_accepted_exactly():
    import numpy as np

    assert dp.binary_search(lambda x: np.bool_(x >= 3), bounds=(np.int64(0), np.int64(9))) == 3
    assert dp.binary_search(lambda x: x >= 0.25, bounds=(np.float64(0), np.float64(1))) == 0.25


# -- speed: brackets by sign and magnitude, integer parameters inferred -------------------------
@given(st.floats(1e-4, 1e4), st.booleans(), st.booleans())
def test_float_searches_need_few_evaluations(magnitude, negative, increasing):
    threshold = -magnitude if negative else magnitude
    calls = []

    def predicate(x):
        calls.append(x)
        return x >= threshold if increasing else x <= threshold

    assert dp.binary_search(predicate) == threshold
    assert len(calls) <= (64 if not negative else 90)
    assert len(calls) == len({(v, math.copysign(1, v)) for v in calls})  # nothing evaluated twice


@given(st.floats(5e-324, 1.7e308), st.booleans())
def test_every_float_search_ends_within_a_bounded_number_of_evaluations(threshold, negative):
    threshold = -threshold if negative else threshold
    calls = []

    def predicate(x):
        calls.append(x)
        return x >= threshold

    assert dp.binary_search(predicate) == threshold
    assert len(calls) <= 128


@given(st.floats(0, 1), st.floats(1e-300, 1e300))
def test_given_float_bounds_end_within_a_bounded_number_of_evaluations(fraction, high):
    threshold = fraction * high
    calls = []

    def predicate(x):
        calls.append(x)
        return x >= threshold

    found = dp.binary_search(predicate, bounds=(-1.0, high))
    assert found >= threshold and math.nextafter(found, -math.inf) < threshold
    assert len(calls) <= 2 + 128


def test_readme_gaussian_budget_with_a_large_epsilon_is_found_quickly():
    calls = []
    make = _gaussian_with_delta(1e-6)

    def counted(scale):
        calls.append(scale)
        return make(scale)

    chain = dp.binary_search_chain(counted, d_in=1.0, d_out=(30.0, 1e-6))
    assert chain.check(1.0, (30.0, 1e-6))
    assert len(calls) <= 60 + 1  # OpenDP 0.16 needs 60 (+1 rebuilding the chain)


def test_an_integer_parameter_is_inferred_when_floats_are_refused():
    """OpenDP's smallest-dataset-size example, without bounds: the size must be an integer."""
    scale = 1000.0 / math.log(1 / 0.05)

    def make_mean(size):
        space = dp.vector_domain(dp.atom_domain(bounds=(0.0, 500_000.0)), size)
        return (space, dp.symmetric_distance()) >> dp.t.then_mean() >> dp.m.then_laplace(scale)

    with pytest.raises(DPError, match="size"):
        make_mean(1.0)
    calls = []

    def counted(size):
        calls.append(size)
        return make_mean(size)

    size = dp.binary_search_param(counted, d_in=2, d_out=1.0)
    assert size == 1498 and isinstance(size, int)
    assert make_mean(1498).check(2, 1.0) and not make_mean(1497).check(2, 1.0)
    assert len(calls) <= 26  # OpenDP 0.16: 26
    assert dp.binary_search_param(make_mean, 2, 1.0, bounds=(1, 1_000_000)) == 1498


def test_one_sided_bounds_gallop_from_the_bound():
    assert dp.binary_search(lambda x: x <= 5, bounds=(0, None)) == 5
    assert dp.binary_search(lambda x: x >= 5, bounds=(None, 100)) == 5
    assert dp.binary_search(lambda x: x >= 7.5, bounds=(5.0, None)) == 7.5
    with pytest.raises(BinarySearchError, match="no decision boundary"):
        dp.binary_search(lambda x: x <= 5, bounds=(10, None))


def test_the_search_is_gated_like_a_constructor(monkeypatch, request):
    from certdp.audit import gate
    from certdp.audit.status import OUTDATED, VettingStatus

    monkeypatch.setattr(gate, "vetting_status", lambda name: VettingStatus(OUTDATED, "abc1234"))
    if "binary_search" in gate._up_to_date:
        gate._up_to_date.discard("binary_search")
        request.addfinalizer(lambda: gate._up_to_date.add("binary_search"))
    with pytest.raises(dp.FeatureNotEnabledError, match="binary_search requires 'contrib'"):
        dp.binary_search(lambda x: x >= 1.0)
    with pytest.raises(dp.FeatureNotEnabledError, match="binary_search requires 'contrib'"):
        dp.binary_search_param(lambda s: dp.m.make_laplace(*ATOM, s), 0.1, 1.0)
    dp.enable_features("contrib")
    assert dp.binary_search(lambda x: x >= 1.0) == 1.0


# -- the contract: the theorem of binary_search.tex, searched for counterexamples ---------------
def test_the_search_contract_holds():
    from certdp.combinators._search.contract import CONTRACT

    dp.enable_features("contrib")
    report = CONTRACT.verify()
    assert report.examples > 0 and CONTRACT.precondition_ids == [
        "predicate-callable",
        "bounds-pair",
        "T-int-or-float",
    ]


def test_the_contract_refutes_a_search_that_compares_the_map_with_le():
    from types import SimpleNamespace

    from certdp.combinators._search.contract import CONTRACT
    from certdp.core.errors import ContractError

    module = importlib.import_module("certdp.combinators._search.binary_search")

    def param(make_chain, d_in, d_out, bounds=(None, None), T=None):
        return module.binary_search(lambda p: make_chain(p).map(d_in) <= d_out, bounds, T)

    def chain(make_chain, d_in, d_out, bounds=(None, None), T=None):
        return make_chain(param(make_chain, d_in, d_out, bounds, T))

    wrong = SimpleNamespace(
        binary_search=module.binary_search, binary_search_param=param, binary_search_chain=chain
    )
    dp.enable_features("contrib")
    with pytest.raises(ContractError, match="search-postcondition"):
        CONTRACT.verify(max_examples=200, implementation=wrong)


def test_the_contract_refutes_a_search_returning_an_unevaluated_neighbour():
    from types import SimpleNamespace

    from certdp.combinators._search.contract import CONTRACT
    from certdp.core.errors import ContractError

    module = importlib.import_module("certdp.combinators._search.binary_search")

    def off_by_one(predicate, bounds=(None, None), T=None, return_sign=False):
        found, sign = module.binary_search(predicate, bounds, T, return_sign=True)
        if isinstance(found, int):
            return found + sign  # one step into the passing side: never evaluated
        return math.nextafter(found, sign * math.inf)

    wrong = SimpleNamespace(
        binary_search=off_by_one,
        binary_search_param=module.binary_search_param,
        binary_search_chain=module.binary_search_chain,
    )
    dp.enable_features("contrib")
    with pytest.raises(ContractError, match="search-postcondition"):
        CONTRACT.verify(max_examples=200, implementation=wrong)


# -- the referee's findings (search-fix): widths, zeros, inference, rebuilds -------------------
@pytest.mark.parametrize("threshold", [1e-40, 0.1, 3.0e38, -1.0e-45, 7.0])
def test_f32_searches_evaluate_and_return_only_f32_values(threshold):
    evaluated = []

    def predicate(x):
        evaluated.append(x)
        return x >= threshold

    found = dp.binary_search(predicate, T="f32")
    assert all(float(np.float32(x)) == x for x in evaluated)
    below_found = float(np.nextafter(np.float32(found), np.float32(-np.inf)))
    assert found >= threshold and not below_found >= threshold


@pytest.mark.parametrize(
    "T, predicate, expected",
    [
        ("u8", lambda x: x >= 200, 200),
        ("i8", lambda x: x <= -100, -100),
        ("u16", lambda x: x < 9, 8),
    ],
)
def test_integer_widths_keep_every_evaluation_in_range(T, predicate, expected):
    low, high = {"u8": (0, 255), "i8": (-128, 127), "u16": (0, 65535)}[T]
    evaluated = []

    def recorded(x):
        evaluated.append(x)
        return predicate(x)

    assert dp.binary_search(recorded, T=T) == expected
    assert all(low <= x <= high for x in evaluated)
    with pytest.raises(BinarySearchError, match="within \\[-128, 127\\]"):
        dp.binary_search(lambda x: x >= 128, T="i8")


def test_negative_zero_is_returned_only_when_positive_zero_was_not_seen_passing():
    """The positive-zero rule: 0.0 where both zeros passed; -0.0 when 0.0 failed or was never
    evaluated (bounds ending at -0.0)."""
    assert math.copysign(1.0, dp.binary_search(lambda x: x >= 0, bounds=(-1.0, 1.0))) == 1.0
    evaluated = []

    def recorded(x):
        evaluated.append(x)
        return x >= 0

    found = dp.binary_search(recorded, bounds=(-1.0, -0.0))
    assert math.copysign(1.0, found) == -1.0
    assert not any(x == 0 and math.copysign(1.0, x) > 0 for x in evaluated)


def test_integer_inference_from_a_cast_refusal_and_not_from_other_errors():
    """int is chosen when both floats 0.0 and 1.0 are refused by type (TypeError or
    FailedCastError), and 0, 1 raise too; another error at the floats keeps a float search."""
    from certdp.core.errors import FailedCastError

    def sized(n):
        if not isinstance(n, int):
            raise FailedCastError("size: must be an integer", parameter="size")
        if n < 2:
            raise ValueError("size: at least 2")
        return n >= 1000

    assert dp.binary_search(sized) == 1000

    def positive(x):
        if x <= 1:
            raise ValueError("must exceed 1")
        return x >= 2.5

    assert dp.binary_search(positive) == 2.5


def test_binary_search_chain_types_a_raising_recheck():
    calls = []

    class Chain:
        def __init__(self, parameter):
            self.parameter = parameter

        def check(self, d_in, d_out):
            calls.append(self.parameter)
            if calls.count(self.parameter) > 1:
                raise ZeroDivisionError("check broke")
            return self.parameter >= 1.0

    with pytest.raises(BinarySearchError, match="ZeroDivisionError") as error:
        dp.binary_search_chain(Chain, 1, 1.0)
    assert error.value.parameter == "make_chain"


def test_an_exception_edge_above_zero_gives_way_to_a_returned_false_below():
    """Start passes, the first value above raises (the parameter is invalid there), below the
    budget is exceeded: the boundary where the predicate returned False is chosen."""

    def predicate(a):
        if a > 0:
            raise ValueError("a must not be positive")
        return a >= -50

    assert dp.binary_search(predicate, T=int) == -50
    assert dp.binary_search(predicate, T=float) == -50.0

    def only_raises(a):  # no returned False anywhere: the exception edge is kept
        if a > 0:
            raise ValueError("a must not be positive")
        return True

    assert dp.binary_search(only_raises, T=int) == 0


# -- a predicate that raises at 0: the bracket is found from the edge of its valid values ------
def test_randomized_response_prob_is_found_within_its_open_range():
    """prob is refused below 1/2 (1/k) and, by issue #22's rule, at 1: the literals are OpenDP
    0.16's dp.binary_search_param(lambda p: dp.m.make_randomized_response_bool(prob=p),
    d_in=1, d_out=1.0, bounds=(0.5, 1 - 2**-53)) and the same with
    make_randomized_response(categories=["a", "b", "c"], prob=p), bounds=(1/3, 1 - 2**-53)
    (OpenDP finds the same values without bounds, probing its accepted prob = 1)."""
    found = dp.binary_search_param(
        lambda p: dp.m.make_randomized_response_bool(prob=p), d_in=1, d_out=1.0,
        bounds=(0.5, 1 - 2**-53),
    )  # fmt: skip
    assert found == 0.7310585786300048
    found3 = dp.binary_search_param(
        lambda p: dp.m.make_randomized_response(categories=["a", "b", "c"], prob=p),
        d_in=1,
        d_out=1.0,
        bounds=(1 / 3, 1 - 2**-53),
    )
    assert found3 == 0.576116884765829
    # the value returned passes and the next float above it fails (prob decreasing)
    assert dp.m.make_randomized_response_bool(prob=found).check(1, 1.0)
    assert not dp.m.make_randomized_response_bool(prob=math.nextafter(found, 2)).check(1, 1.0)


def test_randomized_response_prob_without_bounds_is_a_typed_error():
    """A deliberate difference from OpenDP 0.16 (issue #22 refuses prob = 1): the search's
    probes without bounds (0, +-1, +-2, ...) are all refused, so no boundary is found; the
    error is typed and names d_out, its cause the refusal naming prob."""
    with pytest.raises(BinarySearchError, match="no parameter found") as raised:
        dp.binary_search_param(
            lambda p: dp.m.make_randomized_response_bool(prob=p), d_in=1, d_out=1.0
        )
    assert raised.value.parameter == "d_out"
    cause = raised.value.__cause__
    assert type(cause) is MakeMeasurementError and cause.parameter == "prob"


@pytest.mark.parametrize("T", [float, int])
def test_a_passing_interval_away_from_zero_is_found_from_the_exception_edge(T):
    """Raises below 10 and above 10**6, passes on [10, 777], returns False above 777: no change
    of outcome from 0 (0, 1, 2, 4, 16, ... raise or fail), found from the edge at 10."""
    calls = []

    def predicate(x):
        calls.append(x)
        if not 10 <= x <= 10**6:
            raise ValueError("x: out of range")
        return x <= 777

    found = dp.binary_search(predicate, T=T)
    assert found == 777 and type(found) is T
    assert len(calls) == len(set(calls))  # nothing evaluated twice
    assert len(calls) <= 370


def test_a_predicate_raising_everywhere_but_passing_nowhere_still_has_no_boundary():
    def predicate(x):
        if not 10 <= x <= 20:
            raise ValueError("x: out of range")
        return False

    with pytest.raises(BinarySearchError, match="no decision boundary"):
        dp.binary_search(predicate, T=float)


def test_a_monotone_predicate_raising_at_zero_keeps_its_boundary_below_zero():
    """Raises on [0, 5), returns False from 5 on, passes up to -3: the edge route (edge 5,
    nothing changes above it) gives no bracket and the downward gallop finds -3 as before."""

    def predicate(x):
        if 0 <= x < 5:
            raise ValueError("x: not in [0, 5)")
        return x <= -3

    assert dp.binary_search(predicate, T=int) == -3
    assert dp.binary_search(predicate, T=float) == -3.0


def test_non_boolean_result_met_during_the_exception_edge_search_stops_the_search():
    """Referee ref-new: raising below 10, None on [10, 12), x < 1000 above: the None met by the
    exception-edge search's inner probe must stop the search, not count as a raise."""
    from certdp.combinators._search.binary_search import BinarySearchError

    def g(x):
        if x < 10:
            raise ValueError("out of range")
        if x < 12:
            return None
        return x < 1000

    with pytest.raises(BinarySearchError, match="must return a boolean"):
        dp.binary_search(g)
