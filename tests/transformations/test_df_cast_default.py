"""make_df_cast_default: OpenDP 0.16's casts of one column (read through make_select_column),
schema errors, bad input, contract and runtime enforcement."""

import dataclasses
import math

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


def _frame(names=("a", "b", "c")):
    return dp.t.make_split_dataframe(",", list(names))


# Each literal: OpenDP 0.16.0's (split_dataframe >> then_df_cast_default(col, str, TOA) >>
# select_column(col, TOA))(text).
@pytest.mark.parametrize(
    "column, TOA, text, expected",
    [
        ("a", int, HOSTILE, [1, 0, 3, 4, 0, 0]),
        ("c", float, HOSTILE, [2.0, 0.0, 0.0, 6.0, 0.0, 0.0]),
        ("b", bool, HOSTILE, [True, False, False, True, True, True]),
        ("a", int, "1,2\nx,3\n 4 ,5\n-7\n1e3\n+5\n", [1, 0, 4, -7, 0, 5]),
        ("a", bool, "1.5,x\n,y\ntrue\nfalse", [True, False, True, True]),
    ],
)
def test_casts_as_in_opendp(column, TOA, text, expected):
    chain = _frame() >> dp.t.then_df_cast_default(column, str, TOA)
    assert (chain >> dp.t.make_select_column(column, TOA))(text) == expected


def test_float_casts_as_in_opendp():
    # OpenDP 0.16.0: [1.5, nan, inf, -0.0, 0.0, inf] for "1.5,x\nnan,y\ninf\n-0\nabc\n1e400".
    chain = _frame() >> dp.t.then_df_cast_default("a", str, float)
    out = (chain >> dp.t.make_select_column("a", float))("1.5,x\nnan,y\ninf\n-0\nabc\n1e400")
    assert out[0] == 1.5 and math.isnan(out[1]) and out[2] == math.inf
    assert math.copysign(1, out[3]) == -1 and out[4:] == [0.0, math.inf]


def test_chained_casts_and_other_columns_unchanged():
    # OpenDP 0.16.0: str -> int -> float of "1\n7\nx" gives [1.0, 7.0, 0.0].
    chain = (
        _frame()
        >> dp.t.then_df_cast_default("a", str, int)
        >> dp.t.then_df_cast_default("a", int, float)
    )
    assert (chain >> dp.t.make_select_column("a", float))("1\n7\nx") == [1.0, 7.0, 0.0]
    assert (chain >> dp.t.make_select_column("b", str))("1,q\n7\nx") == ["q", "", ""]


@pytest.mark.parametrize("text", ["", "1", HOSTILE])
def test_schema_errors_are_typed_and_data_independent(text):
    missing = _frame() >> dp.t.then_df_cast_default("z", str, int)
    with pytest.raises(FailedFunctionError, match="column_name: column does not exist"):
        missing(text)
    cast = _frame() >> dp.t.then_df_cast_default("a", str, int)
    twice = cast >> dp.t.then_df_cast_default("a", str, int)
    with pytest.raises(FailedCastError, match="column_name: column 'a' holds i32, not String"):
        twice(text)


def test_bad_parameters_are_refused():
    space = _frame().output_space
    with pytest.raises(MakeTransformationError, match="input_metric"):
        dp.t.make_df_cast_default(space[0], dp.insert_delete_distance(), "a", str, int)
    with pytest.raises(MakeTransformationError, match="input_domain"):
        dp.t.make_df_cast_default(
            dp.vector_domain(dp.atom_domain(T=str)), dp.symmetric_distance(), "a", str, int
        )
    with pytest.raises(MakeTransformationError, match="column_name"):
        dp.t.make_df_cast_default(*space, 3, str, int)
    with pytest.raises(MakeTransformationError, match="TIA/TOA"):
        dp.t.make_df_cast_default(*space, "a", str, "nonsense")


def test_contract_verifies():
    report = contract_of(dp.t.make_df_cast_default).verify()
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    contract = contract_of(dp.t.make_df_cast_default)
    space = _frame().output_space
    fixed = dataclasses.replace(
        contract,
        arguments=lambda: st.just(
            {"input_domain": space[0], "input_metric": space[1], "column_name": "a",
             "TIA": "String", "TOA": "i32"}
        ),
    )  # fmt: skip
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    chain = _frame() >> dp.t.then_df_cast_default("a", str, int)
    assert (chain >> dp.t.make_select_column("a", int))("5") == [5]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_df_cast_default(*_frame().output_space, "a", str, "nonsense")
    assert error.value.condition == "types"
