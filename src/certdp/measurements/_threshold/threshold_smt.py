"""The SMT kernel shared by the threshold measurements' models: the real map at each input
distance, a formula over a pair of maps that is satisfiable exactly when the pair breaks the
stated value, the pairs of integer-valued and float-valued maps, the lone keys' part of the
violation (the delta, the same for every noise family), the release obligations (the real
release function, run on a finite list of chosen (value, draw) cases, against the release the
proofs state: a check of the code on those cases, not a proof for all values) and the
obligations built from them.  Each model gives what is its own: its metric's closeness, the
loss the shared keys' moves must stay within (epsilon or rho), the real constructor and its
instances."""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import exact, traced

__all__ = [
    "threshold_cases",
    "integer_pair_variables",
    "lone_key_violation",
    "built_release",
    "integer_instance",
    "float_instance",
    "threshold_obligations",
    "released_rows",
    "release_instance",
    "float_release_instance",
    "integer_release_types",
    "integer_release_inputs",
    "float_release_values",
    "float_release_inputs",
    "RAISED",
    "instances_text",
    "FLOAT_INSTANCES",
    "FLOAT_D_INS",
    "float_grid",
    "float_pair_factory",
]


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


#: Float instances: (value type, k, scale, threshold) of the float branch; the values range over
#: the multiples of 2^K_MIN (every finite float is one), any size.
FLOAT_INSTANCES = (
    ("f32", None, 1.0, 5.0),
    ("f32", -2, 0.5, 3.0),
    ("f32", 0, 1.0, 5.0),
    ("f64", 1, 2.5, 14.0),
)
FLOAT_D_INS = ((1, 0.0, 0.0), (1, 1.0, 1.0), (2, 1.5, 1.0), (3, 0.75, 0.5), (2, 5.0, 3.0))
K_MIN = {"f32": -149, "f64": -1074}


def float_grid(T: str, k, scale: float, threshold: float):
    """``(k', grid scale, grid threshold index)`` of the float branch, from the lemma
    (float_release.tex), independently of the code."""
    kk = K_MIN[T] if k is None else k
    unit = Fraction(2) ** kk
    return kk, Fraction(scale) / unit, math.floor(Fraction(threshold) / unit + Fraction(1, 2))


def float_pair_factory(T: str, k: int, size: int, p: int):
    """``(pair_variables, close)`` for pairs of float-valued maps on ``size`` keys: each value
    is ``n 2^K_MIN`` for an integer ``n``; ``x``, ``y`` and ``d`` of a key are its grid indices
    ``floor(x / 2^k + 1/2)`` and their distance (what the integer violation formulas read);
    closeness is on the float values."""
    shift = k - K_MIN[T]

    def index(n):
        return (2 * n + 2**shift) / 2 ** (shift + 1)  # z3 integer division: floor here

    def pair_variables():
        keys = []
        for j in range(size):
            on_x, on_y = z3.Bool(f"on_x{j}"), z3.Bool(f"on_y{j}")
            nx, ny = z3.Int(f"nx{j}"), z3.Int(f"ny{j}")
            n0x, n0y = z3.If(on_x, nx, 0), z3.If(on_y, ny, 0)
            fd = z3.If(n0x >= n0y, n0x - n0y, n0y - n0x)
            x, y = index(nx), index(ny)
            x0, y0 = z3.If(on_x, x, 0), z3.If(on_y, y, 0)
            d = z3.If(x0 >= y0, x0 - y0, y0 - x0)
            alone = on_x != on_y
            changed = z3.Or(alone, fd > 0)
            keys.append({"on_x": on_x, "on_y": on_y, "x": x, "y": y, "x0": x0, "y0": y0,
                         "d": d, "fd": fd, "alone": alone, "changed": changed})  # fmt: skip
        return keys

    def close(keys, d_in):
        l0, lp, linf = d_in
        per_unit = Fraction(2) ** -K_MIN[T]  # float distance = fd 2^K_MIN
        count = z3.Sum([z3.If(key["changed"], 1, 0) for key in keys])
        if p == 1:
            total = z3.Sum([key["fd"] for key in keys]) <= exact(Fraction(lp) * per_unit)
        else:
            total = z3.Sum([key["fd"] * key["fd"] for key in keys]) <= exact(
                (Fraction(lp) * per_unit) ** 2
            )
        return z3.And(
            count <= l0, total, *[key["fd"] <= exact(Fraction(linf) * per_unit) for key in keys]
        )

    return pair_variables, close


