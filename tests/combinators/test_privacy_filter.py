"""make_privacy_filter: OpenDP's numbers, refusals before release, 8 threads against one budget,
re-entrant queries, exceptions half-way, bad input, contract."""

from __future__ import annotations

import math
import threading
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.combinators._odometer import odometer as odometer_module
from certdp.combinators._support.odometer_support import exact_total, rounded_total, stub
from certdp.combinators.privacy_filter.contract import CONTRACT
from certdp.core.errors import ContractError
from tests.combinators.odometer_cases import MEASURES, REFERENCE, SPACE, query, unhex
from tests.laplace.stats import no_shrinking


def make_filter(measure, d_in, d_out):
    return dp.c.make_privacy_filter(
        dp.c.make_fully_adaptive_composition(*SPACE, measure), d_in=d_in, d_out=d_out
    )


@pytest.mark.parametrize("case", REFERENCE["filters"], ids=lambda c: c["kind"])
def test_filter_against_opendp(case):
    measure = MEASURES[case["kind"]]
    d_out = tuple(case["d_out"]) if isinstance(case["d_out"], list) else case["d_out"]
    meas = make_filter(measure, case["d_in"], d_out)
    for d_in, value in case["maps"].items():
        assert meas.map(float(d_in)) == unhex(value)
    queryable = meas(0.0)
    answered = []
    for scale, step in zip(case["scales"], case["steps"]):
        q = query(case["kind"], scale)
        if step["answered"]:
            queryable(q)
            answered.append(q)
            assert queryable.privacy_loss(case["d_in"]) == unhex(step["loss"])
        else:
            with pytest.raises(dp.FailedFunctionError) as error:
                queryable(q)
            assert error.value.variant == step["variant"] == "FailedFunction"
            assert error.value.parameter == "query" and "left" in str(error.value)
    assert any(not step["answered"] for step in case["steps"]) or len(answered) == len(
        case["scales"]
    )


def test_refusal_says_what_is_left_and_later_queries_that_fit_are_answered():
    queryable = make_filter(dp.max_divergence(), 1.0, 1.0)(0.0)
    queryable(dp.m.make_laplace(*SPACE, 2.0))  # 0.5
    with pytest.raises(dp.FailedFunctionError) as error:
        queryable(dp.m.make_laplace(*SPACE, 1.0))  # would reach 1.5
    assert "spent 0.5" in str(error.value) and "left 0.5" in str(error.value)
    assert queryable.privacy_loss(1.0) == 0.5  # the refusal charged nothing
    queryable(dp.m.make_laplace(*SPACE, 2.0))  # exactly the budget: answered
    assert queryable.privacy_loss(1.0) == 1.0
    with pytest.raises(dp.FailedFunctionError, match="left 0.0"):
        queryable(stub(dp.max_divergence(), 5e-324))  # any positive loss is now too much
    queryable(stub(dp.max_divergence(), 0.0))  # zero still fits


def test_map_states_the_budget_up_to_d_in_and_refuses_beyond():
    meas = make_filter(dp.max_divergence(), 2, Fraction(1, 3))
    assert meas.map(0) == meas.map(2.0) == meas.map(Fraction(3, 2)) == 0.33333333333333337
    assert meas.check(2.0, 0.33333333333333337) and not meas.check(2.0, 1 / 3)
    for beyond in (math.nextafter(2.0, 3.0), 3):
        with pytest.raises(dp.FailedMapError, match="d_in"):
            meas.map(beyond)
    with pytest.raises(dp.FailedMapError):
        meas.map(-1.0)
    assert make_filter(dp.max_divergence(), 1.0, math.inf).map(1.0) == math.inf
    pair = make_filter(dp.approximate(dp.max_divergence()), 1.0, (1, Fraction(1, 10)))
    assert pair.map(1.0) == (1.0, 0.1)


