import dataclasses
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.contracts.coupling import coupling_exists, smallest_coupled_distance
from certdp.core.errors import (
    ArithmeticOverflowError,
    FailedCastError,
    FailedFunctionError,
    FailedMapError,
    MakeTransformationError,
)
from certdp.core.transformation import Transformation
from certdp.transformations.resize import make_resize
from certdp.transformations.resize.contract import outcomes
from certdp.transformations.resize.make_resize import resized

SYM, ID = dp.symmetric_distance(), dp.insert_delete_distance()


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def ints(**kwargs):
    return dp.vector_domain(dp.atom_domain(T="i32"), **kwargs)


def test_pads_with_the_constant_like_opendp():
    t = dp.t.make_resize(ints(), SYM, size=4, constant=0)
    assert t([1, 2, 3]) == [1, 2, 3, 0]  # OpenDP 0.16's own example
    assert t([]) == [0, 0, 0, 0]
    assert t.map(1) == 2 and t.map(3) == 6
    assert t.output_domain == ints(size=4)
    assert t.output_metric == SYM and t.input_metric == SYM


def test_truncation_keeps_a_uniform_subset_under_the_symmetric_distance():
    t = dp.t.make_resize(ints(), SYM, size=2, constant=0)
    seen = Counter(tuple(sorted(t([1, 2, 3]))) for _ in range(600))
    assert set(seen) == {(1, 2), (1, 3), (2, 3)}
    # exact distribution from the real function (every permutation of the shuffle)
    exact = Counter()
    for y, p in outcomes(t, [1, 2, 3]):
        exact[tuple(sorted(y))] += p
    assert exact == {(1, 2): Fraction(1, 3), (1, 3): Fraction(1, 3), (2, 3): Fraction(1, 3)}


def test_insert_delete_input_keeps_the_prefix_and_never_shuffles():
    t = dp.t.make_resize(ints(), ID, size=3, constant=-1, MO="InsertDeleteDistance")
    assert all(t([5, 6, 7, 8]) == [5, 6, 7] for _ in range(20))
    assert all(t([5, 6]) == [5, 6, -1] for _ in range(20))
    assert all(t([5, 6, 7]) == [5, 6, 7] for _ in range(20))


def test_symmetric_to_insert_delete_shuffles_the_padding():
    t = (ints(), SYM) >> dp.t.then_resize(3, -1, MO="InsertDeleteDistance")
    assert t.output_metric == ID
    exact = outcomes(t, [5, 6])
    # every order of the three records, each with probability 1/6
    assert len(exact) == 6 and all(p == Fraction(1, 6) for _, p in exact)
    assert {tuple(sorted(y)) for y, _ in exact} == {(-1, 5, 6)}


def test_numpy_arrays_and_other_types():
    t = dp.t.make_resize(dp.vector_domain(dp.atom_domain(T="f64")), SYM, 3, float("nan"))
    out = t(np.array([1.5, -0.0]))
    assert out[:2] == [1.5, -0.0] and np.isnan(out[2]) and type(out[0]) is float
    s = dp.t.make_resize(dp.vector_domain(dp.atom_domain(T="String")), ID, 2, "x")
    assert s(["a"]) == ["a", "x"]
    sized = dp.t.make_resize(ints(size=5), SYM, 3, 0)
    assert sized.input_domain == ints(size=5) and sized.output_domain == ints(size=3)
    assert len(sized([1, 2, 3, 4, 5])) == 3


def test_map_is_checked_in_u32():
    t = dp.t.make_resize(ints(), SYM, 3, 0)
    assert t.map(2**31 - 1) == 2**32 - 2  # as OpenDP 0.16
    with pytest.raises(ArithmeticOverflowError):
        t.map(2**31)
    with pytest.raises(FailedCastError):
        t.map(2**32)
    with pytest.raises(FailedMapError) as error:
        t.map(-1)
    assert error.value.parameter == "d_in"


@pytest.mark.parametrize("size", [0, -3, 2.0, True, "3", None])
def test_bad_size_is_refused(size):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_resize(ints(), SYM, size, 0)
    assert error.value.parameter == "size"


@pytest.mark.parametrize(
    "domain, constant",
    [
        (dp.vector_domain(dp.atom_domain(bounds=(0, 5))), 7),  # outside the bounds
        (ints(), 1.0),  # wrong type
        (ints(), 2**40),  # outside i32
        (dp.vector_domain(dp.atom_domain(T="f64", nan=False)), float("nan")),
        (dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0))), float("inf")),
    ],
)
def test_constant_outside_the_element_domain_is_refused(domain, constant):
    with pytest.raises(MakeTransformationError, match="not a member") as error:
        dp.t.make_resize(domain, SYM, 3, constant)
    assert error.value.parameter == "constant"