def integer_pair_variables(size: int) -> list:
    """Per key of ``size``: presence on each side and the two integer values (0 when absent),
    the per-key distance and whether the key is changed (the closeness is the model's own)."""
    keys = []
    for k in range(size):
        on_x, on_y = z3.Bool(f"on_x{k}"), z3.Bool(f"on_y{k}")
        x, y = z3.Int(f"x{k}"), z3.Int(f"y{k}")
        x0, y0 = z3.If(on_x, x, 0), z3.If(on_y, y, 0)
        d = z3.If(x0 >= y0, x0 - y0, y0 - x0)
        alone = on_x != on_y
        changed = z3.Or(alone, d > 0)
        keys.append({"on_x": on_x, "on_y": on_y, "x": x, "y": y, "x0": x0, "y0": y0, "d": d,
                     "alone": alone, "changed": changed})  # fmt: skip
    return keys


def _abs(v):
    return z3.If(v >= 0, v, -v)


def lone_key_violation(keys, threshold, delta, delta_call):
    """Satisfiable exactly when the pair breaks the map's ``delta``: with ``delta_call`` (the
    recorded ``distance`` ``t`` and ``l0`` of the delta function) a key of one side only has a
    value ``v`` with ``|threshold| - |v| < t``, or more than ``l0`` keys are on one side only;
    without it (the map did not call the delta function) ``delta = 0`` while a key changed, or
    ``0 < delta < 1`` (a value not from the delta function: always refuted)."""
    lone_values = [z3.If(k["on_x"], k["x"], k["y"]) for k in keys]
    if delta_call is None:
        if delta >= 1:
            return z3.BoolVal(False)
        any_change = z3.Or(*[k["changed"] for k in keys])
        return any_change if delta == 0 else z3.BoolVal(True)
    t, l0 = delta_call["distance"], delta_call["l0"]
    too_near = z3.Or(
        *[z3.And(k["alone"], abs(threshold) - _abs(v) < t) for k, v in zip(keys, lone_values)]
    )
    too_many = z3.Sum([z3.If(k["alone"], 1, 0) for k in keys]) > l0
    return z3.Or(too_near, too_many)


def built_release(constructor, p: int, T: str, *arguments):
    """The real ``constructor`` over ``T`` values (String keys, no NaN for a float ``T``) under
    ``l0{p}inf_distance(absolute_distance(T))``, with ``arguments`` (scale, threshold[, k])."""
    from certdp.core.domains import atom_domain
    from certdp.core.map_domain import map_domain
    from certdp.core.metrics import absolute_distance
    from certdp.core.partition_metrics import l01inf_distance, l02inf_distance

    values = atom_domain(T=T, nan=False) if T in K_MIN else atom_domain(T=T)
    domain = map_domain(atom_domain(T="String"), values)
    metric = (l01inf_distance if p == 1 else l02inf_distance)(absolute_distance(T=T))
    return constructor(domain, metric, *arguments)


def integer_instance(name, delta_name, built, d_ins, pair_variables, close, violation_formula,
                     scale, threshold, claim: str, size: int) -> Obligation:  # fmt: skip
    """The real map of ``built(scale, threshold)`` at every triple of ``d_ins`` against every
    pair of integer-valued maps: ``violation_formula`` with ``close``."""

    def violation():
        return threshold_cases(built(scale, threshold), d_ins, delta_name, pair_variables, close,
                               violation_formula, scale, threshold)  # fmt: skip

    return Obligation(constructor=name, claim=claim, format="int", size=size,
                      violation=violation)  # fmt: skip


def float_instance(name, delta_name, make, p: int, violation_formula, T, k, scale, threshold,
                   size: int) -> Obligation:  # fmt: skip
    """The real float map of ``make()`` (the constructor, over ``T`` values under
    ``l0{p}inf``, at ``k``, ``scale``, ``threshold``) at every triple of ``FLOAT_D_INS``: the
    model's integer ``violation_formula`` read on the grid indices of float values
    (:func:`float_pair_factory`), with the grid scale and threshold of the lemma."""
    kk, grid_scale, grid_threshold = float_grid(T, k, scale, threshold)
    pair_variables, close = float_pair_factory(T, kk, size, p)

    def violation():
        built = built_release(make(), p, T, scale, threshold, k)
        return threshold_cases(built, FLOAT_D_INS, delta_name, pair_variables, close,
                               violation_formula, grid_scale, grid_threshold)  # fmt: skip

    return Obligation(
        constructor=name,
        claim=f"real {name} {T} k={k} scale={scale} threshold={threshold}, d_in in "
        f"{len(FLOAT_D_INS)} triples, every pair of float-valued maps on {size} keys (values "
        "any multiples of 2^K_MIN): the map's value covers the grid indices' moves (exact)",
        format="int", size=size, violation=violation,
    )  # fmt: skip


