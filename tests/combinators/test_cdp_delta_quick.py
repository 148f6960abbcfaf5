"""cdp_delta with the quick operations returns exactly what it returned with the exact ones
(``numeric.floats``), over the whole input range: the same bits, the same errors."""

from __future__ import annotations

import importlib
import inspect
import math
import re
import struct
import sys
import types
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.core.errors import DPError

module = importlib.import_module("certdp.combinators._conversion.cdp_delta")


def _exact_copy():
    """The module with every ``quick_`` operation replaced by its exact twin."""
    source = inspect.getsource(module)
    source, count = re.subn(r"\bquick_((?:neg_)?inf_(?:add|sub|mul|div))\b", r"\1", source)
    assert count >= 14
    source = source.replace(
        "from certdp.numeric.quick import (",
        "from certdp.numeric import (inf_add, inf_sub, inf_mul, inf_div, neg_inf_sub,\n"
        "    neg_inf_mul, neg_inf_div)\nfrom certdp.numeric.quick import (",
    )
    source = re.sub(r"from certdp\.numeric\.quick import \([^)]*\)\n", "", source)
    source, count = re.subn(r"\bquick_(inf_(?:exp|ln_1p))\b", r"\1", source)
    assert count >= 4
    source = re.sub(r"from certdp\.numeric\.quick_elementary import [^\n]*\n", "", source)
    assert "quick" not in source.split('"""', 2)[2]
    name = f"{module.__name__}__exact"
    copy = types.ModuleType(name)
    copy.__package__ = module.__package__
    sys.modules[name] = copy
    exec(compile(source, "cdp_delta (exact operations)", "exec"), copy.__dict__)
    return copy


EXACT = _exact_copy()


def outcome(function, *args):
    try:
        return "value", struct.pack("<d", function(*args))
    except DPError as error:
        return "error", type(error), str(error)


def same(rho, epsilon):
    assert outcome(module.cdp_delta, rho, epsilon) == outcome(EXACT.cdp_delta, rho, epsilon), (
        rho,
        epsilon,
    )


def test_the_copy_uses_the_exact_operations():
    assert EXACT.delta_at_order.__code__.co_names.count("inf_sub") >= 1
    assert "quick_inf_sub" in module.delta_at_order.__code__.co_names
    assert EXACT._from_ar_e.__code__.co_names.count("inf_exp") == 1
    assert "quick_inf_exp" in module._from_ar_e.__code__.co_names
    assert "quick_inf_ln_1p" in module._from_ar_e.__code__.co_names


EDGES = [0.0, 5e-324, 1e-300, 1e-9, 1e-6, 0.01, 0.5, 1.0, 2.0, 30.0, 1e6, 1e150, 1e300]


def test_edges():
    for rho in EDGES + [math.inf, sys.float_info.max, Fraction(1, 3), 10**400]:
        for epsilon in EDGES + [math.inf, sys.float_info.max, Fraction(2, 7), 10**400]:
            same(rho, epsilon)


@given(rho=st.floats(0, allow_infinity=True), epsilon=st.floats(0, allow_infinity=True))
def test_any_floats(rho, epsilon):
    same(rho, epsilon)


@given(
    rho=st.floats(1e-12, 1e3),
    epsilon=st.floats(0, 1e3),
)
def test_the_range_searches_visit(rho, epsilon):
    same(rho, epsilon)


@pytest.mark.parametrize("rho", [1e-6, 0.0125, 0.5, 3.0])
def test_a_fix_delta_bisection(rho):
    """Every epsilon the profile's bisection visits for delta = 1e-6 and 1e-9."""
    from certdp.core.measures import PrivacyProfile

    for delta in (1e-6, 1e-9):
        seen = []

        def curve(epsilon, seen=seen):
            seen.append(epsilon)
            return EXACT.cdp_delta(rho, epsilon)

        answer = PrivacyProfile(curve).epsilon(delta)
        assert PrivacyProfile(lambda e: module.cdp_delta(rho, e)).epsilon(delta) == answer
        for epsilon in seen:
            same(rho, epsilon)


@pytest.mark.parametrize("a", [1.0000000000000002, 1.01, 1.5, 2.0, 9.0, 1e3, 1e17, 1e300])
def test_delta_at_order(a):
    for rho in (1e-300, 1e-6, 0.5, 7.0, 1e300):
        for epsilon in (0.0, 1e-3, 1.0, 40.0, 1e300):
            assert outcome(module.delta_at_order, a, rho, epsilon) == outcome(
                EXACT.delta_at_order, a, rho, epsilon
            )
