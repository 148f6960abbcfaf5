"""The SMT cases shared by the threshold measurements' models: the real map at each input
distance, and a formula over a pair of maps that is satisfiable exactly when the pair breaks
the stated value (each model gives its own variables, closeness and violation)."""

from __future__ import annotations

import z3

from certdp.contracts.smt_code import traced

__all__ = ["threshold_cases"]


def threshold_cases(built, d_ins, delta_name, pair_variables, close, violation_formula, scale,
                    threshold) -> list:  # fmt: skip
    """``(formula, decode)`` per ``d_in`` the real map of ``built`` accepts, with the recorded
    arguments of its last ``delta_name`` call passed to ``violation_formula``."""
    cases = []
    for d_in in d_ins:
        try:
            value, records = traced(lambda d=d_in: built.map(d), (delta_name,))
        except Exception:  # the map refuses this distance (allowed by the theorem)
            continue
        calls = [arguments for name, arguments, _, _ in records if name == delta_name]
        keys = pair_variables()
        formula = z3.And(
            close(keys, d_in),
            violation_formula(keys, scale, threshold, value, calls[-1] if calls else None),
        )
        example = {"scale": scale, "threshold": threshold, "d_in": repr(d_in),
                   "map": repr(value)}  # fmt: skip

        def decode(model, keys=keys, example=example):
            shown = dict(example)
            for index, key in enumerate(keys):
                on_x = z3.is_true(model.eval(key["on_x"], model_completion=True))
                on_y = z3.is_true(model.eval(key["on_y"], model_completion=True))
                shown[f"key {index}"] = (
                    (str(model.eval(key["x"], model_completion=True)) if on_x else "absent")
                    + " / "
                    + (str(model.eval(key["y"], model_completion=True)) if on_y else "absent")
                )
            return shown

        cases.append((formula, decode))
    return cases
