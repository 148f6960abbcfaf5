"""Every public entry point, driven with hostile values (issue 10's hostile-input suite).

Each case substitutes one parameter of a valid call.  Whatever the value, the call either
answers or raises a ``DPError`` naming a parameter, never another exception; a contract
violation (``ContractError``: a map below the proof's exact bound) is a failure.  When the
value is a foreign number with an exact Python twin (``np.int8(64)`` and ``64``), both give the
same answer: the conversion is exact.
"""

import math

import pytest
from hypothesis import given, settings

import certdp.prelude as dp
from certdp import samplers
from certdp.core.errors import ContractError, DPError

from .hostile import exact_twin, hostile_values


def f64_vector(size=None, bounds=(0.0, 10.0)):
    return dp.vector_domain(dp.atom_domain(bounds=bounds), size=size)


def i32_vector(size=None, bounds=(0, 10)):
    return dp.vector_domain(dp.atom_domain(bounds=bounds), size=size)


SYM = dp.symmetric_distance()
SCALAR = dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64")
INT_SCALAR = dp.atom_domain(T="i32"), dp.absolute_distance("i32")
VECTOR = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.l1_distance("f64")
ROWS = dp.numpy.array2_domain(norm=1.0, p=1, T="f64", num_columns=2), SYM


def summary(built):
    """What a built object shows: its domains and its map at 1 (or the error that gives)."""
    try:
        at_one = built.map(1)
    except DPError as error:
        at_one = type(error).__name__
    return repr(built), at_one


CONSTRUCTOR_CASES = {
    # domains and metrics
    "atom_domain.bounds": lambda v: repr(dp.atom_domain(bounds=v)),
    "atom_domain.bounds.f32": lambda v: repr(dp.atom_domain(bounds=v, T="f32")),
    "atom_domain.lower": lambda v: repr(dp.atom_domain(bounds=(v, 10**6), T="i64")),
    "atom_domain.upper.f64": lambda v: repr(dp.atom_domain(bounds=(-1.0, v), T="f64")),
    "atom_domain.nan": lambda v: repr(dp.atom_domain(T="f64", nan=v)),
    "atom_domain.T": lambda v: repr(dp.atom_domain(T=v)),
    "vector_domain.size": lambda v: repr(dp.vector_domain(dp.atom_domain(T="i32"), size=v)),
    "vector_domain.atom_domain": lambda v: repr(dp.vector_domain(v)),
    "absolute_distance.T": lambda v: repr(dp.absolute_distance(v)),
    "l2_distance.T": lambda v: repr(dp.l2_distance(v)),
    "array2_domain.norm": lambda v: repr(dp.numpy.array2_domain(norm=v, p=1, T="f64")),
    "array2_domain.p": lambda v: repr(dp.numpy.array2_domain(norm=1.0, p=v, T="f64")),
    "array2_domain.origin": lambda v: repr(dp.numpy.array2_domain(norm=1.0, p=2, origin=v)),
    "array2_domain.size": lambda v: repr(dp.numpy.array2_domain(size=v, T="f64")),
    "array2_domain.num_columns": lambda v: repr(dp.numpy.array2_domain(num_columns=v, T="f64")),
    "array2_domain.nan": lambda v: repr(dp.numpy.array2_domain(nan=v, T="f64")),
    # transformations
    "is_equal.value": lambda v: summary(dp.t.make_is_equal(f64_vector(), SYM, v)),
    "is_equal.value.i32": lambda v: summary(dp.t.make_is_equal(i32_vector(), SYM, v)),
    "clamp.bounds": lambda v: summary(
        dp.t.make_clamp(dp.vector_domain(dp.atom_domain(T="f64", nan=False)), SYM, v)
    ),
    "clamp.lower.i32": lambda v: summary(
        dp.t.make_clamp(dp.vector_domain(dp.atom_domain(T="i32")), SYM, (v, 100))
    ),
    "sum.input_domain": lambda v: summary(dp.t.make_sum(v, SYM)),
    "sum.input_metric": lambda v: summary(dp.t.make_sum(f64_vector(), v)),
    "sized_int_checked.size": lambda v: summary(
        dp.t.make_sized_bounded_int_checked_sum(v, (0, 10))
    ),
    "sized_int_checked.bounds": lambda v: summary(dp.t.make_sized_bounded_int_checked_sum(5, v)),
    "int_monotonic.T": lambda v: summary(dp.t.make_bounded_int_monotonic_sum((0, 10), T=v)),
    "int_split.bounds": lambda v: summary(dp.t.make_bounded_int_split_sum(v)),
    "sized_float_checked.size": lambda v: summary(
        dp.t.make_sized_bounded_float_checked_sum(v, (0.0, 1.0))
    ),
    "float_checked.size_limit": lambda v: summary(
        dp.t.make_bounded_float_checked_sum(v, (0.0, 1.0))
    ),
    "float_ordered.bounds": lambda v: summary(dp.t.make_bounded_float_ordered_sum(10, v)),
    "sized_float_ordered.S": lambda v: summary(
        dp.t.make_sized_bounded_float_ordered_sum(10, (0.0, 1.0), S=v)
    ),
    "np_clamp.norm": lambda v: summary(
        dp.numpy.make_np_clamp(dp.numpy.array2_domain(T="f64", nan=False), SYM, v, 1)
    ),
    "np_clamp.p": lambda v: summary(
        dp.numpy.make_np_clamp(dp.numpy.array2_domain(T="f64", nan=False), SYM, 1.0, v)
    ),
    "np_clamp.origin": lambda v: summary(
        dp.numpy.make_np_clamp(
            dp.numpy.array2_domain(T="f64", nan=False, num_columns=2), SYM, 1.0, 2, origin=v
        )
    ),
    "np_sum.input_domain": lambda v: summary(dp.numpy.make_np_sum(v, SYM)),
    # measurements
    "laplace.scale": lambda v: summary(dp.m.make_laplace(*SCALAR, v)),
    "laplace.k": lambda v: summary(dp.m.make_laplace(*SCALAR, 1.0, k=v)),
    "laplace.scale.int": lambda v: summary(dp.m.make_laplace(*INT_SCALAR, v)),
    "laplace.k.int": lambda v: summary(dp.m.make_laplace(*INT_SCALAR, 1.0, k=v)),
    "laplace.scale.vector": lambda v: summary(dp.m.make_laplace(*VECTOR, v)),
    "laplace.input_metric": lambda v: summary(dp.m.make_laplace(SCALAR[0], v, 1.0)),
}

