"""make_np_sscp and _sscp_domain: exact figures (OpenDP 0.16's), the fixed summation order,
the output domain, bad inputs, contract."""

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import certdp.prelude as dp
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import ContractError, MakeDomainError, MakeTransformationError
from certdp.numpy.np_sscp.contract import CONTRACT
from certdp.numpy.sscp_domain import sscp_domain as sscp_module
from certdp.numpy.sscp_domain import sscp_matrix


def sscp(**domain):
    domain.setdefault("nan", False)
    return dp.numpy.make_np_sscp(dp.numpy.array2_domain(**domain), dp.symmetric_distance())


def test_f64_matches_opendp():
    # OpenDP 0.16 (contrib + idealized-numerics), opendp.extras.numpy._make_np_sscp.make_np_sscp(
    # array2_domain(num_columns=2, nan=False, T=float), symmetric_distance()) on
    # [[1, 2], [3, 4], [0.5, -1]] gives [[10.25, 13.5], [13.5, 21.0]], map(3) == 3 and
    # output domain NPSSCPDomain(num_features=2, T=f64)
    t = sscp(num_columns=2, T="f64")
    out = t(np.array([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]]))
    assert out.dtype == np.float64
    assert out.tolist() == [[10.25, 13.5], [13.5, 21.0]]
    assert t.map(3) == 3 and t.map(0) == 0
    assert repr(t.output_domain) == "NPSSCPDomain(num_features=2, T=f64)"
    assert t.output_metric == dp.symmetric_distance()


def test_f32_bounded_matches_opendp():
    # OpenDP 0.16: array2_domain(norm=1.0, p=2, num_columns=3, nan=False, T="f32") on
    # [[0.5, 0.25, -0.5], [0, 1, 0], [-0.125, 0.5, 0.75]] (float32) gives the float32 matrix
    # [[0.265625, 0.0625, -0.34375], [0.0625, 1.3125, 0.25], [-0.34375, 0.25, 0.8125]],
    # output domain NPSSCPDomain(num_features=3, norm=1.0, p=2, T=f32), map(2) == 2
    t = sscp(norm=1.0, p=2, num_columns=3, T="f32")
    x = np.array([[0.5, 0.25, -0.5], [0.0, 1.0, 0.0], [-0.125, 0.5, 0.75]], dtype=np.float32)
    out = t(x)
    assert out.dtype == np.float32
    assert out.tolist() == [
        [0.265625, 0.0625, -0.34375],
        [0.0625, 1.3125, 0.25],
        [-0.34375, 0.25, 0.8125],
    ]
    assert repr(t.output_domain) == "NPSSCPDomain(num_features=3, norm=1.0, p=2, T=f32)"
    assert t.map(2) == 2


def test_sized_domain_matches_opendp():
    # OpenDP 0.16: array2_domain(norm=2.0, p=1, size=3, num_columns=2, nan=False, T=float)
    # gives the output domain NPSSCPDomain(num_features=2, norm=2.0, p=1, size=3, T=f64)
    t = sscp(norm=2.0, p=1, size=3, num_columns=2, T="f64")
    assert repr(t.output_domain) == "NPSSCPDomain(num_features=2, norm=2.0, p=1, size=3, T=f64)"
    d = t.output_domain
    assert (d.num_features, d.norm, d.p, d.size, d.T) == (2, 2.0, 1, 3, dp.carrier("f64"))
    assert d.descriptor is d


def test_rows_are_added_in_order():
    # sum of squares 1 + 1 + 1 + 2^54: from the first row, 3 + 2^54 rounds to 2^54 + 4; from the
    # large row first, each + 1 is a tie that rounds back to 2^54.  OpenDP 0.16 gives the same
    # two values here (2^54 + 4 and 2^54), but its order is numpy's choice.
    t = sscp(num_columns=1, T="f64")
    x = np.array([[1.0], [1.0], [1.0], [2.0**27]])
    assert int(t(x)[0, 0]) == 2**54 + 4
    assert int(t(x[::-1].copy())[0, 0]) == 2**54


def _left_to_right(x):
    """An independent statement of G: entry by entry, one row after the other."""
    k = x.shape[1]
    total = np.zeros((k, k), dtype=x.dtype)
    with np.errstate(all="ignore"):
        for row in x:
            for i in range(k):
                for j in range(k):
                    total[i, j] = total[i, j] + row[i] * row[j]
    return total


def test_blocks_do_not_change_the_result():
    # 24 columns: a block holds 2^22 // 576 = 7281 rows; 7500 rows cross a block boundary
    rng = np.random.default_rng(7)
    x = rng.standard_normal((7500, 24)) * rng.choice([1e-3, 1.0, 1e8], size=(7500, 24))
    assert sscp_module._BLOCK_ENTRIES // (24 * 24) < 7500
    expected = np.zeros((24, 24))
    for row in x:
        expected = expected + np.multiply.outer(row, row)
    assert np.array_equal(sscp_matrix(x), expected)


