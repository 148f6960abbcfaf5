"""make_df_is_equal: OpenDP 0.16's bool columns (read through make_select_column), schema
errors, bad input, contract and runtime enforcement."""

import dataclasses

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import FailedCastError, FailedFunctionError, MakeTransformationError

from .frame_cases import HOSTILE


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _frame():
    return dp.t.make_split_dataframe(",", ["a", "b", "c"])


def test_equality_as_in_opendp():
    # OpenDP 0.16.0: then_df_is_equal("c", "") then select_column("c", bool) of HOSTILE gives
    # [False, True, True, False, True, False]; on "1,2\nx,3\n 4 ,2\n", ("b", "2") gives
    # [True, False, True]; after a str -> int cast, ("a", 7) on "1\n7\nx" gives
    # [False, True, False].
    chain = _frame() >> dp.t.then_df_is_equal("c", "")
    assert (chain >> dp.t.make_select_column("c", bool))(HOSTILE) == [
        False, True, True, False, True, False
    ]  # fmt: skip
    chain = _frame() >> dp.t.then_df_is_equal("b", "2")
    assert (chain >> dp.t.make_select_column("b", bool))("1,2\nx,3\n 4 ,2\n") == [True, False, True]
    chain = _frame() >> dp.t.then_df_cast_default("a", str, int) >> dp.t.then_df_is_equal("a", 7)
    assert (chain >> dp.t.make_select_column("a", bool))("1\n7\nx") == [False, True, False]
    assert chain.output_domain == _frame().output_domain and chain.map(2) == 2


@pytest.mark.parametrize("text", ["", "1\n7", HOSTILE])
def test_schema_errors_are_typed_and_data_independent(text):
    # OpenDP 0.16 also fails at run time on a String column compared with the int 7.
    with pytest.raises(FailedCastError, match="column_name: column 'a' holds String, not i32"):
        (_frame() >> dp.t.then_df_is_equal("a", 7))(text)
    with pytest.raises(FailedFunctionError, match="column_name: column does not exist"):
        (_frame() >> dp.t.then_df_is_equal("z", "x"))(text)


def test_bad_parameters_are_refused():
    space = _frame().output_space
    with pytest.raises(MakeTransformationError, match="value"):
        dp.t.make_df_is_equal(*space, "a", 1.5, TIA="i32")
    with pytest.raises(MakeTransformationError, match="TIA"):
        dp.t.make_df_is_equal(*space, "a", "x", TIA="nonsense")
    with pytest.raises(MakeTransformationError, match="column_name"):
        dp.t.make_df_is_equal(*space, 3, "x")
    with pytest.raises(MakeTransformationError, match="input_metric"):
        dp.t.make_df_is_equal(space[0], dp.insert_delete_distance(), "a", "x")


def test_contract_verifies():
    report = contract_of(dp.t.make_df_is_equal).verify()
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    space = _frame().output_space
    fixed = dataclasses.replace(
        contract_of(dp.t.make_df_is_equal),
        arguments=lambda: st.just(
            {"input_domain": space[0], "input_metric": space[1], "column_name": "a",
             "value": "x", "TIA": "String"}
        ),
    )  # fmt: skip
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    chain = _frame() >> dp.t.then_df_is_equal("a", "5")
    assert (chain >> dp.t.make_select_column("a", bool))("5\n6") == [True, False]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_df_is_equal(*_frame().output_space, "a", 1.5, TIA="i32")
    assert error.value.condition == "value"
