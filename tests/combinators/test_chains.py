"""make_chain_tt, make_chain_mt, make_chain_pm and dp.new_function: OpenDP 0.16's argument order
and numbers, the same object as >>, bad inputs, contracts (and refuted wrong maps), runtime
enforcement."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators.chain_mt.contract import CONTRACT as MT_CONTRACT
from certdp.combinators.chain_pm.contract import CONTRACT as PM_CONTRACT
from certdp.combinators.chain_tt.contract import CONTRACT as TT_CONTRACT
from certdp.contracts.contract import PrivacyViolation, StabilityViolation
from certdp.core.errors import (
    ContractError,
    DomainMismatchError,
    FailedFunctionError,
    FeatureNotEnabledError,
    MakeDomainError,
    MakeMeasurementError,
    MakeTransformationError,
)

SPACE = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()


@pytest.fixture(autouse=True)
def _features():
    yield
    dp.disable_features("honest-but-curious")


def _clamp_sum():
    clamp = dp.t.make_clamp(*SPACE, bounds=(0.0, 10.0))
    return clamp, dp.t.make_sum(*clamp.output_space)


def test_chain_tt_as_opendp():
    """OpenDP 0.16: chain_tt(sum, clamp (0, 10)) on f64 vectors: map(1) = 10.00000009313226,
    map(3) = 30.00000009313226, [1, 20, -3] -> 11."""
    clamp, total = _clamp_sum()
    chained = dp.c.make_chain_tt(total, clamp)
    assert chained.map(1) == 10.00000009313226 and chained.map(3) == 30.00000009313226
    assert chained([1.0, 20.0, -3.0]) == 11.0
    assert chained.input_space == SPACE and chained.output_space == total.output_space
    same = clamp >> total
    assert [same.map(d) for d in (0, 1, 7)] == [chained.map(d) for d in (0, 1, 7)]
    assert same._stages == chained._stages == (clamp, total)


def test_chain_mt_as_opendp():
    """OpenDP 0.16: chain_mt(laplace scale 5, chain_tt(sum, clamp)): map(1) =
    2.000000018626452, map(2) = 4.000000018626452; count >> laplace(2): 0.5 and 1.5 at
    d_in 1 and 3; count >> gaussian(2): rho 0.125."""
    clamp, total = _clamp_sum()
    inner = dp.c.make_chain_tt(total, clamp)
    laplace = dp.m.make_laplace(*inner.output_space, scale=5.0)
    release = dp.c.make_chain_mt(laplace, inner)
    assert release.map(1) == 2.000000018626452 and release.map(2) == 4.000000018626452
    assert isinstance(release([1.0, 2.0]), float)
    assert release.output_measure == dp.max_divergence()
    count = dp.t.make_count(dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance())
    counted = dp.c.make_chain_mt(dp.m.make_laplace(*count.output_space, scale=2.0), count)
    assert (counted.map(1), counted.map(3)) == (0.5, 1.5)
    gaussian = dp.m.make_gaussian(*count.output_space, scale=2.0)
    assert dp.c.make_chain_mt(gaussian, count).map(1) == 0.125


def test_chain_pm_as_opendp():
    """OpenDP 0.16: a postprocessor keeps the measurement's map and measure (2.000000018626452
    for the release above)."""
    clamp, total = _clamp_sum()
    release = clamp >> total >> dp.m.then_laplace(scale=5.0)
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        dp.new_function(lambda x: x, TO=float)
    dp.enable_features("honest-but-curious")
    rounded = dp.c.make_chain_pm(dp.new_function(lambda x: round(x), TO=int), release)
    assert rounded.map(1) == release.map(1) == 2.000000018626452
    assert rounded.output_measure == release.output_measure and rounded.input_space == SPACE
    assert type(rounded([1.0, 2.0, 3.0])) is int
    atom = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    zcdp = dp.m.make_gaussian(*atom, scale=2.0)
    labelled = dp.c.make_chain_pm(
        dp.new_function(lambda y: {"value": y}, TO="ExtrinsicObject"), zcdp
    )
    assert labelled.map(1.0) == zcdp.map(1.0) == 0.125
    assert set(labelled(0.0)) == {"value"}


def _laplace():
    space = dp.atom_domain(T=dp.f64, nan=False), dp.absolute_distance(T=dp.f64)
    return dp.m.make_laplace(*space, 1.0)


def test_measurement_rshift_new_function_as_in_opendp():
    """Referee counterexample: OpenDP 0.16's ``meas >> dp.new_function(f, TO=...)`` is
    make_chain_pm; certdp had no Measurement.__rshift__."""
    dp.enable_features("honest-but-curious")
    meas = _laplace()
    post = dp.new_function(lambda y: 0.0 * y, TO=float)
    chained = meas >> post
    assert chained(1.0) == 0.0
    assert chained.map(1.0) == meas.map(1.0)
    assert chained.output_measure == meas.output_measure and chained.input_space == meas.input_space
    twice = chained >> dp.new_function(lambda y: y + 1.0, TO=float)  # postprocessing again
    assert twice(1.0) == 1.0 and twice.map(2.0) == meas.map(2.0)


def test_measurement_rshift_plain_callable_as_in_opendp():
    """Referee counterexample: ``meas >> (lambda y: ...)`` wraps the callable with new_function
    (under honest-but-curious, TO="ExtrinsicObject") and chains it."""
    meas = _laplace()
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        meas >> (lambda y: 0.0 * y)
    dp.enable_features("honest-but-curious")
    chained = meas >> (lambda y: 0.0 * y)
    assert chained(1.0) == 0.0 and chained.map(1.0) == meas.map(1.0)
    clamp, total = _clamp_sum()
    release = clamp >> total >> dp.m.then_laplace(scale=5.0) >> round
    assert type(release([1.0, 2.0])) is int and release.map(1) == 2.000000018626452


def test_measurement_rshift_refusals():
    meas = _laplace()
    with pytest.raises(MakeMeasurementError) as error:
        meas >> 3
    assert error.value.parameter == "chain" and isinstance(error.value, TypeError)
    dp.enable_features("honest-but-curious")  # a partial constructor is never a postprocessor
    with pytest.raises(MakeTransformationError, match="^chain: a measurement"):
        meas >> dp.t.then_clamp(bounds=(0.0, 1.0))


def test_chain_pm_callback_error_is_typed():
    """Referee counterexample: a callback's exception escaped as a bare ZeroDivisionError; it is
    a FailedFunctionError (dp.OpenDPException), through make_chain_pm and through >>."""
    dp.enable_features("honest-but-curious")

    def boom(y):
        raise ZeroDivisionError("callback")

    for chained in (dp.c.make_chain_pm(dp.new_function(boom, TO=float), _laplace()),
                    _laplace() >> boom):  # fmt: skip
        with pytest.raises(FailedFunctionError) as error:
            chained(1.0)
        assert isinstance(error.value, dp.OpenDPException)
        assert error.value.parameter == "postprocess1"
        assert "ZeroDivisionError: callback" in str(error.value)


def test_chain_pm_callback_error_carries_nothing_but_its_text():
    """The typed error is a function of the release only (its text, computed by the callback):
    neither the release itself nor the callback's frames are reachable from it."""
    dp.enable_features("honest-but-curious")
    seen = []

    def boom(y):
        seen.append(y)
        raise ValueError("refused")

    with pytest.raises(FailedFunctionError) as error:
        (_laplace() >> boom)(1.0)
    (release,) = seen
    raised = error.value
    assert raised.__cause__ is None and raised.__context__ is None
    frames, tb = [], raised.__traceback__.tb_next  # past this test's own frame
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    assert "released" in {frame.f_code.co_name for frame in frames}
    assert "boom" not in {frame.f_code.co_name for frame in frames}
    for frame in frames:
        assert all(value is not release for value in frame.f_locals.values()), frame

    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no text")

    def unprintable(y):
        raise Unprintable

    with pytest.raises(FailedFunctionError, match="Unprintable: [(]its text could not be read"):
        (_laplace() >> unprintable)(1.0)