def released_rows(built, inputs) -> list:
    """Run the real release function of ``built`` on each ``(values, draws)`` of ``inputs``:
    ``values`` a dict key -> value, ``draws`` the noise draws in the order the keys are
    visited (sorted), handed out by a stub put in place of the function's ``noise``.  Returns
    ``(value, draw, released?, released value)`` per key; when the function raises (the
    proofs state a release that never does), each key of that input gets the row
    ``(value, draw, RAISED, the exception's repr)``."""
    function = built.function
    cell = function.__closure__[function.__code__.co_freevars.index("noise")]
    rows = []
    for values, draws in inputs:
        handed = iter(draws)
        cell.cell_contents = lambda _source, handed=handed: next(handed)
        try:
            released = function(dict(values))
        except Exception as error:  # any exception is a disagreement with the stated release
            rows.extend((values[key], draw, RAISED, repr(error))
                        for key, draw in zip(sorted(values), draws))  # fmt: skip
            continue
        for key, draw in zip(sorted(values), draws):
            rows.append((values[key], draw, key in released, released.get(key)))
        assert next(handed, None) is None, "the release drew more or fewer draws than keys"
    return rows


#: The mark of a row whose release raised (:func:`released_rows`).
RAISED = "raised"


def _release_formula(cases):
    """``(formula, decode)``: satisfiable exactly when a row of the real release disagrees
    with the stated release (a key released iff ``passes(index, draw)``, with the value
    ``expected(index + draw)``, and no exception), or when the stated test passes a key whose
    draw is below the tail the delta bounds (``draw >= |threshold| - |index|`` in the direction
    of the threshold: a property of the stated test, for all integers, not of the code).
    ``cases`` is a list of ``(label, rows, index_of, passes, expected)``; the code part is
    ground: one disjunct per row, selected by the integer ``row``."""
    row_var, grid, draw_var = z3.Int("row"), z3.Int("index"), z3.Int("draw")
    wrong, shown_rows, tails = [], [], []
    for label, rows, index_of, passes, expected_of in cases:
        for value, draw, present, released in rows:
            index = index_of(value)
            if present is RAISED:
                mismatch = z3.BoolVal(True)
            else:
                mismatch = passes(z3.IntVal(index), z3.IntVal(draw)) != z3.BoolVal(present)
                if present:
                    mismatch = z3.Or(mismatch, z3.BoolVal(released != expected_of(index + draw)))
            wrong.append(z3.And(row_var == len(shown_rows), mismatch))
            shown_rows.append((label, value, index, draw, present, released))
        tails.append(z3.Not(z3.Implies(passes(grid, draw_var), passes.tail(grid, draw_var))))

    def decode(model):
        row = model.eval(row_var, model_completion=True).as_long()
        shown = {"index (tail)": str(model.eval(grid, model_completion=True)),
                 "draw (tail)": str(model.eval(draw_var, model_completion=True))}  # fmt: skip
        if 0 <= row < len(shown_rows):
            label, value, index, draw, present, released = shown_rows[row]
            shown.update({"case": label, "value": repr(value), "index": index, "draw": draw,
                          "released": repr(present), "released value": repr(released)})  # fmt: skip
        return shown

    return z3.Or(z3.Or(*wrong) if wrong else z3.BoolVal(False), *tails), decode


class _Passes:
    """The stated test of a threshold release on the (grid) index plus the draw,
    and the tail condition the delta part of the model relies on."""

    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, index, draw):
        if self.threshold >= 0:
            return index + draw >= self.threshold
        return index + draw <= self.threshold

    def tail(self, index, draw):
        direction = draw if self.threshold >= 0 else -draw
        return direction >= abs(self.threshold) - _abs(index)


#: Half-width of the dense value ranges of the release cases (around the threshold, zero and
#: each end of the value type).
SPAN = 16


def integer_release_types(threshold: int) -> tuple:
    """The integer types whose range holds ``threshold`` (every type the constructor takes)."""
    from certdp.core.types import INTEGER_TYPES, carrier

    return tuple(T for T in INTEGER_TYPES if carrier(T).min <= threshold <= carrier(T).max)


