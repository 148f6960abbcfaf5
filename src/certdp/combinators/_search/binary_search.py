"""Find the parameter of a chain nearest the decision boundary of ``check(d_in, d_out)``.

Guarantee (binary_search.tex): ``binary_search(predicate, bounds, T)`` returns a value ``v`` of
type ``T`` (``int`` or ``float``) at which it evaluated ``predicate`` and got ``True`` -- never
an interpolated guess -- and whose neighbour on the failing side (the next integer, or the
adjacent float) it evaluated and got ``False`` or an exception; otherwise it raises a
:class:`DPError`.  With a monotone predicate, ``v`` is therefore the passing value nearest the
decision boundary.  ``T`` may name a width (``"f32"``: f32 values only; ``"u8"``, ``"i16"``, ...:
integers of that range only).  Where ``-0.0`` and ``0.0`` both passed, ``0.0`` is returned.
``binary_search_param(make_chain, d_in, d_out)`` returns a parameter whose
chain passed ``check(d_in, d_out)``; ``binary_search_chain`` rebuilds that chain and checks it
again.  Without bounds, the bracket is found from 0 by galloping in the exponent: a float
search evaluates the predicate about 60 times, an integer search about ``2 log2 |v|`` times,
and at most a few hundred times whatever the predicate does.
"""

from __future__ import annotations

import math
import struct
import sys
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from certdp.audit.gate import _up_to_date, require_vetted_or_contrib
from certdp.core.conversion import exact_scalar
from certdp.core.errors import (
    DPError,
    FailedCastError,
    FailedFunctionError,
    FeatureNotEnabledError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import type_is

__all__ = ["BinarySearchError", "binary_search", "binary_search_param", "binary_search_chain"]


# proof: begin errors
class BinarySearchError(FailedFunctionError, ValueError):
    """The search cannot find a passing value next to a failing one."""

    variant = "Search"


class _NotBooleanError(BinarySearchError):
    """The predicate returned a value that is not a boolean: the search stops."""


class _NoBoundaryError(BinarySearchError):
    """The predicate did not change between the values tried."""

    def __init__(self, message: str, first_error: Exception | None, all_raised: bool):
        self.first_error, self.all_raised = first_error, all_raised
        super().__init__(message, parameter="bounds")


# proof: end errors


# proof: begin keys
#: Integer parameters are searched within [-INT_LIMIT, INT_LIMIT] (wider than u64 and i64)
#: unless T names a narrower integer type.
INT_LIMIT = 1 << 64  # label: int-limit
FLOAT_MAX = sys.float_info.max
F32_MAX = float(np.finfo(np.float32).max)


class _Kind:
    """The values searched: floats of a width (their Python ``float``), or integers in a range."""

    def __init__(self, name, is_float, bits=64, low=None, high=None, fine=()):
        self.name, self.is_float, self.bits = name, is_float, bits
        self.low, self.high, self.fine = low, high, fine
        self.max = (FLOAT_MAX if bits == 64 else F32_MAX) if is_float else None
        self.zero = 0.0 if is_float else 0

    def round(self, value: float) -> float:
        """A finite value of this float type near ``value`` (a place to evaluate, nothing more)."""
        if not abs(value) <= self.max:
            return math.copysign(self.max, value)
        return value if self.bits == 64 else float(np.float32(value))

    def __repr__(self) -> str:
        return self.name


F64 = _Kind("f64", True, 64, fine=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1022, 1074))
F32 = _Kind("f32", True, 32, fine=(1, 2, 4, 8, 16, 32, 64, 126, 149))
INT = _Kind("int", False, low=-INT_LIMIT, high=INT_LIMIT)
#: The names T may take, and the values each searches (OpenDP's type names, with their ranges).
KINDS = {"int": INT, "float": F64, "f64": F64, "f32": F32}  # label: kinds
for _bits in (8, 16, 32, 64):
    KINDS[f"i{_bits}"] = _Kind(f"i{_bits}", False, low=-(1 << _bits - 1), high=(1 << _bits - 1) - 1)
    KINDS[f"u{_bits}"] = _Kind(f"u{_bits}", False, low=0, high=(1 << _bits) - 1)
KINDS["usize"] = KINDS["u64"]


