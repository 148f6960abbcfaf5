"""Queryables (core/queryable.tex): answers, re-entry refused, one transition at a time,
exceptions typed and never undo what the transition did."""

from __future__ import annotations

import threading
import time

import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedFunctionError, FeatureNotEnabledError
from certdp.core.queryable import Queryable, new_queryable


def test_answers_through_the_transition_with_the_internal_flag():
    seen = []

    def transition(query, is_internal):
        seen.append((query, is_internal))
        return query * 2

    qbl = Queryable(transition, query_type="i32")
    assert qbl(3) == 6
    assert qbl.eval(4) == 8
    assert qbl.eval_internal(5) == 10
    assert seen == [(3, False), (4, False), (5, True)]
    assert repr(qbl) == "Queryable(Q=i32)"


def test_prelude_exports_opendp_names():
    assert dp.Queryable is Queryable
    assert dp.new_queryable is new_queryable


def test_a_transition_must_be_callable():
    with pytest.raises(FailedFunctionError, match="transition: must be callable"):
        Queryable(3)


def test_new_queryable_requires_contrib_as_in_opendp():
    dp.disable_features("contrib")
    with pytest.raises(FeatureNotEnabledError):
        new_queryable(lambda q, i: q)
    dp.enable_features("contrib")
    try:
        qbl = new_queryable(lambda q, i: q + 1, Q=int, A=int)
        assert qbl(1) == 2
        assert repr(qbl) == "Queryable(Q=i32)"  # OpenDP 0.16 prints the same
        assert repr(new_queryable(lambda q, i: q)) == "Queryable(Q=ExtrinsicObject)"
    finally:
        dp.disable_features("contrib")


def test_a_query_from_inside_the_transition_is_refused_before_it_runs():
    calls = []
    holder = {}

    def transition(query, is_internal):
        calls.append(query)
        if query == "outer":
            with pytest.raises(FailedFunctionError, match="query: a queryable refuses a query"):
                holder["qbl"]("inner")
            with pytest.raises(FailedFunctionError, match="refuses"):
                holder["qbl"].eval_internal("inner")
            return "done"
        return query

    holder["qbl"] = Queryable(transition)
    assert holder["qbl"]("outer") == "done"
    assert calls == ["outer"]  # the refused queries never ran the transition
    assert holder["qbl"]("after") == "after"  # and the queryable still answers afterwards


def test_a_refused_inner_query_that_escapes_is_typed():
    holder = {}
    holder["qbl"] = Queryable(lambda query, _: holder["qbl"](query))
    with pytest.raises(FailedFunctionError, match="refuses"):
        holder["qbl"](1)


def test_exceptions_are_typed_and_nothing_is_restored():
    state = {"charged": 0}

    def transition(query, is_internal):
        state["charged"] += 1  # charge first
        if query == "dp":
            raise FailedFunctionError("no", parameter="x")
        if query == "value":
            raise ValueError("half-way")
        if query == "interrupt":
            raise KeyboardInterrupt
        return state["charged"]

    qbl = Queryable(transition)
    with pytest.raises(FailedFunctionError, match="x: no"):
        qbl("dp")
    with pytest.raises(FailedFunctionError, match="ValueError: half-way") as info:
        qbl("value")
    assert isinstance(info.value.__cause__, ValueError)
    with pytest.raises(KeyboardInterrupt):
        qbl("interrupt")
    assert state["charged"] == 3  # every failed query stayed charged
    assert qbl("ok") == 4  # the lock was released after each exception
    assert isinstance(info.value, DPError)


def test_transitions_never_overlap_across_threads():
    state = {"running": 0, "most": 0, "total": 0}

    def transition(query, is_internal):
        state["running"] += 1
        state["most"] = max(state["most"], state["running"])
        total = state["total"]
        time.sleep(0.001)  # a read-modify-write that would lose updates if runs overlapped
        state["total"] = total + query
        state["running"] -= 1
        return None

    qbl = Queryable(transition)
    start = threading.Barrier(8)

    def worker():
        start.wait()
        for _ in range(25):
            qbl(1)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert state["most"] == 1
    assert state["total"] == 200


def test_a_query_from_another_thread_waits_rather_than_being_refused():
    inside, release = threading.Event(), threading.Event()
    order = []

    def transition(query, is_internal):
        order.append(("start", query))
        if query == "slow":
            inside.set()
            release.wait(5)
        order.append(("end", query))
        return query

    qbl = Queryable(transition)
    first = threading.Thread(target=qbl, args=("slow",))
    first.start()
    assert inside.wait(5)
    answers = []
    second = threading.Thread(target=lambda: answers.append(qbl("fast")))
    second.start()
    time.sleep(0.05)
    assert answers == []  # still waiting for the slow query
    release.set()
    first.join()
    second.join()
    assert answers == ["fast"]
    assert order == [("start", "slow"), ("end", "slow"), ("start", "fast"), ("end", "fast")]


def test_guards_reach_the_queryables_created_under_them_and_their_descendants():
    from certdp.core.queryable import guarded

    allowed = {"value": True}
    asked = []

    def guard():
        asked.append("guard")
        if not allowed["value"]:
            raise FailedFunctionError("refused by the guard", parameter="query")

    ran = []

    def spawn(query, is_internal):  # a queryable whose answers are queryables
        ran.append(query)
        return Queryable(spawn) if query == "spawn" else query

    outside = Queryable(spawn)
    with guarded(guard):
        child = Queryable(spawn)
    grandchild = child("spawn")  # built inside child's transition: keeps the guard
    assert asked == ["guard"]
    assert outside("x") == "x" and asked == ["guard"]  # built before the guard: not guarded
    assert grandchild("y") == "y" and asked == ["guard", "guard"]
    allowed["value"] = False
    before = list(ran)
    with pytest.raises(FailedFunctionError, match="refused by the guard"):
        child("z")
    with pytest.raises(FailedFunctionError, match="refused by the guard"):
        grandchild("z")
    assert ran == before  # the refused queries never ran the transition
    assert Queryable(spawn)("after the block") == "after the block"  # the guard was popped


def test_a_guard_raising_an_untyped_error_is_wrapped_and_the_transition_does_not_run():
    from certdp.core.queryable import guarded

    ran = []
    with guarded(lambda: 1 / 0):
        qbl = Queryable(lambda q, i: ran.append(q))
    with pytest.raises(FailedFunctionError, match="ZeroDivisionError"):
        qbl("q")
    assert ran == []


def test_new_queryable_names_an_unhashable_query_type_without_failing():
    dp.enable_features("contrib")
    try:
        assert repr(new_queryable(lambda q, i: q, Q=[1])) == "Queryable(Q=[1])"
    finally:
        dp.disable_features("contrib")