def integer_release_inputs(T: str, threshold: int) -> list:
    """The chosen ``(values, draws)`` of the integer release over ``T``: every integer within
    :data:`SPAN` of ``-|threshold|``, ``0``, ``|threshold|`` and of each end of ``T`` (inside
    ``T``), each with the draws ``threshold - v + d`` (``|d| <= 2``), the draws that take
    ``v + draw`` one past each end of ``T`` and the draws ``T.max`` and ``T.min``; and two keys,
    visited in sorted order."""
    from certdp.core.types import carrier

    lower, upper = carrier(T).min, carrier(T).max
    t = abs(threshold)
    centres = (-t, 0, t, lower, upper)
    values = sorted(
        {v for c in centres for v in range(c - SPAN, c + SPAN + 1) if lower <= v <= upper}
    )
    inputs = []
    for v in values:
        draws = {threshold - v + d for d in (-2, -1, 0, 1, 2)}
        draws |= {upper + 1 - v, lower - 1 - v, upper, lower}
        inputs.extend(({"a": v}, (z,)) for z in sorted(draws))
    inputs.append(({"b": t, "a": -t if lower < 0 else 0}, (0, 0)))
    inputs.append(({"b": 0, "a": t}, (threshold - t, threshold)))
    return inputs


def release_instance(name, make, p: int, threshold: int, types=None) -> Obligation:
    """The real release function of ``make`` (integer values of each of ``types``, by default
    every integer type that holds ``threshold``; any scale: the noise is replaced) against
    threshold_release.tex's statement on the chosen cases of
    :func:`integer_release_inputs`: a key is released iff its value plus its draw is
    ``>= threshold`` (``<= threshold`` for a negative threshold), with that sum clamped to
    ``T``, and the release never raises."""
    types = integer_release_types(threshold) if types is None else tuple(types)
    count = sum(len(integer_release_inputs(T, threshold)) for T in types)

    def violation():
        cases = []
        for T in types:
            built = built_release(make(), p, T, 1.0, threshold)
            domain = built.input_domain.value_domain.T
            lower, upper = domain.min, domain.max
            rows = released_rows(built, integer_release_inputs(T, threshold))

            def expected(total, lower=lower, upper=upper):
                return min(max(total, lower), upper)

            cases.append((T, rows, lambda v: v, _Passes(threshold), expected))
        return _release_formula(cases)

    return Obligation(
        constructor=name,
        claim=f"release of the real {name} threshold={threshold}: on {count} chosen cases "
        f"(value, draw), over each of {', '.join(types)} (every integer type that holds the "
        f"threshold): every value within {SPAN} of -|threshold|, 0, |threshold| and each end of "
        "T, with the draws threshold - value + d (|d| <= 2), one past each end of T, T.max and "
        "T.min, and two keys; the real release releases exactly the keys the proof says, with "
        "the clamped noisy values, and never raises (a finite check of the code, not a proof "
        "for all values); and the stated test passes a key only when its draw is in the tail "
        "the delta bounds (all integers, on the stated test)",
        format="int", size=2, violation=violation,
    )  # fmt: skip


def float_release_values(T: str, threshold: float) -> list:
    """The chosen values of the float release over ``T``: every multiple of 1/4 within
    ``|threshold| + 4`` of 0, the neighbours of the threshold and of 0, ``-0.0``, the
    smallest positive value, the ends of ``T`` and their neighbours, and ``+-inf`` (admitted by
    ``atom_domain(T, nan=False)``; NaN is not)."""
    import numpy as np

    from certdp.core.types import carrier

    width = np.float32 if T == "f32" else np.float64
    lower, upper = carrier(T).min, carrier(T).max

    def step(v, towards):
        return float(np.nextafter(width(v), width(towards)))

    reach = int(4 * (abs(threshold) + 4))
    values = {q / 4 for q in range(-reach, reach + 1)}
    values |= {step(threshold, math.inf), step(threshold, -math.inf), step(0, 1), step(0, -1),
               -0.0, lower, upper, step(lower, 0), step(upper, 0), math.inf, -math.inf}  # fmt: skip
    return sorted(values)


def float_release_inputs(T: str, k, threshold: float) -> list:
    """The chosen ``(values, draws)`` of the float release: each value of
    :func:`float_release_values` with the draws ``grid threshold - index + d`` (``|d| <= 2``,
    ``index`` the stated grid index of the value clamped to ``T``), and two keys."""
    kk, _, grid_threshold = float_grid(T, k, 1.0, threshold)
    inputs = []
    for v in float_release_values(T, threshold):
        index = float_index(T, kk, v)
        inputs.extend(({"a": v}, (grid_threshold - index + d,)) for d in (-2, -1, 0, 1, 2))
    inputs.append(({"b": threshold, "a": float_release_values(T, threshold)[0]}, (0, 0)))
    return inputs