def _key(value: float) -> int:
    """An integer order-isomorphic to the non-NaN floats, ``-0.0`` (key -1) just below ``0.0``
    (key 0), so that every key maps back to exactly the float it came from."""
    bits = struct.unpack("<q", struct.pack("<d", abs(value)))[0]  # label: key-bits
    return bits if math.copysign(1.0, value) > 0 else -bits - 1  # label: key-sign


def _value(key: int) -> float:
    magnitude = struct.unpack("<d", struct.pack("<q", key if key >= 0 else -key - 1))[0]
    return magnitude if key >= 0 else -magnitude  # label: key-inverse


def _key32(value: float) -> int:
    """:func:`_key` for the f32 values (a ``float`` that is exactly an f32)."""
    bits = struct.unpack("<i", struct.pack("<f", abs(value)))[0]  # label: key32-bits
    return bits if math.copysign(1.0, value) > 0 else -bits - 1


def _value32(key: int) -> float:
    magnitude = struct.unpack("<f", struct.pack("<i", key if key >= 0 else -key - 1))[0]
    return magnitude if key >= 0 else -magnitude  # label: key32-inverse


def _rank(value, T: _Kind) -> int:
    """The position of ``value`` in T's order: consecutive ranks are adjacent values of T."""
    if not T.is_float:
        return value  # label: rank
    return _key(value) if T.bits == 64 else _key32(value)  # label: rank-float


def _unrank(rank: int, T: _Kind):
    if not T.is_float:
        return rank  # label: unrank
    return _value(rank) if T.bits == 64 else _value32(rank)  # label: unrank-float


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
        self.raised: dict[tuple[type, int], Exception] = {}
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
        except (FeatureNotEnabledError, _NotBooleanError):  # label: propagate
            raise  # a feature to enable, or a non-boolean met by an edge search's inner probe
        except Exception as error:  # label: predicate-raised
            self.first_error = self.first_error or error
            self.raised[slot] = error
            result = False
        if not isinstance(result, (bool, np.bool_)):  # label: boolean
            raise _NotBooleanError(
                f"must return a boolean, returned {_show(result)} at {shown(value)}",
                parameter="predicate",
            )
        self.outcomes[slot] = bool(result)  # label: record
        return self.outcomes[slot]

    def passed(self, value) -> bool:
        """Was ``value`` evaluated, and did the predicate return True there?"""
        return self.outcomes.get(self._slot(value)) is True  # label: recorded-pass

    def failed(self, value) -> bool:
        return self.outcomes.get(self._slot(value)) is False  # label: recorded-fail

    def error_at(self, value) -> Exception | None:
        """The exception the predicate raised at ``value``, if it raised there."""
        return self.raised.get(self._slot(value))


# proof: end probe


# proof: begin bracket
def _show(value) -> str:
    """A short description of ``value`` for an error message (never raises)."""
    try:
        text = repr(value)
    except Exception:  # a huge int (beyond Python's digit limit), a broken __repr__
        text = f"a value of type {type(value).__name__} too long to show"
    return text if len(text) <= 80 else text[:77] + "..."


def _type_of(T, bounds) -> _Kind | None:
    """The values to search, from ``T``, else from the given bounds; ``None`` if neither says.

    A bound of a floating type (``float``, any NumPy float) or a non-integer rational makes the
    search a float (f64) search; integer bounds an integer search."""
    if T is int or T is float:
        return INT if T is int else F64
    if type(T) is str and T in KINDS:
        return KINDS[T]
    if T is not None:
        raise type_mismatch(BinarySearchError)(
            f"must be int, float or one of {sorted(KINDS)}, got {_show(T)}", parameter="T"
        )
    given = [bound for bound in bounds if bound is not None]
    if not given:
        return None
    floating = any(
        isinstance(original, (float, np.floating))
        or (type(exact) is Fraction and exact.denominator != 1)
        for original, exact in given
    )
    return F64 if floating else INT


