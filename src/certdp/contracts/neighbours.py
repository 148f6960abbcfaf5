"""Hypothesis strategies for members of domains and for neighbouring inputs.

``neighbours(domain, metric, d_in)`` draws pairs ``(x, x')`` of members of
``domain`` with ``metric.distance(x, x') <= d_in``; the distance is checked
exactly on every draw, so a pair it yields is a valid neighbour by
construction, not by trust in the generator.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from certdp.core.change_metrics import ChangeOneDistance, DiscreteDistance, HammingDistance
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.errors import DPError
from certdp.core.metrics import (
    AbsoluteDistance,
    InsertDeleteDistance,
    L1Distance,
    L2Distance,
    SymmetricDistance,
)
from certdp.core.option_domain import OptionDomain
from certdp.core.partition_metrics import L0PInfDistance, LInfDistance

#: The metrics between datasets, whose distances are non-negative integers.
_DATASET_METRICS = (SymmetricDistance, InsertDeleteDistance, ChangeOneDistance, HammingDistance)

__all__ = [
    "DATASET_DISTANCE_LIMIT",
    "LARGE_INTEGER_DISTANCES",
    "datasets",
    "distance_limit",
    "distances",
    "distances_for",
    "distances_up_to",
    "large_distances_for",
    "members",
    "neighbours",
    "register_neighbours",
    "usable_by_pairs",
]


def members(domain: AtomDomain) -> st.SearchStrategy:
    """Members of an atom domain, biased towards its bounds and special values (or of an
    option domain: ``None`` and members of its atom domain)."""
    if type(domain) is OptionDomain:
        return st.one_of(st.none(), members(domain.element_domain))
    if type(domain) is VectorDomain:  # a record that is itself a vector (a split line)
        return datasets(domain, max_size=4)
    T = domain.T
    if T.name == "bool":
        return st.booleans()
    if T.name == "String":
        return st.text(max_size=4)
    lower = T.min if domain.bounds is None else domain.bounds[0]
    upper = T.max if domain.bounds is None else domain.bounds[1]
    if T.is_integer:
        return st.one_of(st.sampled_from([lower, upper]), st.integers(lower, upper))
    width = 32 if T.name == "f32" else 64
    unbounded = domain.bounds is None
    floats = st.floats(
        min_value=None if unbounded else lower,
        max_value=None if unbounded else upper,
        allow_nan=domain.nan,
        allow_infinity=unbounded,
        width=width,
    )
    special = [lower, upper, 0.0, -0.0] if not unbounded else [0.0, -0.0, 1.0, -1.0]
    special = [value for value in special if domain.member(value)]
    return st.one_of(st.sampled_from(special), floats) if special else floats


#: Few values per type, so that two draws (and a drawn list of categories) often coincide.
SMALL_VALUES = {"bool": [False, True], "String": ["", "a", "b", "c"]}


def small_members(domain: AtomDomain) -> st.SearchStrategy:
    """Members of an atom domain, mostly from a handful of values (integers ``-1..4``)."""
    few = SMALL_VALUES.get(domain.T.name, [-1, 0, 1, 2, 3, 4])
    few = [value for value in few if domain.member(value)]
    return st.one_of(st.sampled_from(few), members(domain)) if few else members(domain)


def datasets(domain: VectorDomain, max_size: int = 12) -> st.SearchStrategy:
    """Members of a vector domain (of its fixed size when it has one)."""
    elements = members(domain.element_domain)
    if domain.size is not None:
        return st.lists(elements, min_size=domain.size, max_size=domain.size)
    return st.lists(elements, max_size=max_size)


#: Distances at which float arithmetic stops being exact: 2**53 +- 1 (the end of the exactly
#: representable integers of f64), 2**54 + 2 and 2**63 + 2 (where ``int(d_in / 2)`` rounds
#: below ``d_in // 2``), and the ends of the 64-bit integer types.
LARGE_INTEGER_DISTANCES = (
    2**53 - 1,
    2**53,
    2**53 + 1,
    2**54 + 2,
    2**63 - 1,
    2**63,
    2**63 + 2,
    2**64 - 1,
    2**64,
)
#: Searched limit of the integer distances of dataset metrics: certdp accepts any
#: non-negative Python int there, so the search goes past every 64-bit type.
DATASET_DISTANCE_LIMIT = 2**64


def distance_limit(metric):
    """The largest ``d_in`` the search draws for ``metric``: the largest value of its
    distance type (the largest finite one for floats), or :data:`DATASET_DISTANCE_LIMIT`
    for the distances between datasets and the discrete distance."""
    if isinstance(metric, _DATASET_METRICS + (DiscreteDistance,)):
        return DATASET_DISTANCE_LIMIT
    T = metric.T
    if T.is_integer:
        return T.max
    return float(np.finfo(T.numpy_dtype).max)


def _is_integer_metric(metric) -> bool:
    return isinstance(metric, _DATASET_METRICS + (DiscreteDistance,)) or metric.T.is_integer


def _large_values(limit, integer: bool, width: int) -> list:
    """The large distances worth checking exactly, up to ``limit`` and ``limit`` itself."""
    if integer:
        large = [value for value in LARGE_INTEGER_DISTANCES if value <= limit]
        return sorted({*large, int(limit)})
    large = [2.0**24, 2.0**53, 2.0**53 + 2, 2.0**64, 1e38, 1e300]
    large = [value for value in large if value <= limit and (width == 64 or value < 2.0**127)]
    return sorted({*large, float(limit)})


def distances_up_to(limit, *, integer: bool = True, width: int = 64) -> st.SearchStrategy:
    """``d_in`` values in ``[0, limit]``: mostly small ones (only they let a pair of small
    datasets use the whole budget, which the search for tight pairs needs), then the large
    values of :data:`LARGE_INTEGER_DISTANCES` (or large floats) and ``limit`` itself, and
    values spread over the whole range."""
    examples = st.sampled_from(_large_values(limit, integer, width))
    if integer:
        small = st.integers(0, min(6, int(limit)))
        spread = st.integers(0, int(limit))
    else:
        small = st.one_of(
            st.sampled_from([0, 1]),
            st.fractions(0, min(10, limit), max_denominator=64).map(float),
        )
        spread = st.floats(0, float(limit), width=width)
    kinds = {"small": small, "example": examples, "spread": spread}
    weighted = ["small"] * 7 + ["example", "spread", "spread"]
    return st.sampled_from(weighted).flatmap(kinds.__getitem__)


#: The largest ``l0`` of a triple: OpenDP's type of it is u32.
L0_LIMIT = 2**32 - 1


def distances(metric) -> st.SearchStrategy:
    """``d_in`` values for ``metric`` up to the limit of its distance type
    (:func:`distance_limit`); for an ``l0pinf_distance``, triples ``(l0, lp, linf)`` of an
    ``l0`` up to :data:`L0_LIMIT` and two distances of the inner metric."""
    if isinstance(metric, L0PInfDistance):
        inner = distances(metric.inner)
        return st.tuples(distances_up_to(L0_LIMIT), inner, inner)
    if _is_integer_metric(metric):
        return distances_up_to(distance_limit(metric))
    width = 32 if metric.T.name == "f32" else 64
    return distances_up_to(distance_limit(metric), integer=False, width=width)


def usable_by_pairs(metric, d_in, max_size: int) -> bool:
    """Can a pair of datasets of at most ``max_size`` records be ``d_in`` apart without
    being closer?  Under the symmetric and insert-delete distances two such datasets are at
    most ``2 * max_size`` apart, so a larger ``d_in`` can be tight only for the map's value,
    not for a pair; under numeric metrics any budget can be spent on the values."""
    if isinstance(metric, (SymmetricDistance, InsertDeleteDistance)):
        return d_in <= 2 * max_size
    if isinstance(metric, (ChangeOneDistance, HammingDistance)):
        return d_in <= max_size
    return True


def _accepts(built, d_in) -> bool:
    try:
        built.map(d_in)
    except DPError:
        return False
    return True


def _largest_accepted(built, limit, integer: bool):
    """The largest ``d_in <= limit`` the map of ``built`` accepts (returns for rather than
    refuses with a typed error), by bisection; maps refuse only above a threshold (an
    overflowing result), so refusal is monotone.  ``None`` when it refuses 0."""
    if _accepts(built, limit):
        return limit
    if not _accepts(built, 0):
        return None
    if integer:
        low, high = 0, int(limit)  # accepted, refused
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if _accepts(built, middle) else (low, middle)
        return low
    # non-negative floats are ordered like their bit patterns
    low, high = 0, int(np.float64(limit).view(np.int64))
    while high - low > 1:
        middle = (low + high) // 2
        value = float(np.int64(middle).view(np.float64))
        low, high = (middle, high) if _accepts(built, value) else (low, middle)
    return float(np.int64(low).view(np.float64))


def large_distances_for(built) -> list:
    """The large distances of :data:`LARGE_INTEGER_DISTANCES` (or large floats) that the map
    of ``built`` accepts, and the largest distance it accepts up to the metric type's limit:
    :meth:`Contract.verify` checks the map against the exact bound at each of them."""
    metric = built.input_metric
    integer = _is_integer_metric(metric)
    largest = _largest_accepted(built, distance_limit(metric), integer)
    if largest is None:
        return []
    width = 32 if not integer and metric.T.name == "f32" else 64
    return _large_values(largest, integer, width)


def distances_for(built) -> st.SearchStrategy:
    """``d_in`` values for the input metric of ``built``, up to the limit of the metric's
    distance type, restricted to those its map accepts (a map may refuse a ``d_in`` whose
    result overflows; the theorem constrains only the values it returns)."""
    metric = built.input_metric
    integer = _is_integer_metric(metric)
    largest = _largest_accepted(built, distance_limit(metric), integer)
    if largest is None:
        return st.just(0)  # the map refuses every distance: let the search report it
    width = 32 if not integer and metric.T.name == "f32" else 64
    drawn = distances_up_to(largest, integer=integer, width=width)
    if _edits_come_in_pairs(built.input_domain, metric):
        # two datasets of one size are at an even distance: an odd d_in is never used whole,
        # so half the draws are even, where the search for a tight pair can succeed
        drawn = st.one_of(drawn.map(lambda d_in: d_in - d_in % 2), drawn)
    return drawn.filter(lambda d_in: _accepts(built, d_in))


def _edits_come_in_pairs(domain, metric) -> bool:
    """Are all distances between datasets of ``domain`` even (a sized vector domain under the
    symmetric or insert-delete distance)?"""
    return (
        isinstance(domain, VectorDomain)
        and domain.size is not None
        and isinstance(metric, (SymmetricDistance, InsertDeleteDistance))
    )


def _up_to(limit: int) -> st.SearchStrategy:
    """An integer in [0, limit], drawn at ``limit`` half the time: the tightest pairs use the whole budget."""
    return st.one_of(st.just(limit), st.integers(0, limit))


@st.composite
def _edited(draw, domain: VectorDomain, d_in: int, ordered: bool, max_size: int):
    """Apply at most ``d_in`` record insertions/deletions (substitutions on sized domains)."""
    x = draw(datasets(domain, max_size))
    x_prime = list(x)
    elements = members(domain.element_domain)
    if domain.size is not None:
        # a change of one record is a deletion and an insertion: distance 2
        for _ in range(draw(_up_to(min(d_in // 2, len(x))))):
            removed = draw(st.integers(0, len(x_prime) - 1))
            del x_prime[removed]
            x_prime.insert(draw(st.integers(0, len(x_prime))), draw(elements))
    else:
        removals = draw(st.integers(0, min(d_in, len(x))))
        for _ in range(removals):
            del x_prime[draw(st.integers(0, len(x_prime) - 1))]
        # a pair needs no more insertions than the datasets' size: d_in may be 2**64
        for _ in range(draw(_up_to(min(d_in - removals, max_size)))):
            x_prime.insert(draw(st.integers(0, len(x_prime))), draw(elements))
    if not ordered:
        x_prime = draw(st.permutations(x_prime))
    return x, list(x_prime)


@st.composite
def _changed(draw, domain: VectorDomain, d_in: int, ordered: bool, max_size: int):
    """Replace the records at most ``d_in`` positions (then shuffle, unless ``ordered``)."""
    x = draw(datasets(domain, max_size))
    x_prime = list(x)
    elements = members(domain.element_domain)
    for _ in range(draw(_up_to(min(d_in, len(x))))):
        x_prime[draw(st.integers(0, len(x) - 1))] = draw(elements)
    if not ordered:
        x_prime = draw(st.permutations(x_prime))
    return x, list(x_prime)


@st.composite
def _perturbed(draw, domain, metric, d_in):
    budget = Fraction(d_in)
    if isinstance(domain, AtomDomain):
        x = draw(members(domain))
        x_prime = draw(_scalar_near(domain, x, budget))
        return x, x_prime
    x = draw(datasets(domain))
    x_prime = list(x)
    for index in range(len(x)):
        if budget <= 0:
            break
        x_prime[index] = draw(_scalar_near(domain.element_domain, x[index], budget))
        # spending the L1 budget also keeps the L2 distance within it (||v||_2 <= ||v||_1)
        if isinstance(x[index], (int, float)) and math.isfinite(x[index]):  # else x' == x
            budget -= abs(Fraction(x_prime[index]) - Fraction(x[index]))
    return x, x_prime


@st.composite
def _shifted(draw, domain, metric, d_in, max_size: int):
    """Vectors ``x, x'`` with every ``|x'_i - x_i| <= d_in`` (L-infinity), all moved the same
    way when the metric is monotonic."""
    budget = Fraction(d_in)
    x = draw(datasets(domain, max_size=max_size))
    upward = draw(st.booleans())
    x_prime = []
    for value in x:
        near = draw(_scalar_near(domain.element_domain, value, budget))
        if metric.monotonic and isinstance(value, (int, float)) and math.isfinite(value):
            near = max(near, value) if upward else min(near, value)
        x_prime.append(near)
    return x, x_prime


def _scalar_near(domain: AtomDomain, x, budget: Fraction) -> st.SearchStrategy:
    if not (isinstance(x, (int, float)) and math.isfinite(x)) or budget == 0:
        return st.just(x)
    # the interval [x - budget, x + budget] cut to the domain: budgets may be huge
    T = domain.T
    lower = T.min if domain.bounds is None else domain.bounds[0]
    upper = T.max if domain.bounds is None else domain.bounds[1]
    if T.is_integer:
        radius = int(budget)
        low, high = max(x - radius, lower), min(x + radius, upper)
        return st.one_of(st.sampled_from([low, high, x]), st.integers(low, high)).filter(
            domain.member
        )
    from certdp.numeric import round_rational

    top = Fraction(float(np.finfo(T.numpy_dtype).max))
    floor = -top if domain.bounds is None else Fraction(lower)
    ceiling = top if domain.bounds is None else Fraction(upper)
    # hypothesis needs bounds of the float type: round the interval inwards
    low = round_rational(max(Fraction(x) - budget, floor), T.name, "up")
    high = round_rational(min(Fraction(x) + budget, ceiling), T.name, "down")
    return st.one_of(
        st.sampled_from([low, high, x]),
        st.floats(low, high, width=32 if T.name == "f32" else 64),
    ).filter(domain.member)


def _is_text_domain(domain) -> bool:
    return isinstance(domain, AtomDomain) and domain.T.name == "String"


@st.composite
def _texts(draw, d_in: int, max_size: int):
    """Two texts whose lines are at symmetric distance at most ``d_in`` (the metric reads a text
    as the dataset of its lines): edited line lists joined by ``"\n"`` or ``"\r\n"``, with or
    without a final line ending; or two arbitrary texts of few lines."""
    from certdp.core.domains import atom_domain, vector_domain

    if draw(st.integers(0, 3)) == 0:
        alphabet = st.sampled_from(["a", "b", "\n", "\r", " ", ","])
        return draw(st.text(alphabet, max_size=8)), draw(st.text(alphabet, max_size=8))
    lines = vector_domain(atom_domain(T="String"))
    x, x_prime = draw(_edited(lines, d_in, False, max_size))

    def joined(records):
        ending = draw(st.sampled_from(["\n", "\r\n"]))
        text = ending.join(records)
        return text + ending if records and draw(st.booleans()) else text

    return joined(x), joined(x_prime)


_NEIGHBOUR_HOOKS: list[tuple[type, object]] = []


def register_neighbours(domain_type: type, pairs) -> None:
    """Let :func:`neighbours` draw pairs for members of ``domain_type``.

    ``pairs(domain, metric, d_in, max_size)`` returns a strategy of candidate pairs; the
    pairs are still checked for membership and distance by :func:`neighbours`.
    """
    _NEIGHBOUR_HOOKS.append((domain_type, pairs))


def neighbours(domain, metric, d_in, max_size: int = 12) -> st.SearchStrategy:
    """Pairs ``(x, x')`` of members of ``domain`` at ``metric``-distance at most ``d_in``."""
    hooks = [pairs for domain_type, pairs in _NEIGHBOUR_HOOKS if isinstance(domain, domain_type)]
    if hooks:
        pairs = hooks[-1](domain, metric, d_in, max_size)
    elif isinstance(metric, SymmetricDistance) and _is_text_domain(domain):
        pairs = _texts(d_in, max_size)
    elif isinstance(metric, DiscreteDistance) and isinstance(domain, AtomDomain):
        pairs = st.tuples(small_members(domain), small_members(domain))
    elif isinstance(metric, (SymmetricDistance, InsertDeleteDistance)):
        pairs = _edited(domain, d_in, isinstance(metric, InsertDeleteDistance), max_size)
    elif isinstance(metric, (ChangeOneDistance, HammingDistance)):
        pairs = _changed(domain, int(d_in), isinstance(metric, HammingDistance), max_size)
    elif isinstance(metric, (AbsoluteDistance, L1Distance, L2Distance)):
        pairs = _perturbed(domain, metric, d_in)
    elif isinstance(metric, LInfDistance) and isinstance(domain, VectorDomain):
        pairs = _shifted(domain, metric, d_in, max_size)
    else:
        raise TypeError(f"no neighbour strategy for {metric}")

    def valid(pair) -> bool:
        x, x_prime = pair
        return domain.member(x) and domain.member(x_prime) and metric.close(x, x_prime, d_in)

    return pairs.filter(valid)
