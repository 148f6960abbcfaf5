"""Where OpenDP 0.16 raises ``TypeError`` for an argument of the wrong type, certdp's typed error
is also a ``TypeError`` (``errors.type_mismatch``), so ported ``except TypeError`` blocks keep
working. The calls below were found by running each in both libraries; the last test repeats the
comparison live when OpenDP is installed."""

from __future__ import annotations

import pytest

import certdp.prelude as cdp
from certdp.core.errors import DPError


def calls(dp):
    """Calls with an argument of the wrong type, by name, in the API of ``dp``."""

    def f64():
        return dp.atom_domain(T="f64", nan=False)

    def vf():
        return dp.vector_domain(f64())

    def vi():
        return dp.vector_domain(dp.atom_domain(T="i32"))

    sym = dp.symmetric_distance

    def ab():
        return dp.absolute_distance(T="f64")

    return {
        "vector size float": lambda: dp.vector_domain(f64(), size=5.0),
        "vector size str": lambda: dp.vector_domain(f64(), size="5"),
        "vector domain not domain": lambda: dp.vector_domain(5),
        "atom bounds str": lambda: dp.atom_domain(bounds=("a", "b")),
        "atom bounds 3": lambda: dp.atom_domain(bounds=(1.0, 2.0, 3.0)),
        "atom bounds float for i32": lambda: dp.atom_domain(bounds=(0.0, 1.0), T="i32"),
        "atom bounds mixed": lambda: dp.atom_domain(bounds=(0, 1.0)),
        "atom nan str": lambda: dp.atom_domain(T="f64", nan="yes"),
        "atom nan int": lambda: dp.atom_domain(T="f64", nan=1),
        "clamp bounds str": lambda: dp.t.make_clamp(vf(), sym(), ("a", "b")),
        "clamp bounds one": lambda: dp.t.make_clamp(vf(), sym(), 1.0),
        "clamp metric bad": lambda: dp.t.make_clamp(vf(), 5, (0.0, 1.0)),
        "resize size float": lambda: dp.t.make_resize(vf(), sym(), 5.0, 0.0),
        "resize size str": lambda: dp.t.make_resize(vf(), sym(), "5", 0.0),
        "resize const str": lambda: dp.t.make_resize(vf(), sym(), 5, "a"),
        "resize const int": lambda: dp.t.make_resize(vi(), sym(), 5, 0.5),
        "is_equal str": lambda: dp.t.make_is_equal(vf(), sym(), "a"),
        "is_equal int on f": lambda: dp.t.make_is_equal(vi(), sym(), 0.5),
        "bfcs size float": lambda: dp.t.make_bounded_float_checked_sum(5.0, (0.0, 1.0)),
        "bfcs size str": lambda: dp.t.make_bounded_float_checked_sum("5", (0.0, 1.0)),
        "bfcs bounds str": lambda: dp.t.make_bounded_float_checked_sum(5, ("a", "b")),
        "sbfcs size float": lambda: dp.t.make_sized_bounded_float_checked_sum(5.0, (0.0, 1.0)),
        "sbics size float": lambda: dp.t.make_sized_bounded_int_checked_sum(5.0, (0, 1)),
        "laplace scale str": lambda: dp.m.make_laplace(f64(), ab(), "1"),
        "laplace scale none": lambda: dp.m.make_laplace(f64(), ab(), None),
        "laplace k float": lambda: dp.m.make_laplace(f64(), ab(), 1.0, k=1.5),
        "laplace k str": lambda: dp.m.make_laplace(f64(), ab(), 1.0, k="1"),
        "laplace domain bad": lambda: dp.m.make_laplace(5, ab(), 1.0),
        "gaussian scale str": lambda: dp.m.make_gaussian(f64(), ab(), "1"),
        "gaussian k float": lambda: dp.m.make_gaussian(f64(), ab(), 1.0, k=1.5),
        "fix_delta delta str": lambda: dp.c.make_fix_delta(
            dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(f64(), ab(), 1.0)), "1e-6"
        ),
        "fix_delta meas bad": lambda: dp.c.make_fix_delta(5, 1e-6),
        "z2a bad": lambda: dp.c.make_zCDP_to_approxDP(5),
        "p2z bad": lambda: dp.c.make_pureDP_to_zCDP(5),
        "comp not list": lambda: dp.c.make_composition(5),
        "comp list of int": lambda: dp.c.make_composition([5]),
        "laplace map str": lambda: dp.m.make_laplace(f64(), ab(), 1.0).map("1"),
        "laplace check str": lambda: dp.m.make_laplace(f64(), ab(), 1.0).check(1.0, "1"),
        "clamp invoke str": lambda: dp.t.make_clamp(vf(), sym(), (0.0, 1.0))(["a"]),
        "clamp map float": lambda: dp.t.make_clamp(vf(), sym(), (0.0, 1.0)).map(1.0),
        "clamp map str": lambda: dp.t.make_clamp(vf(), sym(), (0.0, 1.0)).map("1"),
        "count invoke str": lambda: dp.t.make_count(vf(), sym())("abc"),
        "bs not callable": lambda: dp.binary_search(5),
        "bs bounds str": lambda: dp.binary_search(lambda x: x > 5, bounds=("a", "b")),
        "bs T bad": lambda: dp.binary_search(lambda x: x > 5, T=str),
        "bsp not callable": lambda: dp.binary_search_param(5, 1.0, 1.0),
        "then >> bad": lambda: (vf(), sym()) >> 5,
    }


NAMES = sorted(calls(cdp))


@pytest.fixture(autouse=True)
def _contrib():
    from certdp.core import features

    saved = set(features._enabled)
    features._enabled.add("contrib")
    yield
    features._enabled.clear()
    features._enabled.update(saved)


@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_type_is_a_type_error_and_a_dp_error(name):
    with pytest.raises(TypeError) as caught:
        calls(cdp)[name]()
    if name != "then >> bad":  # Python's own operator TypeError, as in OpenDP
        assert isinstance(caught.value, DPError), name
        assert caught.value.parameter


def test_a_wrong_value_of_the_right_type_is_not_a_type_error():
    """The TypeError marks wrong types only: a bound out of order, a size below zero, a constant
    outside the bounds or an empty composition keep their plain DPError."""
    f64 = cdp.atom_domain(T="f64", nan=False)
    cases = [
        lambda: cdp.atom_domain(bounds=(1.0, 0.0)),
        lambda: cdp.vector_domain(f64, size=-1),
        lambda: cdp.t.make_resize(
            cdp.vector_domain(cdp.atom_domain(bounds=(0.0, 1.0))), cdp.symmetric_distance(), 3, 5.0
        ),
        lambda: cdp.c.make_composition([]),
        lambda: cdp.m.make_laplace(cdp.atom_domain(T="bool"), cdp.absolute_distance(T="f64"), 1.0),
    ]
    for case in cases:
        with pytest.raises(DPError) as caught:
            case()
        assert not isinstance(caught.value, TypeError), caught.value


def test_opendp_raises_type_error_on_the_same_calls():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib", "honest-but-curious")
    for name, call in calls(odp).items():
        with pytest.raises(TypeError):
            call()
            pytest.fail(f"OpenDP accepted {name}")
