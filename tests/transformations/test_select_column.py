"""make_select_column: OpenDP 0.16's columns, schema errors (typed, the same on every frame of
one schema), bad input, contract and runtime enforcement."""

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


def test_columns_as_in_opendp():
    # OpenDP 0.16.0: select_column("b", str) of split_dataframe(",", ["a","b","c"])(HOSTILE).
    assert (_frame() >> dp.t.make_select_column("b", str))(HOSTILE) == [
        "x", "", "", "5", "b", 'q"'
    ]  # fmt: skip
    s = dp.t.make_select_column("b", str)
    assert repr(s.input_domain) == 'DataFrameDomain("String")'
    assert repr(s.output_domain) == "VectorDomain(AtomDomain(T=String))"
    assert repr(dp.t.make_select_column("b", float).output_domain) == (
        "VectorDomain(AtomDomain(nan=true, T=f64))"
    )
    assert s.map(4) == 4


@pytest.mark.parametrize("text", ["", "1,2", HOSTILE, "x\n" * 1000])
def test_a_missing_column_fails_the_same_way_whatever_the_rows(text):
    # OpenDP 0.16 fails at run time too ("column does not exist"); certdp's error is typed,
    # names the parameter and depends on the schema alone.
    with pytest.raises(FailedFunctionError, match="key: column does not exist: 'z'"):
        (_frame() >> dp.t.make_select_column("z", str))(text)
    with pytest.raises(FailedCastError, match="key: column 'a' holds String, not i32"):
        (_frame() >> dp.t.make_select_column("a", int))(text)


def test_bad_parameters_are_refused():
    with pytest.raises(MakeTransformationError, match="TOA"):
        dp.t.make_select_column("a", "nonsense")
    with pytest.raises(MakeTransformationError, match="K"):
        dp.t.make_select_column(1.5, str)
    with pytest.raises(MakeTransformationError, match="key"):
        dp.t.make_select_column("a", str, K="i32")


def test_a_frame_of_another_name_type_is_refused():
    frame = dp.t.make_create_dataframe([1, 2])([["x", "y"]])
    with pytest.raises(FailedFunctionError):
        dp.t.make_select_column("a", str)(frame)
    assert dp.t.make_select_column(2, str)(frame) == ["y"]


def test_contract_verifies():
    report = contract_of(dp.t.make_select_column).verify()
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_select_column),
        arguments=lambda: st.just({"key": "a", "TOA": "String"}),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert (_frame() >> dp.t.make_select_column("c", str))("1,2,3") == ["3"]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_select_column("a", "nonsense")
    assert error.value.condition == "toa"