#: (TO, the callback's value, what the chain releases or None for a refusal), as OpenDP 0.16
#: converts a callback's value to TO (checked live against OpenDP below when it is installed).
CONVERSIONS = [
    (float, 12, 12.0),
    ("f64", 2**60 + 1, float(2**60)),
    ("f64", 2**1024, None),
    ("f64", True, None),
    ("f64", "a", None),
    ("f64", float("inf"), float("inf")),
    ("f64", np.float64(1.5), 1.5),
    ("f32", 0.1, 0.10000000149011612),
    ("f32", 1e300, float("inf")),
    ("f32", 2**60 + 1, float(2**60)),
    ("i32", 2**31 - 1, 2**31 - 1),
    ("i32", -(2**31), -(2**31)),
    ("i32", 2**31, None),
    ("i32", 2.5, None),
    ("i32", np.int32(3), 3),
    (int, True, None),
    ("i64", 2**40, 2**40),
    ("u8", -1, None),
    ("u8", 300, None),
    ("usize", 2**64 - 1, 2**64 - 1),
    ("usize", 2**64, None),
    ("bool", True, True),
    ("bool", 1, None),
    ("bool", np.bool_(True), True),
    ("String", "x", "x"),
    ("String", 5, None),
    ("String", np.str_("a"), "a"),
    ("Vec<f64>", [1, 2], [1.0, 2.0]),
    ("Vec<f64>", (1, 2), [1.0, 2.0]),
    ("Vec<i32>", [1.5], None),
    ("Vec<String>", ["a"], ["a"]),
    ("(f64, i32)", (1, 2), (1.0, 2)),
    ("(f64, i32)", [1, 2], None),
    ("(f64, f64)", (1, 2, 3), None),
    ("Option<f64>", 1, 1.0),
    ("HashMap<String, f64>", {"a": 1}, {"a": 1.0}),
    ("ExtrinsicObject", {"a": 1}, {"a": 1}),
]