def float_index(T: str, kk: int, v) -> int:
    """The stated grid index ``floor(v' / 2^kk + 1/2)`` of ``v`` clamped to the finite range
    ``[T.min, T.max]`` (float_release.tex), computed exactly, independently of the code."""
    from certdp.core.types import carrier

    clamped = min(max(v, carrier(T).min), carrier(T).max)
    return math.floor(Fraction(clamped) / Fraction(2) ** kk + Fraction(1, 2))


def float_release_instance(name, make, p: int, T: str, k, scale, threshold) -> Obligation:
    """The real float release function of ``make`` against float_release.tex's statement on
    the chosen cases of :func:`float_release_inputs`: a key is released iff the grid index
    ``floor(x / 2^k + 1/2)`` of its value clamped to ``T``, plus its draw, is ``>=`` the grid
    threshold (indices from :func:`float_grid`, independently of the code), with the value
    ``grid_point_to_float`` of that sum (its own lemma), and the release never raises."""
    from certdp.samplers.discrete_laplace_z2k import grid_point_to_float

    kk, _, grid_threshold = float_grid(T, k, scale, threshold)
    count = len(float_release_inputs(T, k, threshold))

    def violation():
        built = built_release(make(), p, T, scale, threshold, k)
        rows = released_rows(built, float_release_inputs(T, k, threshold))

        def expected(total):
            return grid_point_to_float(total, kk, T)

        cases = [(T, rows, lambda v: float_index(T, kk, v), _Passes(grid_threshold), expected)]
        return _release_formula(cases)

    return Obligation(
        constructor=name,
        claim=f"release of the real {name} {T}/k={k}/threshold={threshold}: on {count} chosen "
        "cases (value, draw): every multiple of 1/4 within |threshold| + 4 of 0, the "
        "neighbours of the threshold and of 0, -0.0, the smallest positive value, the ends of T "
        "and their neighbours and +-inf, each with the draws grid threshold - index + d "
        "(|d| <= 2), and two keys; the real release releases exactly the keys the proof says, "
        "with the rounded grid values, and never raises (a finite check of the code, not a "
        "proof for all values); and the stated test passes a key only when its draw is in the "
        "tail the delta bounds (all integers, on the stated test)",
        format="int", size=2, violation=violation,
    )  # fmt: skip


def threshold_obligations(name, delta_name, make, p: int, names, code_instance,
                          violation_formula, scales, thresholds, size: int) -> list:  # fmt: skip
    """``name``'s obligations (none unless ``names`` is ``None`` or holds it): the model's
    ``code_instance`` at every scale and threshold (integer values), then the float instances
    of :data:`FLOAT_INSTANCES` (:func:`float_instance`), then the release obligations at every
    threshold (:func:`release_instance`) and float instance (:func:`float_release_instance`)."""
    if names is not None and name not in names:
        return []
    integer = [code_instance(scale, threshold) for scale in scales for threshold in thresholds]
    floats = [
        float_instance(name, delta_name, make, p, violation_formula, *instance, size=size)
        for instance in FLOAT_INSTANCES
    ]
    releases = [release_instance(name, make, p, threshold) for threshold in thresholds]
    float_releases = [float_release_instance(name, make, p, *instance)
                      for instance in FLOAT_INSTANCES]  # fmt: skip
    return integer + floats + releases + float_releases


def instances_text(scales, thresholds, d_ins, size: int) -> str:
    """The ``instances`` of a threshold model's scope."""
    return (
        f"i32 values; scales {scales} x thresholds {thresholds} x {len(d_ins)} "
        f"triples d_in; every pair of maps on {size} keys (unbounded integers); float values: "
        f"{FLOAT_INSTANCES} (T, k, scale, threshold) x {len(FLOAT_D_INS)} triples, values any "
        "multiples of 2^K_MIN (every finite float is one; values are not limited to floats); "
        f"release: per threshold, chosen (value, draw) cases over every integer type that holds "
        f"it (values within {SPAN} of -|threshold|, 0, |threshold| and each end of T), and per "
        "float instance chosen cases (multiples of 1/4, extremes, -0.0, +-inf): a finite check "
        "of the code"
    )