@settings(max_examples=50)
@given(
    x=st.sampled_from([np.float32, np.float64]).flatmap(
        lambda dtype: hnp.arrays(
            dtype,
            st.tuples(st.integers(0, 5), st.integers(0, 3)),
            elements=hnp.from_dtype(np.dtype(dtype), allow_nan=False),
        )
    )
)
def test_matrix_is_left_to_right_and_a_member(x):
    out = sscp_matrix(x)
    assert np.array_equal(out, _left_to_right(x), equal_nan=True)
    assert out.dtype == x.dtype and out.shape == (x.shape[1], x.shape[1])
    domain = dp.numpy._sscp_domain(
        num_features=x.shape[1], T="f32" if x.dtype == np.float32 else "f64"
    )
    assert domain.member(out)
    bits = out.view(np.uint32 if x.dtype == np.float32 else np.uint64)
    nan = np.isnan(out)
    assert np.array_equal(bits[~nan], bits.T[~nan]) and np.array_equal(nan, nan.T)


def test_empty_inputs():
    t = sscp(num_columns=2, T="f64")
    out = t(np.zeros((0, 2)))
    assert out.tolist() == [[0.0, 0.0], [0.0, 0.0]] and not np.signbit(out).any()
    assert sscp(num_columns=0, T="f32")(np.zeros((4, 0), dtype=np.float32)).shape == (0, 0)


def test_infinite_entries_stay_in_the_domain():
    # OpenDP 0.16 gives [[inf, nan], [nan, 0]] for [[inf, 0]], which its own _sscp_domain
    # (finite entries) does not contain; certdp's domain does not claim finiteness.
    t = sscp(num_columns=2, T="f64")
    out = t(np.array([[np.inf, 0.0]]))
    assert out[0, 0] == np.inf and out[1, 1] == 0.0
    assert np.isnan(out[0, 1]) and np.isnan(out[1, 0])
    assert t.output_domain.member(out)
    assert np.isinf(t(np.array([[1e200, 1e200]]))).all()


def test_rounding_can_break_positive_semidefiniteness():
    # one row: exactly a rank-one PSD matrix, but the rounded entries have a negative
    # determinant; the output domain does not claim PSD, so the result is a member
    t = sscp(num_columns=2, T="f32")
    out = t(np.array([[0.5118216276168823, 0.9504637122154236]], dtype=np.float32))
    a, b, c = (Fraction(float(v)) for v in (out[0, 0], out[0, 1], out[1, 1]))
    assert a * c - b * b < 0
    assert t.output_domain.member(out)


@pytest.mark.parametrize(
    "domain, metric, parameter, message",
    [
        (dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance(), "input_domain", "array2_domain"),
        (dp.numpy.array2_domain(num_columns=2, nan=False, T="f64"), dp.insert_delete_distance(), "input_metric", "symmetric_distance"),
        (dp.numpy.array2_domain(num_columns=2, T="f64"), dp.symmetric_distance(), "input_domain", "NaN"),
        (dp.numpy.array2_domain(nan=False, T="f64"), dp.symmetric_distance(), "input_domain", "columns"),
        (dp.numpy.array2_domain(num_columns=2, T="i32"), dp.symmetric_distance(), "input_domain", "f32 or f64"),
        (dp.numpy.array2_domain(num_columns=2, T="bool"), dp.symmetric_distance(), "input_domain", "f32 or f64"),
        (dp.numpy.array2_domain(norm=1.0, p=2, origin=[0.0, 1.0], T="f64"), dp.symmetric_distance(), "input_domain", "centred at 0"),
        (dp.numpy.array2_domain(num_columns=2**28 + 1, nan=False, T="f64"), dp.symmetric_distance(), "input_domain", "at most 268435456 columns"),
    ],
)  # fmt: skip
def test_bad_constructor_input(domain, metric, parameter, message):
    with pytest.raises(MakeTransformationError, match=message) as raised:
        dp.numpy.make_np_sscp(domain, metric)
    assert raised.value.parameter == parameter


def test_the_widest_domain_is_accepted():
    t = sscp(num_columns=2**28, T="f32")
    assert t.output_domain.num_features == 2**28 and t.map(1) == 1


def test_zero_origin_vector_is_accepted():
    domain = dp.numpy.array2_domain(norm=1.0, p=1, origin=[0.0, -0.0], T="f64")
    t = dp.numpy.make_np_sscp(domain, dp.symmetric_distance())
    assert t.output_domain.norm == 1.0 and t.output_domain.num_features == 2


@pytest.mark.parametrize(
    "data, rule",
    [
        (np.array([[1.0, np.nan]]), "NaN"),  # NaN
        (np.array([1.0, 2.0]), "shape"),  # wrong dimensions
        (np.zeros((2, 2, 2)), "shape"),
        (np.zeros((2, 3)), "width"),  # wrong number of columns
        (np.zeros((2, 2), dtype=np.float32), "type"),
        ([[1.0, 2.0]], "type"),  # not an array
        (np.ma.masked_array(np.zeros((1, 2))), "type"),
    ],
)
def test_bad_data_is_refused(data, rule):
    t = sscp(num_columns=2, T="f64")
    with pytest.raises(dp.FailedFunctionError, match=rule):
        t(data)


