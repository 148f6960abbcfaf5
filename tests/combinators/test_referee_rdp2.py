"""Referee ref-rdp2's counterexamples on branch rdp20 that assert correct behaviour, kept with
their assertions: a child built inside a data-independent "factory" queryable's transition during
an Approximate(zCDP) query keeps the compositor's (or the filter's) sequential guard (a query adds
the thread's hooks to the queryable's own); a release that is a generator, a coroutine or an async
generator is refused, typed; the Rényi odometer's failing curve names ``query``."""

from __future__ import annotations

import pytest

import certdp.prelude as dp
from certdp.core.transformation import Measurement

SPACE = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))
AZ = dp.approximate(dp.zero_concentrated_divergence())
SMALL = (0.01, 1e-9)


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib", "honest-but-curious")
    yield


def _filter(measure=AZ, d_out=(1.0, 1e-6)):
    odometer = dp.c.make_fully_adaptive_composition(*SPACE, measure)
    return dp.c.make_privacy_filter(odometer, d_in=1.0, d_out=d_out)(0.0)


def _query(function, measure=AZ, loss=SMALL):
    return Measurement(SPACE[0], function, SPACE[1], measure, lambda d: loss)


def _ask(child, query=1.0):
    try:
        return ("answered", child(query))
    except dp.DPError as error:
        return ("refused", error)


def _adder(x):
    return lambda q: q + x


def _factory():
    """A data-independent queryable (made before any query) whose answer is a queryable."""
    return dp.new_queryable(lambda data: dp.new_queryable(_adder(data)))


def test_adaptive_composition_child_built_inside_another_queryables_transition_is_guarded():
    factory = _factory()
    compositor = dp.c.make_adaptive_composition(*SPACE, AZ, d_in=1.0, d_mids=[(0.1, 1e-7)] * 3)(0.0)
    child = compositor(_query(lambda x: factory(x), loss=(0.1, 1e-7)))
    assert _ask(child)[0] == "answered"  # answers while it is the latest release
    compositor(_query(lambda x: 0.0, loss=(0.1, 1e-7)))  # the compositor moved on
    assert _ask(child)[0] == "refused"


def test_composition_leaf_child_built_inside_another_queryables_transition_is_guarded():
    factory = _factory()
    leaf = _query(lambda x: factory(x), loss=(0.1, 1e-7))
    other = _query(lambda x: dp.new_queryable(lambda q: q + x), loss=(0.1, 1e-7))
    releases = dp.c.make_composition([leaf, other, other])(0.0)
    assert _ask(releases[1])[0] == "refused"  # the guard works for a directly built child
    assert _ask(releases[0])[0] == "refused"
    assert _ask(releases[2]) == ("answered", 1.0)  # the last leaf's release still answers


def test_filter_child_built_inside_another_queryables_transition_is_guarded():
    factory = _factory()
    filtered = _filter()
    child = filtered(_query(lambda x: factory(x)))
    filtered(_query(lambda x: 0.0))  # the filter moved on
    assert _ask(child)[0] == "refused"


def test_factory_made_outside_any_query_keeps_answering():
    """The union adds hooks only while a guarded query runs: the factory itself, queried outside
    any query, still answers, and its children built then have no guard."""
    factory = _factory()
    filtered = _filter()
    filtered(_query(lambda x: factory(x)))
    assert _ask(factory(2.0)) == ("answered", 3.0)


def _generator(x):
    def later():
        yield dp.new_queryable(lambda q: q + x)

    return later()


def _coroutine(x):
    async def later():
        return dp.new_queryable(lambda q: q + x)

    return later()


def _async_generator(x):
    async def later():
        yield dp.new_queryable(lambda q: q + x)

    return later()


SUSPENDED = {"generator": _generator, "coroutine": _coroutine, "async-generator": _async_generator}


@pytest.mark.parametrize("shape", list(SUSPENDED))
def test_filter_refuses_a_suspended_release(shape):
    filtered = _filter()
    with pytest.raises(dp.FailedFunctionError) as caught:
        filtered(_query(SUSPENDED[shape]))
    assert caught.value.parameter == "function"
    assert "must not be" in str(caught.value)


@pytest.mark.parametrize("shape", list(SUSPENDED))
def test_adaptive_composition_refuses_a_suspended_release(shape):
    compositor = dp.c.make_adaptive_composition(*SPACE, AZ, d_in=1.0, d_mids=[(0.1, 1e-7)] * 2)(0.0)
    with pytest.raises(dp.FailedFunctionError, match="must not be"):
        compositor(_query(SUSPENDED[shape], loss=(0.1, 1e-7)))


@pytest.mark.parametrize("shape", list(SUSPENDED))
def test_composition_refuses_a_suspended_release(shape):
    leaf = _query(SUSPENDED[shape], loss=(0.1, 1e-7))
    with pytest.raises(dp.DPError, match="must not be"):
        dp.c.make_composition([leaf, leaf])(0.0)


def test_a_generator_release_is_kept_under_pure_dp():
    """Only the Approximate(zCDP) compositors refuse suspended releases (elsewhere the
    interactive release is covered by the pure-DP / zCDP theorems)."""
    filtered = _filter(dp.max_divergence(), 1.0)
    release = filtered(_query(_generator, dp.max_divergence(), 0.01))
    assert _ask(next(release)) == ("answered", 1.0)


def test_renyi_odometer_curve_failure_names_query():
    odometer = dp.c.make_fully_adaptive_composition(*SPACE, dp.renyi_divergence())
    queryable = odometer(0.0)

    def curve(alpha):
        raise ValueError("boom")

    queryable(_query(lambda x: x, dp.renyi_divergence(), curve))
    with pytest.raises(dp.FailedMapError) as caught:
        queryable.privacy_loss(1.0)(2.0)
    assert caught.value.parameter == "query"
    assert "charged query 1" in str(caught.value)
