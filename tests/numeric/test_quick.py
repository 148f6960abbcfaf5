"""``numeric.quick``: each quick operation returns the same bits and raises the same errors as
its exact twin in ``numeric.floats``, and a wrong host candidate only sends it to the exact path.
"""

from __future__ import annotations

import inspect
import math
import struct
import sys
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.core.errors import DPError
from certdp.numeric import floats, quick

NAMES = [
    "inf_add",
    "inf_sub",
    "inf_mul",
    "inf_div",
    "neg_inf_add",
    "neg_inf_sub",
    "neg_inf_mul",
    "neg_inf_div",
]
OMEGA = sys.float_info.max
EDGES = [
    0.0,
    -0.0,
    5e-324,
    -5e-324,
    1.5e-323,
    2.2250738585072014e-308,
    -2.2250738585072014e-308,
    2.225073858507201e-308,
    OMEGA,
    -OMEGA,
    math.nextafter(OMEGA, 0),
    1.0,
    -1.0,
    2.0,
    0.5,
    3.0,
    0.1,
    1e308,
    1e-308,
    math.inf,
    -math.inf,
    math.nan,
    2.0**-1022,
    2.0**1023,
    1.0000000000000002,
    0.9999999999999999,
]


def outcome(function, a, b):
    """The bits of the result, or the type and message of the error."""
    try:
        return "value", struct.pack("<d", function(a, b))
    except DPError as error:
        return "error", type(error), str(error), error.parameter


def same(name, a, b):
    assert outcome(getattr(quick, f"quick_{name}"), a, b) == outcome(getattr(floats, name), a, b), (
        name,
        a,
        b,
    )


@pytest.mark.parametrize("name", NAMES)
def test_every_pair_of_edge_values(name):
    around = [
        value
        for edge in EDGES
        for value in (math.nextafter(edge, -math.inf), edge, math.nextafter(edge, math.inf))
    ]
    for a in around:
        for b in around:
            same(name, a, b)


@pytest.mark.parametrize("name", NAMES)
@given(
    a=st.floats(allow_nan=True, allow_infinity=True),
    b=st.floats(allow_nan=True, allow_infinity=True),
)
def test_any_floats(name, a, b):
    same(name, a, b)


@pytest.mark.parametrize("name", NAMES)
@given(bits=st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)))
def test_any_bit_patterns(name, bits):
    a, b = (struct.unpack("<d", x.to_bytes(8, "little"))[0] for x in bits)
    same(name, a, b)


@pytest.mark.parametrize("name", NAMES)
@given(a=st.floats(1e-300, 1e300), ulps=st.integers(-4, 4))
def test_near_ties_and_cancellation(name, a, ulps):
    b = a
    for _ in range(abs(ulps)):
        b = math.nextafter(b, math.inf if ulps > 0 else -math.inf)
    same(name, a, b)
    same(name, a, -b)
    same(name, a, b * 0.5 + 2**-1074)


@pytest.mark.parametrize("name", NAMES)
def test_other_argument_types_go_to_the_exact_operation(name):
    from fractions import Fraction

    for a, b in [(1, 3.0), (Fraction(1, 3), 1.0), (True, 1.0), ("1", 1.0), (2**2000, 1.0)]:
        same(name, a, b)


def _with_host_result(shift):
    """A copy of ``quick`` whose host candidate is moved by ``shift`` floats (a wrong host)."""
    source = inspect.getsource(quick)
    for op in ("a + b", "a - b", "a * b", "a / b  # b != 0 here"):
        assert source.count(f"candidate = {op}") == 1
        source = source.replace(
            f"candidate = {op}", f"candidate = _moved({op.split('  #')[0]}, {shift})"
        )
    name = f"{quick.__name__}__wrong_host{shift}"
    copy = types.ModuleType(name)
    copy.__package__ = quick.__package__
    sys.modules[name] = copy

    def moved(x, n):
        for _ in range(abs(n)):
            x = math.nextafter(x, math.inf if n > 0 else -math.inf)
        return x

    copy.__dict__["_moved"] = moved
    exec(compile(source, "quick (wrong host)", "exec"), copy.__dict__)
    return copy


@pytest.mark.parametrize("shift", [-3, -1, 1, 2, 5])
def test_a_wrong_host_result_changes_nothing(shift):
    wrong = _with_host_result(shift)
    values = [0.1, 0.3, 2.5, 7.0, 1e-310, 3e300, -0.7, 1 / 3, 2.0**-1022, 1e-5]
    for name in NAMES:
        for a in values:
            for b in values:
                expected = outcome(getattr(floats, name), a, b)
                assert outcome(getattr(wrong, f"quick_{name}"), a, b) == expected, (name, a, b)


def test_the_fast_path_is_taken_on_ordinary_operands(monkeypatch):
    """The exact operation is called only where the candidate check fails (here: never)."""
    called = []
    for name in NAMES:
        exact = getattr(floats, name)
        spy = quick._quick(
            {"add": "+", "sub": "-", "mul": "*", "div": "/"}[name[-3:]],
            not name.startswith("neg"),
            lambda a, b, exact=exact: called.append((a, b)) or exact(a, b),
        )
        for a, b in [(0.1, 0.7), (2.5, 1 / 3), (1e-5, 3.0), (12.0, 0.3)]:
            assert spy(a, b) == exact(a, b)
    assert called == []


class _SubFloat(float):
    """A float subclass: same value, another type."""


@pytest.mark.parametrize("wrap", [lambda v: __import__("fractions").Fraction(v), _SubFloat])
def test_a_next_float_of_another_type_is_never_returned(monkeypatch, wrap):
    """math.nextafter answering in another type (right value): every quick operation still
    returns exactly a float with the exact operation's bits (quick._checked's type check)."""
    real = math.nextafter
    calls = []
    host = types.SimpleNamespace(**{k: getattr(math, k) for k in dir(math) if k[0] != "_"})
    host.nextafter = lambda v, to: calls.append(v) or wrap(real(v, to))
    monkeypatch.setattr(quick, "math", host)
    values = [0.1, 0.3, 2.5, 7.0, 1e-310, 3e300, -0.7, 1 / 3, 2.0**-1022, 1e-5]
    got = {
        (name, a, b): outcome(getattr(quick, f"quick_{name}"), a, b)
        for name in NAMES
        for a in values
        for b in values
    }
    types_seen = set()
    for name in NAMES:
        for a in values:
            for b in values:
                try:
                    types_seen.add(type(getattr(quick, f"quick_{name}")(a, b)))
                except DPError:
                    pass
    monkeypatch.undo()
    assert calls  # the next-float path was taken
    assert types_seen == {float}
    for (name, a, b), value in got.items():
        assert value == outcome(getattr(floats, name), a, b), (name, a, b)