def test_a_budget_past_the_largest_float():
    # found by the model test: inf_cast raised for a budget past MAX; the map now states +inf
    meas = make_filter(dp.max_divergence(), 1.0, 2**1100)
    assert meas.map(1.0) == math.inf
    queryable = meas(0.0)
    queryable(stub(dp.max_divergence(), 1.7976931348623157e308))
    with pytest.raises(dp.FailedFunctionError, match="left 1.7976931348623157e"):
        queryable(stub(dp.max_divergence(), math.inf))  # a typed refusal, not an overflow


def test_approximate_budgets_both_coordinates():
    queryable = make_filter(dp.approximate(dp.max_divergence()), 1.0, (10.0, 1e-6))(0.0)
    queryable(stub(dp.approximate(dp.max_divergence()), (1.0, 6e-7)))
    with pytest.raises(dp.FailedFunctionError):  # epsilon fits, delta does not
        queryable(stub(dp.approximate(dp.max_divergence()), (1.0, 6e-7)))
    queryable(stub(dp.approximate(dp.max_divergence()), (9.0, 4e-7)))
    assert queryable.privacy_loss(1.0) == (10.0, 1e-6)


@pytest.mark.parametrize(
    "kwargs, parameter",
    [
        ({"odometer": "odometer", "d_in": 1.0, "d_out": 1.0}, "odometer"),
        (
            {"odometer": dp.Odometer(*SPACE, dp.max_divergence()), "d_in": 1.0, "d_out": 1.0},
            "odometer",
        ),
        ({"d_in": -1.0, "d_out": 1.0}, "d_in"),
        ({"d_in": math.nan, "d_out": 1.0}, "d_in"),
        ({"d_in": "1", "d_out": 1.0}, "d_in"),
        ({"d_in": 1.0, "d_out": -1.0}, "d_out"),
        ({"d_in": 1.0, "d_out": math.nan}, "d_out"),
        ({"d_in": 1.0, "d_out": "1"}, "d_out"),
        ({"d_in": 1.0, "d_out": (1.0, 0.0)}, "d_out"),
        ({"d_in": 1.0, "d_out": True}, "d_out"),
    ],
)
def test_bad_arguments(kwargs, parameter):
    measure = kwargs.pop("measure", dp.max_divergence())
    kwargs.setdefault("d_in", 1.0)
    kwargs.setdefault("odometer", dp.c.make_fully_adaptive_composition(*SPACE, measure))
    with pytest.raises(dp.DPError) as error:
        dp.c.make_privacy_filter(**kwargs)
    assert error.value.parameter == parameter


def test_bad_approximate_budget():
    odometer = dp.c.make_fully_adaptive_composition(*SPACE, dp.approximate(dp.max_divergence()))
    for bad in (1.0, (1.0,), [1.0, 1e-6], (1.0, -1e-6), (math.nan, 0.0)):
        with pytest.raises(dp.MakeMeasurementError) as error:
            dp.c.make_privacy_filter(odometer, 1.0, bad)
        assert error.value.parameter == "d_out"


APPROX_ZCDP = dp.approximate(dp.zero_concentrated_divergence())