@pytest.mark.parametrize("MO", ["L1Distance<i32>", "symmetric", 3, dp.l1_distance("i32")])
def test_bad_output_metric_is_refused(MO):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_resize(ints(), SYM, 3, 0, MO=MO)
    assert error.value.parameter == "MO"


def test_output_metric_as_a_metric_or_class():
    assert dp.t.make_resize(ints(), SYM, 3, 0, MO=ID).output_metric == ID
    assert dp.t.make_resize(ints(), SYM, 3, 0, MO=type(ID)).output_metric == ID


def test_bad_domain_and_metric_are_refused():
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_resize(dp.atom_domain(T="i32"), SYM, 3, 0)
    assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_resize(dp.vector_domain(ints()), SYM, 3, 0)
    assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_resize(ints(), dp.l1_distance("i32"), 3, 0)
    assert error.value.parameter == "input_metric"


def test_out_of_domain_data_is_refused():
    t = dp.t.make_resize(dp.vector_domain(dp.atom_domain(bounds=(0, 5))), SYM, 3, 0)
    for data in ([1, 9], [1.0], "ab"):
        with pytest.raises(FailedFunctionError):
            t(data)


# -- couplings and the contract ---------------------------------------------------------------


@pytest.mark.parametrize("MI", [SYM, ID])
@pytest.mark.parametrize("MO", ["SymmetricDistance", "InsertDeleteDistance"])
def test_the_map_is_attained(MI, MO):
    """Empty vs one record, resized to one: [c] vs [v] are 2 apart under every coupling."""
    t = dp.t.make_resize(ints(), MI, 1, 0, MO=MO)
    assert smallest_coupled_distance(outcomes(t, []), outcomes(t, [7]), t.output_metric) == 2
    assert t.map(1) == 2


def test_boundary_pair_couples_at_two_for_every_metric_pair():
    for MI in (SYM, ID):
        for MO in ("SymmetricDistance", "InsertDeleteDistance"):
            t = dp.t.make_resize(ints(), MI, 3, -1, MO=MO)
            for x, x_prime in [([0, 1, 2], [0, 1, 2, 3]), ([0, 1], [0, 1, 2, 3]), ([0], [3, 0])]:
                d_in = MI.distance(x, x_prime)
                P, Q = outcomes(t, x), outcomes(t, x_prime)
                assert smallest_coupled_distance(P, Q, t.output_metric) <= t.map(d_in)


def test_opendp_shuffle_policy_breaks_the_map_for_insert_delete_to_insert_delete():
    """OpenDP 0.16 shuffles a padded dataset whenever the output metric is ordered; with an
    ordered input metric too, the neighbours (0, 1, 2) and (0, 1, 2, 3) then admit no
    2-close coupling (certdp does not shuffle there)."""
    ours = dp.t.make_resize(ints(), ID, 3, -1, MO="InsertDeleteDistance")
    opendp_like = Transformation(
        ours.input_domain,
        ours.output_domain,
        lambda data: resized(data, 3, -1, shuffle_padded=True, shuffle_truncated=False),
        ID,
        ID,
        ours.map,
    )
    x, x_prime = [0, 1, 2], [0, 1, 2, 3]
    assert ID.distance(x, x_prime) == 1

    def close(y, y_prime):
        return ID.close(y, y_prime, 2)

    assert not coupling_exists(outcomes(opendp_like, x), outcomes(opendp_like, x_prime), close)
    assert (
        smallest_coupled_distance(outcomes(opendp_like, x), outcomes(opendp_like, x_prime), ID) == 4
    )
    assert coupling_exists(outcomes(ours, x), outcomes(ours, x_prime), close)


def test_contract_verifies():
    report = contract_of(dp.t.make_resize).verify()
    assert report.examples > 0 and 0 < report.max_tightness <= 1


def test_a_map_of_d_in_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_resize),
        arguments=lambda: st.just(
            {
                "input_domain": ints(),
                "input_metric": SYM,
                "size": 1,
                "constant": 0,
                "MO": "SymmetricDistance",
            }
        ),
    )
    with pytest.raises(StabilityViolation) as error:
        fixed.verify(map_override=lambda d_in: d_in)
    violation = error.value
    assert violation.d_out_observed > violation.d_in


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_resize(ints(), SYM, 2, 0)([4]) == [4, 0]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_resize(ints(), SYM, 0, 0)
    assert error.value.condition == "size-positive"
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_resize(dp.vector_domain(dp.atom_domain(bounds=(0, 5))), SYM, 2, 9)
    assert error.value.condition == "constant-in-element-domain"


def test_make_resize_is_the_namespace_constructor():
    assert dp.t.make_resize is make_resize
