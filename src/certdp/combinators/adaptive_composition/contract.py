"""Contract of ``make_adaptive_composition``: the theorem of make_adaptive_composition.tex,
executable.

At run time the map must return at least the exact (coordinate-wise) sum of ``d_mids`` for every
``d_in' <= d_in``.  At test time an analyst asks the released queryable, on each of two
neighbouring inputs, one Laplace (pure DP) or Gaussian (zCDP) query per budget, each with the
smallest scale of a grid that the compositor accepts (a query it refuses releases
nothing); the divergence of the two views is the sum of the exact divergences of the answered
queries, each from its own contract, and the map must be at least that sum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.combinators._compose import COMPOSABLE, composable
from certdp.combinators._support.contract_support import (
    CombinatorContract,
    _attach,
    _space,
    component_divergence,
)
from certdp.contracts.contract import (
    Precondition,
    PrivacyViolation,
    VerificationReport,
    as_rational,
    at_least,
)
from certdp.core.domains import Domain
from certdp.core.errors import ContractError, DPError
from certdp.core.exact_type import type_is
from certdp.core.measures import max_divergence, zero_concentrated_divergence
from certdp.core.metrics import Metric
from certdp.core.partition_metrics import L0PInfDistance

from .make_adaptive_composition import make_adaptive_composition

#: The proof's bound, for display: the sum of the per-query budgets.
D_MIDS_SUM = sympy.Symbol("sum_i d_mids_i", nonnegative=True)

#: Scales the analyst tries for each query, from the largest (smallest loss) down.
_SCALES = (64.0, 16.0, 4.0, 2.0, 1.0, 0.5, 0.25)


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f64", "i32"]))
    pure = draw(st.booleans())
    d_in = draw(st.sampled_from([1, 2, 0.5, 3.0] if T == "f64" else [1, 2, 3]))
    d_mids = draw(
        st.lists(st.sampled_from([0.1, 0.25, 0.5, 1.0, 2.0, 0.3, 1e-3]), min_size=1, max_size=4)
    )
    return {
        **_space(T),
        "output_measure": max_divergence() if pure else zero_concentrated_divergence(),
        "d_in": d_in,
        "d_mids": d_mids,
    }


def _exact_sum(values):
    if any(type(v) is float and math.isinf(v) for v in values):
        return math.inf
    return sum((Fraction(v) for v in values), Fraction(0))


def _queries(kwargs):
    """For each budget, the analyst's query: the attached Laplace or Gaussian measurement of
    the smallest scale in :data:`_SCALES` whose map at ``d_in`` fits it (the largest loss that
    fits; the largest scale if none does: the compositor then refuses it)."""
    from certdp.measurements.gaussian import make_gaussian
    from certdp.measurements.laplace import make_laplace

    pure = kwargs["output_measure"] == max_divergence()
    constructor = make_laplace if pure else make_gaussian
    space = {"input_domain": kwargs["input_domain"], "input_metric": kwargs["input_metric"]}
    chosen = []
    for budget in kwargs["d_mids"]:
        candidates = [_attach(constructor, {**space, "scale": s}) for s in _SCALES]
        fitting = [c for c in candidates if c.check(kwargs["d_in"], budget)]
        chosen.append(fitting[-1] if fitting else candidates[0])
    return chosen


def _divergence(built, kwargs, x, x_prime):
    """Run the real compositor on ``x`` (asking every query in order): the view's divergence is
    the sum of the exact divergences of the queries it answered."""
    released = built(x)
    answered = []
    for query in _queries(kwargs):
        try:
            released(query)
        except DPError:
            continue  # refused before anything ran: nothing released, a fixed answer
        answered.append(query)
    parts = [component_divergence(query, x, x_prime) for query in answered]
    return sum(parts, sympy.Integer(0)), {"answered": len(answered)}


@dataclass
class AdaptiveContract(CombinatorContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        measure = arguments.output_measure
        budgets = list(arguments.d_mids)
        if composable(measure) and type(d_out) is tuple:
            coordinates = [(d_out[i], _exact_sum([b[i] for b in budgets])) for i in (0, 1)]
        else:
            coordinates = [(d_out, _exact_sum(budgets))]
        for value, exact in coordinates:
            if not (math.isinf(value) or (exact != math.inf and Fraction(value) >= exact)):
                raise ContractError(
                    f"{self.name}: map({d_in}) = {d_out!r} is below the sum of d_mids",
                    condition="privacy-map",
                )

    def verify(self, *, max_examples=None, map_override=None, data_form=None):
        """Draw arguments, a ``d_in' <= d_in`` and neighbouring inputs; the map at ``d_in'``
        must cover the divergence of the analyst's two views, and a ``d_in'`` beyond
        ``d_in`` must be refused with a typed error."""
        from hypothesis import HealthCheck, given, settings

        from certdp.contracts.neighbours import neighbours

        report = VerificationReport(self.name)

        @given(st.data())
        def search(data):
            kwargs = data.draw(self.arguments(), label="arguments")
            built = self.constructor(**kwargs)
            d_in = data.draw(st.sampled_from([kwargs["d_in"], 0]), label="d_in")
            if map_override is None:
                try:
                    built.map(kwargs["d_in"] + 1)
                except DPError:
                    pass
                else:
                    raise ContractError(
                        f"{self.name}: a d_in beyond {kwargs['d_in']} was not refused",
                        condition="privacy-map",
                    )
            x, x_prime = data.draw(
                neighbours(built.input_domain, built.input_metric, d_in), label="neighbours"
            )
            stated = map_override(d_in) if map_override else built.map(d_in)
            divergence, witness = _divergence(built, kwargs, x, x_prime)
            if not at_least(stated, divergence):
                raise PrivacyViolation(
                    x=x,
                    x_prime=x_prime,
                    d_in=d_in,
                    divergence=divergence,
                    d_out_stated=stated,
                    witness=witness,
                )
            ratio = as_rational(divergence) / as_rational(stated) if stated else sympy.Integer(0)
            report.observe(float(ratio) if ratio.is_finite else 1.0, (kwargs, d_in, x, x_prime))
            if map_override is None:
                self.check_map_value(self.bind((), kwargs), built, d_in, stated)

        overrides = {
            "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
            "deadline": None,
        }
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        settings(settings(), **overrides)(search)()
        return report


CONTRACT = AdaptiveContract(
    constructor=make_adaptive_composition,
    preconditions=[
        Precondition(
            "input-space",
            lambda a: isinstance(a.input_domain, Domain) and isinstance(a.input_metric, Metric),
            "input_domain must be a domain and input_metric a metric",
            parameter="input_domain",
        ),
        Precondition(
            "d-in-totally-ordered",
            lambda a: not isinstance(a.input_metric, L0PInfDistance),
            "input_metric must have totally ordered distances, not (l0, lp, linf) triples",
            parameter="input_metric",
        ),
        Precondition(
            "composable-measure",
            lambda a: composable(a.output_measure),
            f"output_measure must be {COMPOSABLE}",
            parameter="output_measure",
        ),
        Precondition(
            "d-mids-non-empty",
            lambda a: type_is(a.d_mids, list, tuple) and len(a.d_mids) > 0,
            "d_mids must be a non-empty list of privacy losses under output_measure",
            parameter="d_mids",
        ),
    ],
    bound=D_MIDS_SUM,
    arguments=arguments,
    divergence=_divergence,
    closed_form=None,
)
