"""Chains and compositions nested in each other to any depth (issue #18 §5): ``map`` and
``invoke`` run them with the explicit-stack evaluator of core/transformation.py (Lemma
[evaluator] of transformation.tex), so depth 10**5 raises no RecursionError, and every value
equals the one computed level by level from shallow objects (the recursive definition unrolled).
"""

from __future__ import annotations

import os

import pytest

import certdp.prelude as dp
from certdp.core import features, switches
from certdp.core.transformation import Measurement, Transformation

DOMAIN = dp.atom_domain(T="f64", nan=False)
METRIC = dp.absolute_distance(T="f64")
PURE = dp.max_divergence()
APPROX_ZCDP = dp.approximate(dp.zero_concentrated_divergence())
#: Depths far past Python's recursion limit (1000); the 10**5 case takes about 30 s per
#: pattern, so it runs in the ``thorough`` profile only (``HYPOTHESIS_PROFILE=thorough``).
DEPTHS = [400, 2000, 20_000] + (
    [10**5] if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else []
)


@pytest.fixture(autouse=True)
def _contrib():
    saved_contracts, saved_features = switches.contracts.enabled, set(features._enabled)
    switches.contracts.enabled = False
    dp.enable_features("contrib")
    yield
    switches.contracts.enabled = saved_contracts
    features._enabled.clear()
    features._enabled.update(saved_features)


def shift():
    """x -> x + 1, stability d -> d + 1 (so each level meets its own distance)."""
    return Transformation(DOMAIN, DOMAIN, lambda x: x + 1.0, METRIC, METRIC, lambda d: d + 1)


def recorder(calls, tag, scale=0.1):
    """A deterministic test double: releases (tag, x), records the call, loss scale * d."""

    def function(x):
        calls.append((tag, x))
        return (tag, x)

    return Measurement(DOMAIN, function, METRIC, PURE, lambda d: scale * d)


def constant(loss):
    """A shallow stand-in for an already-evaluated level: its map returns ``loss``."""
    return Measurement(DOMAIN, lambda x: x, METRIC, PURE, lambda d: loss)


def _part_chain(depth, calls):
    """m_0 = q; m_k = composition([t >> m_(k-1), q_k])."""
    m = recorder(calls, 0)
    for k in range(1, depth + 1):
        m = dp.c.make_composition([shift() >> m, recorder(calls, k)])
    return m


def _chain_of_compositions(depth, calls):
    """m_0 = q; m_k = t >> composition([m_(k-1)]) (a chain whose last stage composes a chain)."""
    m = recorder(calls, 0)
    for _ in range(depth):
        m = shift() >> dp.c.make_composition([m])
    return m


def _mixed(depth, calls):
    """Levels alternate: composition([m, q]) (a composition given as a part: flattened),
    composition([t >> m, q]) and t >> composition([m])."""
    m = recorder(calls, 0)
    for k in range(1, depth + 1):
        if k % 3 == 0:
            m = dp.c.make_composition([m, recorder(calls, k)])
        elif k % 3 == 1:
            m = dp.c.make_composition([shift() >> m, recorder(calls, k)])
        else:
            m = shift() >> dp.c.make_composition([m])
    return m


def _level_maps(depth, d, pattern):
    """The map at ``d`` of the ``pattern`` tree of ``depth``, from the innermost level out:
    level k is evaluated as a shallow object whose inner level is a leaf with a fixed map value,
    computed for the distance that reaches it."""
    kinds = [pattern(k) for k in range(1, depth + 1)]
    # distance reaching level k (counted from the outside): each chain doubles it
    reach = [d]
    for kind in reversed(kinds):
        reach.append(reach[-1] + 1 if kind in ("chain-part", "chain") else reach[-1])
    # reach[i] is the distance at the input of the level with depth - i levels below it
    value = recorder([], 0).map(reach[depth])
    for i, kind in enumerate(kinds, start=1):
        at = reach[depth - i]
        below = constant(value)
        if kind == "chain-part":
            level = dp.c.make_composition([shift() >> below, recorder([], i)])
        elif kind == "part":
            level = dp.c.make_composition([below, recorder([], i)])
        else:
            level = shift() >> dp.c.make_composition([below])
        value = level.map(at)
    return value


def _mixed_kind(k):
    return {0: "part", 1: "chain-part", 2: "chain"}[k % 3]


PATTERNS = {
    "part-chain": (_part_chain, lambda k: "chain-part"),
    "chain-of-compositions": (_chain_of_compositions, lambda k: "chain"),
    "mixed": (_mixed, _mixed_kind),
}


