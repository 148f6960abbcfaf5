"""make_quantiles_from_counts takes the TA OpenDP 0.16 builds it for, and refuses the rest naming
the parameter that is wrong (TA when given, bin_edges when TA is inferred from it).

Expected numbers are OpenDP 0.16's, observed with
``odp.t.make_quantiles_from_counts(edges, [0.2, 0.5, 0.9], TA=TA)(np.array([3, 4, 5], dtype))``.
"""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import ContractError, MakeTransformationError
from certdp.transformations.quantiles_from_counts.contract import CONTRACT, _names_ta

ALPHAS = [0.2, 0.5, 0.9]
INT_EDGES, FLOAT_EDGES = [0, 10, 20, 35], [0.0, 10.0, 20.0, 35.0]

# OpenDP 0.16: odp.t.make_quantiles_from_counts(edges, ALPHAS, TA=TA)(counts of TA's dtype)
ACCEPTED = [
    ("i32", np.int32, [8, 17, 31]),
    ("i64", np.int64, [8, 17, 31]),
    ("u32", np.uint32, [8, 17, 31]),
    ("u64", np.uint64, [8, 17, 31]),
    ("usize", np.uint64, [8, 17, 31]),  # OpenDP refuses a u64 array as Vec<usize> input
    ("f32", np.float32, [8.0, 17.5, 31.399999618530273]),
    ("f64", np.float64, [8.0, 17.5, 31.400000000000002]),
]


@pytest.mark.parametrize("TA, dtype, expected", ACCEPTED)
def test_the_accepted_ta_give_opendps_numbers(TA, dtype, expected):
    edges = FLOAT_EDGES if TA.startswith("f") else INT_EDGES
    counts = np.array([3, 4, 5], dtype=dtype)
    assert dp.t.make_quantiles_from_counts(edges, ALPHAS, TA=TA)(counts) == expected
    nearest = dp.t.make_quantiles_from_counts(edges, ALPHAS, TA=TA, interpolation="nearest")
    assert nearest(counts) == [edges[1], edges[2], edges[3]]  # OpenDP: [10, 20, 35]


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_an_integer_edge_array_of_an_accepted_dtype_names_ta(dtype):
    # OpenDP 0.16: [8, 17, 31] for each of these dtypes
    q = dp.t.make_quantiles_from_counts(np.array(INT_EDGES, dtype=dtype), ALPHAS)
    assert q(np.array([3, 4, 5], dtype=dtype)) == [8, 17, 31]


@pytest.mark.parametrize("TA", ["i8", "i16", "u8", "u16", "i128", "u128", "isize", np.int8])
def test_a_given_ta_opendp_has_no_match_for_is_refused_naming_ta(TA):
    # OpenDP 0.16: Type("No match for concrete type i8") (and i16, u8, u16); TypeError for the rest
    with pytest.raises(MakeTransformationError, match="must be one of i32, i64") as caught:
        dp.t.make_quantiles_from_counts([0, 10, 20], [0.5], TA=TA)
    assert caught.value.parameter == "TA"
    assert isinstance(caught.value, TypeError)
    assert not _names_ta(TA)  # the contract's precondition agrees


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16])
def test_an_edge_array_of_a_narrow_dtype_is_refused_naming_bin_edges(dtype):
    # OpenDP 0.16: Type("No match for concrete type i8") for np.array([0, 10, 20], dtype=np.int8)
    with pytest.raises(MakeTransformationError, match="name no TA") as caught:
        dp.t.make_quantiles_from_counts(np.array([0, 10, 20], dtype=dtype), [0.5])
    assert caught.value.parameter == "bin_edges"
    assert isinstance(caught.value, TypeError)


@pytest.mark.parametrize("edges, kind", [(["a", "b"], "str"), ([False, True], "bool")])
def test_edges_of_a_non_numeric_type_are_refused_naming_bin_edges(edges, kind):
    # OpenDP 0.16: Type("No match for concrete type String") (bool likewise)
    with pytest.raises(MakeTransformationError, match=f"edges of type {kind}") as caught:
        dp.t.make_quantiles_from_counts(edges, [0.5])
    assert caught.value.parameter == "bin_edges"


@pytest.mark.parametrize("edges", [np.array(5), np.array(5.0), 5, []])
def test_a_0d_or_empty_edge_argument_is_refused_naming_bin_edges(edges):
    # OpenDP 0.16 fails with a bare TypeError (len() of unsized object) for a 0-d array; the
    # wrong parameter is bin_edges, with TA inferred or given
    with pytest.raises(MakeTransformationError, match="non-empty list") as caught:
        dp.t.make_quantiles_from_counts(edges, [0.5])
    assert caught.value.parameter == "bin_edges"
    with pytest.raises(MakeTransformationError, match="non-empty list") as caught:
        dp.t.make_quantiles_from_counts(edges, [0.5], TA="i32")
    assert caught.value.parameter == "bin_edges"


def test_the_contract_precondition_accepts_exactly_the_ta_the_code_accepts():
    for TA in ("i32", "i64", "u32", "u64", "usize", "f32", "f64", int, float, np.uint32):
        assert _names_ta(TA)
    ids = [p.id for p in CONTRACT.preconditions]
    assert ids[0] == "ta-type"
    dp.enable_contracts()
    try:
        with pytest.raises(ContractError) as caught:
            dp.t.make_quantiles_from_counts([0, 10], [0.5], TA="u8")
        assert caught.value.condition == "ta-type" and caught.value.parameter == "TA"
        assert dp.t.make_quantiles_from_counts([0, 10], [0.5], TA="u32")([4]) == [5]
    finally:
        dp.disable_contracts()


def test_the_contract_finds_no_counterexample():
    CONTRACT.verify()
