"""make_np_sum: exact figures, bad inputs, contract, idealized vs rounding-aware maps."""

import dataclasses
import importlib
import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.contract import StabilityViolation, as_rational, at_least
from certdp.core.errors import ContractError, MakeTransformationError
from certdp.numpy._support.column_sum import CHUNK_ROWS, column_sum, depth
from certdp.numpy._support.error_bounds import gamma, unit_roundoff
from certdp.numpy.array2_domain import NPArray2Domain
from certdp.numpy.np_sum import contract as sum_contract

sum_module = importlib.import_module("certdp.numpy.np_sum.make_np_sum")

SEED_ORIGIN = np.array([1.0, -2.0, 0.5])


def build(idealized=False, **kwargs):
    if idealized:
        dp.enable_features("idealized-numerics")
    try:
        domain = dp.numpy.array2_domain(**kwargs)
        return dp.numpy.make_np_sum(domain, dp.symmetric_distance())
    finally:
        dp.disable_features("idealized-numerics")


def exact_bound(transformation, d_in):
    """The proof's bound for ``transformation`` (as the contract states it)."""
    domain = transformation.input_domain
    arguments = sum_contract.CONTRACT.bind((domain, dp.symmetric_distance()), {})
    return sum_contract.CONTRACT.exact_bound(arguments, transformation, d_in)


def exact_distance(metric, a, b):
    if isinstance(metric, dp.L1Distance):
        return as_rational(metric.distance(a, b))
    return sympy.sqrt(as_rational(metric.squared_distance(a, b)))


# -- the seed's example ------------------------------------------------------------------


def test_seed_example_idealized_matches_opendp():
    transformation = build(idealized=True, norm=1.0, p=2, origin=SEED_ORIGIN)
    assert repr(transformation.map(1)) == "3.29128784747792"
    assert transformation.map(3) == 3 * 3.29128784747792


def test_seed_example_rounding_aware():
    transformation = build(norm=1.0, p=2, origin=SEED_ORIGIN)
    value = transformation.map(1)
    assert repr(value) == "3.2912880528497155"
    assert value >= 3.29128784747792
    # the map is the proof's bound rounded up: above it, and by less than one part in 2**50
    bound = exact_bound(transformation, 1)
    assert at_least(value, bound)
    assert (as_rational(value) - bound) / bound < sympy.Rational(1, 2**50)
    # its rounding allowance: 2 * gamma(depth(2**20)) * 2**20 * (R + ||O||_2)
    reach = 1 + sympy.sqrt(sympy.Rational(21, 4))
    g = as_rational(gamma(depth(1 << 20), "f64"))
    assert bound == reach + 2 * g * 2**20 * reach
    assert transformation.map(0) == pytest.approx(float(2 * g * 2**20 * reach), rel=1e-12)


def test_outputs():
    transformation = build(norm=1.0, p=2, origin=SEED_ORIGIN)
    data = np.array([[1.0, -2.0, 0.5], [1.5, -2.0, 0.5], [1.0, -1.0, 0.5]])
    result = transformation(data)
    assert result.dtype == np.float64 and result.tolist() == [3.5, -5.0, 1.5]
    assert transformation.output_domain == dp.vector_domain(dp.atom_domain(T="f64", nan=False))
    assert transformation.output_metric == dp.l2_distance(T="f64")
    assert transformation(np.zeros((0, 3))).tolist() == [0.0, 0.0, 0.0]


# -- known and unknown size, p = 1 and 2, scalar and vector origin, f32 and f64 ----------


