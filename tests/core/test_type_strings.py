"""metric.type and domain.carrier_type print OpenDP 0.16's strings (attacker-21 row 2 and 3).

Every expected string below is what OpenDP 0.16 printed for the same call
(``str(odp.<metric>.type)`` / ``str(odp.<domain>.carrier_type)``)."""

import pytest

import certdp.prelude as dp
from certdp.core.domains import Domain
from certdp.core.errors import DomainMismatchError, MetricMismatchError
from certdp.core.metrics import Metric


def test_attacker_21_metric_type_attribute():
    assert str(dp.l01inf_distance(dp.absolute_distance(T=int)).type) == (
        "L01InfDistance<AbsoluteDistance<i32>>"
    )
    assert str(dp.symmetric_distance().type) == "SymmetricDistance"


def test_attacker_21_domain_carrier_type_attribute():
    assert str(dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int)).carrier_type) == (
        "HashMap<String, i32>"
    )
    assert str(dp.atom_domain(T=int).carrier_type) == "i32"


@pytest.mark.parametrize(
    "metric, expected",
    [
        (dp.insert_delete_distance(), "InsertDeleteDistance"),
        (dp.change_one_distance(), "ChangeOneDistance"),
        (dp.hamming_distance(), "HammingDistance"),
        (dp.discrete_distance(), "DiscreteDistance"),
        (dp.absolute_distance(T="f32"), "AbsoluteDistance<f32>"),
        (dp.l1_distance(T=float), "L1Distance<f64>"),
        (dp.l2_distance(T="i64"), "L2Distance<i64>"),
        (dp.linf_distance(T=int), "opendp::metrics::LInfDistance<i32>"),
        (dp.linf_distance(T=float, monotonic=True), "opendp::metrics::LInfDistance<f64>"),
        (
            dp.l02inf_distance(dp.absolute_distance(T=float)),
            "L02InfDistance<AbsoluteDistance<f64>>",
        ),
    ],
)
def test_metric_types_as_opendp_prints_them(metric, expected):
    assert metric.type == expected


@pytest.mark.parametrize(
    "domain, expected",
    [
        (dp.atom_domain(T=float, nan=False), "f64"),
        (dp.atom_domain(T="f32"), "f32"),
        (dp.atom_domain(T=str), "String"),
        (dp.atom_domain(T=bool), "bool"),
        (dp.atom_domain(T="usize"), "usize"),
        (dp.vector_domain(dp.atom_domain(T=int)), "Vec<i32>"),
        (dp.vector_domain(dp.atom_domain(T=int), size=3), "Vec<i32>"),
        (dp.option_domain(dp.atom_domain(T=float)), "core::option::Option<f64>"),
    ],
)
def test_carrier_types_as_opendp_prints_them(domain, expected):
    assert domain.carrier_type == expected


def test_an_unnamed_metric_or_domain_raises_a_typed_error():
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    class Other(Metric):
        pass

    class Elsewhere(Domain):
        pass

    with pytest.raises(MetricMismatchError):
        _ = Other().type
    with pytest.raises(DomainMismatchError):
        _ = Elsewhere().carrier_type