def test_approximate_zcdp_charges_rho_and_delta_as_opendp():
    # OpenDP 0.16: make_privacy_filter(make_fully_adaptive_composition(SPACE,
    # approximate(zero_concentrated_divergence())), d_in=1.0, d_out=(1.0, 1e-6)), queried with
    # make_user_measurement(..., privacy_map=lambda d: loss) for these losses in order, gave
    # privacy_loss(1.0) as below (float.hex), then refused (0.1, 2e-7) with FailedFunction.
    meas = make_filter(APPROX_ZCDP, 1.0, (1.0, 1e-6))
    assert meas.map(1.0) == meas.map(0.5) == (1.0, 1e-6)
    queryable = meas(0.0)
    expected = [
        ("0x1.999999999999ap-4", "0x1.421f5f40d8376p-22"),
        ("0x1.3333333333334p-2", "0x1.421f5f40d8376p-21"),
        ("0x1.3333333333334p-1", "0x1.e32f0ee144531p-21"),
    ]
    losses = [(0.1, 3e-7), (0.2, 3e-7), (0.3, 3e-7)]
    for loss, (rho, delta) in zip(losses, expected):
        queryable(stub(APPROX_ZCDP, loss))
        assert queryable.privacy_loss(1.0) == (float.fromhex(rho), float.fromhex(delta))
    assert queryable.privacy_loss(1.0) == rounded_total(APPROX_ZCDP, losses)
    with pytest.raises(dp.FailedFunctionError) as error:
        queryable(stub(APPROX_ZCDP, (0.1, 2e-7)))  # delta alone would pass 1e-6
    assert error.value.parameter == "query" and "left" in str(error.value)
    # certdp keeps answering what fits (OpenDP refuses everything once exhausted)
    queryable(stub(APPROX_ZCDP, (0.1, 0.0)))
    assert queryable.state().spent == exact_total(APPROX_ZCDP, [*losses, (0.1, 0.0)])
    with pytest.raises(dp.FailedFunctionError):
        queryable(stub(APPROX_ZCDP, (0.31, 0.0)))  # rho alone would pass 1.0
    queryable(stub(APPROX_ZCDP, (0.3, 1e-7)))  # both exactly at the budget: answered
    assert queryable.state().spent[0] <= 1 and queryable.state().spent[1] <= Fraction(1e-6)


def test_bad_approximate_zcdp_budget():
    odometer = dp.c.make_fully_adaptive_composition(*SPACE, APPROX_ZCDP)
    bad_budgets = (
        1.0,
        (1.0,),
        [1.0, 1e-6],
        (-0.5, 1e-6),
        (1.0, -1e-6),
        (math.nan, 0.0),
        (1.0, math.nan),
        (1.0, 1.5),
        (1.0, math.inf),
        (1.0, Fraction(1000001, 1000000)),
    )
    for bad in bad_budgets:
        with pytest.raises(dp.MakeMeasurementError) as error:
            dp.c.make_privacy_filter(odometer, 1.0, bad)
        assert error.value.parameter == "d_out"
    assert "delta must be at most 1" in str(
        pytest.raises(
            dp.MakeMeasurementError, dp.c.make_privacy_filter, odometer, 1.0, (1.0, 2)
        ).value
    )
    # delta = 1 and rho = inf are distances of the measure
    assert dp.c.make_privacy_filter(odometer, 1.0, (math.inf, 1)).map(1.0) == (math.inf, 1.0)
    queryable = dp.c.make_privacy_filter(odometer, 1.0, (1.0, 1e-6))(0.0)
    for loss in ((-0.1, 0.0), (0.1, -1e-9), (math.nan, 0.0), (0.1, math.nan), 0.1):
        with pytest.raises(dp.FailedMapError) as error:
            queryable(stub(APPROX_ZCDP, loss))
        assert error.value.parameter == "query"
    assert queryable.state().charged == 0


def test_a_query_whose_map_raises_is_refused_before_anything():
    queryable = make_filter(dp.max_divergence(), 1.0, 1.0)(0.0)
    ran = []

    def bad_map(d_in):
        raise dp.FailedMapError("no", parameter="d_in")

    def untyped_map(d_in):
        raise KeyError("no")

    for map_ in (bad_map, untyped_map, lambda d: -1.0, lambda d: math.nan, lambda d: "0"):
        with pytest.raises(dp.FailedMapError):
            queryable(dp.Measurement(SPACE[0], ran.append, SPACE[1], dp.max_divergence(), map_))
    assert ran == [] and queryable.privacy_loss(1.0) == 0.0


def test_exception_half_way_keeps_the_charge():
    queryable = make_filter(dp.max_divergence(), 1.0, 1.0)(0.0)

    def explode(x):
        raise RuntimeError("half-way")

    failing = dp.Measurement(SPACE[0], explode, SPACE[1], dp.max_divergence(), lambda d: 0.75)
    with pytest.raises(dp.FailedFunctionError, match="RuntimeError: half-way") as error:
        queryable(failing)
    assert isinstance(error.value.__cause__, RuntimeError)
    assert queryable.privacy_loss(1.0) == 0.75
    with pytest.raises(dp.FailedFunctionError, match="spent 0.75"):
        queryable(dp.m.make_laplace(*SPACE, 2.0))  # 0.5 more would pass the budget


