"""Counterexample search against the target's own function and its own map.

For a pair ``(x, x')`` of the input domain, at exact input distance ``d`` (certdp's metric),
the target's outputs ``f(x), f(x')`` are compared exactly (certdp's output metric, rationals)
with the target's own ``map(d')``, ``d'`` the least value of the target's distance type at
least ``d`` (:func:`certdp.crosscheck.distances.for_target`): a pair whose outputs are further
apart is a violation of the target's own stability claim, whatever certdp thinks of the
algorithm.  A pair the target refuses to run, a distance its map refuses (or that has no
value in its distance type) and outputs that cannot be compared leave the pair *unchecked*:
it is counted apart, with its reason, never as a pair that passed.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from fractions import Fraction

from certdp.core import change_metrics, partition_metrics
from certdp.core import metrics as certdp_metrics
from certdp.core.metrics import L2Distance

from .distances import UnrepresentableDistance, for_target
from .grids import SEARCH_SIZE_LIMIT
from .pairs import boundary_pairs

__all__ = [
    "Counterexample",
    "SearchResult",
    "search_pairs",
    "output_metric",
    "exceeds",
    "show",
    "Unchecked",
    "REASONS",
]

#: Boundary pairs tried per point at most (the families come most telling first).
PAIRS, QUICK_PAIRS = 1500, 400


def show(value) -> str:
    """A number for people: the nearest float's repr, or 17 digits when it has none."""
    import sympy

    if isinstance(value, sympy.Basic) and not value.is_Rational:
        return str(sympy.N(value, 20))  # an irrational (L2) distance: more digits than a float
    try:
        return repr(float(value))
    except OverflowError:
        from decimal import Decimal, localcontext

        fraction = Fraction(value)
        with localcontext() as context:
            context.prec = 17
            return str(Decimal(fraction.numerator) / Decimal(fraction.denominator))


@dataclass
class Counterexample:
    x: object
    x_prime: object
    d_in: int
    claimed: object
    actual: object
    outside: str = ""  # set when f(x) is outside an output domain (which one): x alone shows it


#: Distinct reasons kept per search (the rest are counted under :data:`OTHER`).
REASONS = 8
OTHER = "other reasons"


@dataclass
class SearchResult:
    pairs: int = 0  # pairs tried, the unchecked ones included
    seconds: float = 0.0
    found: Counterexample | None = None
    details: dict | None = None  # the coupling certificate, for a randomised target
    escape: Counterexample | None = None  # the first output seen outside an output domain
    unchecked: int = 0  # pairs tried but not checked (see :class:`Unchecked`)
    reasons: dict | None = None  # why, with how many pairs each

    def skip(self, reason: str) -> None:
        """Count one pair as unchecked, for ``reason``."""
        self.unchecked += 1
        self.reasons = self.reasons if self.reasons is not None else {}
        if reason not in self.reasons and len(self.reasons) >= REASONS:
            reason = OTHER
        self.reasons[reason] = self.reasons.get(reason, 0) + 1


