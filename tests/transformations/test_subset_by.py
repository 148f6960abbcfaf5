"""make_subset_by: OpenDP 0.16's subsets (read through make_select_column), schema errors, bad
input, contract and runtime enforcement."""

import dataclasses

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import FailedCastError, FailedFunctionError, MakeTransformationError

from .frame_cases import HOSTILE, PUMS_COLUMNS, pums_text


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _flagged():
    return dp.t.make_split_dataframe(",", ["a", "b", "c"]) >> dp.t.then_df_is_equal("c", "")


def test_subsets_as_in_opendp():
    # OpenDP 0.16.0 on HOSTILE: subset_by("c", ["a", "b"]) then select_column("b", str) gives
    # ["", "", "b"]; subset_by("c", ["c"]) then select_column("c", bool) gives [True] * 3.
    chain = _flagged() >> dp.t.make_subset_by("c", ["a", "b"])
    assert (chain >> dp.t.make_select_column("b", str))(HOSTILE) == ["", "", "b"]
    chain = _flagged() >> dp.t.make_subset_by("c", ["c"])
    assert (chain >> dp.t.make_select_column("c", bool))(HOSTILE) == [True, True, True]
    assert chain.map(3) == 3


def test_pums_married_income_as_in_opendp():
    # OpenDP 0.16.0: split_dataframe >> then_df_cast_default("income", str, int) >>
    # then_df_is_equal("married", "1") >> subset_by("married", ["income"]) >>
    # select_column("income", int) >> then_clamp((0, 200000)) >> then_sum() -> 20424580, map(1)
    # 200000.
    pipeline = (
        dp.t.make_split_dataframe(",", PUMS_COLUMNS)
        >> dp.t.then_df_cast_default("income", str, int)
        >> dp.t.then_df_is_equal("married", "1")
        >> dp.t.make_subset_by("married", ["income"])
        >> dp.t.make_select_column("income", int)
        >> dp.t.then_clamp((0, 200_000))
        >> dp.t.then_sum()
    )
    assert (pipeline(pums_text()), pipeline.map(1)) == (20424580, 200000)


@pytest.mark.parametrize("text", ["", "1,2,3", HOSTILE])
def test_schema_errors_are_typed_and_data_independent(text):
    with pytest.raises(FailedFunctionError, match="keep_columns: column does not exist: 'zz'"):
        (_flagged() >> dp.t.make_subset_by("c", ["a", "zz"]))(text)
    with pytest.raises(FailedFunctionError, match="indicator_column: column does not exist"):
        (_flagged() >> dp.t.make_subset_by("q", ["a"]))(text)
    with pytest.raises(FailedCastError, match="indicator_column: column 'a' holds String"):
        (_flagged() >> dp.t.make_subset_by("a", ["b"]))(text)
    dropped = _flagged() >> dp.t.make_subset_by("c", ["a"])
    with pytest.raises(FailedFunctionError, match="key: column does not exist: 'c'"):
        (dropped >> dp.t.make_select_column("c", bool))(text)


def test_bad_parameters_are_refused():
    with pytest.raises(MakeTransformationError, match="keep_columns"):
        dp.t.make_subset_by("c", ["a", 1])
    with pytest.raises(MakeTransformationError, match="keep_columns"):
        dp.t.make_subset_by("c", "a")
    with pytest.raises(MakeTransformationError, match="K"):
        dp.t.make_subset_by(1.5, [])


def test_contract_verifies():
    report = contract_of(dp.t.make_subset_by).verify()
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_subset_by),
        arguments=lambda: st.just({"indicator_column": "b", "keep_columns": ["a", "b"]}),
    )
    # A tight pair needs its differing rows flagged (half of the drawn rows are): the map that
    # claims no change at all is refuted on every run, d_in // 2 only on most.
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: 0)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    chain = _flagged() >> dp.t.make_subset_by("c", ["a"])
    assert (chain >> dp.t.make_select_column("a", str))("1,2\n3,4,5") == ["1"]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_subset_by("c", ["a", 1])
    assert error.value.condition == "names"
