"""attacker-21: OpenDP 0.16's subscript form of a numeric metric type (``dp.L2Distance[float]``)."""

import pytest

import certdp.prelude as dp
from certdp.core.errors import MakeDomainError


@pytest.mark.parametrize(
    "name, T, text",
    [
        ("L2Distance", float, "L2Distance<f64>"),
        ("L1Distance", int, "L1Distance<i32>"),
        ("AbsoluteDistance", "f32", "AbsoluteDistance<f32>"),
    ],
)
def test_subscript_is_opendps_descriptor(name, T, text):
    assert getattr(dp, name)[T] == text
    odp = pytest.importorskip("opendp.prelude")
    assert str(getattr(odp, name)[T]) == text


@pytest.mark.parametrize("T", [str, object, "x", bool])
def test_subscript_of_a_non_numeric_type_is_typed(T):
    with pytest.raises(MakeDomainError, match="T:"):
        dp.L2Distance[T]


def test_l2distance_subscript_as_MO():
    dp.enable_features("contrib")  # count_by_categories and noise may be unvetted
    t = dp.t.make_count_by_categories(
        dp.vector_domain(dp.atom_domain(T=int)),
        dp.symmetric_distance(),
        categories=[1, 2],
        MO=dp.L2Distance[float],
        TOA=float,
    )
    assert t([1, 1, 2]) == [2.0, 1.0, 0.0]
    assert t.map(2) == 2.0


def test_l2distance_int_subscript_in_chain():
    dp.enable_features("contrib")  # count_by_categories and noise may be unvetted
    c = (
        (dp.vector_domain(dp.atom_domain(T=str)), dp.symmetric_distance())
        >> dp.t.then_count_by_categories(categories=["a"], MO=dp.L2Distance[int])
        >> dp.m.then_noise(dp.zero_concentrated_divergence(), scale=1.0)
    )
    assert c.map(1) == 0.5