def _why(what: str, error: Exception) -> str:
    """``what`` and the error's type and first line, long numbers written ``<n>`` (so that
    one reason counts the pairs that differ only in their values)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    text = re.sub(r"\d{6,}", "<n>", text)
    return f"{what}: {type(error).__name__}" + (f": {text[:120]}" if text else "")


@dataclass
class Unchecked:
    """A pair that was tried but not checked, and why (``reason``); ``escape`` is an output
    seen outside an output domain on the way (a finding of its own), if any."""

    reason: str
    escape: Counterexample | None = None


_METRICS = {
    "AbsoluteDistance": certdp_metrics.absolute_distance,
    "L1Distance": certdp_metrics.l1_distance,
    "L2Distance": certdp_metrics.l2_distance,
}


def output_metric(target_metric):
    """certdp's metric for the target's output metric, read from its printed form
    (``AbsoluteDistance(f64)``, ``SymmetricDistance()``, ...); ``None`` if unknown."""
    text = str(target_metric).strip()
    name, _, rest = text.partition("(")
    if name == "SymmetricDistance":
        return certdp_metrics.symmetric_distance()
    if name == "InsertDeleteDistance":
        return certdp_metrics.insert_delete_distance()
    if name == "HammingDistance":
        return change_metrics.hamming_distance()
    if name == "ChangeOneDistance":
        return change_metrics.change_one_distance()
    if name in ("L01InfDistance", "L02InfDistance"):  # (l0, lp, linf) of an inner metric
        inner = output_metric(rest[:-1] if rest.endswith(")") else rest)
        build = getattr(partition_metrics, name.lower().replace("distance", "_distance"))
        return None if inner is None else build(inner)
    if name in _METRICS:
        T = rest.rstrip(")").strip()
        try:
            return _METRICS[name](T=T)
        except Exception:
            return None
    return None


def _exact(value):
    if isinstance(value, float) and math.isinf(value):
        return value
    return Fraction(value)


def exceeds(metric, y, y_prime, claimed) -> tuple[bool, object]:
    """Exactly: is ``metric.distance(y, y') > claimed``?  Also returns the distance."""
    if isinstance(metric, partition_metrics.L0PInfDistance):  # a triple, component by component
        return not metric.close(y, y_prime, tuple(claimed)), metric.distance(y, y_prime)
    claimed = _exact(float(claimed) if not isinstance(claimed, int) else claimed)
    if isinstance(metric, L2Distance):
        squared = metric.squared_distance(y, y_prime)
        if squared == math.inf:
            return claimed != math.inf, math.inf
        actual = metric.distance(y, y_prime)
        return claimed < 0 or squared > claimed * claimed, actual
    actual = metric.distance(y, y_prime)
    if actual == math.inf:
        return claimed != math.inf, actual
    return _exact(actual) > claimed, actual


def _target_member(built, value) -> bool:
    """Does the target's own input domain admit ``value``?  (True when it cannot say:
    certdp's domain, which mirrors it, has admitted the value already.)"""
    import warnings

    member = getattr(built.input_domain, "member", None)
    if member is None:
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return bool(member(value))
    except Exception:
        return True


class CachedMap:
    """The target's map, evaluated once per distance (some maps take milliseconds)."""

    def __init__(self, built):
        self.built, self.values = built, {}

    def __call__(self, d_in):
        if d_in not in self.values:
            try:
                self.values[d_in] = (self.built.map(d_in), None)
            except Exception as error:
                self.values[d_in] = (None, error)
        value, error = self.values[d_in]
        if error is not None:
            raise error
        return value


def _rejects(domain, value) -> bool:
    """Does ``domain`` say, without raising, that ``value`` is not a member?"""
    import warnings

    member = getattr(domain, "member", None)
    if member is None:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return not bool(member(value))
    except Exception:
        return False  # no verdict (e.g. a type the domain cannot read)


def outside(built, oracle, y) -> str:
    """Which output domain rejects ``y``: the target's own, certdp's twin's, or neither."""
    if _rejects(getattr(built, "output_domain", None), y):
        return f"the target's own output domain {built.output_domain}"
    if oracle is not None and _rejects(getattr(oracle, "output_domain", None), y):
        return f"certdp's twin's output domain {oracle.output_domain}"
    return ""


def own(escape: Counterexample) -> bool:
    """Is the escape from the target's own output domain (not only certdp's twin's)?"""
    return escape.outside.startswith("the target's own")


def _first_escape(kept, found):
    """The first escape seen, preferring one from the target's own domain."""
    if kept is None or (own(found) and not own(kept)):
        return found
    return kept


def try_pair(built, in_metric, out_metric, x, x_prime, claim=None, oracle=None):
    """Run the target on one pair: a :class:`Counterexample` if its map is exceeded (and the
    target itself says both inputs are in its input domain), or if an output is outside the
    target's (or certdp's twin's) output domain; :class:`Unchecked` if the pair could not be
    checked; ``None`` if it passed."""
    exact = in_metric.distance(x, x_prime)
    outputs = []
    for z in (x, x_prime):
        try:
            outputs.append(built(z))
        except Exception as error:
            return Unchecked(_why("the target refuses the input", error))
    escape = None  # an output outside a domain: reported when the map is not exceeded
    for z, y in zip((x, x_prime), outputs):
        where = outside(built, oracle, y)
        if where and _target_member(built, z):
            escape = Counterexample(z, z, 0, "", repr(y), outside=where)
            break
    y, y_prime = outputs
    try:
        d_in = for_target(getattr(built, "input_metric", in_metric), exact)
    except UnrepresentableDistance as error:
        return Unchecked(f"no distance to pass to the target's map: {error}", escape)
    try:
        claimed = (claim or built.map)(d_in)
    except Exception as error:
        what = f"the target's map refuses the distance (a Python {type(d_in).__name__})"
        return Unchecked(_why(what, error), escape)
    try:
        over, actual = exceeds(out_metric, y, y_prime, claimed)
    except (TypeError, ValueError) as error:
        return Unchecked(_why("the outputs cannot be compared with the map", error), escape)
    if over:
        if _target_member(built, x) and _target_member(built, x_prime):
            return Counterexample(x, x_prime, d_in, claimed, actual)
        return Unchecked("beyond the map, but the target's input domain rejects x or x'", escape)
    return escape


def _tally(result: SearchResult, outcome):
    """Count an unchecked outcome of :func:`try_pair`; the finding it holds (or ``None``)."""
    if isinstance(outcome, Unchecked):
        result.skip(outcome.reason)
        return outcome.escape
    return outcome


#: How often each input of a candidate pair is re-run to tell a deterministic function from a
#: randomised one (whose outputs on one input may differ: a single pair proves nothing there).
PROBES = 20
#: Draws per side that screen a randomised candidate before the (costly) certificate, and how
#: many certificates one point may try.
SCREEN, SCREENS, CERTIFICATIONS = 40, 30, 3


def _deterministic(built, x) -> bool:
    from .coupling import output_key

    first = output_key(built(x))
    return all(output_key(built(x)) == first for _ in range(PROBES))


def confirm(built, out_metric, candidate: Counterexample, quick: bool, attempts: list):
    """A candidate pair stands as a deterministic counterexample when the target gives the same
    output on each input every time; otherwise (a randomised function) only the coupling
    certificate (:func:`certdp.crosscheck.coupling.certify`) can make it a violation, tried
    when a screen of a few draws already shows outputs on x' far from all outputs on x.  Per
    point at most :data:`SCREENS` screens, a certificate counting for a third of them
    (``attempts`` records them; a point with a randomised candidate is treated as randomised).  Returns
    ``(counterexample, coupling details or None)`` or ``None``."""
    from .coupling import FULL, QUICK, certify, output_key

    x, x_prime = candidate.x, candidate.x_prime
    if candidate.outside:
        return candidate, None  # one output outside the domain shows it, random or not
    if not attempts and _deterministic(built, x) and _deterministic(built, x_prime):
        return candidate, None
    # randomised (once seen so, the point stays so): screen, then certify
    attempts.append(candidate)
    screens = len(attempts)
    if screens > SCREENS:
        return None
    seen = {output_key(y): y for y in (built(x) for _ in range(SCREEN))}
    others = [built(x_prime) for _ in range(SCREEN)]
    claimed = candidate.claimed
    if not any(all(exceeds(out_metric, y, z, claimed)[0] for y in seen.values()) for z in others):
        return None
    attempts.extend([None] * (SCREENS // CERTIFICATIONS))  # a certificate costs ten screens
    certified, details = certify(
        lambda: built(x), lambda: built(x_prime), out_metric, claimed, QUICK if quick else FULL
    )
    if certified:
        found = Counterexample(x, x_prime, candidate.d_in, claimed, details["coupled"])
        return found, details
    return None


def search_pairs(built, space, quick: bool, random_examples: int, oracle=None) -> SearchResult:
    """Boundary families, then random neighbours from certdp's contract strategies; every
    output is also checked against the target's and ``oracle``'s output domains."""
    domain, in_metric = space
    out_metric = output_metric(built.output_metric)
    result = SearchResult()
    if out_metric is None:
        return result
    start = time.perf_counter()
    claim = CachedMap(built)
    attempts: list = []
    budget = QUICK_PAIRS if quick else PAIRS
    for x, x_prime in boundary_pairs(domain, SEARCH_SIZE_LIMIT, quick):
        if result.pairs >= budget:
            break
        result.pairs += 1
        found = _tally(result, try_pair(built, in_metric, out_metric, x, x_prime, claim, oracle))
        if found is not None and found.outside:
            result.escape, found = _first_escape(result.escape, found), None
        confirmed = None if found is None else confirm(built, out_metric, found, quick, attempts)
        if confirmed is not None:
            result.found, result.details = confirmed
            result.seconds = time.perf_counter() - start
            return result
    if random_examples and _searchable(domain):
        confirmed = _random_search(
            built, domain, in_metric, out_metric, random_examples, result, claim, quick, attempts,
            oracle,
        )  # fmt: skip
        if confirmed is not None:
            result.found, result.details = confirmed
    if result.found is None and result.escape is not None:
        result.found = result.escape  # no pair exceeds the map: the output domain is the finding
    result.seconds = time.perf_counter() - start
    return result


def _searchable(domain) -> bool:
    size = getattr(domain, "size", None)
    return size is None or size <= SEARCH_SIZE_LIMIT


class _Found(Exception):
    def __init__(self, counterexample):
        self.counterexample = counterexample


def _random_search(
    built, domain, in_metric, out_metric, examples, result, claim, quick, attempts, oracle
):
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    from certdp.contracts.neighbours import neighbours

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # the first pair found is reported; shrinking costs minutes
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def draw(data):
        d_in = data.draw(st.sampled_from([1, 2, 3, 4]))
        x, x_prime = data.draw(neighbours(domain, in_metric, d_in, max_size=8))
        result.pairs += 1
        found = _tally(result, try_pair(built, in_metric, out_metric, x, x_prime, claim, oracle))
        if found is not None and found.outside:
            result.escape, found = _first_escape(result.escape, found), None
        confirmed = None if found is None else confirm(built, out_metric, found, quick, attempts)
        if confirmed is not None:
            raise _Found(confirmed)

    try:
        draw()
    except _Found as found:
        return found.counterexample
    except Exception:
        return None  # no neighbour strategy for this domain, or the draws were all rejected
    return None