def _exact_bound(value):
    """``(value, its exact int, float or Fraction)``; a typed error for anything else."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_, str, bytes)):
        raise type_mismatch(BinarySearchError)(
            f"must be numbers or None, got {_show(value)}", parameter="bounds"
        )
    exact = exact_scalar(value, "bounds", BinarySearchError)  # label: exact-bound
    if not type_is(exact, int, float, Fraction):
        raise type_mismatch(BinarySearchError)(
            f"must be numbers or None, got {_show(value)}", parameter="bounds"
        )
    return value, exact


def _bound(given, T: _Kind):
    """A bound as a value of T, exactly; a typed error for anything else."""
    if given is None:
        return None
    original, value = given
    if isinstance(value, float) and not math.isfinite(value):
        raise BinarySearchError(f"must be finite, got {_show(original)}", parameter="bounds")
    if T.is_float:
        if abs(value) > T.max:  # label: beyond-max
            raise BinarySearchError(
                f"{_show(original)} lies beyond the largest finite {T.name} ({shown(T.max)})",
                parameter="bounds",
            )
        if Fraction(T.round(float(value))) != value:  # label: exact-in-T
            raise BinarySearchError(
                f"{_show(original)} is not exactly a value of {T.name}", parameter="bounds"
            )
        return T.round(float(value))
    if Fraction(value).denominator != 1:  # label: int-bound
        raise type_mismatch(BinarySearchError)(
            f"must be integers for T={T.name}, got {_show(original)}", parameter="bounds"
        )
    value = int(value)  # -0.0 becomes 0
    if not T.low <= value <= T.high:  # label: int-range
        raise BinarySearchError(
            f"must lie in [{T.low}, {T.high}] for T={T.name}, got {_show(original)}",
            parameter="bounds",
        )
    return value


def _refuses_type(error: Exception | None) -> bool:
    """Does ``error`` refuse the type of a value (a ``TypeError`` or certdp's cast error)?"""
    return isinstance(error, (TypeError, FailedCastError))


def _infer_type(probe: _Probe) -> _Kind:
    """Without T and bounds: floats, unless the predicate raises at a float and not at the equal
    integer, or refuses the type of both floats 0.0 and 1.0 (a parameter that must be an
    integer, such as a dataset size)."""
    for start in (0, 1):
        probe(float(start))
        if probe.error_at(float(start)) is None:
            return F64
        probe(start)
        if probe.error_at(start) is None:
            return INT
    if all(_refuses_type(probe.error_at(float(start))) for start in (0, 1)):  # label: refused
        return INT
    return F64


# Float steps away from a start: start + d 2^e for these e (then the largest value), and, when
# start is zero and start + d already changes the outcome, d 2^-e for T.fine's e.
_COARSE_EXPONENTS = (0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1023)
# Integer steps away from a start (clamped to T's range).
_INT_STEPS = (1, 2, 4, 16, 256, 1 << 16, 1 << 32, 1 << 64)


def _away(start, direction: int, T: _Kind) -> list:
    """Values of T moving away from ``start`` in ``direction``, each further than the last."""
    if not T.is_float:
        steps = [start + direction * step for step in _INT_STEPS]
        steps = [min(T.high, max(T.low, step)) for step in steps]
    else:
        steps = []
        for exponent in _COARSE_EXPONENTS:
            steps.append(T.round(start + direction * 2.0**exponent))
        steps.append(direction * T.max)
    moving, last = [], _rank(start, T)
    for step in steps:
        if (_rank(step, T) - last) * direction > 0:
            moving.append(step)
            last = _rank(step, T)
    return moving


def _toward_zero(direction: int, T: _Kind) -> list[float]:
    """Values of T from ``direction * 1/2`` down to the one next to 0 on that side."""
    fine = [direction * 2.0**-exponent for exponent in T.fine]
    return fine + [_value(0 if direction > 0 else -1)]  # the smallest's neighbour 0.0, or -0.0


def _gallop(probe: _Probe, start, direction: int, T: _Kind):
    """Two evaluated values, in order, with different outcomes: ``start`` or a value reached
    from it in ``direction``, and the next one tried; ``None`` if every value tried agrees."""
    at_start = probe(start)
    previous = start
    for candidate in _away(start, direction, T):
        if probe(candidate) != at_start:
            if T.is_float and previous == start and start == 0:
                return _refine(probe, start, candidate, at_start, direction, T)
            return tuple(sorted((previous, candidate), key=_key if T.is_float else None))
        previous = candidate
    return None


def _refine(probe: _Probe, zero: float, changed: float, at_zero: bool, direction: int, T):
    """The outcome changes between ``zero`` and ``changed = direction * 1.0``: gallop towards
    zero in the exponent, so that the bracket spans few binades."""
    for candidate in _toward_zero(direction, T):
        if probe(candidate) == at_zero:
            return tuple(sorted((candidate, changed), key=_key))
        changed = candidate
    return tuple(sorted((zero, changed), key=_key))


def _failing_end_raised(probe: _Probe, bracket) -> bool:
    """Did the predicate raise (not return False) at the bracket's failing end?"""
    failing = bracket[1] if probe.passed(bracket[0]) else bracket[0]
    return probe.error_at(failing) is not None  # label: failing-raised


def _stopped_by_error(probe: _Probe, bracket, start) -> bool:
    """Did the predicate pass at ``start`` and raise (not return False) at the bracket's
    failing end: the edge of the parameter's domain rather than of the budget?"""
    failing = bracket[1] if probe.passed(bracket[0]) else bracket[0]
    return probe.passed(start) and probe.error_at(failing) is not None


def _value_midpoint(low: float, high: float) -> float:
    if (low < 0) != (high < 0):
        return low / 2 + high / 2
    return low + (high - low) / 2


def _midpoint(low: int, high: int, T: _Kind, given: bool, shaped: bool) -> int:
    """A rank strictly between the ranks ``low`` and ``high`` (which differ by at least 2):
    while ``shaped``, the value midpoint of given float bounds (as OpenDP bisects) or the
    geometric midpoint of a galloped integer bracket; otherwise the middle rank."""
    middle = (low + high) // 2  # label: middle-rank
    if shaped and T.is_float and given:
        value = _value_midpoint(_unrank(low, T), _unrank(high, T))
        middle = _rank(T.round(value), T)
    elif shaped and not T.is_float and not given and 0 < low and 2 * low < high:
        middle = math.isqrt(low * high)
    elif shaped and not T.is_float and not given and high < 0 and 2 * -high < -low:
        middle = -math.isqrt(low * high)
    return middle if low < middle < high else (low + high) // 2  # label: strictly-between


#: Shaped bisection steps before plain halving of the ranks: a search ends within
#: SHAPED_STEPS + 66 bisection steps (ranks of floats and of integers in range span < 2^66).
SHAPED_STEPS = 64  # label: shaped-steps


def _from_exception_edge(probe: _Probe, T: _Kind):
    """The predicate raised at 0: find the edge of the values where it does not raise (as
    OpenDP's bounds search does), then gallop from that edge away from the raising side;
    ``None`` if either finds nothing.  Only chooses where to evaluate."""

    def accepted(value) -> bool:
        probe(value)  # label: edge-probe
        return probe.error_at(value) is None

    try:
        edge, sign = _search(accepted, None, T.name, True)  # label: edge-search
    except _NoBoundaryError:
        return None
    return _gallop(probe, edge, sign, T)  # label: edge-gallop


# proof: end bracket


# proof: begin search
def _search(predicate, bounds, T, return_sign: bool):
    """The search itself (see :func:`binary_search`)."""
    try:
        bounds = (None, None) if bounds is None else tuple(bounds)
    except TypeError:
        raise type_mismatch(BinarySearchError)(
            f"must be a pair, got {_show(bounds)}", parameter="bounds"
        ) from None
    if len(bounds) != 2:
        raise type_mismatch(BinarySearchError)(
            f"must be a pair, got {_show(bounds)}", parameter="bounds"
        )
    lower, upper = bounds
    if (
        lower is not None and upper is not None and type(lower) is not type(upper)
    ):  # label: same-type
        raise type_mismatch(BinarySearchError)(
            f"must share one type, got {type(lower).__name__} and {type(upper).__name__}",
            parameter="bounds",
        )
    given_bounds = [_exact_bound(bound) for bound in bounds]
    probe = _Probe(predicate)  # label: new-probe
    T = _type_of(T, given_bounds) or _infer_type(probe)  # label: type
    low, high = (_bound(bound, T) for bound in given_bounds)  # label: bounds
    if low is not None and high is not None:
        low, high = sorted((low, high), key=_key if T.is_float else None)
        bracket, given = (low, high), True
    elif low is not None:
        bracket, given = _gallop(probe, low, 1, T), False
    elif high is not None:
        bracket, given = _gallop(probe, high, -1, T), False
    else:
        bracket, given = _gallop(probe, T.zero, 1, T), False
        if probe.error_at(T.zero) is not None and (
            bracket is None or _failing_end_raised(probe, bracket)
        ):  # label: raised-at-zero
            bracket = _from_exception_edge(probe, T) or bracket  # label: edge-first
        if bracket is None or _stopped_by_error(probe, bracket, T.zero):  # label: other-side
            other = _gallop(probe, T.zero, -1, T)
            if bracket is None or (
                other is not None and not _stopped_by_error(probe, other, T.zero)
            ):
                bracket = other  # label: prefer-returned-false
    if bracket is None or probe(bracket[0]) == probe(bracket[1]):  # label: bracket-check
        _no_boundary(probe, bounds, bracket, T)
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
            f"no evaluated passing value next to an evaluated failing one ({shown(below)}, {shown(above)})",
            parameter="predicate",
        )
    if T.is_float and _key(found) == -1 and probe.passed(0.0):  # label: positive-zero
        found = 0.0  # -0.0 and 0.0 both passed: 0.0, as OpenDP (the failing side is below)
    return (found, sign) if return_sign else found  # label: return


