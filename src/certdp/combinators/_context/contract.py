"""Contract of the Context: the theorem of context.tex, executable.

``CONTRACT.verify()`` draws a privacy unit (contributions or an L1 distance), a measure
(pure DP, zCDP, approximate pure DP) with a budget over the whole f64 range, and a split (even,
weighted with integer and float weights, or none: the filter), builds the Context on a small
dataset, then submits a drawn sequence of queries -- measurements whose maps return drawn
losses, some above their share -- and checks: ``d_in`` is the unit's distance unchanged; each
share is at most its exact share of the budget and their composition (exact sum rounded up) is
within the budget; the accountant's map at ``d_in`` is within the budget; every refused query
raised a ``DPError`` and released nothing; every released query's loss was within its share;
the shares spent and left are the split in order; with a filter, the loss spent stays within
the budget.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from certdp.contracts.contract import Precondition, VerificationReport
from certdp.core.errors import ContractError, DPError
from certdp.core.exact_type import type_is
from certdp.core.metrics import L1Distance

context_module = importlib.import_module("certdp.combinators._context.context")

__all__ = ["CONTRACT", "ContextContract"]

PRECONDITIONS = [
    Precondition(
        "privacy-unit",
        lambda a: isinstance(a.privacy_unit, tuple) and len(a.privacy_unit) == 2,
        "privacy_unit must be (metric, d_in), from dp.unit_of",
        parameter="privacy_unit",
    ),
    Precondition(
        "privacy-loss",
        lambda a: isinstance(a.privacy_loss, tuple) and len(a.privacy_loss) == 2,
        "privacy_loss must be (measure, d_out), from dp.loss_of",
        parameter="privacy_loss",
    ),
    Precondition(
        "split",
        lambda a: a.split_evenly_over is None or a.split_by_weights is None,
        "at most one of split_evenly_over and split_by_weights",
        parameter="split_by_weights",
    ),
    Precondition(
        "domain",
        lambda a: True,
        "domain is a domain or None (then inferred from data)",
        parameter="domain",
    ),
]


def _violation(message: str) -> ContractError:
    return ContractError(message, condition="context")


def _coordinates(loss) -> list[Fraction]:
    return [Fraction(c) for c in (loss if isinstance(loss, tuple) else (loss,))]


def _composed(losses, width: int) -> list[Fraction]:
    """The exact coordinatewise sum of ``losses``, rounded up to f64 (as the compositor does)."""
    from certdp.numeric import inf_cast

    sums = [Fraction(0)] * width
    for loss in losses:
        sums = [s + c for s, c in zip(sums, _coordinates(loss), strict=True)]
    return [Fraction(inf_cast(s)) for s in sums]


def _query(domain, metric, measure, loss, released: list):
    """A measurement on the context's space whose map at any ``d_in`` is ``loss``; releasing
    it records ``loss`` in ``released``."""
    from certdp.core.transformation import Measurement

    def function(data):
        released.append(loss)
        return len(data)

    return Measurement(domain, function, metric, measure, lambda d_in: loss)


@dataclass
class ContextContract:
    """The theorem of context.tex; ``verify`` searches for a counterexample."""

    constructor: Any
    preconditions: list[Precondition]
    kind = "context contract"

    @property
    def name(self) -> str:
        return "context"

    @property
    def precondition_ids(self) -> list[str]:
        return [precondition.id for precondition in self.preconditions]

    def verify(self, *, max_examples: int | None = None, implementation=None) -> VerificationReport:
        """Search for a Context that breaks the theorem; raise the first one found.

        ``implementation`` replaces ``split_budget`` in the Context's module (to show that a
        split rounding a share up is refuted)."""
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        from certdp.core.features import enable_features, feature_enabled

        report = VerificationReport(self.name)
        saved = context_module.split_budget
        quiet = logging.getLogger("certdp.context")  # loss_of's range notes, not findings
        was_disabled, quiet.disabled = quiet.disabled, True
        had_contrib = feature_enabled("contrib")

        @given(st.data())
        def check(data):
            self._one(data, st)
            report.observe(1.0, "context")

        overrides = {
            "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
            "deadline": None,
            "report_multiple_bugs": False,
        }
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        try:
            enable_features("contrib")
            if implementation is not None:
                context_module.split_budget = implementation
            settings(settings(), **overrides)(check)()
        finally:
            context_module.split_budget = saved
            quiet.disabled = was_disabled
            if not had_contrib:
                from certdp.core.features import disable_features

                disable_features("contrib")
        return report

    @staticmethod
    def _one(data, st) -> None:
        import certdp.prelude as dp

        from .units import loss_of, unit_of

        budgets = st.floats(min_value=0.0, max_value=1e300, allow_nan=False)
        if data.draw(st.booleans(), label="contributions"):
            unit = unit_of(contributions=data.draw(st.integers(0, 5), label="k"))
        else:
            unit = unit_of(l1=data.draw(st.floats(0.0, 10.0), label="l1"))
        measure = data.draw(st.sampled_from(["epsilon", "rho", "approximate"]), label="measure")
        if measure == "approximate":
            delta = data.draw(st.floats(0.0, 1.0), label="delta")
            loss = loss_of(epsilon=data.draw(budgets, label="epsilon"), delta=delta)
        else:
            loss = loss_of(**{measure: data.draw(budgets, label="budget")})
        how = data.draw(st.sampled_from(["even", "weights", "filter"]), label="split")
        split = {}
        if how == "even":
            split["split_evenly_over"] = data.draw(st.integers(1, 12), label="n")
        elif how == "weights":
            weight = st.one_of(st.integers(0, 100), st.floats(0.0, 1e6, allow_nan=False))
            weights = data.draw(st.lists(weight, min_size=1, max_size=8), label="weights")
            if sum(Fraction(w) for w in weights) == 0:
                weights = [*weights, 1]
            split["split_by_weights"] = weights
        metric = unit[0]
        if type_is(metric, L1Distance):
            domain, dataset = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), [1.0, 2.0]
        else:
            domain, dataset = dp.vector_domain(dp.atom_domain(T="i32")), [1, 2, 3]
        try:
            context = context_module.Context.compositor(dataset, unit, loss, domain=domain, **split)
        except DPError as error:
            raise _violation(f"a valid Context was refused: {error}") from error
        d_out = loss[1]
        width = 2 if isinstance(d_out, tuple) else 1
        if context.d_in is not unit[1]:
            raise _violation(f"d_in {context.d_in!r} is not the unit's {unit[1]!r}")
        if how != "filter":
            weights = split.get("split_by_weights", [1] * split.get("split_evenly_over", 1))
            total = sum(Fraction(w) for w in weights)
            shares = list(context.d_mids)
            for share, weight in zip(shares, weights, strict=True):
                for got, goal in zip(_coordinates(share), _coordinates(d_out), strict=True):
                    if got > goal * Fraction(weight) / total:
                        raise _violation(f"share {share!r} exceeds its exact share of {d_out!r}")
            if any(
                c > b for c, b in zip(_composed(shares, width), _coordinates(d_out), strict=True)
            ):
                raise _violation(f"shares {shares!r} compose above the budget {d_out!r}")
            if not context.accountant.check(context.d_in, d_out):
                raise _violation("the accountant's map at d_in exceeds the budget")
        released: list = []
        submitted = data.draw(st.integers(0, 6), label="queries")
        for _ in range(submitted):
            scale = data.draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 3.0]), label="fraction")
            if how == "filter":
                base = _coordinates(d_out)
            else:
                base = _coordinates(context.d_mids[0]) if context.d_mids else _coordinates(d_out)
            coords = tuple(float(c * Fraction(scale)) for c in base)
            query_loss = coords if width == 2 else coords[0]
            query = _query(domain, metric, context.accountant.output_measure, query_loss, released)
            before = len(released)
            share = context.d_mids[0] if context.d_mids else None
            try:
                context(query)
            except DPError:
                if len(released) != before:
                    raise _violation("a refused query was released") from None
                continue
            except Exception as error:  # noqa: BLE001 - an untyped refusal breaks the theorem
                raise _violation(f"untyped refusal: {type(error).__name__}: {error}") from error
            if share is not None and any(
                q > s for q, s in zip(_coordinates(query_loss), _coordinates(share), strict=True)
            ):
                raise _violation(
                    f"released a query of loss {query_loss!r} over its share {share!r}"
                )
        if how == "filter":
            spent = context.current_privacy_loss()
            if any(s > b for s, b in zip(_coordinates(spent), _coordinates(d_out), strict=True)):
                raise _violation(f"the filter spent {spent!r} above {d_out!r}")
        else:
            if any(
                c > b for c, b in zip(_composed(released, width), _coordinates(d_out), strict=True)
            ):
                raise _violation(f"released losses {released!r} compose above {d_out!r}")
            if context.current_privacy_loss() + context.remaining_privacy_loss() != shares:
                raise _violation("the shares spent and left are not the split in order")


CONTRACT = ContextContract(
    constructor=context_module.Context.compositor, preconditions=PRECONDITIONS
)