def test_known_size_map():
    transformation = build(norm=1.0, p=2, size=1000, num_columns=3)
    rho = as_rational(gamma(depth(1000), "f64")) * 1000 * 1
    assert depth(1000) == 16 + 6
    for d_in in range(6):
        bound = 2 * (d_in // 2) + 2 * rho
        assert exact_bound(transformation, d_in) == bound
        assert at_least(transformation.map(d_in), bound)
        assert as_rational(transformation.map(d_in)) - bound < sympy.Rational(1, 2**40)
    assert repr(transformation.map(2)) == "2.0000000000048854"


def test_known_size_ignores_origin():
    far = build(norm=0.5, p=1, size=8, origin=[1e6, -1e6])
    near = build(norm=0.5, p=1, size=8, origin=[0.0, 0.0])
    assert far.map(2) >= 1.0 and near.map(2) >= 1.0
    assert far.map(2) - 1.0 < 1e-6  # only the rounding allowance grows with the origin


def test_unknown_size_p1_vector_origin():
    transformation = build(norm=2.0, p=1, origin=[3.0, -4.0])
    # ||O||_1 = 7: d_in * max(R + 7, 2 R) = 9 d_in
    assert exact_bound(transformation, 3) - 27 < sympy.Rational(1, 10**6)
    assert at_least(transformation.map(3), 27)
    assert transformation.output_metric == dp.l1_distance(T="f64")


def test_unknown_size_zero_origin_pays_for_the_size_limit():
    # the size limit may swap a row for another: 2 R per record instead of R
    transformation = build(norm=1.5, p=2, num_columns=2)
    assert at_least(transformation.map(1), 3)
    assert transformation.map(1) - 3 < 1e-6
    idealized = build(idealized=True, norm=1.5, p=2, num_columns=2)
    assert idealized.map(1) == 1.5


def test_scalar_origin():
    scalar = build(norm=1.0, p=2, origin=2.0, num_columns=4)  # broadcast: ||O||_2 = 4
    assert at_least(scalar.map(1), 5) and scalar.map(1) - 5 < 1e-6
    zero = build(norm=1.0, p=2, origin=0.0, num_columns=4)
    assert at_least(zero.map(1), 2)


def test_f32():
    transformation = build(norm=1.0, p=2, origin=np.array([1.0, -2.0, 0.5], dtype=np.float32))
    assert transformation.input_domain.T.name == "f32"
    assert transformation.output_domain == dp.vector_domain(dp.atom_domain(T="f32", nan=False))
    value = transformation.map(1)
    assert float(np.float32(value)) == value  # an f32 distance
    assert at_least(value, exact_bound(transformation, 1))
    data = np.array([[1.0, -2.0, 0.5], [1.0, -1.5, 0.5]], dtype=np.float32)
    assert transformation(data).dtype == np.float32
    assert transformation(data).tolist() == [2.0, -3.5, 1.0]
    idealized = build(
        idealized=True, norm=1.0, p=2, origin=np.array([1.0, -2.0, 0.5], dtype=np.float32)
    )
    assert repr(idealized.map(1)) == "3.291287899017334"


def test_map_rejects_bad_d_in():
    transformation = build(norm=1.0, p=1, num_columns=1)
    for bad in (-1, 0.5, float("nan"), True):
        with pytest.raises(dp.FailedMapError):
            transformation.map(bad)


def test_map_overflow_is_refused():
    transformation = build(norm=1e300, p=1, num_columns=1, size=10)
    with pytest.raises(dp.ArithmeticOverflowError):
        transformation.map(10**10)


# -- bad inputs ----------------------------------------------------------------------------


def _domain():
    return dp.numpy.array2_domain(norm=1.0, p=2, num_columns=2)


def _forged(**kwargs):
    """An NPArray2Domain made without array2_domain (object.__new__, then its attributes set),
    breaking one of its rules: make_np_sum must refuse it before reading any field."""
    fields = dict(origin=np.zeros(2), norm=1.0, p=2, size=None, num_columns=2, nan=False)
    fields.update(kwargs, T=dp.carrier("f64"), dtype=np.dtype(np.float64), row_test=None)
    forged = object.__new__(NPArray2Domain)
    for name, value in fields.items():
        setattr(forged, name, value)
    return forged


@pytest.mark.parametrize(
    "domain, metric, parameter, message",
    [
        (dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance(), "input_domain", "array2_domain"),
        (_domain(), dp.insert_delete_distance(), "input_metric", "symmetric_distance"),
        (_domain(), dp.l1_distance(T="f64"), "input_metric", "symmetric_distance"),
        (dp.numpy.array2_domain(T="f64", num_columns=2, nan=False), dp.symmetric_distance(), "input_domain", "bound the row norm"),
        (_forged(p=3), dp.symmetric_distance(), "input_domain", "must be an array2_domain"),
        (_forged(nan=True), dp.symmetric_distance(), "input_domain", "must be an array2_domain"),
        (_forged(norm=-1.0), dp.symmetric_distance(), "input_domain", "must be an array2_domain"),
        (dp.numpy.array2_domain(norm=3, p=1, T="i32", num_columns=2), dp.symmetric_distance(), "input_domain", "f32 or f64"),
        (dp.numpy.array2_domain(norm=1.0, p=2), dp.symmetric_distance(), "input_domain", "num_columns"),
        (dp.numpy.array2_domain(norm=1e305, p=2, num_columns=2), dp.symmetric_distance(), "input_domain", "could overflow"),
        (dp.numpy.array2_domain(norm=1e33, p=2, num_columns=2, T="f32"), dp.symmetric_distance(), "input_domain", "could overflow"),
    ],
)  # fmt: skip
def test_bad_input(domain, metric, parameter, message):
    with pytest.raises(MakeTransformationError, match=message) as raised:
        dp.numpy.make_np_sum(domain, metric)
    assert raised.value.parameter == parameter


def test_out_of_domain_data_is_refused():
    transformation = build(norm=1.0, p=2, num_columns=2)
    for bad in (np.array([[1.0, 0.1]]), np.array([[np.nan, 0.0]]), np.zeros((2, 3)), [[0.0, 0.0]]):
        with pytest.raises(dp.FailedFunctionError):
            transformation(bad)


def test_unknown_columns_counterexample():
    # why num_columns must be known: two empty arrays of different widths are the same
    # (empty) multiset of rows, yet their sums are at infinite distance
    domain = dp.numpy.array2_domain(norm=1.0, p=2)
    a, b = np.zeros((0, 3)), np.zeros((0, 2))
    assert domain.member(a) and domain.member(b)
    assert dp.symmetric_distance().distance(a, b) == 0
    assert dp.l2_distance(T="f64").squared_distance(a.sum(axis=0), b.sum(axis=0)) == math.inf


# -- contract --------------------------------------------------------------------------------


def test_contract_verifies():
    report = sum_contract.CONTRACT.verify()
    assert report.examples > 0 and report.max_tightness <= 1


def _fixed(kwargs):
    return dataclasses.replace(sum_contract.CONTRACT, arguments=lambda: st.just(kwargs))


def test_contract_refutes_the_map_without_the_origin_term():
    domain = dp.numpy.array2_domain(norm=1.0, p=2, origin=np.array([1e6, -2e6]))
    kwargs = {"input_domain": domain, "input_metric": dp.symmetric_distance()}
    built = dp.numpy.make_np_sum(**kwargs)
    radius, rho = Fraction(1), sum_module.rounding_allowance(1 << 20, Fraction(1), "f64", 2)

    def without_origin(d_in):  # the code's formula with ||O|| taken as 0
        return float(d_in * max(radius, 2 * radius) + 2 * rho)

    with pytest.raises(StabilityViolation) as raised:
        _fixed(kwargs).verify(map_override=without_origin)
    violation = raised.value
    metric = built.output_metric
    observed = exact_distance(metric, built(violation.x), built(violation.x_prime))
    assert observed > as_rational(without_origin(violation.d_in))
    assert at_least(built.map(violation.d_in), observed)  # the real map covers the pair


def test_contract_runtime_enforcement():
    dp.enable_contracts()
    transformation = build(norm=1.0, p=2, origin=SEED_ORIGIN)
    assert transformation.postcondition is not None
    assert transformation.map(2) > 0
    assert transformation(np.array([[1.0, -2.0, 0.5]])).tolist() == [1.0, -2.0, 0.5]
    with pytest.raises(ContractError) as raised:
        dp.numpy.make_np_sum(dp.numpy.array2_domain(norm=1.0, p=2), dp.symmetric_distance())
    assert raised.value.condition == "input-domain-columns-known"
    idealized = build(idealized=True, norm=1.0, p=2, origin=SEED_ORIGIN)
    assert repr(idealized.map(1)) == "3.29128784747792"  # within the idealized tolerance


def test_contract_catches_a_map_below_the_bound():
    dp.enable_contracts()
    transformation = build(norm=1.0, p=1, num_columns=2)
    transformation._map = lambda d_in: 1.0 * d_in  # R alone: below max(R, 2R) + 2 rho
    with pytest.raises(ContractError) as raised:
        transformation.map(1)
    assert raised.value.condition == "stability-map"


# -- the size limit of unknown-size data -----------------------------------------------------


def test_size_limit_selection(monkeypatch):
    monkeypatch.setattr(sum_module, "SIZE_LIMIT", 4)
    transformation = build(norm=1.0, p=1, num_columns=1)
    assert transformation.size_limit == 4
    data = np.array([[0.5], [0.25], [-0.125], [1.0], [-1.0], [0.75], [0.0]])
    total = transformation(data)[0]
    subsets = {sum(c) for c in itertools.combinations(data[:, 0].tolist(), 4)}
    assert total in subsets
    for permutation in ([6, 5, 4, 3, 2, 1, 0], [3, 1, 4, 0, 5, 2, 6]):
        assert transformation(data[permutation])[0] == total  # a function of the multiset


def test_size_limit_swap_costs_two_radii(monkeypatch):
    monkeypatch.setattr(sum_module, "SIZE_LIMIT", 4)
    transformation = build(norm=1.0, p=1, num_columns=1)
    x = np.array([[1.0], [0.875], [0.75], [0.625]])
    metric = transformation.output_metric
    for j in range(60):
        x_prime = np.vstack([x, [[-1.0 + j / 64]]])
        observed = exact_distance(metric, transformation(x), transformation(x_prime))
        if observed > 1:  # more than R + ||O|| = 1: a row was swapped out
            break
    assert observed > 1, "the added row was never selected"
    assert at_least(transformation.map(1), observed)
    assert transformation.map(1) >= 2


def test_contract_verifies_with_a_small_size_limit(monkeypatch):
    monkeypatch.setattr(sum_module, "SIZE_LIMIT", 3)
    report = sum_contract.CONTRACT.verify(max_examples=40)
    assert report.examples > 0


# -- rounding: the idealized map is exceeded, the rounding-aware one holds --------------------


def _maps(**kwargs):
    return build(**kwargs), build(idealized=True, **kwargs)


def test_adversarial_f32_sphere_rows_exceed_the_idealized_map():
    # rows O - 1 on the L1 sphere of radius 1 around O = 2**20; the float32 sums of 929 and of
    # 930 rows round to points further apart than d_in (R + ||O||) = 2**20 + 1
    origin = np.array([2.0**20], dtype=np.float32)
    default, idealized = _maps(norm=1.0, p=1, origin=origin)
    x = np.full((929, 1), 2.0**20 - 1, dtype=np.float32)
    x_prime = np.vstack([x, np.full((1, 1), 2.0**20 + 1, dtype=np.float32)])
    assert default.input_domain.member(x) and default.input_domain.member(x_prime)
    exact_gap = abs(
        sum(Fraction(v) for v in x_prime[:, 0].tolist())
        - sum(Fraction(v) for v in x[:, 0].tolist())
    )
    assert exact_gap == 2**20 + 1  # within the idealized bound in exact arithmetic
    observed = exact_distance(default.output_metric, default(x), default(x_prime))
    assert observed == 1048640
    assert observed > as_rational(idealized.map(1)) == 2**20 + 1
    assert at_least(default.map(1), observed)
    assert at_least(default.map(1), exact_bound(default, 1))


def test_adversarial_f64_sphere_rows_exceed_the_idealized_map():
    origin = np.array([2.0**40])
    default, idealized = _maps(norm=1.0, p=1, origin=origin)
    x = np.full((16386, 1), 2.0**40 + 1)
    x_prime = np.vstack([x, [[2.0**40 + 1]]])
    observed = exact_distance(default.output_metric, default(x), default(x_prime))
    assert observed == 2**40 + 4
    assert observed > as_rational(idealized.map(1))
    assert at_least(default.map(1), observed)


def test_adversarial_reordering_exceeds_the_idealized_known_size_map():
    # same multiset, other order (d_in = 0): the idealized map promises equal outputs
    default, idealized = _maps(norm=2.0**53, p=1, num_columns=1, size=3)
    x = np.array([[2.0**53], [1.0], [1.0]])
    x_prime = x[::-1].copy()
    assert dp.symmetric_distance().distance(x, x_prime) == 0
    observed = exact_distance(default.output_metric, default(x), default(x_prime))
    assert observed == 2 and idealized.map(0) == 0
    assert at_least(default.map(0), observed)


def test_adversarial_f32_swap_exceeds_the_idealized_known_size_map():
    origin = np.array([2.0**20], dtype=np.float32)
    default, idealized = _maps(norm=1.0, p=1, origin=origin, size=1000)
    for plus in range(1000):
        x = np.array([[2.0**20 + 1]] * plus + [[2.0**20 - 1]] * (1000 - plus), dtype=np.float32)
        x_prime = x.copy()
        x_prime[-1] = 2.0**20 + 1  # one row changed: d_in = 2
        observed = exact_distance(default.output_metric, default(x), default(x_prime))
        if observed > as_rational(idealized.map(2)):
            break
    assert observed > as_rational(idealized.map(2)) == 2
    assert at_least(default.map(2), observed)


# -- the summation's error bound ---------------------------------------------------------------


@st.composite
def float_arrays(draw):
    n = draw(st.integers(0, 300))
    k = draw(st.integers(1, 3))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    magnitude = draw(st.sampled_from([1.0, 1e10, 1e-300, 1e300 if dtype == np.float64 else 1e30]))
    values = draw(st.lists(st.floats(-1, 1, width=32), min_size=n * k, max_size=n * k))
    return (np.array(values) * magnitude).astype(dtype).reshape(n, k)


@given(float_arrays())
def test_column_sum_error_bound(data):
    n = data.shape[0]
    g = gamma(depth(n), "f64")
    result = column_sum(data, data.dtype)
    for j in range(data.shape[1]):
        column = [Fraction(v) for v in data[:, j].tolist()]
        error = abs(Fraction(result[j].item()) - sum(column, Fraction(0)))
        absolute = sum((abs(v) for v in column), Fraction(0))
        if data.dtype == np.float64:
            assert error <= g * absolute
        else:
            u = unit_roundoff("f32")
            assert error <= (g + u * (1 + g)) * absolute + Fraction(1, 2**150)


def test_column_sum_many_chunks():
    rng = np.random.default_rng(7)
    data = rng.standard_normal((3 * CHUNK_ROWS + 17, 2)) * 1e8
    result = column_sum(data, np.float64)
    g = gamma(depth(data.shape[0]), "f64")
    assert depth(data.shape[0]) == CHUNK_ROWS // 64 + 6 + 2
    for j in range(2):
        exact = sum((Fraction(v) for v in data[:, j].tolist()), Fraction(0))
        absolute = sum((abs(Fraction(v)) for v in data[:, j].tolist()), Fraction(0))
        assert abs(Fraction(result[j].item()) - exact) <= g * absolute
    assert np.allclose(result, [math.fsum(data[:, j]) for j in range(2)], rtol=0, atol=1e-4)


def test_column_sum_layouts_agree_in_value():
    rng = np.random.default_rng(3)
    data = rng.integers(-1000, 1000, size=(5000, 3)).astype(np.float64)  # exact sums
    expected = data.sum(axis=0)
    assert column_sum(data, np.float64).tolist() == expected.tolist()
    assert column_sum(np.asfortranarray(data), np.float64).tolist() == expected.tolist()
    assert column_sum(data[::-1], np.float64).tolist() == expected.tolist()


# -- OpenDP reference values -------------------------------------------------------------------

REFERENCE = json.loads(Path(__file__).with_name("opendp_reference.json").read_text())


def _reference_domain(case):
    kwargs = {k: case[k] for k in ("norm", "p", "size", "num_columns", "T")}
    if case["origin"] is not None:
        kwargs["origin"] = np.array(case["origin"]["values"], dtype=case["origin"]["dtype"])
    return dp.numpy.array2_domain(nan=False, **kwargs)


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: c["domain_repr"])
def test_opendp_reference(case):
    domain = _reference_domain(case)
    assert str(domain) == case["domain_repr"]
    dp.enable_features("idealized-numerics")
    idealized = dp.numpy.make_np_sum(domain, dp.symmetric_distance())
    dp.disable_features("idealized-numerics")
    default = dp.numpy.make_np_sum(domain, dp.symmetric_distance())
    for d_in, expected in case["map"].items():
        if expected is not None:  # OpenDP cannot evaluate float32-origin maps for T=f64
            assert repr(idealized.map(int(d_in))) == expected
        assert at_least(default.map(int(d_in)), exact_bound(default, int(d_in)))