@pytest.mark.parametrize("TO, value, expected", CONVERSIONS)
def test_chain_pm_converts_the_value_to_TO_as_opendp(TO, value, expected):
    dp.enable_features("honest-but-curious")
    chained = dp.c.make_chain_pm(dp.new_function(lambda y: value, TO=TO), _laplace())
    if expected is None:
        with pytest.raises(FailedFunctionError) as error:
            chained(1.0)
        assert "TO:" in error.value.message
        return
    released = chained(1.0)
    assert released == expected and type(released) is type(expected)
    if type(expected) in (list, tuple):
        assert [type(v) for v in released] == [type(v) for v in expected]
    via_rshift = (_laplace() >> dp.new_function(lambda y: value, TO=TO))(1.0)
    assert via_rshift == expected and type(via_rshift) is type(expected)


def test_a_called_function_converts_and_refuses_typed():
    dp.enable_features("honest-but-curious")
    assert dp.new_function(lambda y: 12, TO=float)(0) == 12.0
    with pytest.raises(FailedFunctionError) as error:
        dp.new_function(lambda y: 2**40, TO="i32")(0)
    assert error.value.parameter == "TO" and "not representable by i32" in error.value.message
    big = [1] * 1000  # only a short built-in value is shown in the refusal
    with pytest.raises(FailedFunctionError) as error:
        dp.new_function(lambda y: big, TO="f64")(0)
    assert "(a list)" in error.value.message and "1, 1" not in error.value.message


