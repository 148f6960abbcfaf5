"""Contract of ``make_composition``: the theorem of make_composition.tex, executable.

The search draws pure-DP and zCDP parts (whose divergences the parts' own contracts compute);
the approximate measures are checked by the reference tests and the SMT model's code instances.
Under RenyiDivergence (parts from ``make_user_measurement``, whose privacy is the user's claim, so
no search draws them) the runtime check evaluates the composed curve at the orders
:data:`RENYI_ORDERS` and compares each value with the exact sum of the parts' curves there.

The bound is the exact sum of the leaves' maps at ``d_in`` (the inner maps, with every
composition among them replaced by its parts); the divergence of a pair of inputs
is the sum of the exact divergences of the pair under each inner measurement (computed by
their own contracts), which the proof bounds by that sum.
"""

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.combinators._compose import COMPOSABLE, composable
from certdp.combinators._support.contract_support import (
    CombinatorContract,
    component_divergence,
    pure_measurements,
    zcdp_measurements,
)
from certdp.contracts.contract import Precondition
from certdp.core.errors import ContractError, FailedMapError
from certdp.core.renyi_divergence import RenyiDivergence
from certdp.core.transformation import Measurement

from .make_composition import composed_leaves, make_composition

#: The orders at which the runtime check reads a composed Rényi curve.
RENYI_ORDERS = (1.0000001, 1.5, 2.0, 10.0, 1e6)

#: The proof's bound, for display: the sum of the inner maps.
INNER_MAPS_SUM = sympy.Symbol("sum_i map_i(d_in)", nonnegative=True)


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f64", "i32"]))
    inner = pure_measurements(T) if draw(st.booleans()) else zcdp_measurements(T)
    return {"measurements": draw(st.lists(inner, min_size=1, max_size=3))}


def _leaf_losses(arguments, d_in) -> list:
    # a composition given as a part contributes its leaves (make_composition.tex, "Leaves")
    return [leaf.map(d_in) for leaf in composed_leaves(arguments.measurements)]


def _exact_sum(values):
    """The exact sum of ``values`` (``math.inf`` if one is infinite)."""
    if any(math.isinf(value) for value in values):
        return math.inf
    return sum((Fraction(value) for value in values), Fraction(0))


def _closed_form(arguments, d_in):
    total = _exact_sum(_leaf_losses(arguments, d_in))
    return sympy.oo if total == math.inf else total


@dataclass
class CompositionContract(CombinatorContract):
    """The composition's contract: a number (pure DP, zCDP) is checked against the exact sum of
    the leaves' maps; a pair (the ``Approximate`` measures) coordinate by coordinate."""

    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        losses = _leaf_losses(arguments, d_in)
        if type(built.output_measure) is RenyiDivergence:
            return _check_curve(self.name, d_in, d_out, losses)
        if type(d_out) is tuple:
            coordinates = [(d_out[i], _exact_sum([loss[i] for loss in losses])) for i in (0, 1)]
        else:
            coordinates = [(d_out, _exact_sum(losses))]
        for value, exact in coordinates:
            if not (math.isinf(value) or (exact != math.inf and Fraction(value) >= exact)):
                raise ContractError(
                    f"{self.name}: map({d_in}) = {d_out!r} is below the exact sum of the "
                    "leaves' maps",
                    condition="privacy-map",
                )


def _check_curve(name, d_in, d_out, curves) -> None:
    """At each order of :data:`RENYI_ORDERS` where the composed curve ``d_out`` answers, its
    value must be at least the exact sum of the parts' ``curves`` there."""
    for alpha in RENYI_ORDERS:
        try:
            value = d_out(alpha)
        except FailedMapError:
            continue  # a part's curve is refused there: the composed curve claims nothing
        exact = _exact_sum([curve(alpha) for curve in curves])
        if not (math.isinf(value) or (exact != math.inf and Fraction(value) >= exact)):
            raise ContractError(
                f"{name}: map({d_in})({alpha}) = {value!r} is below the exact sum of the "
                "leaves' curves there",
                condition="privacy-map",
            )


def _divergence(built, kwargs, x, x_prime):
    parts = [component_divergence(m, x, x_prime) for m in kwargs["measurements"]]
    return sum(parts, sympy.Integer(0)), {"components": [str(part) for part in parts]}


def _measurements(a):
    return list(a.measurements)


CONTRACT = CompositionContract(
    constructor=make_composition,
    preconditions=[
        Precondition(
            "measurements-non-empty-list",
            lambda a: (
                isinstance(a.measurements, (list, tuple))
                and len(a.measurements) > 0
                and all(isinstance(m, Measurement) for m in a.measurements)
            ),
            "measurements must be a non-empty list of (valid) measurements",
            parameter="measurements",
        ),
        Precondition(
            "shared-input-domain-and-metric",
            lambda a: all(
                m.input_domain == _measurements(a)[0].input_domain
                and m.input_metric == _measurements(a)[0].input_metric
                for m in _measurements(a)
            ),
            "measurements must share one input domain and one input metric",
            parameter="measurements",
        ),
        Precondition(
            "shared-composable-measure",
            lambda a: (
                (
                    composable(_measurements(a)[0].output_measure)
                    or type(_measurements(a)[0].output_measure) is RenyiDivergence
                )
                and all(
                    m.output_measure == _measurements(a)[0].output_measure for m in a.measurements
                )
            ),
            f"measurements must share one output measure, {COMPOSABLE} or RenyiDivergence",
            parameter="measurements",
        ),
    ],
    bound=INNER_MAPS_SUM,
    arguments=arguments,
    divergence=_divergence,
    closed_form=_closed_form,
)
