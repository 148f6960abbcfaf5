"""SMT model of ``make_laplace_threshold``'s privacy map, bound to the code.

The theorem's combinatorial part, checked at instances of the real constructor: the real
measurement is built (value type i32, scales and thresholds of :data:`SCALES` and
:data:`THRESHOLDS`) and its own map is called at every triple of :data:`D_INS` under a tracer
(:func:`certdp.contracts.smt_code.traced`), which records the arguments the code passes to
``threshold_delta`` (the scale, the distance ``t`` and the count ``l0``). The solver then
ranges over every pair of maps on ``N = 3`` keys (each key present or absent on each side, any
integer values) that are ``d_in``-close under ``l01inf_distance(absolute_distance)``
(Definition [L0-Lp-Linf distance] of core/partition_metrics.tex, a key of one side only standing
against 0). A case is satisfiable exactly when such a pair breaks what the proof needs of the
map's value:

* ``epsilon``: the keys held by both sides move by ``sum |x_k - x'_k| > epsilon * scale``;
* ``delta``: a key of one side only has a value ``v`` with ``|threshold| - |v| < t`` (its
  survival probability, at most ``P[Z >= |threshold| - |v|]``, could exceed the tail the code
  bounds), or more keys are on one side only than the ``l0`` the code passes; or the map
  returned ``delta = 0`` (without calling ``threshold_delta``) although a key is on one side only
  or a shared key moved.

What ``threshold_delta`` computes from ``(scale, t, l0)`` (the exact ``1 - (1 - P[Z >= t])^l0``,
rounded up) is its own lemma (_threshold/threshold_delta.tex, tested against an independent
80-digit sum); the one-key bound and the product argument are the proof's exact-real part.

The pairs, the lone keys' part of the violation (``delta``), the float instances and the
obligations' frame are the kernel shared with make_gaussian_threshold's model
(_threshold/threshold_smt.py); this model holds what is the Laplace release's own: the
``l1`` closeness, the ``epsilon`` part and the real constructor.

The release is bound too (the kernel's release obligations): the real measurement's own
release function is run with a stub in place of its sampler that hands out chosen draws, on
a finite list of chosen (value, draw) cases (every integer type the constructor takes; a dense
range of values around the threshold, zero and the ends of the type; float values on a 1/4 grid
plus the extremes, -0.0 and +-inf; draws around the threshold and saturating; two keys), and a
case is satisfiable exactly when a key is released or withheld, or released with a value, other
than the proof states, or the release raises, or when the stated test would pass a key whose
draw lies outside the tail the delta bounds.  This is a test of the code on those cases, not a
proof for all values: that the release is the stated one everywhere is the proof's
(threshold_release.tex, float_release.tex).
"""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.measurements._threshold import threshold_smt as kernel

__all__ = ["SCALES", "THRESHOLDS", "D_INS", "KEYS", "pair_variables", "code_instance"]

_NAME = "make_laplace_threshold"
_DELTA = "threshold_delta"
SCALES = (0.5, 1.0, 2.5)
THRESHOLDS = (-3, 0, 1, 5, 14)
D_INS = (
    (0, 0, 0), (1, 0, 0), (1, 1, 1), (2, 1, 1), (2, 5, 1), (2, 5, 3), (1, 3, 6), (3, 2, 2),
    (2, 1.5, 1.5), (3, 7, 5), (3, 0, 0),
)  # fmt: skip
KEYS = 3


def pair_variables():
    """Per key: presence on each side and the two values (0 when absent), the per-key distance
    and whether the key is changed; with the closeness constraints added by :func:`close`."""
    return kernel.integer_pair_variables(KEYS)


def close(keys, d_in):
    """The pair is ``d_in``-close (each component, exactly)."""
    l0, l1, linf = d_in
    count = z3.Sum([z3.If(key["changed"], 1, 0) for key in keys])
    total = z3.Sum([key["d"] for key in keys])
    return z3.And(
        count <= l0,
        total <= exact(l1),
        *[key["d"] <= exact(linf) for key in keys],
    )


def _make():
    from .make_laplace_threshold import make_laplace_threshold

    return make_laplace_threshold


def built_map(scale, threshold):
    """The real measurement (i32 values, String keys)."""
    return kernel.built_release(_make(), 1, "i32", scale, threshold)


def violation_formula(keys, scale, threshold, value, delta_call):
    """Satisfiable (with :func:`close`) exactly when the pair breaks the map's ``value``;
    ``delta_call`` is the recorded arguments of ``threshold_delta`` or ``None``."""
    epsilon, delta = value
    shared = z3.Sum([z3.If(z3.And(k["on_x"], k["on_y"]), k["d"], 0) for k in keys])
    moved = shared * exact(Fraction(1)) > exact(epsilon) * exact(scale) if epsilon != math.inf \
        else z3.BoolVal(False)  # fmt: skip
    return z3.Or(moved, kernel.lone_key_violation(keys, threshold, delta, delta_call))


def code_instance(scale, threshold, built_of=built_map) -> Obligation:
    """The real map at every triple of :data:`D_INS` (``built_of`` replaces the constructor:
    tests)."""
    return kernel.integer_instance(
        _NAME, _DELTA, built_of, D_INS, pair_variables, close, violation_formula, scale,
        threshold,
        claim=f"real make_laplace_threshold i32 scale={scale} threshold={threshold}, d_in in "
        f"{len(D_INS)} triples, every pair of maps on {KEYS} keys: epsilon covers the shared "
        "keys' moves and the delta's tail starts no further than a lone key's value (exact)",
        size=KEYS,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    return kernel.threshold_obligations(_NAME, _DELTA, _make, 1, names, code_instance,
                                        violation_formula, SCALES, THRESHOLDS, KEYS)  # fmt: skip


SCOPE = {
    _NAME: Scope(
        formats=("int", "real"),
        sizes=(KEYS,),
        bound_to_code="the real make_laplace_threshold is built at each instance and its own "
        "map is called (under a tracer that records the arguments it passes to threshold_delta); "
        "its own release function is run with chosen noise draws (a stub in place of "
        "its sampler) on the finite list of chosen (value, draw) cases each release "
        "obligation's claim states (its count and how they are chosen), and each released key "
        "and value (and the absence of an exception) is compared with the release the proof "
        "states",
        instances=kernel.instances_text(SCALES, THRESHOLDS, D_INS, KEYS),
        abstractions=(
            "the one-key bound P[v + Z passes] <= P[Z >= |threshold| - |v|] (its premise, that "
            "a key passes only when its draw is in that tail, is checked for all integers on "
            "the stated test, not on the code) and the product "
            "argument of the proof, in exact reals",
        ),
        assumed=(
            "the release function releases as threshold_release.tex and float_release.tex "
            "state on every input and draw (checked on the code only on the release "
            "obligations' chosen cases)",
            "the noise draws are exact samples of the stated distribution (the samplers' lemmas; "
            "the release obligations replace the sampler by chosen draws)",
            "grid_point_to_float rounds a grid index to T as its lemma states (the float release "
            "obligations compare the released value with it)",
            "threshold_delta returns the smallest f64 >= 1 - (1 - P[Z >= t])^l0 (its lemma, "
            "_threshold/threshold_delta.tex)",
            "laplace_map returns a value >= l1'/scale (_laplace/laplace_map.tex)",
        ),
    )
}

MODELLED = {
    _NAME: [
        "measurements/laplace_threshold/make_laplace_threshold.py",
        "measurements/_threshold/threshold_release.py",
        "measurements/_threshold/float_release.py",
    ]
}