def test_reentrant_queries_are_charged_against_the_same_budget():
    queryable = make_filter(dp.max_divergence(), 1.0, 1.0)(0.0)
    inner_results = []

    def outer_function(x):
        for _ in range(3):  # 0.25 each: the first fits beside the outer 0.5, the second too
            try:
                inner_results.append(queryable(dp.m.make_laplace(*SPACE, 4.0)))
            except dp.FailedFunctionError as error:
                inner_results.append(error)
        return "outer"

    outer = dp.Measurement(SPACE[0], outer_function, SPACE[1], dp.max_divergence(), lambda d: 0.5)
    done = []
    worker = threading.Thread(target=lambda: done.append(queryable(outer)))
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "a re-entrant query deadlocked"
    assert done == ["outer"]
    assert [isinstance(r, dp.FailedFunctionError) for r in inner_results] == [False, False, True]
    assert queryable.privacy_loss(1.0) == 1.0


@pytest.mark.parametrize("kind", ["same", "mixed"])
def test_eight_threads_never_exceed_the_budget(kind):
    d_out = 5.0
    queryable = make_filter(dp.max_divergence(), 1.0, d_out)(0.0)
    scales = [10.0] if kind == "same" else [10.0, 3.0, 7.0, 1.5, 100.0]
    answered, refusals, others = [], [], []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def work(i):
        start.wait()
        for j in range(40):
            q = dp.m.make_laplace(*SPACE, scales[(i * 7 + j) % len(scales)])
            try:
                queryable(q)
            except dp.FailedFunctionError as error:
                with lock:
                    refusals.append(error)
            except BaseException as error:  # noqa: BLE001 - must not happen; asserted below
                with lock:
                    others.append(error)
            else:
                with lock:
                    answered.append(q)
            spent = queryable.privacy_loss(1.0)
            if not spent <= d_out:
                with lock:
                    others.append(AssertionError(f"spent {spent} > {d_out}"))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "deadlock"
    assert others == []
    assert len(answered) + len(refusals) == 320 and refusals
    assert all(
        error.parameter == "query" and "refused before release" in str(error) for error in refusals
    )
    losses = [q.map(1.0) for q in answered]
    assert exact_total(dp.max_divergence(), losses) <= d_out
    assert queryable.privacy_loss(1.0) == rounded_total(dp.max_divergence(), losses) <= d_out
    if kind == "same":
        # equal queries: exactly as many are answered as fit one after another
        fit = 0
        while exact_total(dp.max_divergence(), losses[:1] * (fit + 1)) <= d_out:
            fit += 1
        assert len(answered) == fit


@pytest.mark.parametrize("kind", ["same", "mixed"])
def test_eight_threads_never_exceed_an_approximate_zcdp_budget(kind):
    d_out = (2.0, Fraction(1, 10**5))
    queryable = make_filter(APPROX_ZCDP, 1.0, d_out)(0.0)
    # Gaussians (loss (rho, 0)) and stubs with a delta, so each coordinate can run out first
    mixed = [
        lambda: dp.c.make_approximate(dp.m.make_gaussian(*SPACE, 2.0)),
        lambda: stub(APPROX_ZCDP, (0.01, 3e-7)),
        lambda: stub(APPROX_ZCDP, (0.125, 0.0)),
        lambda: stub(APPROX_ZCDP, (0.0, 1e-6)),
    ]
    makers = mixed[1:2] if kind == "same" else mixed
    answered, refusals, others = [], [], []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def work(i):
        start.wait()
        for j in range(40):
            q = makers[(i * 7 + j) % len(makers)]()
            try:
                queryable(q)
            except dp.FailedFunctionError as error:
                with lock:
                    refusals.append(error)
            except BaseException as error:  # noqa: BLE001 - must not happen; asserted below
                with lock:
                    others.append(error)
            else:
                with lock:
                    answered.append(q)
            rho, delta = queryable.state().spent
            if not (rho <= d_out[0] and delta <= d_out[1]):
                with lock:
                    others.append(AssertionError(f"spent {(rho, delta)} > {d_out}"))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "deadlock"
    assert others == []
    assert len(answered) + len(refusals) == 320 and refusals
    assert all(
        error.parameter == "query" and "refused before release" in str(error) for error in refusals
    )
    losses = [q.map(1.0) for q in answered]
    rho, delta = exact_total(APPROX_ZCDP, losses)
    assert rho <= d_out[0] and delta <= d_out[1]
    assert queryable.state().spent == (rho, delta)
    assert queryable.privacy_loss(1.0) == rounded_total(APPROX_ZCDP, losses)
    if kind == "same":
        # equal queries: exactly as many are answered as fit one after another (delta binds: 33)
        assert len(answered) == 33


