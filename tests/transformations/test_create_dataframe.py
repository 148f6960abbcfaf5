"""make_create_dataframe: OpenDP 0.16's padding, cutting and repeated names (read through
make_select_column), bad input, contract and runtime enforcement."""

import dataclasses

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import FailedFunctionError, MakeTransformationError

from .frame_cases import HOSTILE


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _column(names, key, text=HOSTILE):
    chain = (
        dp.t.make_split_lines()
        >> dp.t.make_split_records(",")
        >> dp.t.make_create_dataframe(names)
        >> dp.t.make_select_column(key, str)
    )
    return chain(text)


# Each literal: OpenDP 0.16.0's (split_lines >> split_records(",") >> create_dataframe(names) >>
# select_column(key, str))(HOSTILE).
@pytest.mark.parametrize(
    "names, key, column",
    [
        ([0, 1, 2, 3], 3, ["", "", "", "7", "", ""]),
        (["a", "a", "b"], "a", ["x", "", "", "5", "b", 'q"']),
        ([True], True, ["1", "", "3", "4", "a", '"p']),
    ],
)
def test_padding_cutting_and_repeated_names_as_in_opendp(names, key, column):
    assert _column(names, key) == column


def test_direct_records_and_spaces():
    t = dp.t.make_create_dataframe(["a", "b"])
    assert repr(t.input_domain) == "VectorDomain(VectorDomain(AtomDomain(T=String)))"
    assert repr(t.output_domain) == 'DataFrameDomain("String")'
    frame = t([["1"], ["2", "3", "4"], []])
    assert frame.length == 3
    assert (t >> dp.t.make_select_column("b", str))([["1"], ["2", "3", "4"], []]) == ["", "3", ""]
    assert t.map(5) == 5
    assert repr(dp.t.make_create_dataframe([1, 2]).output_domain) == 'DataFrameDomain("i32")'


def test_no_names_with_k_gives_frames_of_empty_rows():
    t = dp.t.make_create_dataframe([], K="String")
    a, b = t([["x"], ["y"]]), t([["z"]])
    assert dp.symmetric_distance().distance(a, b) == 1


def test_bad_names_are_refused():
    with pytest.raises(MakeTransformationError, match="K"):
        dp.t.make_create_dataframe([])
    with pytest.raises(MakeTransformationError, match="K"):
        dp.t.make_create_dataframe([1.5])
    with pytest.raises(MakeTransformationError, match="col_names"):
        dp.t.make_create_dataframe(["a", 1])
    with pytest.raises(MakeTransformationError, match="col_names"):
        dp.t.make_create_dataframe([1, 2.0])
    with pytest.raises(MakeTransformationError, match="K"):
        dp.t.make_create_dataframe(["a"], K="f64")
    with pytest.raises(MakeTransformationError, match="K"):
        dp.t.make_create_dataframe(["a"], K="nonsense")


def test_non_record_data_is_refused_by_invoke():
    with pytest.raises(FailedFunctionError):
        dp.t.make_create_dataframe(["a"])([[1]])


def test_contract_verifies():
    report = contract_of(dp.t.make_create_dataframe).verify()
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_create_dataframe), arguments=lambda: st.just({"col_names": ["a"]})
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert _column(["a", "b"], "b", "1,2\n") == ["2"]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_create_dataframe([1.5])
    assert error.value.condition == "col-names"
