"""make_lipschitz_float_mul: OpenDP 0.16's numbers, bad input (typed, naming the parameter),
the contract, a refuted wrong map and runtime enforcement."""

import dataclasses
import math

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import DPError
from certdp.numeric import inf_cast, inf_mul


def space(T):
    return dp.atom_domain(T=T, nan=False), dp.absolute_distance(T=T)


# (T, constant, bounds, d_in, map) from OpenDP 0.16.0:
# odp.t.make_lipschitz_float_mul(odp.atom_domain(T=T, nan=False), odp.absolute_distance(T=T),
#                                constant, bounds).map(d_in)
MAPS = [
    ("f64", 2.0, (0.0, 10.0), 0.0, 3.552713678800501e-15),
    ("f64", 2.0, (0.0, 10.0), 1.0, 2.0000000000000036),
    ("f64", -3.0, (-5.0, 5.0), 0.5, 1.5000000000000018),
    ("f64", 0.0, (0.0, 10.0), 1.0, 5e-324),
    ("f64", 1.5, (0.0, 1e-310), 1e-320, 1.5005e-320),
    ("f64", 3.0, (0.0, 1.0), 1.0, 3.0000000000000004),
    ("f32", 2.0, (0.0, 10.0), 1.0, 2.000001907348633),
    ("f32", -3.0, (-5.0, 5.0), 0.5, 1.5000009536743164),
    ("f32", 0.0, (0.0, 10.0), 1.0, 1.401298464324817e-45),
    ("f32", 3.0, (0.0, 1.0), 1.0, 3.000000238418579),
]


@pytest.mark.parametrize("T, constant, bounds, d_in, expected", MAPS)
def test_maps_equal_opendp(T, constant, bounds, d_in, expected):
    dp.enable_features("contrib")
    t = dp.t.make_lipschitz_float_mul(*space(T), constant, bounds)
    assert t.map(d_in) == expected


def test_outputs_equal_opendp():
    dp.enable_features("contrib")
    t = dp.t.make_lipschitz_float_mul(*space("f64"), -3.0, (-5.0, 5.0))
    # OpenDP 0.16.0: 1.3 -> -3.9000000000000004, 100 -> -15, -inf -> 15
    assert [t(1.3), t(100.0), t(-math.inf), t(math.inf)] == [
        -3.9000000000000004,
        -15.0,
        15.0,
        -15.0,
    ]
    t = dp.t.make_lipschitz_float_mul(*space("f32"), 2.0, (0.0, 10.0))
    assert t(1.2999999523162842) == 2.5999999046325684  # OpenDP 0.16.0 on f32 1.3


def test_f32_d_in_is_rounded_up_where_opendp_falls_below_the_truth():
    dp.enable_features("contrib")
    c, bounds = 24.206945419311523, (-3.601987600326538, 3.601987600326538)
    t = dp.t.make_lipschitz_float_mul(*space("f32"), c, bounds)
    x, x_prime, d_in = 3.601987361907959, -1.3071801662445068, 4.909167528152466
    from fractions import Fraction

    assert Fraction(x) - Fraction(x_prime) == Fraction(d_in)
    actual = abs(Fraction(t(x)) - Fraction(t(x_prime)))
    assert actual > Fraction(118.83595275878906)  # OpenDP 0.16.0's map(d_in)
    assert Fraction(t.map(d_in)) >= actual


@pytest.mark.parametrize(
    "args, parameter",
    [((math.nan, (0.0, 1.0)), "constant"), ((math.inf, (0.0, 1.0)), "constant"),
     (("a", (0.0, 1.0)), "constant"), ((2.0, (1.0, 0.0)), "bounds"),
     ((2.0, (math.nan, 1.0)), "bounds"), ((2.0, (-math.inf, 1.0)), "bounds"),
     # referee ref-np: None (atom_domain's "no bounds") and other non-pairs are typed refusals
     ((2.0, None), "bounds"), ((2.0, 3.0), "bounds"), ((2.0, (1.0,)), "bounds")],
)  # fmt: skip
def test_bad_arguments_are_refused(args, parameter):
    dp.enable_features("contrib")
    with pytest.raises(DPError) as error:
        dp.t.make_lipschitz_float_mul(*space("f64"), *args)
    assert error.value.parameter == parameter


def test_bad_domain_metric_huge_constant_and_d_in():
    dp.enable_features("contrib")
    with pytest.raises(DPError) as error:
        dp.t.make_lipschitz_float_mul(
            dp.atom_domain(T="f64"), dp.absolute_distance(T="f64"), 2.0, (0.0, 1.0)
        )
    assert error.value.parameter == "input_domain"
    with pytest.raises(DPError) as error:
        dp.t.make_lipschitz_float_mul(
            dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f32"), 2.0, (0.0, 1.0)
        )
    assert error.value.parameter == "input_metric"
    with pytest.raises(DPError):
        dp.t.make_lipschitz_float_mul(*space("f64"), 1e300, (0.0, 1e10))
    t = dp.t.make_lipschitz_float_mul(*space("f64"), 2.0, (0.0, 1.0))
    for bad in (-1.0, math.nan):
        with pytest.raises(DPError):
            t.map(bad)
    with pytest.raises(DPError):
        t(math.nan)


def test_contract_verifies_and_wrong_maps_are_refuted():
    dp.enable_features("contrib")
    contract = contract_of(dp.t.make_lipschitz_float_mul)
    assert contract.verify().examples > 0
    kwargs = {"input_domain": dp.atom_domain(T="f64", nan=False),
              "input_metric": dp.absolute_distance(T="f64"), "constant": 0.1, "bounds": (-1.0, 1.0)}  # fmt: skip
    fixed = dataclasses.replace(contract, arguments=lambda: st.just(kwargs))
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: inf_mul(0.1, inf_cast(d_in)) / 2)
    # without the spacing term the map is exceeded at a concrete pair
    built = dp.t.make_lipschitz_float_mul(*space("f64"), 1.1, (-1.0, 1.0))
    x, x_prime, d_in = -0.20573084594207813, 0.7220442168506447, 0.9277750627927228
    with pytest.raises(StabilityViolation):
        contract.check_pair(built, {}, x, x_prime, d_in, inf_mul(1.1, d_in))


def test_runtime_contracts_and_partial_form():
    dp.enable_features("contrib")
    dp.enable_contracts()
    t = space("f64") >> dp.t.then_lipschitz_float_mul(2.0, (0.0, 10.0))
    assert t(1.3) == 2.6 and t.map(1.0) == 2.0000000000000036