def _no_boundary(probe: _Probe, bounds, bracket, T: _Kind) -> None:
    """Raise :class:`_NoBoundaryError`: the predicate did not change between the values tried."""
    passed = sum(probe.outcomes.values())
    where = (
        f"within the bounds {shown(bracket)}"
        if None not in bounds
        else f"from 0 towards +-{T.max:.4g} ({T.name})"
        if T.is_float
        else f"from 0 within [{T.low}, {T.high}] ({T.name})"
    )
    message = (
        f"no decision boundary {where}: no two values tried one after the other had different "
        f"outcomes ({passed} of {probe.count} evaluations passed)"
    )
    if probe.first_error is not None:
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
    if not callable(predicate):  # label: predicate-callable
        raise type_mismatch(BinarySearchError)("must be callable", parameter="predicate")
    try:
        return _search(predicate, bounds, T, return_sign)  # label: search-call
    except _NoBoundaryError as error:
        first = error.first_error
        if isinstance(first, DPError) and error.all_raised:  # label: reraise
            raise first from None  # every evaluation raised, the first a DPError: OpenDP's error
        raise


def binary_search_param(make_chain, d_in, d_out, bounds=(None, None), T=None):
    """The parameter of ``make_chain`` nearest the decision boundary whose chain passed
    ``check(d_in, d_out)`` (its map at ``d_in`` is at most ``d_out``)."""
    if "binary_search" not in _up_to_date:
        require_vetted_or_contrib("binary_search")  # label: param-gate
    if not callable(make_chain):  # label: make-chain-callable
        raise type_mismatch(BinarySearchError)("must be callable", parameter="make_chain")

    def passes(param):
        return make_chain(param).check(d_in, d_out)  # label: check

    try:
        return _search(passes, bounds, T, False)  # label: param-search
    except _NoBoundaryError as error:
        wrong_type = error.all_raised and isinstance(error.first_error, TypeError)
        raise (type_mismatch(BinarySearchError) if wrong_type else BinarySearchError)(
            f"no parameter found whose chain passes check(d_in={shown(d_in)}, d_out={shown(d_out)}): {error}",
            parameter="d_out",
        ) from error.first_error  # label: param-no-boundary


def binary_search_chain(make_chain, d_in, d_out, bounds=(None, None), T=None):
    """The chain built with :func:`binary_search_param`'s parameter, checked once more."""
    parameter = binary_search_param(make_chain, d_in, d_out, bounds, T)
    try:
        chain = make_chain(parameter)  # label: rebuild
        recheck = chain.check(d_in, d_out)  # label: recheck-call
    except FeatureNotEnabledError:
        raise
    except Exception as error:  # label: rebuild-raised
        raise BinarySearchError(
            f"rebuilding the chain at the parameter found ({shown(parameter)}) or checking it again "
            f"raised {type(error).__name__}: {error}",
            parameter="make_chain",
        ) from error
    if not (isinstance(recheck, (bool, np.bool_)) and recheck):  # label: recheck
        raise BinarySearchError(
            "the chain rebuilt from the parameter found no longer passes "
            f"check(d_in={shown(d_in)}, d_out={shown(d_out)})",
            parameter="make_chain",
        )
    return chain  # label: chain


# proof: end search