@pytest.mark.parametrize("TO", ["i128", "Vec<Vec<f64>>", "AnyObject", "char", "Vec<>", "(f64)"])
def test_an_output_type_certdp_does_not_convert_to_is_refused_at_construction(TO):
    dp.enable_features("honest-but-curious")
    with pytest.raises(MakeDomainError) as error:
        dp.new_function(lambda y: y, TO=TO)
    assert error.value.parameter == "TO" and isinstance(error.value, TypeError)


def test_conversions_match_opendp():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib", "honest-but-curious")
    space = odp.atom_domain(T="f64", nan=False), odp.absolute_distance(T="f64")
    inner = odp.m.make_laplace(*space, 1.0)
    for TO, value, expected in CONVERSIONS:
        chained = odp.c.make_chain_pm(odp.new_function(lambda y, v=value: v, TO=TO), inner)
        try:
            released = chained(1.0)
        except odp.OpenDPException:
            assert expected is None, (TO, value)
            continue
        assert released == expected and type(released) is type(expected), (TO, value)


def test_new_function():
    dp.enable_features("honest-but-curious")
    doubled = dp.new_function(lambda x: 2 * x, TO=dp.f64)
    assert doubled(3.0) == 6.0 and doubled.TO == "f64" and isinstance(doubled, dp.Function)
    assert dp.new_function(len, TO=int).TO == "i32"
    for function, TO, parameter in [(3, "f64", "function"), (len, 3, "TO"), (len, None, "TO")]:
        with pytest.raises(MakeDomainError) as error:
            dp.new_function(function, TO=TO)
        assert error.value.parameter == parameter and isinstance(error.value, TypeError)


def test_bad_arguments():
    clamp, total = _clamp_sum()
    laplace = dp.m.make_laplace(*total.output_space, scale=1.0)
    cases = [
        (dp.c.make_chain_tt, (laplace, clamp), MakeTransformationError, "transformation1"),
        (dp.c.make_chain_tt, (total, "clamp"), MakeTransformationError, "transformation0"),
        (dp.c.make_chain_mt, (total, clamp), MakeMeasurementError, "measurement1"),
        (dp.c.make_chain_mt, (laplace, laplace), MakeMeasurementError, "transformation0"),
        (dp.c.make_chain_pm, (lambda y: y, laplace), MakeMeasurementError, "postprocess1"),
        (dp.c.make_chain_pm, (None, laplace), MakeMeasurementError, "postprocess1"),
    ]
    for constructor, arguments, error_type, parameter in cases:
        with pytest.raises(error_type) as error:
            constructor(*arguments)
        assert error.value.parameter == parameter and isinstance(error.value, TypeError)
    dp.enable_features("honest-but-curious")
    with pytest.raises(MakeMeasurementError) as error:
        dp.c.make_chain_pm(dp.new_function(abs, TO=float), clamp)
    assert error.value.parameter == "measurement0"
    with pytest.raises(DomainMismatchError):  # the sum's output is not a vector
        dp.c.make_chain_tt(dp.t.make_count(*SPACE), total)


def test_contracts_hold():
    assert TT_CONTRACT.verify(max_examples=30).examples > 0
    assert MT_CONTRACT.verify(max_examples=30).examples > 0
    assert PM_CONTRACT.verify(max_examples=30).examples > 0


def test_wrong_maps_are_refuted():
    with pytest.raises(StabilityViolation):
        TT_CONTRACT.verify(max_examples=300, map_override=lambda d_in: 0)
    with pytest.raises(PrivacyViolation):
        MT_CONTRACT.verify(max_examples=300, map_override=lambda d_in: 1e-3 * d_in)
    with pytest.raises(PrivacyViolation):
        PM_CONTRACT.verify(max_examples=300, map_override=lambda d_in: 1e-3 * d_in)


