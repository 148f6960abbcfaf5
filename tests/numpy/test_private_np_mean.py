"""make_private_np_mean: maps beside OpenDP 0.16's, releases, bad inputs, contract."""

import dataclasses

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import ContractError, MakeMeasurementError
from certdp.numpy.private_np_mean.contract import CONTRACT

SYM = dp.symmetric_distance()


def mean(domain=None, **kwargs):
    domain = domain or dp.numpy.array2_domain(T="f64", size=100, num_columns=3)
    return dp.numpy.make_private_np_mean(domain, SYM, **kwargs)


# OpenDP 0.16 (contrib + idealized-numerics), opendp.extras.numpy._make_np_mean:
# make_private_np_mean(array2_domain(T=float, size=100, num_columns=3), symmetric_distance(),
#   scale=1.0, norm=1.0, p=1).map(2) == 0.02; with p=2: 0.0002;
#   scale=0.5, norm=3.0, origin=[1, 2, 3]: p=2 -> map(2) 0.0072, map(4) 0.0288;
#   p=1 -> map(2) 0.12, map(4) 0.24.
OPENDP = [
    ({"scale": 1.0, "norm": 1.0, "p": 1}, 2, 0.02),
    ({"scale": 1.0, "norm": 1.0, "p": 2}, 2, 0.0002),
    ({"scale": 0.5, "norm": 3.0, "p": 2, "origin": np.array([1.0, 2.0, 3.0])}, 2, 0.0072),
    ({"scale": 0.5, "norm": 3.0, "p": 2, "origin": np.array([1.0, 2.0, 3.0])}, 4, 0.0288),
    ({"scale": 0.5, "norm": 3.0, "p": 1, "origin": np.array([1.0, 2.0, 3.0])}, 2, 0.12),
    ({"scale": 0.5, "norm": 3.0, "p": 1, "origin": np.array([1.0, 2.0, 3.0])}, 4, 0.24),
]


@pytest.mark.parametrize("kwargs, d_in, opendp_value", OPENDP)
def test_map_is_opendps_plus_the_rounding_of_the_sum(kwargs, d_in, opendp_value):
    m = mean(**kwargs)
    value = m.map(d_in)
    # never below OpenDP's (which ignores the float sum's rounding), and within 1e-10 of it
    assert opendp_value <= value <= opendp_value * (1 + 1e-10)
    assert value != opendp_value


def test_exact_figures():
    assert mean(scale=1.0, norm=1.0, p=1).map(2) == 0.020000000000001784
    assert mean(scale=1.0, norm=1.0, p=2).map(2) == 0.00020000000000003563


def test_measures_follow_p():
    assert repr(mean(scale=1.0, norm=1.0, p=1).output_measure) == "MaxDivergence"
    assert repr(mean(scale=1.0, norm=1.0, p=2).output_measure) == "ZeroConcentratedDivergence"


def test_release_is_a_noisy_mean_array():
    m = mean(scale=1e-9, norm=10.0, p=1)
    data = np.tile(np.array([[1.0, 2.0, -3.0]]), (100, 1))
    released = m(data)
    assert isinstance(released, np.ndarray) and released.dtype == np.float64
    assert np.allclose(released, [1.0, 2.0, -3.0], atol=1e-6)


def test_clamping_bounds_the_mean():
    m = mean(scale=1e-9, norm=1.0, p=2)
    released = m(np.full((100, 3), 1e6))
    assert np.linalg.norm(released) <= 1.0 + 1e-6


def test_pre_bounded_domain_without_norm():
    domain = dp.numpy.array2_domain(norm=1.0, p=1, T="f64", size=10, num_columns=2)
    m = dp.numpy.make_private_np_mean(domain, SYM, scale=1.0, p=1)
    assert m.map(2) >= 2 / 10.0
    assert m(np.zeros((10, 2))).shape == (2,)


def test_then_form():
    space = dp.numpy.array2_domain(T="f64", size=5, num_columns=2), SYM
    m = space >> dp.numpy.then_private_np_mean(scale=1.0, norm=1.0, p=1)
    assert m.map(2) >= 2 * 1.0 / 5.0


F64 = dict(T="f64", num_columns=2)
BOUNDED = dict(norm=1.0, p=1, T="f64", size=4, num_columns=2)


