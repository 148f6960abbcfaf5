"""Regression tests for the second front referee's findings (the evaluator's remembered values,
output types of new_function)."""

from __future__ import annotations

import contextvars

import numpy as np
import pytest

import certdp.prelude as dp

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


@pytest.fixture(autouse=True)
def _switches():
    dp.enable_features("contrib", "honest-but-curious")
    was_on = dp.contracts_enabled()
    yield
    (dp.enable_contracts if was_on else dp.disable_contracts)()
    dp.disable_features("contrib", "honest-but-curious")


def _tower():
    laplace = dp.m.make_laplace(*ATOM, 1.0)
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(dp.c.make_pureDP_to_zCDP(laplace)), 1e-6)


def test_an_unhashable_0d_array_d_in_gives_the_same_map_with_contracts_on_and_off():
    tower = _tower()
    dp.disable_contracts()
    expected = tower.map(1.0)
    assert tower.map(np.array(1.0)) == expected
    dp.enable_contracts()
    assert tower.map(np.array(1.0)) == expected
    assert tower.map(1.0) == expected


@pytest.mark.parametrize("contracts", [True, False])
def test_a_list_d_in_is_refused_typed_naming_d_in(contracts):
    tower = _tower()
    (dp.enable_contracts if contracts else dp.disable_contracts)()
    with pytest.raises(dp.OpenDPException) as error:
        tower.map([1.0])
    assert error.value.parameter == "d_in"


def test_a_context_copied_during_the_call_sees_no_remembered_value_afterwards():
    copies = []

    def leaf_map(d):
        copies.append(contextvars.copy_context())
        return 0.5 * d

    leaf = dp.Measurement(ATOM[0], lambda x: x, ATOM[1], dp.max_divergence(), leaf_map)
    rho = dp.c.make_pureDP_to_zCDP(leaf)
    dp.enable_contracts()
    assert rho.map(1.0) == 0.125
    leaf._map = lambda d: 4.0 * d
    for contracts in (False, True):
        (dp.enable_contracts if contracts else dp.disable_contracts)()
        assert rho.map(1.0) == 8.0
        assert copies[0].run(rho.map, 1.0) == 8.0


@pytest.mark.parametrize(
    "TO, value, expected",
    [
        (np.float64, 1.5, 1.5),
        (np.float32, 0.1, float(np.float32(0.1))),
        (np.int32, np.int64(7), 7),
        ("Vec<ExtrinsicObject>", [1, "a"], [1, "a"]),
        ("HashMap<String,ExtrinsicObject>", {"a": [1]}, {"a": [1]}),
        ("Option<Vec<ExtrinsicObject>>", None, None),
    ],
)
def test_new_function_converts_the_output_types_opendp_016_converts(TO, value, expected):
    assert dp.new_function(lambda x: value, TO=TO)(0) == expected


@pytest.mark.parametrize("TO", ["HashMap<ExtrinsicObject,i32>", np.float16, np.complex128])
def test_new_function_still_refuses_other_output_types_typed(TO):
    with pytest.raises(dp.OpenDPException) as error:
        dp.new_function(lambda x: x, TO=TO)
    assert error.value.parameter == "TO"


def test_a_float_keyed_map_under_option_passes_none_and_refuses_a_dict():
    function = dp.new_function(lambda x: x, TO="Option<HashMap<f64,i32>>")
    assert function(None) is None
    with pytest.raises(dp.OpenDPException) as error:
        function({1.0: 1})
    assert error.value.parameter == "TO"