def test_runtime_enforcement():
    dp.enable_contracts()
    clamp, total = _clamp_sum()
    chained = dp.c.make_chain_tt(total, clamp)
    assert chained.map(1) == 10.00000009313226
    chained._map = lambda d_in: 1.0
    with pytest.raises(ContractError) as error:
        chained.map(1)
    assert error.value.condition == "stability-map"
    release = dp.c.make_chain_mt(dp.m.make_laplace(*total.output_space, scale=5.0), chained)
    release._map = lambda d_in: 0.5
    with pytest.raises(ContractError):
        release.map(1)
    dp.enable_features("honest-but-curious")
    laplace = dp.m.make_laplace(*total.output_space, scale=5.0)
    post = dp.c.make_chain_pm(dp.new_function(abs, TO=float), laplace)
    assert post.map(1.0) == laplace.map(1.0)
    post._map = lambda d_in: 0.0
    with pytest.raises(ContractError):
        post.map(1.0)


# Referee front (s7): regression tests of the output conversion.


def test_hashmap_with_float_keys_is_refused_never_merged():
    dp.enable_features("honest-but-curious")
    for key in ("f64", "f32", "float"):
        function = dp.new_function(lambda x: {2**53: 1, 2**53 + 1: 2}, TO=f"HashMap<{key},i32>")
        with pytest.raises(FailedFunctionError) as error:
            function(1.0)
        assert error.value.parameter == "TO" and "keys may not be floats" in error.value.message
    assert dp.new_function(lambda x: {2**53: 1, 2**53 + 1: 2}, TO="HashMap<i64,i32>")(0) == {
        2**53: 1,
        2**53 + 1: 2,
    }


@pytest.mark.parametrize(
    "TO, value, expected",
    [
        ("float", 3, 3.0),
        ("int", 3, 3),
        ("Vec<float>", [1, 2], [1.0, 2.0]),
        ("Option<float>", 1, 1.0),
        ("Option<Vec<i32>>", [1], [1]),
        ("Option<Vec<i32>>", None, None),
        ("Tuple<f64,f64>", (1.0, 2), (1.0, 2.0)),
        ("Option<(f64, i32)>", (1, 2), (1.0, 2)),
    ],
)
def test_new_function_accepts_the_type_names_opendp_accepts(TO, value, expected):
    dp.enable_features("honest-but-curious")
    released = dp.new_function(lambda x: value, TO=TO)(1.0)
    assert released == expected and type(released) is type(expected)


@pytest.mark.parametrize("TO", ["Option<Option<f64>>", "Vec<Option<f64>>", "Tuple<f64>", "floats"])
def test_names_still_refused_at_construction(TO):
    dp.enable_features("honest-but-curious")
    with pytest.raises(MakeDomainError) as error:
        dp.new_function(lambda y: y, TO=TO)
    assert error.value.parameter == "TO"


def test_function_built_with_a_python_type():
    dp.enable_features("honest-but-curious")
    built = dp.Function(lambda x: x, float)
    assert built(1) == 1.0 and type(built(1)) is float and built.TO == "f64"
    with pytest.raises(MakeDomainError) as error:
        dp.Function(lambda x: x, 3)
    assert error.value.parameter == "TO" and isinstance(error.value, TypeError)


@pytest.mark.parametrize("TO", ["i32", "f64", "f32", "bool", "String", "Vec<i32>", "u8"])
def test_conversion_refuses_a_huge_int_with_a_typed_error(TO):
    dp.enable_features("honest-but-curious")
    huge = 10**5000
    function = dp.new_function(lambda x: [huge] if TO == "Vec<i32>" else huge, TO=TO)
    with pytest.raises(FailedFunctionError) as error:
        function(1.0)
    assert error.value.parameter == "TO" and "bits)" in error.value.message
    chained = dp.c.make_chain_pm(dp.new_function(lambda y: huge, TO=TO), _laplace())
    with pytest.raises(FailedFunctionError):
        chained(1.0)


