"""Contract of the accuracy conversions: the theorem of accuracy.tex, executable.

``CONTRACT.verify()`` draws scales, accuracies and levels over the whole range of ``f64`` (and
a few ``f32`` cases) and checks every result against a reference computed here with mpmath at
120 significant digits, with a relative margin of ``1e-60`` always placed on the side that
makes the check harder: a returned accuracy must be at least the exact value (its
predecessor below it), a returned scale must meet the accuracy (its successor must not, for
the searched ones). The reference is only a test: the code under test never uses mpmath.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from certdp.contracts.contract import Precondition, VerificationReport
from certdp.core.errors import ContractError
from certdp.core.exact_type import type_is

accuracy = importlib.import_module("certdp.measurements._accuracy.accuracy")

__all__ = ["CONTRACT", "AccuracyContract", "reference"]

MARGIN = 1e-60


def _finite_nonnegative(value) -> bool:
    return (
        type_is(value, int, float)
        and math.isfinite(value)
        and value >= 0
        and math.copysign(1.0, value) > 0
    )


PRECONDITIONS = [
    Precondition(
        "T-float",
        lambda a: (
            any(a.get("T") is T for T in (None, float, np.float32, np.float64))
            or a.get("T") in ("f32", "f64", "float")
        ),
        "T must be None or name f32 or f64 (inferred from a NumPy float32 scale)",
        parameter="T",
    ),
    Precondition(
        "value-nonnegative",
        lambda a: _finite_nonnegative(a.get("scale", a.get("accuracy"))),
        "scale / accuracy must be a finite, non-negative value of T",
        parameter="scale",
    ),
    Precondition(
        "alpha-range",
        lambda a: type(a["alpha"]) is float and 0 < a["alpha"] <= 1,
        "alpha must be in (0, 1] (in (0, 1) for accuracy_to_*); one not in f64 is rounded down",
        parameter="alpha",
    ),
]


class reference:
    """High-precision reference values (mpmath, 120 digits): for tests and the contract only."""

    @staticmethod
    @lru_cache(maxsize=1)
    def mp():
        """A private mpmath context at 120 digits (the global ``mpmath.mp`` is left alone)."""
        import mpmath

        context = mpmath.MPContext()
        context.dps = 120
        return context

    @classmethod
    def laplace_accuracy(cls, s, alpha):
        mp = cls.mp()
        return mp.mpf(s) * mp.log(1 / mp.mpf(alpha))

    @classmethod
    def discrete_laplace_accuracy(cls, s, alpha):
        mp = cls.mp()
        s = mp.mpf(s)
        return s * mp.log(2 / (mp.mpf(alpha) * (1 + mp.exp(-1 / s))))

    @classmethod
    def gaussian_tail(cls, t):
        """P(|N(0,1)| >= t)."""
        mp = cls.mp()
        return mp.erfc(mp.mpf(t) / mp.sqrt(2))

    @classmethod
    def discrete_gaussian_tail(cls, s, k):
        """P(|X| >= k) for the discrete Gaussian of scale s (direct sums, k >= 1)."""
        mp = cls.mp()
        s = mp.mpf(s)
        top = int(math.ceil(45 * float(s))) + 5
        terms = [mp.exp(-(mp.mpf(x) ** 2) / (2 * s * s)) for x in range(top + 1)]
        z = terms[0] + 2 * mp.fsum(terms[1:])
        return 2 * mp.fsum(terms[k:]) / z if k <= top else mp.mpf(0)


def _violation(message: str) -> ContractError:
    return ContractError(f"accuracy: {message}", condition="accuracy-postcondition")


def _prev(x: float) -> float:
    return math.nextafter(x, -math.inf)


def _next(x: float) -> float:
    return math.nextafter(x, math.inf)


def check_case(name: str, value: float, alpha: float, module=None) -> float:
    """Run ``name(value, alpha)`` and check the theorem's item for it; return the relative
    distance of the result to the exact value (the tightness)."""
    module = module or accuracy
    mp = reference.mp()
    lo_margin, hi_margin = 1 - mp.mpf(MARGIN), 1 + mp.mpf(MARGIN)
    result = getattr(module, name)(value, alpha)
    if not (isinstance(result, float) and result >= 0):
        raise _violation(f"{name}({value!r}, {alpha!r}) returned {result!r}")
    if name in ("laplacian_scale_to_accuracy", "discrete_laplacian_scale_to_accuracy"):
        exact = (
            reference.laplace_accuracy(value, alpha)
            if name.startswith("laplacian")
            else reference.discrete_laplace_accuracy(value, alpha)
            if value > 0
            else mp.mpf(0)
        )
        if not result >= exact * hi_margin:  # result must be >= exact
            raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r} < exact {exact}")
        if result > 0 and not math.isinf(result) and not _prev(result) < exact * lo_margin:
            raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r} is not the least")
        return 0.0 if exact == 0 else float(result / exact - 1)
    if name in ("accuracy_to_laplacian_scale", "accuracy_to_discrete_laplacian_scale"):
        if name == "accuracy_to_laplacian_scale":
            exact = mp.mpf(value) / mp.log(1 / mp.mpf(alpha))
            if not result <= exact * lo_margin and not (result == exact == 0):
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r} > exact {exact}")
            if result < np.finfo(float).max and not _next(result) > exact * hi_margin:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r} is not the largest")
            return 0.0 if exact == 0 else float(1 - result / exact)
        if result > 0:
            reached = reference.discrete_laplace_accuracy(result, alpha)
            if not reached * hi_margin <= value:
                raise _violation(f"{name}: scale {result!r} has accuracy {reached} > {value!r}")
        if value > 0 and result < np.finfo(float).max:
            beyond = reference.discrete_laplace_accuracy(_next(result), alpha)
            if not beyond * lo_margin > value:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r} is not the largest")
        return 0.0
    if name == "gaussian_scale_to_accuracy":
        if value == 0 or alpha == 1:
            if result != 0:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r}, not 0")
            return 0.0
        tail = reference.gaussian_tail(mp.mpf(result) / mp.mpf(value))
        if not tail * hi_margin <= alpha:
            raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r}: tail {tail} > alpha")
        before = reference.gaussian_tail(mp.mpf(_prev(result)) / mp.mpf(value))
        if not before * lo_margin > alpha:
            raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r} is not the least")
        return 0.0
    if name == "accuracy_to_gaussian_scale":
        if result > 0:
            tail = reference.gaussian_tail(mp.mpf(value) / mp.mpf(result))
            if not tail * hi_margin <= alpha:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r}: tail {tail}")
        if value > 0 and result < np.finfo(float).max:
            beyond = reference.gaussian_tail(mp.mpf(value) / mp.mpf(_next(result)))
            if not beyond * lo_margin > alpha:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r} is not the largest")
        return 0.0
    if name == "discrete_gaussian_scale_to_accuracy":
        k = result
        if value == 0 or alpha == 1:
            if k != 1:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {k!r}, not 1")
            return 0.0
        if k != math.floor(k) or k < 1:
            raise _violation(f"{name}({value!r}, {alpha!r}) = {k!r} is not an integer >= 1")
        if value <= 64:
            tail = reference.discrete_gaussian_tail(value, int(k))
            if not tail * hi_margin <= alpha:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {k!r}: tail {tail} > alpha")
            if k > 1:
                before = reference.discrete_gaussian_tail(value, int(k) - 1)
                if not before * lo_margin > alpha:
                    raise _violation(f"{name}({value!r}, {alpha!r}) = {k!r} is not the least")
        else:
            bound = reference.gaussian_tail((mp.mpf(k) - 1) / mp.mpf(value))
            if not bound * hi_margin <= alpha:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {k!r}: bound {bound} > alpha")
        return 0.0
    if name == "accuracy_to_discrete_gaussian_scale":
        k = max(math.floor(value), 1)
        if value == 0:
            if result != 0:
                raise _violation(f"{name}(0, {alpha!r}) = {result!r}, not 0")
            return 0.0
        if 0 < result <= 64:
            tail = reference.discrete_gaussian_tail(result, k)
            if not tail * hi_margin <= alpha:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r}: tail {tail}")
            cap = module.accuracy_to_gaussian_scale(value, alpha)
            if result < 64 and result != cap:  # the search's end: the next float fails
                beyond = reference.discrete_gaussian_tail(_next(result), k)
                if not beyond * lo_margin > alpha:
                    raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r} not the largest")
        elif result > 64 and k > 1:
            bound = reference.gaussian_tail((mp.mpf(k) - 1) / mp.mpf(result))
            if not bound * hi_margin <= alpha:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r}: bound {bound}")
        elif result > 64:
            c = mp.sqrt(2 / mp.pi)
            if not 2 * mp.mpf(result) / (c + 2 * mp.mpf(result)) * hi_margin <= alpha:
                raise _violation(f"{name}({value!r}, {alpha!r}) = {result!r}: k = 1 bound")
        return 0.0
    raise ValueError(name)


NAMES = (
    "laplacian_scale_to_accuracy",
    "accuracy_to_laplacian_scale",
    "discrete_laplacian_scale_to_accuracy",
    "accuracy_to_discrete_laplacian_scale",
    "gaussian_scale_to_accuracy",
    "accuracy_to_gaussian_scale",
    "discrete_gaussian_scale_to_accuracy",
    "accuracy_to_discrete_gaussian_scale",
)


@dataclass
class AccuracyContract:
    """The theorem of accuracy.tex; ``verify`` searches for a counterexample."""

    constructor: Any
    preconditions: list[Precondition]
    kind = "accuracy contract"

    @property
    def name(self) -> str:
        return "accuracy"

    @property
    def precondition_ids(self) -> list[str]:
        return [precondition.id for precondition in self.preconditions]

    def verify(self, *, max_examples: int | None = None, implementation=None) -> VerificationReport:
        """Draw conversions and check each against the reference; raise the first failure.
        ``implementation`` replaces the module under test (to show a wrong one is refuted)."""
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        report = VerificationReport(self.name)
        values = st.one_of(
            st.floats(1e-3, 1e3),
            st.floats(1e-300, 1e300),
            st.sampled_from([0.0, 1.0, 0.5, 3.7, 64.0, 65.0, 1e-5, 1e6]),
        )
        alphas = st.one_of(
            st.floats(1e-12, 1.0, exclude_max=True, exclude_min=True),
            st.floats(5e-324, 1e-12),
            st.sampled_from([0.05, 0.01, 0.5, 0.999, 1e-300]),
        )

        @given(st.sampled_from(NAMES), values, alphas)
        def check(name, value, alpha):
            if name.startswith("discrete_gaussian") or name.endswith("discrete_gaussian_scale"):
                value = min(value, 1e4)  # the reference's direct sums grow with the scale
            if name.startswith("accuracy_to") and "gaussian" in name:
                alpha = max(alpha, 1e-200)  # the reference search near alpha's underflow
            tightness = check_case(name, value, alpha, implementation)
            report.observe(1.0 - tightness, (name, value, alpha))

        overrides = {
            "suppress_health_check": [HealthCheck.too_slow],
            "deadline": None,
            "report_multiple_bugs": False,
        }
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        settings(settings(), **overrides)(check)()
        return report


CONTRACT = AccuracyContract(
    constructor=accuracy.gaussian_scale_to_accuracy, preconditions=PRECONDITIONS
)
