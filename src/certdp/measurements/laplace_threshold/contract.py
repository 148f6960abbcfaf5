"""Contract of ``make_laplace_threshold``: the theorem of make_laplace_threshold.tex, executable.

At run time the map's pair ``(epsilon, delta)`` is checked against the postcondition's closed
form, exactly (sympy): ``epsilon >= l1' / scale`` and ``delta >= 1 - (1 - P[Z >= |threshold| -
linf'])^l0``. At test time :meth:`ThresholdContract.verify` draws small neighbouring maps and
checks the stated pair against a lower bound of what the two output distributions need: the
event "a key of one side only is released" has probability ``1 - prod(1 - p_k)`` on that side
and ``0`` on the other, so ``delta`` must be at least it (for any ``epsilon``). This is the event
OpenDP 0.16 under-counts (#2922); a map stating OpenDP's tail is refuted with a concrete pair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import (
    MeasurementContract,
    Precondition,
    PrivacyViolation,
    as_rational,
    at_least,
)
from certdp.contracts.neighbours import register_neighbours
from certdp.core.domains import AtomDomain, atom_domain
from certdp.core.errors import ContractError, DPError
from certdp.core.map_domain import MapDomain, map_domain
from certdp.core.measure_argument import measure_requested
from certdp.core.measures import ApproximateDivergence, MaxDivergence
from certdp.core.metrics import AbsoluteDistance, absolute_distance
from certdp.core.partition_metrics import L0PInfDistance, l01inf_distance
from certdp.measurements._threshold.float_contract import (
    float_case,
    float_domain_ok,
    float_k_ok,
    float_threshold_ok,
    grid_view,
)

from .make_laplace_threshold import make_laplace_threshold

L0, L1, LINF = sympy.symbols("l_0 l_1 l_inf", nonnegative=True)
SCALE = sympy.Symbol("scale", positive=True)
THRESHOLD = sympy.Symbol("threshold", integer=True)
_L1_REDUCED = sympy.Min(sympy.floor(L1), sympy.floor(LINF) * L0)
_LINF_REDUCED = sympy.Min(sympy.floor(LINF), _L1_REDUCED)
_TAIL = sympy.exp(-(sympy.Abs(THRESHOLD) - _LINF_REDUCED) / SCALE) / (1 + sympy.exp(-1 / SCALE))
#: The postcondition for scale > 0 (rendered on the docs page; the runtime check is
#: :meth:`ThresholdContract.check_map_value`, which also handles l0 = 0 and scale = 0).
BOUND = sympy.Tuple(_L1_REDUCED / SCALE, 1 - (1 - _TAIL) ** L0)

SYMBOL_MEANINGS = {
    "l_0": "the first component of ``d_in``: how many keys may differ (a key of one side only "
    "counts)",
    "l_1": "the second component of ``d_in``: the sum over keys of the change of the value",
    "l_inf": "the third component of ``d_in``: the largest change of one key's value",
    "threshold": "the ``threshold`` argument: a key is released when its noisy value is at "
    "least it (at most it, for a negative threshold)",
}
KEYS = ["a", "b", "c", "d", "e"]


def survival(scale: Fraction, threshold: int, value: int) -> sympy.Expr:
    """Exactly: the probability that ``value + Z`` passes the release's test, ``Z ~ DLap(0,
    scale)`` (``scale > 0``): ``P[Z >= t]`` with ``t = threshold - value`` for a threshold
    ``>= 0``, ``P[Z <= t]`` = ``P[Z >= -t]`` otherwise, from ``P[Z >= t] = u^t / (1 + u)`` for
    ``t >= 0`` and ``1 - u^(1 - t) / (1 + u)`` for ``t <= 0``, ``u = exp(-1/scale)``."""
    t = threshold - value if threshold >= 0 else value - threshold
    u = sympy.exp(-1 / sympy.Rational(scale.numerator, scale.denominator))
    if t >= 0:
        return u**t / (1 + u)
    return 1 - u ** (1 - t) / (1 + u)


def closed_form(scale: Fraction, threshold: int, d_in) -> tuple | None:
    """The postcondition's lower bounds ``(epsilon, delta)`` at the exact triple ``d_in``, or
    ``None`` where the map must raise (``linf' > |threshold|``)."""
    l0, l1, linf = d_in
    l1 = min(math.floor(l1), math.floor(linf) * l0)
    linf = min(math.floor(linf), l1)
    reach = abs(threshold)
    if l0 == 0:
        return sympy.Integer(0), sympy.Integer(0)
    if scale == 0:
        if l1 > 0:
            return sympy.oo, sympy.Integer(1)
        return sympy.Integer(0), sympy.Integer(0 if reach > 0 else 1)
    if linf > reach:
        return None
    b = sympy.Rational(scale.numerator, scale.denominator)
    u = sympy.exp(-1 / b)
    p = u ** (reach - linf) / (1 + u)
    return sympy.Rational(l1) / b, 1 - (1 - p) ** l0


@st.composite
def map_pairs(draw, domain, metric, d_in, max_size):
    """Maps of at most five keys with small values, and a neighbour made by at most ``l0``
    edits (remove a key, add one, change a value by at most ``linf``)."""
    T = domain.value_domain.T
    low, high = max(T.min, -8), min(T.max, 8)
    l0, _, linf = d_in
    values = st.integers(low, high)
    x = draw(st.dictionaries(st.sampled_from(KEYS), values, max_size=min(max_size, 5)))
    x_prime = dict(x)
    for _ in range(draw(st.integers(0, min(int(l0), 5)))):
        key = draw(st.sampled_from(KEYS))
        step = min(int(linf), 8)
        if key in x_prime and draw(st.booleans()):
            del x_prime[key]
        else:
            base = x_prime.get(key, 0)
            x_prime[key] = draw(st.integers(max(low, base - step), min(high, base + step)))
    return (x, x_prime) if draw(st.booleans()) else (x_prime, x)


def arguments():
    T = st.sampled_from(["i32", "i64", "u32", "i8"])
    return T.flatmap(
        lambda T: st.fixed_dictionaries(
            {
                "input_domain": st.just(map_domain(atom_domain(T="String"), atom_domain(T=T))),
                "input_metric": st.sampled_from(
                    [
                        l01inf_distance(absolute_distance(T=T)),
                        l01inf_distance(absolute_distance(T="f64")),
                    ]
                ),
                "scale": st.sampled_from([0.0, 0.5, 1.0, 2.5, 7.0]),
                "threshold": st.integers(-10 if T != "u32" else 0, 10),
            }
        )
    )


def _triples():
    return st.tuples(st.integers(0, 4), st.integers(0, 12), st.integers(0, 6))


def _accepts(built, d_in) -> bool:
    try:
        built.map(d_in)
    except DPError:
        return False
    return True


@dataclass
class ThresholdContract(MeasurementContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        if float_case(arguments):
            view = grid_view(arguments, d_in, p=1)
            bound = None if view is None else closed_form(*view)
        else:
            bound = closed_form(Fraction(arguments.scale), arguments.threshold, d_in)
        if bound is None:
            raise ContractError(
                f"{self.name}: map({d_in}) returned {d_out!r} where the proof says it raises",
                condition="privacy-map",
            )
        ok = (
            type(d_out) is tuple
            and len(d_out) == 2
            and at_least(d_out[0], bound[0])
            and at_least(d_out[1], bound[1])
        )
        if not ok:
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r} is below the proof's bound {bound}",
                condition="privacy-map",
            )

    def verify(self, *, max_examples=None, map_override=None, data_form=None):
        from hypothesis import HealthCheck, given, settings

        from certdp.contracts.contract import Postcondition, VerificationReport
        from certdp.contracts.neighbours import neighbours

        report = VerificationReport(self.name)

        @given(st.data())
        def search(data):
            kwargs = data.draw(self.arguments(), label="arguments")
            built = self.constructor(**kwargs)
            d_in = data.draw(_triples().filter(lambda d: _accepts(built, d)), label="d_in")
            x, x_prime = data.draw(
                neighbours(built.input_domain, built.input_metric, d_in, max_size=5),
                label="neighbours",
            )
            stated = map_override(d_in) if map_override else built.map(d_in)
            tightness = self.check_pair(built, kwargs, x, x_prime, d_in, stated)
            report.observe(tightness, (kwargs, d_in, x, x_prime))
            if map_override is None:
                Postcondition(self, self.bind((), kwargs)).check_map(built, d_in, stated)

        overrides = {
            "suppress_health_check": [
                HealthCheck.too_slow,
                HealthCheck.data_too_large,
                HealthCheck.filter_too_much,
            ],
            "deadline": None,
        }
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        settings(settings(), **overrides)(search)()
        return report

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        """``delta`` against the probability that a key of one side only is released."""
        scale = Fraction(kwargs["scale"])
        threshold = kwargs["threshold"]
        worst = sympy.Integer(0)
        for one, other in ((x, x_prime), (x_prime, x)):
            alone = [value for key, value in one.items() if key not in other]
            if not alone:
                continue
            if scale == 0:
                passes = [(v >= threshold) if threshold >= 0 else (v <= threshold) for v in alone]
                released = sympy.Integer(1 if any(passes) else 0)
            else:
                kept = sympy.Integer(1)
                for value in alone:
                    kept *= 1 - survival(scale, threshold, value)
                released = 1 - kept
            if at_least(released, worst):
                worst = released
        if not at_least(stated[1], worst):
            raise PrivacyViolation(
                x=x,
                x_prime=x_prime,
                d_in=d_in,
                divergence=(None, worst),
                d_out_stated=stated,
                witness="a key of one side only is released",
            )
        if stated[1] == 0:
            return 0.0
        return float(worst.evalf(20) / as_rational(stated[1]))


