"""array2_domain: construction, validation errors, repr, equality and exact membership."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.core.errors import MakeDomainError
from certdp.numpy._support.row_norm_test import RowNormTest


def test_repr_like_opendp():
    domain = dp.numpy.array2_domain(norm=1.0, p=2, origin=np.array([1.0, -2.0, 0.5]))
    assert str(domain) == (
        "NPArray2Domain(origin=[ 1.  -2.   0.5], norm=1.0, p=2, num_columns=3, nan=False, T=f64)"
    )
    assert str(dp.numpy.array2_domain(T=float)) == "NPArray2Domain(nan=True, T=f64)"
    assert str(dp.numpy.array2_domain(norm=2, p=1, T="i32")) == (
        "NPArray2Domain(origin=0.0, norm=2, p=1, nan=False, T=i32)"
    )
    assert str(dp.numpy.array2_domain(norm=1.0, p=1, num_columns=2, size=4)) == (
        "NPArray2Domain(origin=[0. 0.], norm=1.0, p=1, size=4, num_columns=2, nan=False, T=f64)"
    )


def test_descriptor_attributes():
    domain = dp.numpy.array2_domain(norm=3.0, p=1, origin=[1, 2], size=5, T="f32")
    assert domain.descriptor is domain
    assert (domain.norm, domain.p, domain.size, domain.num_columns, domain.nan) == (
        3.0,
        1,
        5,
        2,
        False,
    )
    assert domain.T.name == "f32" and domain.origin.dtype == np.float64
    assert domain.origin.tolist() == [1.0, 2.0]


def test_type_inference():
    assert dp.numpy.array2_domain(norm=1.0, p=2).T.name == "f64"
    f32_origin = np.array([1.0, 2.0], dtype=np.float32)
    assert dp.numpy.array2_domain(norm=1.0, p=2, origin=f32_origin).T.name == "f32"
    assert dp.numpy.array2_domain(T=int).T.name == "i32"


def test_equality_and_hash():
    a = dp.numpy.array2_domain(norm=1.0, p=2, origin=[1.0, 2.0])
    b = dp.numpy.array2_domain(norm=1.0, p=2, origin=np.array([1.0, 2.0]), num_columns=2)
    assert a == b and hash(a) == hash(b)
    assert a != dp.numpy.array2_domain(norm=1.0, p=1, origin=[1.0, 2.0])
    assert a != dp.numpy.array2_domain(norm=1.0, p=2, origin=[1.0, 2.5])
    assert a != dp.numpy.array2_domain(norm=1.0, p=2, origin=[1.0, 2.0], size=3)
    assert a != dp.vector_domain(dp.atom_domain(T="f64"))


def test_scalar_origin_broadcast_with_num_columns():
    domain = dp.numpy.array2_domain(norm=1.0, p=1, origin=2.0, num_columns=3)
    assert domain.origin.tolist() == [2.0, 2.0, 2.0]
    assert domain.member(np.array([[2.5, 2.0, 1.5]]))
    assert not domain.member(np.array([[2.5, 2.0, 1.4]]))


@pytest.mark.parametrize(
    "kwargs, parameter, message",
    [
        ({"norm": 1.0}, "p", "norm and p must be given together"),
        ({"p": 2, "T": "f64"}, "norm", "norm and p must be given together"),
        ({"norm": 1.0, "p": 3}, "p", "must be 1 or 2"),
        ({"norm": 1.0, "p": True}, "p", "must be 1 or 2"),
        ({"norm": -1.0, "p": 2}, "norm", "must be non-negative"),
        ({"norm": float("nan"), "p": 2}, "norm", "must not be NaN"),
        ({"norm": float("inf"), "p": 2}, "norm", "must be finite"),
        ({"norm": "1", "p": 2}, "norm", "must be a number"),
        ({"norm": 2**60 + 1, "p": 2}, "norm", "not exactly representable"),
        ({"norm": 10**400, "p": 2}, "norm", "not exactly representable"),
        ({"norm": 1.0, "p": 2, "nan": True}, "nan", "must be False when norm is given"),
        ({"T": "i32", "nan": True}, "nan", "only float arrays may contain NaN"),
        ({"nan": "yes", "T": "f64"}, "nan", "must be a boolean"),
        ({"origin": [1.0], "T": "f64"}, "origin", "may only be given together with norm"),
        ({"norm": 1.0, "p": 2, "origin": [1.0, 2.0], "num_columns": 3}, "origin", "num_columns=3"),
        (
            {"norm": 1.0, "p": 2, "origin": 3.0},
            "origin",
            "non-zero scalar origin needs num_columns",
        ),
        ({"norm": 1.0, "p": 2, "origin": [[1.0, 2.0]]}, "origin", "0 or 1 dimensions"),
        ({"norm": 1.0, "p": 2, "origin": [1.0, float("nan")]}, "origin", "must be finite"),
        ({"norm": 1.0, "p": 2, "origin": [1.0, float("inf")]}, "origin", "must be finite"),
        ({"norm": 1.0, "p": 2, "origin": ["a"]}, "origin", "float32, float64 or integer"),
        ({"norm": 1.0, "p": 2, "origin": True}, "origin", "must be numeric"),
        ({"norm": 1.0, "p": 2, "origin": {1: 2}}, "origin", "must be a scalar"),
        ({"norm": 1.0, "p": 2, "origin": [2**60 + 1]}, "origin", "exactly representable"),
        ({"norm": 1.0, "p": 2, "size": -1}, "size", "must be non-negative"),
        ({"norm": 1.0, "p": 2, "size": 2.0}, "size", "must be an integer"),
        ({"norm": 1.0, "p": 2, "num_columns": -2}, "num_columns", "must be non-negative"),
        ({"norm": 1.0, "p": 2, "num_columns": True}, "num_columns", "must be an integer"),
        ({}, "T", "must be given when norm is not"),
        ({"T": "String"}, "T", "numeric type with a numpy dtype"),
        ({"T": "i128"}, "T", "numeric type with a numpy dtype"),
        ({"T": "complex"}, "T", "unknown carrier type"),
        ({"norm": 1.0, "p": 2, "T": "bool"}, "norm", "needs a numeric T"),
    ],
)
def test_bad_input(kwargs, parameter, message):
    with pytest.raises(MakeDomainError, match=message) as raised:
        dp.numpy.array2_domain(**kwargs)
    assert raised.value.parameter == parameter


def test_member_structure():
    domain = dp.numpy.array2_domain(T="f64", num_columns=2, size=2, nan=False)
    assert domain.member(np.zeros((2, 2)))
    assert not domain.member(np.zeros((2, 2), dtype=np.float32))  # dtype
    assert not domain.member(np.zeros((2, 3)))  # columns
    assert not domain.member(np.zeros((3, 2)))  # size
    assert not domain.member(np.zeros(4))  # 1-D
    assert not domain.member([[0.0, 0.0], [0.0, 0.0]])  # not an array
    assert not domain.member(np.ma.zeros((2, 2)))  # subclass (masks hide values from sums)
    assert not domain.member(np.array([[0.0, np.nan], [0.0, 0.0]]))  # NaN
    assert dp.numpy.array2_domain(T="f64").member(np.array([[np.nan, np.inf]]))
    assert dp.numpy.array2_domain(T="bool").member(np.array([[True, False]]))


def test_member_exact_boundary_p2():
    # 0.6**2 + 0.8**2 rounds to 1 in floats, but the float 0.8 exceeds 4/5: the row is outside
    domain = dp.numpy.array2_domain(norm=1.0, p=2, num_columns=2)
    row = np.array([[0.6, 0.8]])
    exact = Fraction(0.6) ** 2 + Fraction(0.8) ** 2
    assert float(np.einsum("ij,ij->i", row, row)[0]) == 1.0
    assert domain.member(row) == (exact <= 1)
    assert domain.member(np.array([[1.0, 0.0], [0.0, -1.0], [0.5, 0.5]]))  # on the sphere
    assert not domain.member(np.array([[1.0, 2.0**-60]]))  # just outside


def test_member_exact_boundary_p1_with_origin():
    domain = dp.numpy.array2_domain(norm=0.3, p=1, origin=[0.1, 0.2])
    inside = np.array([[0.1 + 0.3, 0.2]])
    assert domain.member(inside) == (abs(Fraction(0.4) - Fraction(0.1)) <= Fraction(0.3))
    assert not domain.member(np.array([[np.nan, 0.2]]))
    assert not domain.member(np.array([[np.inf, 0.2]]))


def test_member_integers():
    domain = dp.numpy.array2_domain(norm=5, p=2, T="i64")
    assert domain.member(np.array([[3, 4], [0, -5]], dtype=np.int64))
    assert not domain.member(np.array([[3, 5]], dtype=np.int64))
    big = dp.numpy.array2_domain(norm=2.0**62, p=1, T="i64")
    assert big.member(np.array([[2**62, 0]], dtype=np.int64))
    assert not big.member(np.array([[2**62, 1]], dtype=np.int64))  # float64 would round it away
    unsigned = dp.numpy.array2_domain(norm=2.0**63, p=1, T="u64")
    assert unsigned.member(np.array([[2**63]], dtype=np.uint64))
    assert not unsigned.member(np.array([[2**63 + 1]], dtype=np.uint64))


def test_member_huge_values():
    domain = dp.numpy.array2_domain(norm=1e300, p=2, num_columns=2)
    assert domain.member(np.array([[6e299, 8e299]]))  # squares overflow: decided exactly
    assert not domain.member(np.array([[1e300, 1e300]]))
    assert not domain.member(np.array([[1.7e308, -1.7e308]]))


def test_member_zero_norm_and_zero_columns():
    domain = dp.numpy.array2_domain(norm=0.0, p=2, origin=[1.5])
    assert domain.member(np.array([[1.5], [1.5]]))
    assert not domain.member(np.array([[1.5], [1.5000000000000002]]))
    assert dp.numpy.array2_domain(norm=0.0, p=1).member(np.zeros((3, 0)))


def _exact_row_norm(row, origin, p):
    offsets = [Fraction(v) - Fraction(o) for v, o in zip(row, origin)]
    return sum(abs(d) for d in offsets) if p == 1 else sum(d * d for d in offsets)


@st.composite
def near_sphere(draw):
    p = draw(st.sampled_from([1, 2]))
    k = draw(st.integers(1, 6))
    scale = draw(st.sampled_from([1.0, 1e-150, 1e150, 3.0]))
    norm = draw(st.floats(0, 10, allow_subnormal=False)) * scale
    origin = np.array([draw(st.floats(-5, 5)) * scale for _ in range(k)])
    direction = np.array([draw(st.floats(-1, 1)) for _ in range(k)])
    length = np.abs(direction).sum() if p == 1 else np.sqrt((direction**2).sum())
    fraction = draw(st.sampled_from([1.0, 1 - 2**-52, 1 + 2**-52, 0.5, 2.0]))
    with np.errstate(all="ignore"):
        row = origin + direction * (norm * fraction / length) if length else origin.copy()
    return p, norm, origin, row


@given(near_sphere())
def test_row_test_agrees_with_exact_arithmetic(case):
    p, norm, origin, row = case
    test = RowNormTest(norm, p, origin)
    expected = all(np.isfinite(row)) and _exact_row_norm(row, origin, p) <= Fraction(norm) ** p
    assert bool(test.within(row[None, :])[0]) == expected
    assert test.all_within(row[None, :]) == expected
    accepted, undecided = test.classify(row[None, :])
    if accepted[0]:
        assert expected  # the float test never accepts a row outside the ball
    if not accepted[0] and not undecided[0]:
        assert not expected  # nor rejects one inside it


def test_row_test_chunks():
    # more rows than one chunk, with the only bad row in the second chunk
    rows = np.zeros(((1 << 14) + 10, 2))
    rows[(1 << 14) + 5] = [0.0, 1.5]
    test = RowNormTest(1.0, 2, None)
    assert not test.all_within(rows)
    within = test.within(rows)
    assert within.sum() == rows.shape[0] - 1 and not within[(1 << 14) + 5]