def test_contract_holds():
    assert CONTRACT.verify().examples > 0


def test_contract_refutes_a_map_below_the_budget():
    with no_shrinking(), pytest.raises(ContractError):
        CONTRACT.verify(map_override=lambda d_in: 0.0)


def test_contract_refutes_an_edited_filter_that_never_refuses(monkeypatch):
    monkeypatch.setattr(odometer_module, "_within", lambda pair, after, d_out: True)
    with no_shrinking(), pytest.raises(ContractError, match="past|exceeds|add up"):
        CONTRACT.verify()


def test_runtime_contract_checks_the_map():
    dp.enable_contracts()
    meas = make_filter(dp.max_divergence(), 1.0, 1.0)
    assert meas.map(1.0) == 1.0
    meas._map = lambda d_in: 0.5
    with pytest.raises(ContractError) as error:
        meas.map(1.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        dp.c.make_privacy_filter("odometer", 1.0, 1.0)
    assert error.value.condition == "odometer-fully-adaptive"


def test_a_query_cannot_change_the_data_later_queries_see():
    space = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()
    odometer = dp.c.make_fully_adaptive_composition(*space, dp.max_divergence())
    queryable = dp.c.make_privacy_filter(odometer, 1, 10.0)([1.0, 2.0])
    seen = []

    def vandal(x):
        seen.append(list(x))
        x.clear()
        return 0.0

    for _ in range(2):
        queryable(dp.Measurement(space[0], vandal, space[1], dp.max_divergence(), lambda d: 0.0))
    assert seen == [[1.0, 2.0], [1.0, 2.0]]


def test_a_filter_inside_an_adaptive_composition_keeps_both_budgets():
    compositor = dp.c.make_adaptive_composition(
        *SPACE, dp.max_divergence(), d_in=1.0, d_mids=[1.0, 0.5]
    )(0.0)
    inner = compositor(make_filter(dp.max_divergence(), 1.0, 1.0))  # the first 1.0 of the budget
    inner(dp.m.make_laplace(*SPACE, 2.0))
    inner(dp.m.make_laplace(*SPACE, 2.0))
    with pytest.raises(dp.FailedFunctionError, match="refused before release"):
        inner(dp.m.make_laplace(*SPACE, 2.0))
    with pytest.raises(dp.FailedFunctionError):
        compositor(make_filter(dp.max_divergence(), 1.0, 1.0))  # 1.0 > the second budget 0.5
    compositor(make_filter(dp.max_divergence(), 1.0, 0.5))


def test_a_query_submitted_from_inside_a_map_is_checked_first():
    queryable = make_filter(dp.max_divergence(), 1.0, 1.0)(0.0)

    def map_with_a_callback(d_in):
        queryable(dp.m.make_laplace(*SPACE, 2.0))  # 0.5, charged while the outer map runs
        return 0.75

    outer = dp.Measurement(
        SPACE[0], lambda x: "outer", SPACE[1], dp.max_divergence(), map_with_a_callback
    )
    with pytest.raises(dp.FailedFunctionError, match="spent 0.5"):
        queryable(outer)  # 0.5 + 0.75 > 1: refused, the inner query stays charged
    assert queryable.privacy_loss(1.0) == 0.5