def _expected_release(depth, x, pattern):
    """The release of the ``pattern`` tree of ``depth`` on ``x`` and the recorders' calls in
    order, from the innermost level out (the recursive definition, one level at a time)."""
    kinds = [pattern(k) for k in range(1, depth + 1)]
    reach = [x]
    for kind in reversed(kinds):
        reach.append(reach[-1] + 1.0 if kind in ("chain-part", "chain") else reach[-1])
    value = (0, reach[depth])
    calls = [value]
    for i, kind in enumerate(kinds, start=1):
        at = reach[depth - i]
        if kind == "chain":
            value = [value]
        else:
            value = [value, (i, at)]
            calls.append((i, at))
    return value, calls


def _same_tree(got, expected):
    """Compare nested lists without recursion (a deep list's == would recurse in C)."""
    pending = [(got, expected)]
    while pending:
        a, b = pending.pop()
        if type(b) is list:
            assert type(a) is list and len(a) == len(b)
            pending.extend(zip(a, b))
        else:
            assert type(a) is tuple and a == b, (a, b)


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_deep_nesting_maps_and_invokes_as_the_recursive_definition(name, depth):
    build, pattern = PATTERNS[name]
    calls = []
    deep = build(depth, calls)
    assert deep.map(1.0) == _level_maps(depth, 1.0, pattern)
    assert deep.check(1.0, _level_maps(depth, 1.0, pattern))
    release = deep.invoke(0.0)
    expected, expected_calls = _expected_release(depth, 0.0, pattern)
    _same_tree(release, expected)
    assert calls == expected_calls


def test_shallow_levels_agree_with_the_closures():
    """The node's own map and function (the recursive definition) give the same answers as
    map and invoke at a depth the recursion reaches."""
    for name, (build, _) in PATTERNS.items():
        calls = []
        deep = build(30, calls)
        assert deep._map(1.0) == deep.map(1.0), name
        by_closure = deep.function(0.0)
        n = len(calls)
        assert deep.invoke(0.0) == by_closure and calls[n:] == calls[:n], name


def test_a_replaced_map_is_used_not_the_record():
    calls = []
    deep = _part_chain(3, calls)
    deep._map = lambda d: 123.0
    assert deep.map(1.0) == 123.0
    outer = dp.c.make_composition([shift() >> deep, recorder(calls, 9)])
    assert outer.map(1.0) == dp.c.make_composition([constant(123.0), recorder(calls, 9)]).map(1.0)


def test_errors_deep_inside_propagate_and_leave_no_guard_open():
    from certdp.core.queryable import _HOOKS

    def failing(x):
        raise dp.FailedFunctionError("boom", parameter="x")

    bad = Measurement(DOMAIN, failing, METRIC, APPROX_ZCDP, lambda d: (0.1, 0.0))
    good = Measurement(DOMAIN, lambda x: x, METRIC, APPROX_ZCDP, lambda d: (0.1, 0.0))
    m = bad
    for _ in range(2000):
        m = dp.c.make_composition([shift() >> m, good])
    with pytest.raises(dp.FailedFunctionError, match="boom"):
        m.invoke(0.0)
    assert _HOOKS.get() == ()
    with pytest.raises(dp.FailedMapError):
        m.map(-1.0)


VECTOR = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()


def _vector_stub(loss, measure):
    return dp.Measurement(VECTOR[0], list, VECTOR[1], measure, lambda d_in: loss)


