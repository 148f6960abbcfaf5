"""Find the parameter of a chain nearest the decision boundary of ``check(d_in, d_out)``.

Guarantee: ``binary_search(predicate, bounds, T)`` returns a value ``v`` of type ``T`` (int or
float) at which ``predicate(v)`` was evaluated and returned ``True`` -- never an interpolated
guess -- or raises :class:`BinarySearchError` (a :class:`DPError` and a ``ValueError``).  When
the predicate is monotone on the searched interval, ``v`` is moreover the passing value
nearest the decision boundary: the adjacent value of ``T`` on the other side (the next
integer, or the next float) was evaluated and failed.  A predicate that raises a
:class:`DPError` at a value counts as failing there.  Hence ``binary_search_param(make_chain,
d_in, d_out)`` returns a parameter whose chain passed ``check(d_in, d_out)``, i.e. whose map
at ``d_in`` is at most ``d_out``; ``binary_search_chain`` rebuilds that chain and checks it
again before returning it.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable

from certdp.core.errors import DPError, FailedFunctionError

__all__ = ["BinarySearchError", "binary_search", "binary_search_param", "binary_search_chain"]


class BinarySearchError(FailedFunctionError, ValueError):
    """The search cannot find a passing value next to a failing one."""


def _key(value: float) -> int:
    """An integer order-isomorphic to the floats, ``-0.0`` (key -1) just below ``0.0`` (key 0),
    so that every key maps back to exactly the float it came from."""
    bits = struct.unpack("<q", struct.pack("<d", abs(value)))[0]
    return bits if math.copysign(1.0, value) > 0 else -bits - 1


def _value(key: int) -> float:
    magnitude = struct.unpack("<d", struct.pack("<q", key if key >= 0 else -key - 1))[0]
    return magnitude if key >= 0 else -magnitude


def _type_of(bounds, T):
    if T in (int, "int", "i32", "i64", "u32", "u64", "usize"):
        return int
    if T in (float, "float", "f32", "f64"):
        return float
    if T is not None:
        raise BinarySearchError(f"must be int or float, got {T!r}", parameter="T")
    given = [b for b in bounds if b is not None]
    if given and all(isinstance(b, int) and not isinstance(b, bool) for b in given):
        return int
    return float


class _Probe:
    """Evaluates the predicate, counting a DPError as a failure and remembering the first."""

    def __init__(self, predicate):
        self.predicate = predicate
        self.first_error = None
        self.passed_once = False

    def __call__(self, value) -> bool:
        try:
            result = bool(self.predicate(value))
        except DPError as error:
            if self.first_error is None:
                self.first_error = error
            return False
        self.passed_once = self.passed_once or result
        return result


def _exponential_bracket(probe, T):
    """Two values with different predicate outcomes, found by doubling away from 1 (then
    from 0 and the negative side)."""
    one = T(1)
    start = probe(one)
    steps = 64 if T is int else 1023  # 2^1023 is the largest finite power of two
    value = one
    for _ in range(steps):  # upwards
        previous, value = value, value * 2
        if probe(value) != start:
            return previous, value
    value = one
    candidates = []
    if T is float:
        candidates = [2.0**-j for j in range(1, 1075)]
    candidates += [T(0)] + [-(T(2) ** j) if T is int else -(2.0**j) for j in range(0, steps + 1)]
    previous = one
    for value in candidates:
        if probe(value) != start:
            return value, previous
        previous = value
    if probe.first_error is not None and not probe.passed_once:
        raise probe.first_error
    raise BinarySearchError(
        "the predicate is constant on every value tried: no decision boundary found",
        parameter="bounds",
    )


def binary_search(
    predicate: Callable[[float], bool], bounds=(None, None), T=None, return_sign: bool = False
):
    """The passing value nearest the decision boundary of a monotone ``predicate``."""
    bounds = (None, None) if bounds is None else tuple(bounds)
    if len(bounds) != 2:
        raise BinarySearchError(f"must be a pair, got {bounds!r}", parameter="bounds")
    T = _type_of(bounds, T)
    for bound in bounds:
        if bound is not None and (
            isinstance(bound, bool)
            or not isinstance(bound, (int, float))
            or (isinstance(bound, float) and not math.isfinite(bound))
        ):
            raise BinarySearchError(f"must be finite numbers, got {bounds!r}", parameter="bounds")
    probe = _Probe(predicate)
    if None in bounds:
        low, high = _exponential_bracket(probe, T)
        low, high = min(low, high), max(low, high)
    else:
        low, high = T(min(bounds)), T(max(bounds))
    low_passes, high_passes = probe(low), probe(high)
    if low_passes == high_passes:
        if probe.first_error is not None and not probe.passed_once:
            raise probe.first_error
        raise BinarySearchError(
            f"the decision boundary is not within the bounds ({low!r}, {high!r}): the predicate "
            f"is {low_passes} at both",
            parameter="bounds",
        )
    # invariant: probe(low) == low_passes != probe(high); the gap shrinks to one step
    if T is int:
        while high - low > 1:
            middle = (low + high) // 2
            if probe(middle) == low_passes:
                low = middle
            else:
                high = middle
    else:
        low_key, high_key = _key(low), _key(high)
        while high_key - low_key > 1:
            middle = (low_key + high_key) // 2
            if probe(_value(middle)) == low_passes:
                low_key = middle
            else:
                high_key = middle
        low, high = _value(low_key), _value(high_key)
    found, sign = (low, -1) if low_passes else (high, 1)
    return (found, sign) if return_sign else found


def binary_search_param(make_chain, d_in, d_out, bounds=(None, None), T=None):
    """The parameter of ``make_chain`` nearest the decision boundary whose chain passed
    ``check(d_in, d_out)`` (its map at ``d_in`` is at most ``d_out``)."""
    return binary_search(lambda param: make_chain(param).check(d_in, d_out), bounds, T)


def binary_search_chain(make_chain, d_in, d_out, bounds=(None, None), T=None):
    """The chain built with :func:`binary_search_param`'s parameter, checked once more."""
    chain = make_chain(binary_search_param(make_chain, d_in, d_out, bounds, T))
    if not chain.check(d_in, d_out):
        raise BinarySearchError(
            "the chain rebuilt from the parameter found no longer passes check(d_in, d_out)",
            parameter="make_chain",
        )
    return chain