def test_reference_table_is_complete():
    assert len(REFERENCE["cases"]) == 224
    assert sum(v is not None for c in REFERENCE["cases"] for v in c["map"].values()) == 1456


# -- chains ------------------------------------------------------------------------------------


def test_clamp_then_sum():
    input_space = dp.numpy.array2_domain(T="f64", num_columns=3), dp.symmetric_distance()
    chain = (
        input_space
        >> dp.numpy.then_np_clamp(norm=1.0, p=2, origin=SEED_ORIGIN)
        >> dp.numpy.then_np_sum()
    )
    assert chain.map(1) == build(norm=1.0, p=2, origin=SEED_ORIGIN).map(1)
    data = np.random.default_rng(0).standard_normal((500, 3)) * 10
    result = chain(data)
    # every clamped row is within 1 of the origin, so the sum is within 500 of 500 O
    assert np.all(np.abs(result - 500 * SEED_ORIGIN) <= 500)


@settings(max_examples=20)
@given(st.sampled_from(["f32", "f64"]), st.sampled_from([1, 2]), st.integers(0, 40))
def test_clamp_then_sum_f32_and_known_size(T, p, size):
    dtype = np.float32 if T == "f32" else np.float64
    domain = dp.numpy.array2_domain(T=T, num_columns=2, size=size)
    chain = (
        (domain, dp.symmetric_distance())
        >> dp.numpy.then_np_clamp(norm=2.0, p=p)
        >> dp.numpy.then_np_sum()
    )
    data = (np.random.default_rng(size).standard_normal((size, 2)) * 5).astype(dtype)
    result = chain(data)
    assert result.dtype == dtype and chain.output_domain.member(result)
    assert at_least(chain.map(2), 4)