def test_deep_interactive_parts_stay_sequential_under_approximate_zcdp():
    loss = (0.25, 0.0)
    inner = dp.c.make_adaptive_composition(*VECTOR, APPROX_ZCDP, 1, [loss])
    same = Transformation(VECTOR[0], VECTOR[0], list, VECTOR[1], VECTOR[1], lambda d: d)
    m = inner
    depth = 400
    for _ in range(depth):
        m = dp.c.make_composition([same >> m, inner])
    release = m.invoke([1.0])
    queryables = []
    node = release
    while isinstance(node, list):
        queryables.append(node[1])
        node = node[0]
    queryables.append(node)
    assert len(queryables) == depth + 1
    # the outermost second part ran last: only it answers
    assert queryables[0](_vector_stub(loss, APPROX_ZCDP)) == [1.0]
    for retired in (queryables[1], queryables[depth // 2], queryables[-1]):
        with pytest.raises(dp.FailedFunctionError, match="sequentiality"):
            retired(_vector_stub(loss, APPROX_ZCDP))
    assert m.map(1) == _deep_sum(depth + 1, loss)


def _deep_sum(n, loss):
    """The map of the same tree computed level by level with shallow compositions."""
    value = loss
    for _ in range(n - 1):
        value = dp.c.make_composition(
            [_vector_stub(value, APPROX_ZCDP), _vector_stub(loss, APPROX_ZCDP)]
        ).map(1)
    return value


# -- measure conversions between the levels (issue #18 §5) ---------------------------------------


def _pure_leaf(calls, tag):
    """A pure-DP leaf: releases (tag, x), loss d / 2 (exact)."""

    def function(x):
        calls.append((tag, x))
        return (tag, x)

    return Measurement(DOMAIN, function, METRIC, PURE, lambda d: d / 2)


def _converting_cycle(depth, calls):
    """Approximate(pure DP) levels: m_k = fix_delta(fixed_approxDP_to_approxDP(
    composition([t >> m_(k-1), approximate(q_k)])), 0)."""
    m = dp.c.make_approximate(_pure_leaf(calls, 0))
    for k in range(1, depth + 1):
        m = dp.c.make_composition([shift() >> m, dp.c.make_approximate(_pure_leaf(calls, k))])
        m = dp.c.make_fix_delta(dp.c.make_fixed_approxDP_to_approxDP(m), 0.0)
    return m


def _converting_tower(depth, calls):
    """``depth`` pure compositions, then pureDP_to_zCDP, ``depth`` zCDP compositions, then
    zCDP_to_approxDP and fix_delta: every conversion sits between two deep subtrees."""
    m = _pure_leaf(calls, 0)
    for k in range(1, depth + 1):
        m = dp.c.make_composition([shift() >> m, _pure_leaf(calls, k)])
    m = dp.c.make_pureDP_to_zCDP(m)
    for k in range(1, depth + 1):
        m = dp.c.make_composition([m, dp.c.make_pureDP_to_zCDP(_pure_leaf(calls, -k))])
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(m), 1e-6)


@pytest.mark.parametrize("contracts", [False, True])
def test_a_deep_cycle_of_measure_conversions_maps_and_invokes(contracts):
    depth = 2000
    switches.contracts.enabled = contracts
    calls = []
    m = _converting_cycle(depth, calls)
    assert (m.postcondition is not None) is contracts  # the checks run at every level
    # level k adds its leaf's d_k / 2, where d_k = 1 + (depth - k) after the shifts above it
    expected = sum((1 + depth - k) / 2 for k in range(1, depth + 1)) + (1 + depth) / 2
    assert m.map(1.0) == (expected, 0.0)
    released = m(0.0)
    assert [tag for tag, _ in calls] == list(range(depth + 1))  # innermost first
    assert calls[0] == (0, float(depth)) and calls[-1] == (depth, 0.0)
    node, level = released, depth  # [[...[(0, depth)], (1, depth - 1)]..., (depth, 0)]
    while level > 0:
        assert type(node) is list and node[1] == (level, 0.0 + depth - level)
        node, level = node[0], level - 1
    assert node == (0, float(depth))


@pytest.mark.parametrize("contracts", [False, True])
def test_a_deep_tower_through_pure_zcdp_and_approximate_dp_maps(contracts):
    depth = 2000
    switches.contracts.enabled = contracts
    m = _converting_tower(depth, [])
    assert (m.postcondition is not None) is contracts
    # the shallow equivalent: the same pure loss epsilon, then rho = sum of squares / 2
    epsilon = sum((1 + depth - k) / 2 for k in range(1, depth + 1)) + (1 + depth) / 2
    shallow_pure = Measurement(DOMAIN, lambda x: x, METRIC, PURE, lambda d: epsilon)
    rho = dp.c.make_pureDP_to_zCDP(shallow_pure).map(1.0)
    leaf_rho = dp.c.make_pureDP_to_zCDP(_pure_leaf([], 0)).map(1.0)
    total_rho = dp.c.make_composition(
        [Measurement(DOMAIN, lambda x: x, METRIC, dp.zero_concentrated_divergence(), lambda d, r=r: r)
         for r in [rho] + [leaf_rho] * depth]
    ).map(1.0)  # fmt: skip
    shallow = dp.c.make_fix_delta(
        dp.c.make_zCDP_to_approxDP(
            Measurement(DOMAIN, lambda x: x, METRIC, dp.zero_concentrated_divergence(),
                        lambda d: total_rho)
        ),
        1e-6,
    )  # fmt: skip
    assert m.map(1.0) == shallow.map(1.0)
    node = m(0.0)  # [[...[pure part], (-1, 0.0)]..., (-depth, 0.0)]
    for k in range(depth, 0, -1):
        assert type(node) is list and node[1] == (-k, 0.0)
        node = node[0]
    for k in range(depth, 0, -1):  # the pure part: [[...[(0, depth)], (1, depth - 1)]...]
        assert type(node) is list and node[1] == (k, 0.0 + depth - k)
        node = node[0]
    assert node == (0, float(depth))


def test_a_replaced_conversion_map_is_used_not_the_record():
    m = dp.c.make_pureDP_to_zCDP(_pure_leaf([], 0))
    m._map = lambda d: 123.0  # no longer the recorded node: evaluated by its own map
    assert m.map(1.0) == 123.0
