"""Contract of the parameter search: the theorem of binary_search.tex, executable.

``CONTRACT.verify()`` draws monotone predicates (float and integer thresholds, either
direction, strict or not, with a region where the predicate raises on the failing side), bounds
of every form (none, both, lower only, upper only, signed zeros) and real chains (a Laplace scale,
and a measurement under Approximate(MaxDivergence) whose delta coordinate decides), and checks
for each search: the value returned was evaluated and passed; the value next to it on the failing
side (computed here with ``math.nextafter``, not with the search's own keys) was evaluated and
failed, so the value is the exact boundary; at most ``MAX_EVALUATIONS`` evaluations; for
``binary_search_param``, the chain passes ``check(d_in, d_out)`` and the map is within ``d_out``
coordinatewise; a constant predicate gives a ``DPError``.
"""

from __future__ import annotations

import importlib
import math
import struct
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from certdp.contracts.contract import Precondition, VerificationReport
from certdp.core.errors import ContractError, DPError

search = importlib.import_module("certdp.combinators._search.binary_search")

__all__ = ["CONTRACT", "SearchContract", "MAX_EVALUATIONS"]

#: The proof's bound on the evaluations of one search (type inference, bracket, bisection).
MAX_EVALUATIONS = 190
INT_NAMES = ("int", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize")
FLOAT_NAMES = ("float", "f32", "f64")


def _T_valid(T) -> bool:
    return (
        T is None or T is int or T is float or (isinstance(T, str) and T in INT_NAMES + FLOAT_NAMES)
    )


def _bounds_valid(bounds) -> bool:
    """Numbers or None; float bounds finite (any magnitude), integer bounds within +-2**64."""
    if bounds is None:
        return True
    bounds = tuple(bounds)
    return len(bounds) == 2 and all(
        bound is None
        or (
            not isinstance(bound, bool)
            and isinstance(bound, (int, float))
            and math.isfinite(bound)
            and (isinstance(bound, float) or abs(bound) <= 2**64)
        )
        for bound in bounds
    )


PRECONDITIONS = [
    Precondition(
        "predicate-callable",
        lambda a: callable(a.predicate),
        "predicate must be callable, returning a boolean",
        parameter="predicate",
    ),
    Precondition(
        "bounds-pair",
        lambda a: _bounds_valid(a.bounds),
        "bounds must be None or a pair of finite numbers (or None), integers within +-2**64",
        parameter="bounds",
    ),
    Precondition(
        "T-int-or-float",
        lambda a: _T_valid(a.T),
        "T must be None, int or float (or a type name of either)",
        parameter="T",
    ),
]


def below(value, T):
    """The value of T just below ``value`` (floats: -0.0 below 0.0, -5e-324 below -0.0); T is
    ``int``, ``float`` or ``"f32"`` (f32 values as Python floats, stepped by NumPy)."""
    if T is int:
        return value - 1
    if value == 0 and math.copysign(1.0, value) > 0:
        return -0.0
    if T == "f32":
        return float(np.nextafter(np.float32(value), np.float32(-np.inf)))
    return math.nextafter(value, -math.inf)


def above(value, T):
    if T is int:
        return value + 1
    if value == 0 and math.copysign(1.0, value) < 0:
        return 0.0
    if T == "f32":
        return float(np.nextafter(np.float32(value), np.float32(np.inf)))
    return math.nextafter(value, math.inf)


def same(a, b) -> bool:
    """Equal and of the same type and sign (-0.0 and 0.0 differ)."""
    if type(a) is not type(b) or a != b:
        return False
    return not isinstance(a, float) or math.copysign(1.0, a) == math.copysign(1.0, b)


@dataclass
class Recorded:
    """A predicate that records every evaluation and its outcome."""

    inner: Any
    evaluations: list = field(default_factory=list)

    def __call__(self, value):
        try:
            outcome = self.inner(value)
        except Exception:
            self.evaluations.append((value, False))
            raise
        self.evaluations.append((value, bool(outcome)))
        return outcome

    def outcome(self, value):
        """The outcome recorded at exactly ``value``, or None if it was never evaluated."""
        for evaluated, outcome in self.evaluations:
            if same(evaluated, value):
                return outcome
        return None


def _violation(message: str) -> ContractError:
    return ContractError(f"binary_search: {message}", condition="search-postcondition")


def _must_find(function, *arguments):
    """``function(*arguments)``, where a boundary exists: a refusal is a violation too."""
    try:
        return function(*arguments)
    except DPError as error:
        raise _violation(f"refused a search whose boundary exists: {error}") from error


def _threshold_case(data, st):
    """A monotone predicate with its exact boundary, and bounds that contain it."""
    draw = data.draw
    T = draw(st.sampled_from([float, int, "f32", "u8", "i16"]), label="T")
    name, T = (T, int) if T in ("u8", "i16") else (T, T)  # the T passed, the steps used here
    top = search.FLOAT_MAX if T is float else search.F32_MAX
    if T is float:
        c = draw(
            st.one_of(
                st.floats(-1e6, 1e6),
                st.floats(-1e307, 1e307),
                st.sampled_from([0.0, -0.0, 5e-324, 1.0, 0.1, 1e-300, search.FLOAT_MAX / 2]),
            ),
            label="threshold",
        )
    elif T == "f32":
        c = draw(
            st.one_of(
                st.floats(-1e6, 1e6, width=32),
                st.floats(-1e37, 1e37),
                st.sampled_from([0.0, -0.0, 1e-45, 1.0, 0.1, 1e-40, 1e-40 * 0.9]),
            ),
            label="threshold",
        )  # compared as f64: the boundary need not be an f32 value
    elif name == "u8":
        c = draw(st.integers(2, 253), label="threshold")
    elif name == "i16":
        c = draw(st.integers(-(2**15) + 2, 2**15 - 3), label="threshold")
    else:
        c = draw(st.integers(-(2**62), 2**62) | st.integers(-300, 300), label="threshold")
    increasing, strict = draw(st.booleans(), label="increasing"), draw(st.booleans())
    raises = draw(st.booleans(), label="raises on the failing side")

    def holds(x):
        if increasing:
            return x > c if strict else x >= c
        return x < c if strict else x <= c

    def predicate(x):
        if raises and (x < c - 1 if increasing else x > c + 1):
            raise DPError("outside", parameter="x")  # on the failing side: a failure
        return holds(x)

    # the exact boundary: the passing value next to a failing one, by nextafter
    edge = c if T is int else float(np.float32(c)) if T == "f32" else float(c)
    step, back = (above, below) if increasing else (below, above)
    while not holds(edge):
        edge = step(edge, T)
    while holds(back(edge, T)):
        edge = back(edge, T)
    form = draw(st.sampled_from(["none", "both", "lower", "upper"]), label="bounds form")
    spread = draw(
        st.integers(1, 2**40) if T is int else st.floats(1e-9, 1e12) | st.floats(1e12, top),
        label="spread",
    )  # float bounds over the whole range, up to the largest finite value
    low, high = edge - spread, edge + spread
    if T is not int:  # the largest value for an overflow; a spread lost to rounding: two steps
        low, high = max(low, -top), min(high, top)
        if T == "f32":  # outward to f32 values
            low = low if float(np.float32(low)) <= low else below(float(np.float32(low)), T)
            high = high if float(np.float32(high)) >= high else above(float(np.float32(high)), T)
            low, high = float(np.float32(low)), float(np.float32(high))
        low = low if low < below(edge, T) else below(below(edge, T), T)
        high = high if high > above(edge, T) else above(above(edge, T), T)
        if not (abs(low) <= top and abs(high) <= top):
            form = "none"
    if T is int and max(abs(low), abs(high)) > 2**64:
        form = "none"
    if name == "u8":
        low, high = max(low, 0), min(high, 255)
    if name == "i16":
        low, high = max(low, -(2**15)), min(high, 2**15 - 1)
    bounds = {
        "none": (None, None),
        "both": (low, high),
        "lower": (low, None),
        "upper": (None, high),
    }[form]
    typed = draw(st.sampled_from([None, "T"]), label="T given") == "T" or T is not float
    return SimpleNamespace(
        predicate=predicate,
        edge=edge,
        T=T,
        bounds=bounds,
        given_T=name if typed or form == "none" else None,
        increasing=increasing,
    )


@dataclass
class SearchContract:
    """The theorem of binary_search.tex; ``verify`` searches for a counterexample."""

    constructor: Any
    preconditions: list[Precondition]
    kind = "search contract"

    @property
    def name(self) -> str:
        return "binary_search"

    @property
    def precondition_ids(self) -> list[str]:
        return [precondition.id for precondition in self.preconditions]

    def verify(self, *, max_examples: int | None = None, implementation=None) -> VerificationReport:
        """Search for a search that breaks the theorem; raise the first one found.

        ``implementation`` replaces the module under test (an object with ``binary_search``,
        ``binary_search_param`` and ``binary_search_chain``), to show a wrong search is refuted.
        """
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        module = implementation or search
        report = VerificationReport(self.name)

        @given(st.data())
        def check(data):
            which = data.draw(st.sampled_from(["threshold", "laplace", "pair", "constant"]))
            if which == "threshold":
                self._threshold(_threshold_case(data, st), module)
            elif which == "laplace":
                self._laplace(data, st, module)
            elif which == "pair":
                self._pair(data, st, module)
            else:
                self._constant(data, st, module)
            report.observe(1.0, which)

        overrides = {
            "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
            "deadline": None,
            "report_multiple_bugs": False,  # the first counterexample, raised as is
        }
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        settings(settings(), **overrides)(check)()
        return report

    @staticmethod
    def _threshold(case, module) -> None:
        recorded = Recorded(case.predicate)
        found = _must_find(module.binary_search, recorded, case.bounds, case.given_T)
        expected, passing = case.edge, found
        if same(case.edge, -0.0) and recorded.outcome(0.0) is True:
            expected, passing = 0.0, -0.0  # the positive-zero rule: -0.0 is the boundary
        neighbour = below(passing, case.T) if case.increasing else above(passing, case.T)
        if recorded.outcome(found) is not True or recorded.outcome(passing) is not True:
            raise _violation(f"returned {found!r}, which it did not evaluate and see pass")
        if recorded.outcome(neighbour) is not False:
            raise _violation(f"returned {found!r} without a failing evaluation at {neighbour!r}")
        if case.T == "f32" and struct.unpack("<f", struct.pack("<f", found))[0] != found:
            raise _violation(f"returned {found!r}, which is not an f32, for T='f32'")
        if not same(found, expected):
            raise _violation(f"returned {found!r} for a monotone predicate with edge {expected!r}")
        if len(recorded.evaluations) > MAX_EVALUATIONS:
            raise _violation(f"{len(recorded.evaluations)} evaluations > {MAX_EVALUATIONS}")

    @staticmethod
    def _laplace(data, st, module) -> None:
        import certdp.prelude as dp

        space = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
        d_in = data.draw(st.floats(1e-3, 1e3), label="d_in")
        d_out = data.draw(st.floats(1e-2, 1e2), label="d_out")
        calls = []

        def make(scale):
            calls.append(scale)
            return dp.m.make_laplace(*space, scale)

        scale = _must_find(module.binary_search_param, make, d_in, d_out)
        if not make(scale).check(d_in, d_out) or not make(scale).map(d_in) <= d_out:
            raise _violation(f"scale {scale!r} does not pass check({d_in!r}, {d_out!r})")
        if make(below(scale, float)).check(d_in, d_out):
            raise _violation(f"scale {scale!r} is not the smallest passing float")
        if not any(same(scale, value) for value in calls):
            raise _violation(f"scale {scale!r} was never built")

    @staticmethod
    def _pair(data, st, module) -> None:
        """Delta decides: the map (1/p, p/1000) is within (epsilon, delta) for p in
        [1/epsilon, 1000 delta]; a search comparing tuples would accept every p > 1/epsilon."""
        import certdp.prelude as dp
        from certdp.core.measures import approximate, max_divergence
        from certdp.core.transformation import Measurement

        space = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")

        def make(parameter):
            return Measurement(
                input_domain=space[0],
                function=lambda x: x,
                input_metric=space[1],
                output_measure=approximate(max_divergence()),
                privacy_map=lambda d_in: (1 / parameter, parameter / 1000),
            )

        epsilon = data.draw(st.floats(0.01, 1.0), label="epsilon")
        delta = data.draw(st.floats(2 / (1000 * epsilon), 1.0), label="delta")
        low = 1.0000001 / epsilon  # passes: epsilon coordinate within, delta within
        chain = _must_find(module.binary_search_chain, make, 1.0, (epsilon, delta), (low, 2000.0))
        got_epsilon, got_delta = chain.map(1.0)
        if not (got_epsilon <= epsilon and got_delta <= delta):
            raise _violation(f"chain maps to {(got_epsilon, got_delta)} > {(epsilon, delta)}")

    @staticmethod
    def _constant(data, st, module) -> None:
        outcome = data.draw(st.booleans(), label="outcome")
        recorded = Recorded(lambda x: outcome)
        try:
            found = module.binary_search(recorded, None, data.draw(st.sampled_from([int, float])))
        except DPError:
            if len(recorded.evaluations) > MAX_EVALUATIONS:
                raise _violation(
                    f"{len(recorded.evaluations)} evaluations before refusing"
                ) from None
            return
        raise _violation(f"returned {found!r} for a constant predicate")


CONTRACT = SearchContract(constructor=search.binary_search, preconditions=PRECONDITIONS)