SAMPLER_CASES = {
    "bernoulli_rational.p": lambda v: type(samplers.sample_bernoulli_rational(v)),
    "bernoulli_exp.x": lambda v: type(samplers.sample_bernoulli_exp(v)),
    "discrete_laplace.scale": lambda v: type(samplers.sample_discrete_laplace(v)),
    "geometric_exp.x": lambda v: type(samplers.sample_geometric_exp(v)),
    "uniform_below.n": lambda v: type(samplers.sample_uniform_below(v)),
    "uniform_bits.n": lambda v: type(samplers.sample_uniform_bits(v)),
    "z2k.shift": lambda v: type(samplers.sample_discrete_laplace_Z2k(v, 1.0, -10)),
    "z2k.scale": lambda v: type(samplers.sample_discrete_laplace_Z2k(0.5, v, -10)),
    "z2k.k": lambda v: type(samplers.sample_discrete_laplace_Z2k(0.5, 1.0, v)),
    "z2k.T": lambda v: type(samplers.sample_discrete_laplace_Z2k(0.5, 1.0, -10, v)),
}

MAP_CASES = {
    "is_equal": lambda: dp.t.make_is_equal(f64_vector(), SYM, 1.0),
    "sum.f64": lambda: (f64_vector(size=10), SYM) >> dp.t.then_sum(),
    "sum.i32": lambda: (i32_vector(), SYM) >> dp.t.then_sum(),
    "np_sum": lambda: dp.numpy.make_np_sum(*ROWS),
    "laplace.f64": lambda: dp.m.make_laplace(*SCALAR, 0.5),
    "laplace.i32": lambda: dp.m.make_laplace(*INT_SCALAR, 3),
    "laplace.vector": lambda: dp.m.make_laplace(*VECTOR, 2.0),
}

INVOKE_CASES = {
    "sum.f64": lambda: (f64_vector(), SYM) >> dp.t.then_sum(),
    "sum.i32": lambda: (i32_vector(), SYM) >> dp.t.then_sum(),
    "clamp.f32": lambda: dp.t.make_clamp(
        dp.vector_domain(dp.atom_domain(T="f32", nan=False)), SYM, (0.0, 1.0)
    ),
    "is_equal.i32": lambda: dp.t.make_is_equal(i32_vector(), SYM, 3),
    "np_sum": lambda: dp.numpy.make_np_sum(*ROWS),
    "laplace.f64": lambda: dp.m.make_laplace(*SCALAR, 0.5),
    "laplace.i32": lambda: dp.m.make_laplace(*INT_SCALAR, 3),
}


def outcome(call, value):
    """``("ok", answer)`` or ``("error", DPError type)``; anything else fails the test."""
    try:
        return "ok", call(value)
    except ContractError:
        raise
    except DPError as error:
        assert error.parameter, f"{type(error).__name__} without a parameter: {error}"
        return "error", type(error)


def same(a, b) -> bool:
    if a == b:
        return True
    return all(isinstance(x, float) and math.isnan(x) for x in (a, b))


def exact_twins_agree(call, value, result):
    twin = exact_twin(value)
    if twin is None or type(twin) is type(value):
        return
    twin_result = outcome(call, twin)
    assert twin_result[0] == result[0], (value, twin, result, twin_result)
    if result[0] == "ok":
        assert same(result[1], twin_result[1]), (value, twin, result, twin_result)


def set_contracts(enabled: bool) -> None:
    (dp.enable_contracts if enabled else dp.disable_contracts)()


@pytest.mark.parametrize("case", sorted(CONSTRUCTOR_CASES))
@settings(max_examples=40)
@given(value=hostile_values())
def test_constructor_parameters(case, value):
    call = CONSTRUCTOR_CASES[case]
    exact_twins_agree(call, value, outcome(call, value))


@pytest.mark.parametrize("case", sorted(SAMPLER_CASES))
@settings(max_examples=40)
@given(value=hostile_values())
def test_sampler_arguments(case, value):
    call = SAMPLER_CASES[case]
    exact_twins_agree(call, value, outcome(call, value))


@pytest.mark.parametrize("contracts", [False, True], ids=["plain", "contracts"])
@pytest.mark.parametrize("case", sorted(MAP_CASES))
@given(value=hostile_values())
def test_map_arguments(contracts, case, value):
    set_contracts(contracts)
    built = MAP_CASES[case]()
    result = outcome(built.map, value)
    exact_twins_agree(built.map, value, result)
    outcome(lambda v: built.check(1, v), value)


@pytest.mark.parametrize("contracts", [False, True], ids=["plain", "contracts"])
@pytest.mark.parametrize("case", sorted(INVOKE_CASES))
@given(value=hostile_values())
def test_invocation_arguments(contracts, case, value):
    set_contracts(contracts)
    built = INVOKE_CASES[case]()
    outcome(built, value)
