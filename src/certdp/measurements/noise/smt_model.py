"""SMT model of ``make_noise``'s privacy map, bound to the code.

At instances of the real constructor (i32 atoms, f64 atoms and i32 vectors under the matching
metric; scales of :data:`SCALES`) its own map is called at every ``d_in`` of :data:`D_INS`. A
case is satisfiable exactly when the value is below the bound of the mechanism the measure
names, compared as exact rationals: ``d_in / scale`` for the max-divergence (integers; the
float atom's relaxation is 0 at the default ``k``), ``d_in^2 / (2 scale^2)`` for zCDP, or when
the measurement's output measure is not the requested one.
"""

from __future__ import annotations

import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.core.exact_type import type_is
from certdp.core.measures import MaxDivergence, ZeroConcentratedDivergence

#: The measures the obligations name, by name; the built measure's class is tested by identity.
MEASURE_CLASSES = {
    "MaxDivergence": MaxDivergence,
    "ZeroConcentratedDivergence": ZeroConcentratedDivergence,
}

__all__ = ["SCALES", "D_INS", "built", "map_instance"]

_NAME = "make_noise"
SCALES = (1.0, 0.3, 7.0, 1e-3)
D_INS = (0, 1, 2, 5, 1000)
SPACES = ("i32 atom", "f64 atom", "i32 vector")


def built(space: str, measure: str, scale):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.measures import max_divergence, zero_concentrated_divergence
    from certdp.core.metrics import absolute_distance, l1_distance, l2_distance

    from .make_noise import make_noise

    pure = measure == "MaxDivergence"
    chosen = max_divergence() if pure else zero_concentrated_divergence()
    if space == "i32 atom":
        domain, metric = atom_domain(T="i32"), absolute_distance(T="i32")
    elif space == "f64 atom":
        domain, metric = atom_domain(T="f64", nan=False), absolute_distance(T="f64")
    else:
        domain = vector_domain(atom_domain(T="i32"))
        metric = l1_distance(T="i32") if pure else l2_distance(T="i32")
    return make_noise(domain, metric, chosen, scale)


def map_instance(space: str, measure: str, built_of=built) -> Obligation:
    def violation():
        cases = []
        for scale in SCALES:
            measurement = built_of(space, measure, scale)
            wrong_measure = not type_is(measurement.output_measure, MEASURE_CLASSES[measure])
            for d_in in D_INS:
                value = measurement.map(d_in)
                if measure == "MaxDivergence":
                    bound = exact(d_in) / exact(scale)
                else:
                    bound = exact(d_in) * exact(d_in) / (2 * exact(scale) * exact(scale))
                below = z3.BoolVal(False) if value == math.inf else exact(value) < bound
                formula = z3.Or(z3.BoolVal(wrong_measure), below)
                example = {"scale": scale, "d_in": d_in, "map": repr(value),
                           "measure": type(measurement.output_measure).__name__}  # fmt: skip
                cases.append((formula, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_noise {space} {measure}, scales {SCALES}, d_in in {D_INS}: the "
        "measure is the requested one and the map is >= its mechanism's bound (exact)",
        format="f64" if space.startswith("f64") else "i32", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [
        map_instance(space, measure)
        for space in SPACES
        for measure in ("MaxDivergence", "ZeroConcentratedDivergence")
    ]


SCOPE = {
    _NAME: Scope(
        formats=("i32", "f64", "real"),
        bound_to_code="the real make_noise is built at each instance and its own map is called",
        instances=f"{', '.join(SPACES)} x both measures x scales {SCALES} x d_in {D_INS}",
        assumed=(
            "make_laplace's and make_gaussian's releases are valid with those maps (their "
            "proofs and models)",
        ),  # fmt: skip
    )
}

MODELLED = {_NAME: ["measurements/noise/make_noise.py"]}