@pytest.mark.parametrize(
    "domain, metric, kwargs, parameter, message",
    [
        (dp.vector_domain(dp.atom_domain(T="f64")), SYM, {"scale": 1.0, "norm": 1.0}, "input_domain", "array2_domain"),
        (dp.numpy.array2_domain(size=4, **F64), dp.insert_delete_distance(), {"scale": 1.0, "norm": 1.0}, "input_metric", "symmetric"),
        (dp.numpy.array2_domain(**F64), SYM, {"scale": 1.0, "norm": 1.0}, "input_domain", "known size"),
        (dp.numpy.array2_domain(size=0, **F64), SYM, {"scale": 1.0, "norm": 1.0}, "input_domain", "positive"),
        (dp.numpy.array2_domain(size=4, **F64), SYM, {"scale": -1.0, "norm": 1.0}, "scale", "non-negative"),
        (dp.numpy.array2_domain(size=4, **F64), SYM, {"scale": float("nan"), "norm": 1.0}, "scale", "finite"),
        (dp.numpy.array2_domain(size=4, **F64), SYM, {"scale": "1", "norm": 1.0}, "scale", "number"),
        (dp.numpy.array2_domain(size=4, **F64), SYM, {"scale": 1e308, "norm": 1.0}, "scale", "overflows"),
        (dp.numpy.array2_domain(size=4, **F64), SYM, {"scale": 1.0}, "input_domain", "bound the row norm"),
        (dp.numpy.array2_domain(**BOUNDED), SYM, {"scale": 1.0, "p": 2}, "p", "disagrees"),
        # referee ref-np: int scales whose float() or product overflow are typed refusals
        (dp.numpy.array2_domain(size=4, **F64), SYM, {"scale": 10**400, "norm": 1.0, "p": 1}, "scale", "overflows"),
        (dp.numpy.array2_domain(size=10, **F64), SYM, {"scale": 10**308, "norm": 1.0, "p": 1}, "scale", "overflows"),
        (dp.numpy.array2_domain(**BOUNDED), SYM, {"scale": 1.0, "p": 1, "origin": 0.0}, "origin", "only be given with norm"),
        (dp.numpy.array2_domain(size=4, **F64), SYM, {"scale": 1.0, "norm": 1.0, "p": 3}, "p", "1 or 2"),
        (dp.numpy.array2_domain(size=4, **F64), SYM, {"scale": 1.0, "norm": -1.0}, "norm", "^norm: must be positive"),
        (dp.numpy.array2_domain(size=4, T="f64"), SYM, {"scale": 1.0, "norm": 1.0, "origin": np.ones(2)}, "input_domain", "num_columns"),
        (dp.numpy.array2_domain(size=4, T="i32", num_columns=2), SYM, {"scale": 1.0, "norm": 1.0}, "input_domain", "f32 or f64"),
    ],
)  # fmt: skip
def test_bad_input(domain, metric, kwargs, parameter, message):
    with pytest.raises(MakeMeasurementError, match=message) as raised:
        dp.numpy.make_private_np_mean(domain, metric, **kwargs)
    assert raised.value.parameter == parameter


def test_nan_and_wrong_shapes_are_refused_at_invocation():
    m = mean(dp.numpy.array2_domain(norm=1.0, p=1, T="f64", size=3, num_columns=2), scale=1.0, p=1)
    for bad in (np.array([[np.nan, 0.0]] * 3), np.zeros((2, 2)), np.zeros((3, 3)), np.zeros(6)):
        with pytest.raises(dp.FailedFunctionError):
            m(bad)


def test_contract_verifies():
    report = CONTRACT.verify(max_examples=20)
    assert report.examples > 0 and report.max_tightness <= 1


def test_contract_refutes_a_tiny_map():
    kwargs = {"input_domain": dp.numpy.array2_domain(T="f64", size=2, num_columns=1),
              "input_metric": SYM, "scale": 1.0, "norm": 1.0, "p": 1}  # fmt: skip
    fixed = dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))
    with pytest.raises(PrivacyViolation):
        fixed.verify(map_override=lambda d_in: 1e-12, max_examples=40)


def test_contract_at_run_time():
    dp.enable_contracts()
    with pytest.raises(ContractError) as raised:
        dp.numpy.make_private_np_mean(
            dp.numpy.array2_domain(T="f64", size=3, num_columns=1), dp.insert_delete_distance(),
            scale=1.0, norm=1.0,
        )  # fmt: skip
    assert raised.value.condition == "input-metric-symmetric"
    m = mean(scale=1.0, norm=1.0, p=1)
    assert m.map(2) == 0.020000000000001784


def test_default_p_is_the_domains_as_in_opendp():
    """Referee ref-np: without norm and p, the domain's p is used, as OpenDP 0.16 does.
    OpenDP 0.16: make_private_np_mean(array2_domain(norm=1., p=1, size=10, num_columns=3,
    nan=False), symmetric_distance(), scale=1.0).map(2) == 0.2 (MaxDivergence)."""
    domain = dp.numpy.array2_domain(norm=1.0, p=1, size=10, num_columns=3, T="f64", nan=False)
    m = dp.numpy.make_private_np_mean(domain, SYM, scale=1.0)
    assert repr(m.output_measure) == "MaxDivergence"
    assert 0.2 <= m.map(2) < 0.2 + 1e-9
    assert np.shape(m(np.full((10, 3), 0.25))) == (3,)
    domain2 = dp.numpy.array2_domain(norm=1.0, p=2, size=10, num_columns=3, T="f64", nan=False)
    assert repr(dp.numpy.make_private_np_mean(domain2, SYM, scale=1.0).output_measure) == (
        "ZeroConcentratedDivergence"
    )
