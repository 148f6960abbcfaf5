"""The Approximate(zCDP) privacy filter's sequentiality guard reaches queryables created in ANY
thread while a query's function runs (threads the function starts, pool workers that existed
before, and unrelated threads: the conservative part), and none created after it returned."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import certdp.prelude as dp
from certdp.core.transformation import Measurement
from tests.combinators.odometer_cases import SPACE

AZ = dp.approximate(dp.zero_concentrated_divergence())


@pytest.fixture(autouse=True)
def _features():
    """new_queryable needs contrib; the constructors may be OUTDATED until re-vetted."""
    dp.enable_features("contrib", "honest-but-curious")
    yield


def _filter(measure, d_out):
    odometer = dp.c.make_fully_adaptive_composition(*SPACE, measure)
    return dp.c.make_privacy_filter(odometer, d_in=1.0, d_out=d_out)(0.0)


def _leaf(measure):
    small = (0.01, 1e-9) if measure == AZ else 0.01
    return Measurement(SPACE[0], lambda x: 0.0, SPACE[1], measure, lambda d: small)


def _query(measure, function):
    small = (0.01, 1e-9) if measure == AZ else 0.01
    return Measurement(SPACE[0], function, SPACE[1], measure, lambda d: small)


def _children(measure, x):
    """Queryables of three kinds made in the calling thread on ``x``: an odometer's, a filter's
    (a measurement releasing a queryable) and a plain ``new_queryable``."""
    odometer = dp.c.make_fully_adaptive_composition(*SPACE, measure)
    inner = dp.c.make_privacy_filter(odometer, d_in=1.0, d_out=(1.0, 1e-6) if measure == AZ else 1)
    return [odometer.invoke(x), inner.invoke(x), dp.new_queryable(lambda q: q)]


def _ask(child, measure):
    """Query a child once; its answer, or the typed error it raised."""
    query = 7 if type(child).__name__ == "Queryable" else _leaf(measure)
    try:
        return ("answered", child(query))
    except dp.DPError as error:
        return ("refused", error)


def _assert_sequential_refusal(outcome):
    kind, error = outcome
    assert kind == "refused", outcome
    assert type(error) is dp.FailedFunctionError and error.parameter == "query"
    assert "sequentiality" in str(error) and "(in some thread)" in str(error)


@pytest.mark.parametrize("measure", [AZ, dp.max_divergence()], ids=["approx-zcdp", "pure"])
def test_children_made_in_a_thread_the_function_starts(measure):
    filtered = _filter(measure, (1.0, 1e-6) if measure == AZ else 1.0)
    smuggled, inside = [], []

    def worker(x):
        children = _children(measure, x)
        inside.extend(_ask(child, measure) for child in children)
        smuggled.extend(children)  # a side channel, besides the return value

    def function(x):
        thread = threading.Thread(target=worker, args=(x,))
        thread.start()
        thread.join()
        return list(smuggled)

    returned = filtered(_query(measure, function))
    assert len(smuggled) == 3 and returned == smuggled
    assert [kind for kind, _ in inside] == ["answered"] * 3  # live while the function runs
    for child in smuggled:
        # afterwards, from this thread and from a new one
        elsewhere = []
        probe = threading.Thread(target=lambda c=child, e=elsewhere: e.append(_ask(c, measure)))
        probe.start()
        probe.join()
        for outcome in (_ask(child, measure), elsewhere[0]):
            if measure == AZ:
                _assert_sequential_refusal(outcome)
            else:
                assert outcome[0] == "answered", outcome  # pure DP: concurrent composition
    # the filter itself still answers afterwards
    filtered(_leaf(measure))


def test_children_made_by_a_pool_worker_that_existed_before_the_query():
    filtered = _filter(AZ, (1.0, 1e-6))
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(lambda: None).result()  # the worker thread exists before the query

        def function(x):
            return pool.submit(_children, AZ, x).result()

        children = filtered(_query(AZ, function))
        for child in children:
            _assert_sequential_refusal(_ask(child, AZ))
        # a queryable the same worker makes after the query returned is not the query's
        later = pool.submit(_children, AZ, 0.0).result()
        assert [_ask(child, AZ)[0] for child in later] == ["answered"] * 3


def test_an_unrelated_thread_during_the_query_is_stopped_too_and_after_it_is_not():
    """The stated conservative cost: a queryable any thread creates while an Approximate(zCDP)
    query runs stops answering when that query returns, even if the query never saw it."""
    filtered = _filter(AZ, (1.0, 1e-6))
    running, made = threading.Event(), threading.Event()
    unrelated = []

    def bystander():
        running.wait(timeout=60)
        unrelated.extend(_children(AZ, 5.0))
        made.set()

    def function(x):
        running.set()
        assert made.wait(timeout=60)
        return 0.0

    thread = threading.Thread(target=bystander)
    thread.start()
    assert filtered(_query(AZ, function)) == 0.0
    thread.join()
    for child in unrelated:
        _assert_sequential_refusal(_ask(child, AZ))
    afterwards = []
    thread = threading.Thread(target=lambda: afterwards.extend(_children(AZ, 5.0)))
    thread.start()
    thread.join()
    assert [_ask(child, AZ)[0] for child in afterwards] == ["answered"] * 3


def test_the_process_wide_guard_is_removed_when_the_function_raises():
    from certdp.core import queryable as queryable_module

    filtered = _filter(AZ, (1.0, 1e-6))
    kept = []

    def function(x):
        kept.extend(_children(AZ, x))
        raise ValueError("boom")

    with pytest.raises(dp.FailedFunctionError):
        filtered(_query(AZ, function))
    assert queryable_module._EVERYWHERE == []
    for child in kept:
        _assert_sequential_refusal(_ask(child, AZ))
    assert [_ask(child, AZ)[0] for child in _children(AZ, 0.0)] == ["answered"] * 3
