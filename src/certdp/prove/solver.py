"""Decide one bounded proof obligation with z3 (or Bitwuzla, for the pure bit-vector/IEEE
formulas that ask for it): what ``proved``, ``counterexample`` and ``timeout`` mean.  (This module is part of every result's fingerprint; the engine that runs,
schedules and caches the obligations is not, so changing it re-proves nothing.)"""

from __future__ import annotations

import time

import z3

from certdp.contracts.smt import float_of

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
        if obligation.solver == "bitwuzla":
            answer, model = _bitwuzla(formula, remaining)
        else:
            answer, model = _z3(formula, remaining)
        if answer == "sat":
            example = decode(model)
            if obligation.confirm is not None:
                example["code"] = obligation.confirm(example)
            return {
                "status": "counterexample", "claim": obligation.claim,
                "seconds": round(time.perf_counter() - started, 3), "example": _jsonable(example),
            }  # fmt: skip
        if answer not in ("sat", "unsat"):
            undecided = answer
    seconds = round(time.perf_counter() - started, 3)
    if undecided is None:
        return {"status": "proved", "claim": obligation.claim, "seconds": seconds,
                "cases": len(cases)}  # fmt: skip
    return {"status": "timeout", "claim": obligation.claim, "seconds": seconds,
            "reason": undecided}  # fmt: skip


def _z3(formula, seconds: float):
    """``("sat", model)``, ``("unsat", None)`` or ``(why undecided, None)``."""
    solver = z3.Solver()  # a fresh solver per case: non-incremental bit-blasting is faster
    solver.set("timeout", max(1, int(seconds * 1000)))
    solver.add(formula)
    answer = solver.check()
    if answer == z3.sat:
        return "sat", solver.model()
    if answer == z3.unsat:
        return "unsat", None
    return solver.reason_unknown(), None


def _bitwuzla(formula, seconds: float):
    """The same with Bitwuzla, given the formula in SMT-LIB 2 (z3's printer; the formula must use
    only bit-vectors and the IEEE formats Float32/Float64/Float128).  A model is
    ``{name: value}``: IEEE values as Python floats (exact up to binary64), bit-vectors as ints."""
    import bitwuzla

    printer = z3.Solver()
    printer.add(formula)
    terms = bitwuzla.TermManager()
    options = bitwuzla.Options()
    options.set(bitwuzla.Option.PRODUCE_MODELS, True)
    options.set(bitwuzla.Option.TIME_LIMIT_PER, max(1, int(seconds * 1000)))
    parser = bitwuzla.Parser(terms, options)
    parser.parse(printer.to_smt2(), True, False)
    solver = parser.bitwuzla()
    answer = solver.check_sat()
    if answer == bitwuzla.Result.UNSAT:
        return "unsat", None
    if answer != bitwuzla.Result.SAT:
        return "bitwuzla: unknown (time limit)", None
    return "sat", {
        term.symbol(): _bitwuzla_value(solver.get_value(term))
        for term in parser.get_declared_funs()
    }


def _bitwuzla_value(term):
    if term.sort().is_fp():
        sign, exponent, fraction = term.value()
        return float_of(
            z3.fpFP(
                z3.BitVecVal(int(sign, 2), 1),
                z3.BitVecVal(int(exponent, 2), len(exponent)),
                z3.BitVecVal(int(fraction, 2), len(fraction)),
            )
        )
    if term.sort().is_bv():
        return int(term.value(), 2)
    return str(term.value())


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
