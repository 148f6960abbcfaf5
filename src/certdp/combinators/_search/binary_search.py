"""Find the parameter of a chain nearest the decision boundary of ``check(d_in, d_out)``.

Guarantee (binary_search.tex): ``binary_search(predicate, bounds, T)`` returns a value ``v`` of
type ``T`` (``int`` or ``float``) at which it evaluated ``predicate`` and got ``True`` -- never
an interpolated guess -- and whose neighbour on the failing side (the next integer, or the
adjacent float) it evaluated and got ``False`` or an exception; otherwise it raises a
:class:`DPError`.  With a monotone predicate, ``v`` is therefore the passing value nearest the
decision boundary.  ``binary_search_param(make_chain, d_in, d_out)`` returns a parameter whose
chain passed ``check(d_in, d_out)``; ``binary_search_chain`` rebuilds that chain and checks it
again.  Without bounds, the bracket is found from 0 by galloping in the exponent: a float
search evaluates the predicate about 60 times, an integer search about ``2 log2 |v|`` times,
and at most a few hundred times whatever the predicate does.
"""

from __future__ import annotations

import math
import operator
import struct
import sys
from collections.abc import Callable

import numpy as np

from certdp.audit.gate import _up_to_date, require_vetted_or_contrib
from certdp.core.errors import DPError, FailedFunctionError, FeatureNotEnabledError

__all__ = ["BinarySearchError", "binary_search", "binary_search_param", "binary_search_chain"]


# proof: begin errors
class BinarySearchError(FailedFunctionError, ValueError):
    """The search cannot find a passing value next to a failing one."""

    variant = "Search"


class _NoBoundaryError(BinarySearchError):
    """The predicate did not change between the values tried."""

    def __init__(self, message: str, first_error: Exception | None, all_raised: bool):
        self.first_error, self.all_raised = first_error, all_raised
        super().__init__(message, parameter="bounds")


# proof: end errors


# proof: begin keys
#: Integer parameters are searched within [-INT_LIMIT, INT_LIMIT] (wider than u64 and i64).
INT_LIMIT = 1 << 64  # label: int-limit
FLOAT_MAX = sys.float_info.max


def _key(value: float) -> int:
    """An integer order-isomorphic to the non-NaN floats, ``-0.0`` (key -1) just below ``0.0``
    (key 0), so that every key maps back to exactly the float it came from."""
    bits = struct.unpack("<q", struct.pack("<d", abs(value)))[0]  # label: key-bits
    return bits if math.copysign(1.0, value) > 0 else -bits - 1  # label: key-sign


def _value(key: int) -> float:
    magnitude = struct.unpack("<d", struct.pack("<q", key if key >= 0 else -key - 1))[0]
    return magnitude if key >= 0 else -magnitude  # label: key-inverse


def _rank(value, T) -> int:
    """The position of ``value`` in T's order: consecutive ranks are adjacent values of T."""
    return _key(value) if T is float else value  # label: rank


def _unrank(rank: int, T):
    return _value(rank) if T is float else rank  # label: unrank


# proof: end keys


# proof: begin probe
class _Probe:
    """Evaluates the predicate at most once per value and records every outcome.

    An exception raised by the predicate counts as a failure there (the first is kept for the
    error message); a result that is not a boolean stops the search.
    """

    def __init__(self, predicate):
        self.predicate = predicate
        self.outcomes: dict[tuple[type, int], bool] = {}  # label: outcomes
        self.raised: set[tuple[type, int]] = set()
        self.first_error: Exception | None = None
        self.count = 0

    @staticmethod
    def _slot(value) -> tuple[type, int]:
        return (float, _key(value)) if isinstance(value, float) else (int, value)  # label: slot

    def __call__(self, value) -> bool:
        slot = self._slot(value)
        if slot in self.outcomes:
            return self.outcomes[slot]  # label: memo
        self.count += 1
        try:
            result = self.predicate(value)  # label: evaluate
        except FeatureNotEnabledError:
            raise  # the caller must enable a feature: no outcome at any value
        except Exception as error:  # label: predicate-raised
            self.first_error = self.first_error or error
            self.raised.add(slot)
            result = False
        if not isinstance(result, (bool, np.bool_)):  # label: boolean
            raise BinarySearchError(
                f"must return a boolean, returned {result!r} at {value!r}", parameter="predicate"
            )
        self.outcomes[slot] = bool(result)  # label: record
        return self.outcomes[slot]

    def passed(self, value) -> bool:
        """Was ``value`` evaluated, and did the predicate return True there?"""
        return self.outcomes.get(self._slot(value)) is True  # label: recorded-pass

    def failed(self, value) -> bool:
        return self.outcomes.get(self._slot(value)) is False  # label: recorded-fail


# proof: end probe