def _measure_ok(MO) -> bool:
    return measure_requested(
        MO, ApproximateDivergence(MaxDivergence()), "Approximate<MaxDivergence>"
    )


def _metric_ok(a) -> bool:
    metric, domain = a.input_metric, a.input_domain
    return (
        isinstance(metric, L0PInfDistance)
        and metric.p == 1
        and type(metric.inner) is AbsoluteDistance
        and (metric.inner.T == domain.value_domain.T or metric.inner.T.is_float)
    )


def _threshold_ok(a) -> bool:
    if float_case(a):
        return float_threshold_ok(a)
    T = a.input_domain.value_domain.T
    return type(a.threshold) is int and T.min <= a.threshold <= T.max


register_neighbours(MapDomain, map_pairs)

CONTRACT = ThresholdContract(
    constructor=make_laplace_threshold,
    preconditions=[
        Precondition(
            "output-measure-approximate-max-divergence",
            lambda a: _measure_ok(a.MO),
            "MO must be Approximate<MaxDivergence>",
            parameter="MO",
        ),
        Precondition(
            "input-domain-map-of-integers",
            lambda a: (
                float_domain_ok(a)
                or isinstance(a.input_domain, MapDomain)
                and type(a.input_domain.value_domain) is AtomDomain
                and a.input_domain.value_domain.T.is_integer
            ),
            "input_domain must be map_domain(key_domain, atom_domain(T=<integer type>)) or of a "
            "NaN-free float type",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-l01inf-absolute",
            _metric_ok,
            "input_metric must be l01inf_distance(absolute_distance(T)) of the value type or a "
            "float type",
            parameter="input_metric",
        ),
        Precondition(
            "scale-finite-non-negative",
            lambda a: (
                isinstance(a.scale, (int, float, Fraction))
                and not isinstance(a.scale, bool)
                and math.isfinite(a.scale)
                and a.scale >= 0
            ),
            "scale must be a finite number >= 0",
            parameter="scale",
        ),
        Precondition(
            "k-none-or-zero",
            lambda a: (
                float_k_ok(a) if float_case(a) else a.k is None or (type(a.k) is int and a.k == 0)
            ),
            "k must be None or 0 (integer values), None or an integer in [K_MIN, K_MAX] (floats)",
            parameter="k",
        ),
        Precondition(
            "threshold-integer-of-T",
            _threshold_ok,
            "threshold must be an integer of the value type (a finite value >= 0 of a float type)",
            parameter="threshold",
        ),
    ],
    bound=BOUND,
    arguments=arguments,
    divergence=None,
)