def test_a_tower_of_5000_postprocessors_builds_maps_and_runs_without_recursion():
    """``m >> f >> f >> ...`` is flattened (core/postprocess.py ``_tower``): a tower 5000 high
    builds, maps and releases in one loop, under the default recursion limit, applying the
    functions in order; the first one that raises stops it with the usual typed error."""
    assert sys.getrecursionlimit() < 5000  # so a nested tower would fail here
    dp.enable_features("honest-but-curious")
    base = _laplace()
    calls = []
    step = dp.new_function(lambda y: calls.append(y) or y + 1, TO="ExtrinsicObject")
    tower = base >> (lambda y: 0)
    for _ in range(4999):
        tower = tower >> step
    assert tower.map(1) == base.map(1) and tower.map(3) == base.map(3)
    with pytest.raises(dp.FailedMapError):
        tower.map(-1)
    released = tower(1.0)
    # each function received the previous one's value, in order
    assert calls == list(range(4999)) and released == 4999
    assert tower.input_space == base.input_space and tower.output_measure == base.output_measure
    # a failure half-way: later functions never run, the error names the failing one's text
    calls.clear()
    broken = tower >> (lambda y: 1 / 0)
    for _ in range(4999):
        broken = broken >> step
    with pytest.raises(FailedFunctionError) as error:
        broken(1.0)
    assert calls == list(range(4999)) and error.value.parameter == "postprocess1"
    assert "ZeroDivisionError" in str(error.value)
    # make_chain_pm on a tower is the same loop
    assert dp.c.make_chain_pm(step, tower).map(1) == base.map(1)


def test_a_changed_postprocessing_is_not_flattened():
    """A postprocessing whose function was replaced after it was built is run as it is now
    (nested), never by the recorded loop."""
    dp.enable_features("honest-but-curious")
    first = _laplace() >> (lambda y: 1.0)
    first.function = lambda x: 2.0
    assert (first >> (lambda y: y * 10))(1.0) == 20.0
    changed_map = _laplace() >> (lambda y: y)
    changed_map._map = lambda d_in: 123.0
    assert (changed_map >> (lambda y: y)).map(1) == 123.0


def test_measurement_rshift_transformation_needs_only_contrib():
    """OpenDP 0.16 needs only contrib for ``m >> t`` (it hands ``t.function`` to make_chain_pm);
    so does certdp for a transformation kept as built (a subclass or a reassigned function
    still needs honest-but-curious, below: referee ref-new)."""
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
    noisy = dp.m.make_laplace(*space, scale=1.0)
    cast = dp.t.make_cast_default(dp.vector_domain(dp.atom_domain(T=float)), SPACE[1], TOA=int)
    released = noisy >> cast
    out = released([10.0, 20.0, 30.0])
    assert len(out) == 3 and all(type(v) is int for v in out)
    assert released.map(1.0) == noisy.map(1.0) == 1.0  # OpenDP 0.16: the same map, 1.0
    assert released.output_measure == noisy.output_measure


def test_rshift_with_a_transformation_subclass_needs_honest_but_curious():
    """Referee ref-new: a Transformation subclass whose invoke reads global state."""
    from certdp.core.transformation import Transformation

    state = {"v": 42}

    class Fake(Transformation):
        def __init__(self):
            pass

        def invoke(self, x):
            return state["v"]

    m = dp.m.make_laplace(
        dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=1.0
    )
    with pytest.raises(FeatureNotEnabledError):
        (m >> Fake())(1.0)


def test_rshift_with_a_transformation_whose_function_was_swapped_needs_honest_but_curious():
    """Referee ref-new: a certdp make_clamp whose ``function`` was reassigned."""
    state = {"v": 42}
    vm = dp.m.make_laplace(
        dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float), scale=1.0
    )
    t = dp.t.make_clamp(
        dp.vector_domain(dp.atom_domain(T=float, nan=False)),
        dp.symmetric_distance(),
        bounds=(0.0, 1.0),
    )
    t.function = lambda x: state["v"]
    with pytest.raises(FeatureNotEnabledError):
        (vm >> t)([1.0])