# proof: begin bracket
def _type_of(T, bounds):
    """``int`` or ``float`` from ``T``, else from the given bounds; ``None`` if neither says."""
    if T in (int, "int", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize"):
        return int
    if T in (float, "float", "f32", "f64"):
        return float
    if T is not None:
        raise BinarySearchError(f"must be int or float, got {T!r}", parameter="T")
    given = [bound for bound in bounds if bound is not None]
    if not given:
        return None
    return int if all(not isinstance(bound, float) for bound in given) else float


def _bound(value, T):
    """A bound as a value of T, exactly; a typed error for anything else."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise BinarySearchError(f"must be numbers or None, got {value!r}", parameter="bounds")
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if not math.isfinite(value):
            raise BinarySearchError(f"must be finite, got {value!r}", parameter="bounds")
        if T is float:
            return value
        if value != int(value):
            raise BinarySearchError(
                f"must be integers for T=int, got {value!r}", parameter="bounds"
            )
        value = int(value)  # -0.0 becomes 0
    value = operator.index(value)
    if T is int:
        if abs(value) > INT_LIMIT:
            raise BinarySearchError(
                f"must lie in [-2**64, 2**64] for an integer search, got {value!r}",
                parameter="bounds",
            )
        return value
    if abs(value) > FLOAT_MAX or float(value) != value:
        raise BinarySearchError(f"{value!r} is not exactly a float", parameter="bounds")
    return float(value)


def _infer_type(probe: _Probe):
    """Without T and bounds: floats, unless the predicate raises at a float and not at the equal
    integer (a parameter that must be an integer, such as a dataset size)."""
    for start in (0, 1):
        probe(float(start))
        if probe._slot(float(start)) not in probe.raised:
            return float
        probe(start)
        if probe._slot(start) not in probe.raised:
            return int
    return float


# Float steps away from a start: start + d 2^e for these e (then the largest float), and, when
# start is zero and start + d already changes the outcome, d 2^-e for these e.
_COARSE_EXPONENTS = (0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1023)
_FINE_EXPONENTS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1022, 1074)
# Integer steps away from a start (clamped to INT_LIMIT).
_INT_STEPS = (1, 2, 4, 16, 256, 1 << 16, 1 << 32, 1 << 64)


def _away(start, direction: int, T) -> list:
    """Values of T moving away from ``start`` in ``direction``, each further than the last."""
    if T is int:
        steps = [start + direction * step for step in _INT_STEPS]
        steps = [min(INT_LIMIT, max(-INT_LIMIT, step)) for step in steps]
    else:
        steps = []
        for exponent in _COARSE_EXPONENTS:
            step = start + direction * 2.0**exponent
            steps.append(step if math.isfinite(step) else direction * FLOAT_MAX)
        steps.append(direction * FLOAT_MAX)
    moving, last = [], _rank(start, T)
    for step in steps:
        if (_rank(step, T) - last) * direction > 0:
            moving.append(step)
            last = _rank(step, T)
    return moving


def _toward_zero(direction: int) -> list[float]:
    """Floats from ``direction * 1/2`` down to the float next to 0 on that side."""
    fine = [direction * 2.0**-exponent for exponent in _FINE_EXPONENTS]
    return fine + [_value(0 if direction > 0 else -1)]  # 5e-324's neighbour 0.0, or -0.0


def _gallop(probe: _Probe, start, direction: int, T):
    """Two evaluated values, in order, with different outcomes: ``start`` or a value reached
    from it in ``direction``, and the next one tried; ``None`` if every value tried agrees."""
    at_start = probe(start)
    previous = start
    for candidate in _away(start, direction, T):
        if probe(candidate) != at_start:
            if T is float and previous == start and start == 0:
                return _refine(probe, start, candidate, at_start, direction)
            return tuple(sorted((previous, candidate), key=_key if T is float else None))
        previous = candidate
    return None


def _refine(probe: _Probe, zero: float, changed: float, at_zero: bool, direction: int):
    """The outcome changes between ``zero`` and ``changed = direction * 1.0``: gallop towards
    zero in the exponent, so that the bracket spans few binades."""
    for candidate in _toward_zero(direction):
        if probe(candidate) == at_zero:
            return tuple(sorted((candidate, changed), key=_key))
        changed = candidate
    return tuple(sorted((zero, changed), key=_key))


def _value_midpoint(low: float, high: float) -> float:
    if (low < 0) != (high < 0):
        return low / 2 + high / 2
    return low + (high - low) / 2


def _midpoint(low: int, high: int, T, given: bool, shaped: bool) -> int:
    """A rank strictly between the ranks ``low`` and ``high`` (which differ by at least 2):
    while ``shaped``, the value midpoint of given float bounds (as OpenDP bisects) or the
    geometric midpoint of a galloped integer bracket; otherwise the middle rank."""
    middle = (low + high) // 2  # label: middle-rank
    if shaped and T is float and given:
        middle = _key(_value_midpoint(_value(low), _value(high)))
    elif shaped and T is int and not given and 0 < low and 2 * low < high:
        middle = math.isqrt(low * high)
    elif shaped and T is int and not given and high < 0 and 2 * -high < -low:
        middle = -math.isqrt(low * high)
    return middle if low < middle < high else (low + high) // 2  # label: strictly-between


#: Shaped bisection steps before plain halving of the ranks: a search ends within
#: SHAPED_STEPS + 66 bisection steps (ranks of floats and of integers in range span < 2^66).
SHAPED_STEPS = 64  # label: shaped-steps


# proof: end bracket


# proof: begin search
def _search(predicate, bounds, T, return_sign: bool):
    """The search itself (see :func:`binary_search`)."""
    try:
        bounds = (None, None) if bounds is None else tuple(bounds)
    except TypeError:
        raise BinarySearchError(f"must be a pair, got {bounds!r}", parameter="bounds") from None
    if len(bounds) != 2:
        raise BinarySearchError(f"must be a pair, got {bounds!r}", parameter="bounds")
    probe = _Probe(predicate)  # label: new-probe
    T = _type_of(T, bounds) or _infer_type(probe)  # label: type
    low, high = (_bound(bound, T) for bound in bounds)  # label: bounds
    if low is not None and high is not None:
        low, high = sorted((low, high), key=_key if T is float else None)
        bracket, given = (low, high), True
    elif low is not None:
        bracket, given = _gallop(probe, low, 1, T), False
    elif high is not None:
        bracket, given = _gallop(probe, high, -1, T), False
    else:
        start = T(0)
        bracket = _gallop(probe, start, 1, T) or _gallop(probe, start, -1, T)
        given = False
    if bracket is None or probe(bracket[0]) == probe(bracket[1]):  # label: bracket-check
        _no_boundary(probe, bounds, bracket)
    low_passes = probe(bracket[0])  # label: low-passes
    low, high = _rank(bracket[0], T), _rank(bracket[1], T)  # label: ranks
    steps = 0
    # invariant: the values of ranks low < high were evaluated, low's outcome is low_passes
    # and high's is not; each step evaluates a value strictly between them
    while high - low > 1:  # label: loop
        middle = _midpoint(low, high, T, given, steps < SHAPED_STEPS)
        if probe(_unrank(middle, T)) == low_passes:  # label: step
            low = middle
        else:
            high = middle
        steps += 1
    below, above = _unrank(low, T), _unrank(high, T)
    found, neighbour, sign = (
        (above, below, 1) if probe.passed(above) else (below, above, -1)
    )  # label: pick
    if not (high - low == 1 and probe.passed(found) and probe.failed(neighbour)):  # label: guard
        raise BinarySearchError(
            f"no evaluated passing value next to an evaluated failing one ({below!r}, {above!r})",
            parameter="predicate",
        )
    return (found, sign) if return_sign else found  # label: return


def _no_boundary(probe: _Probe, bounds, bracket) -> None:
    """Raise :class:`_NoBoundaryError`: the predicate did not change between the values tried."""
    outcome = any(probe.outcomes.values())
    where = (
        f"within the bounds {bracket!r}"
        if None not in bounds
        else f"on any of the {probe.count} values tried (from 0 towards +-{FLOAT_MAX:.4g} for "
        "floats, +-2**64 for integers)"
    )
    message = (
        f"the predicate is {outcome} everywhere it was evaluated: no decision boundary {where}"
    )
    if probe.first_error is not None and not outcome:
        error = probe.first_error
        message += (
            f"; it raised at {len(probe.raised)} of them, first {type(error).__name__}: {error}"
        )
    raise _NoBoundaryError(message, probe.first_error, len(probe.raised) == probe.count)


def binary_search(
    predicate: Callable[[float], bool], bounds=(None, None), T=None, return_sign: bool = False
):
    """The passing value nearest the decision boundary of a monotone ``predicate``."""
    if "binary_search" not in _up_to_date:
        require_vetted_or_contrib("binary_search")  # label: gate
    try:
        return _search(predicate, bounds, T, return_sign)  # label: search-call
    except _NoBoundaryError as error:
        first = error.first_error
        if isinstance(first, DPError) and error.all_raised:
            raise first from None  # every evaluation raised: OpenDP re-raises the first error
        raise


def binary_search_param(make_chain, d_in, d_out, bounds=(None, None), T=None):
    """The parameter of ``make_chain`` nearest the decision boundary whose chain passed
    ``check(d_in, d_out)`` (its map at ``d_in`` is at most ``d_out``)."""
    if "binary_search" not in _up_to_date:
        require_vetted_or_contrib("binary_search")

    def passes(param):
        return make_chain(param).check(d_in, d_out)  # label: check

    try:
        return _search(passes, bounds, T, False)  # label: param-search
    except _NoBoundaryError as error:
        raise BinarySearchError(
            f"no parameter found whose chain passes check(d_in={d_in!r}, d_out={d_out!r}): {error}",
            parameter="d_out",
        ) from error.first_error


def binary_search_chain(make_chain, d_in, d_out, bounds=(None, None), T=None):
    """The chain built with :func:`binary_search_param`'s parameter, checked once more."""
    chain = make_chain(binary_search_param(make_chain, d_in, d_out, bounds, T))  # label: rebuild
    recheck = chain.check(d_in, d_out)  # label: recheck-call
    if not (isinstance(recheck, (bool, np.bool_)) and recheck):  # label: recheck
        raise BinarySearchError(
            "the chain rebuilt from the parameter found no longer passes "
            f"check(d_in={d_in!r}, d_out={d_out!r})",
            parameter="make_chain",
        )
    return chain  # label: chain


# proof: end search