def test_chain_with_contracts_enabled():
    dp.enable_contracts()
    chain = (
        (dp.numpy.array2_domain(T="f32", num_columns=2), dp.symmetric_distance())
        >> dp.numpy.then_np_clamp(norm=1.0, p=1)
        >> dp.numpy.then_np_sum()
    )
    result = chain(np.array([[3.0, 4.0], [0.25, 0.25], [np.nan, -7.0]], dtype=np.float32))
    assert result.dtype == np.float32
    assert abs(float(result[0])) <= 3 and abs(float(result[1])) <= 3
    assert chain.map(1) >= 2


def test_global_numpy_error_setting_raises_nothing(monkeypatch):
    """The proof's claim that no float operation raises a flag: subnormal sums, cancellations
    and the final rounding to float32 pass under ``np.errstate(all="raise")``."""
    monkeypatch.setattr(sum_module, "SIZE_LIMIT", 5)
    tiny = np.array([[1e-45, -1e-45], [3e-39, 0.5], [-3e-39, -0.5], [2e-45, 1e-40]] * 4)
    for T, dtype in (("f32", np.float32), ("f64", np.float64)):
        for size in (None, 16):
            transformation = build(norm=1.0, p=2, num_columns=2, T=T, size=size)
            data = tiny.astype(dtype)
            with np.errstate(all="raise"):
                total = transformation(data)
            assert total.dtype == dtype and np.all(np.isfinite(total))


def test_huge_origin_p2_constructs_with_an_upper_norm():
    """||O||_2 of an origin beyond 2**512 is bounded without squaring it in f64."""
    for size in (10, None):
        transformation = build(norm=1.0, p=2, origin=[1e200, -3e199], num_columns=2, size=size)
        data = np.tile([1e200, -3e199], (10, 1))
        assert np.allclose(transformation(data), [1e201, -3e200], rtol=1e-15, atol=0)
        assert at_least(transformation.map(2), exact_bound(transformation, 2))
    upper = sum_module.origin_norm_upper(np.array([1e200, -3e199]), 2)
    assert Fraction(1e200) ** 2 + Fraction(-3e199) ** 2 <= upper**2
    assert upper <= Fraction(1e200) * Fraction(10441, 10000)  # sqrt(1.09) = 1.0440307...
