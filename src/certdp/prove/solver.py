"""Decide one bounded proof obligation with z3: what ``proved``, ``counterexample`` and
``timeout`` mean.  (This module is part of every result's fingerprint; the engine that runs,
schedules and caches the obligations is not, so changing it re-proves nothing.)"""

from __future__ import annotations

import time

import z3

__all__ = ["solve"]


def solve(obligation, timeout_seconds: float) -> dict:
    """One obligation: ``{"status": proved|counterexample|timeout, ...}``.  Its violation is a
    formula or a list of cases (formulas with their decoders), checked one after another."""
    started = time.perf_counter()
    cases = obligation.violation()
    if not isinstance(cases, list):
        cases = [cases]
    undecided = None
    for formula, decode in cases:
        remaining = timeout_seconds - (time.perf_counter() - started)
        if remaining <= 0:
            undecided = undecided or "time budget spent"
            break
        solver = z3.Solver()  # a fresh solver per case: non-incremental bit-blasting is faster
        solver.set("timeout", max(1, int(remaining * 1000)))
        solver.add(formula)
        answer = solver.check()
        if answer == z3.sat:
            example = decode(solver.model())
            if obligation.confirm is not None:
                example["code"] = obligation.confirm(example)
            return {
                "status": "counterexample", "claim": obligation.claim,
                "seconds": round(time.perf_counter() - started, 3), "example": _jsonable(example),
            }  # fmt: skip
        if answer == z3.unknown:
            undecided = solver.reason_unknown()
    seconds = round(time.perf_counter() - started, 3)
    if undecided is None:
        return {"status": "proved", "claim": obligation.claim, "seconds": seconds,
                "cases": len(cases)}  # fmt: skip
    return {"status": "timeout", "claim": obligation.claim, "seconds": seconds,
            "reason": undecided}  # fmt: skip


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (int, str, bool)) or value is None:
        return value
    if isinstance(value, float):
        return repr(value)
    return str(value)