def test_rows_outside_the_norm_are_refused():
    t = sscp(norm=1.0, p=1, num_columns=2, T="f64")
    with pytest.raises(dp.FailedFunctionError, match="norm"):
        t(np.array([[0.75, 0.5]]))


@pytest.mark.parametrize(
    "kwargs, parameter",
    [
        ({"norm": 1.0}, "p"),  # p mismatch: a norm without its order
        ({"p": 2}, "norm"),
        ({"norm": 1.0, "p": 3}, "p"),
        ({"norm": 1.0, "p": "2"}, "p"),
        ({"norm": float("inf"), "p": 1}, "norm"),
        ({"norm": float("nan"), "p": 1}, "norm"),
        ({"norm": -1.0, "p": 1}, "norm"),
        ({"norm": 2**53 + 1, "p": 1}, "norm"),
        ({"norm": 10**400, "p": 1}, "norm"),
        ({"size": -1}, "size"),
        ({"size": 2.0}, "size"),
        ({"num_features": True}, "num_features"),
        ({"num_features": 1.5}, "num_features"),
        ({"num_features": 2**28 + 1}, "num_features"),
        ({"T": "i32"}, "T"),
        ({"T": "bool"}, "T"),
    ],
)
def test_bad_sscp_domain_parameters(kwargs, parameter):
    with pytest.raises(MakeDomainError) as raised:
        dp.numpy._sscp_domain(**kwargs)
    assert raised.value.parameter == parameter


def test_sscp_domain_defaults_and_normalisation():
    # OpenDP 0.16: _sscp_domain(norm=1, p=1, size=4, num_features=2, T="f32") is
    # NPSSCPDomain(num_features=2, norm=1, p=1, size=4, T=f32) (certdp keeps an int norm too)
    d = dp.numpy._sscp_domain(norm=1, p=1, size=4, num_features=2, T="f32")
    assert repr(d) == "NPSSCPDomain(num_features=2, norm=1, p=1, size=4, T=f32)"
    assert (d.norm, type(d.norm), d.p, d.size, d.num_features, d.T) == (
        1,
        int,
        1,
        4,
        2,
        dp.carrier("f32"),
    )
    assert repr(dp.numpy._sscp_domain()) == "NPSSCPDomain(T=f64)"
    assert d == dp.numpy._sscp_domain(norm=1.0, p=1, size=4, num_features=2, T="f32")
    assert d != dp.numpy._sscp_domain(norm=1.0, p=2, size=4, num_features=2, T="f32")
    with pytest.raises(MakeDomainError):
        d.norm = 2.0


@pytest.mark.parametrize(
    "value, rule",
    [
        (np.array([[1.0, 2.0], [3.0, 4.0]]), "symmetry"),
        (np.array([[-1.0, 0.0], [0.0, 1.0]]), "diagonal"),
        (np.array([[np.nan, 0.0], [0.0, 1.0]]), "diagonal"),
        (np.zeros((2, 3)), "shape"),
        (np.zeros(4), "shape"),
        (np.zeros((3, 3)), "shape"),
        (np.zeros((2, 2), dtype=np.float32), "type"),
        ([[0.0, 0.0], [0.0, 0.0]], "type"),
    ],
)
def test_sscp_domain_refuses(value, rule):
    d = dp.numpy._sscp_domain(num_features=2, T="f64")
    assert not d.member(value)
    with pytest.raises(dp.FailedFunctionError, match=rule):
        d.admit(value)


def test_sscp_domain_accepts_nan_off_the_diagonal_and_signed_zeros():
    d = dp.numpy._sscp_domain(T="f64")
    assert d.member(np.array([[1.0, np.nan], [np.nan, 0.0]]))
    assert d.member(np.array([[-0.0, 0.0], [0.0, np.inf]]))
    assert d.member(np.zeros((0, 0)))


def test_then_form_chains():
    space = dp.numpy.array2_domain(num_columns=2, nan=False, T="f64"), dp.symmetric_distance()
    t = space >> dp.numpy.then_np_sscp()
    assert t(np.ones((3, 2))).tolist() == [[3.0, 3.0], [3.0, 3.0]] and t.map(2) == 2


def test_contract_verifies():
    report = CONTRACT.verify()
    assert report.examples > 0 and report.max_tightness <= 1


def test_contract_refutes_a_smaller_map():
    kwargs = {"input_domain": dp.numpy.array2_domain(num_columns=1, nan=False, T="f64"),
              "input_metric": dp.symmetric_distance()}  # fmt: skip
    fixed = dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))
    with pytest.raises(StabilityViolation) as raised:
        fixed.verify(map_override=lambda d_in: d_in // 2)
    assert raised.value.d_in > 0


def test_contract_at_run_time():
    dp.enable_contracts()
    with pytest.raises(ContractError) as raised:
        dp.numpy.make_np_sscp(dp.numpy.array2_domain(T="f64"), dp.symmetric_distance())
    assert raised.value.condition == "input-domain-no-nan"
    t = sscp(num_columns=2, T="f64")
    assert t(np.ones((2, 2))).tolist() == [[2.0, 2.0], [2.0, 2.0]] and t.map(2) == 2
