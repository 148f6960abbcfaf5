"""dp.RuntimeType and dp.HashMap: OpenDP 0.16's type-name API, so ported code runs unchanged.

Every expected value is what ``opendp.prelude`` 0.16 returned for the same call (``odp`` below);
where certdp refuses, the error is typed (a ``DPError`` naming the parameter).
"""

from __future__ import annotations

import typing

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, MakeDomainError

RT = dp.RuntimeType


# odp.RuntimeType.parse(descriptor): (printed form, type: "str" for an atom, else a RuntimeType)
PARSED = [
    ("Vec<i32>", "Vec<i32>", False),
    ("i32", "i32", True),
    (int, "i32", True),
    ("int", "i32", True),
    (float, "f64", True),
    ("float", "f64", True),
    ("str", "String", True),
    (str, "String", True),
    (bool, "bool", True),
    (list[int], "Vec<i32>", False),
    (typing.List[float], "Vec<f64>", False),  # noqa: UP006 (the typing form OpenDP reads too)
    (dict[str, int], "HashMap<String, i32>", False),
    ((int, float), "(i32, f64)", False),
    ("(i32, f64)", "(i32, f64)", False),
    ("Tuple<i32, f64>", "(i32, f64)", False),
    ("HashMap<String, i32>", "HashMap<String, i32>", False),
    ("HashMap<str,float>", "HashMap<String, f64>", False),
    ("Option<i32>", "Option<i32>", False),
    ("Option<str>", "Option<String>", False),
    (np.int8, "i8", True),
    (np.float32, "f32", True),
    (np.longlong, "i128", True),
    ("foo", "foo", True),
    ("L1Distance<f64>", "L1Distance<f64>", False),
    ("SymmetricDistance", "SymmetricDistance", True),
    ("Vec<Vec<i32>>", "Vec<Vec<i32>>", False),
    ("  Vec< i32 > ", "Vec<i32>", False),
    ("Vec<int>", "Vec<i32>", False),
    (("Vec<i32>", float), "(Vec<i32>, f64)", False),
]


@pytest.mark.parametrize("descriptor, printed, atom", PARSED)
def test_parse_gives_opendps_normal_form(descriptor, printed, atom):
    parsed = RT.parse(descriptor)
    assert str(parsed) == printed
    assert (type(parsed) is str) is atom
    assert parsed == printed  # equal to its name, either way round
    assert printed == parsed


def test_origin_args_equality_and_hash():
    parsed = RT.parse("HashMap<String, i32>")
    assert (parsed.origin, parsed.args) == ("HashMap", ["String", "i32"])
    nested = RT.parse("Vec<Vec<i32>>")
    assert nested.origin == "Vec" and nested.args == [RT("Vec", ["i32"])]
    assert RT.parse("Vec<i32>") == "Vec<i32>" and "Vec<i32>" == RT.parse("Vec<int>")
    assert RT.parse("Vec<i32>") != "Vec<i64>" and RT.parse("Vec<i32>") != 3
    assert (
        RT.parse("Vec<i32>") == dp.Vec[dp.i32] and RT.parse(dict[str, int]) == dp.HashMap[str, int]
    )
    assert {RT.parse("Vec<i32>"): 1}.get("Vec<i32>") == 1  # hashes as its name
    assert RT("Vec", ["i32"]) == "Vec<i32>" and RT("Vec").args == [] and repr(RT("Vec")) == "Vec"
    assert RT.parse(RT.parse("Vec<i32>")) == "Vec<i32>"


def test_certdp_parses_nested_maps_opendp_splits_wrongly():
    # odp.RuntimeType.parse("Vec<HashMap<String, i32>>") raises UnknownTypeException (its
    # argument split ignores <>); certdp splits at top-level commas only
    parsed = RT.parse("Vec<HashMap<String, i32>>")
    assert parsed.origin == "Vec" and parsed.args == ["HashMap<String, i32>"]


@pytest.mark.parametrize("descriptor", [3, None, list, 1.5, "Vec<i32", "a, b", "Vec<(i32>)"])
def test_parse_refuses_what_names_no_type(descriptor):
    # odp: UnknownTypeException("unable to parse type: 3") for 3, None and list
    with pytest.raises(dp.UnknownTypeException) as caught:
        RT.parse(descriptor)
    assert isinstance(caught.value, DPError) and caught.value.parameter == "type_name"


def test_origin_must_be_a_string_and_generics_are_refused():
    with pytest.raises(dp.UnknownTypeException) as caught:  # odp: ValueError
        RT(3)
    assert caught.value.parameter == "origin"
    with pytest.raises(dp.UnknownTypeException) as caught:
        RT.parse("T", generics=["T"])
    assert caught.value.parameter == "generics"


# odp.RuntimeType.infer(example)
INFERRED = [
    (23, "i32"),
    (12.0, "f64"),
    (True, "bool"),
    (["A", "B"], "Vec<String>"),
    ((12.0, True, "A"), "(f64, bool, String)"),
    ({"a": 1}, "HashMap<String, i32>"),
    ({1: "a", 2: "b"}, "HashMap<i32, String>"),
    (np.array([1, 2]), "Vec<i64>"),
    (np.array(1), "i32"),
    (np.array(1.5, dtype=np.float32), "f64"),  # a 0-d array is its item(), a Python float
    (np.int8(1), "i8"),
    (np.float32(1), "f32"),
    (np.int64(3), "i64"),
    (np.str_("a"), "String"),
    (np.bool_(True), "bool"),
    ([[1]], "Vec<Vec<i32>>"),
    (np.array([1], dtype=np.int8), "Vec<i8>"),
    (np.array(["a"]), "Vec<String>"),
    (np.array([True]), "Vec<bool>"),
    ((), "()"),
    ([()], "Vec<()>"),
]


@pytest.mark.parametrize("example, printed", INFERRED)
def test_infer_gives_opendps_types(example, printed):
    assert str(RT.infer(example)) == printed
    assert RT.infer(example) == printed


def test_infer_metrics_callables_and_extrinsic_objects():
    assert RT.infer(dp.symmetric_distance()) == "SymmetricDistance"
    assert str(RT.infer(dp.l1_distance(T=float))) == "L1Distance<f64>"
    assert RT.infer(lambda x: x) == "CallbackFn"
    assert RT.infer(object(), py_object=True) == "ExtrinsicObject"
    assert RT.infer([1, "a"], py_object=True) == "Vec<ExtrinsicObject>"
    assert RT.parse_or_infer(None, [1]) == "Vec<i32>"
    assert RT.parse_or_infer("Vec<int>", [1.5]) == "Vec<i32>"


@pytest.mark.parametrize(
    "example",
    [[], {}, None, object(), np.float16(1), np.array([[1]]), np.array([1], dtype=object)],
)
def test_infer_refuses_what_opendp_refuses(example):
    # odp: UnknownTypeException for each
    with pytest.raises(dp.UnknownTypeException) as caught:
        RT.infer(example)
    assert caught.value.parameter == "public_example"


@pytest.mark.parametrize("example", [[1, 2.0], [1, True], {"a": 1, "b": 2.0}])
def test_infer_refuses_mixed_types_as_a_type_error(example):
    # odp: TypeError("elements must be homogeneously typed. Found {...}")
    with pytest.raises(dp.UnknownTypeException, match="homogeneously typed") as caught:
        RT.infer(example)
    assert isinstance(caught.value, TypeError) and caught.value.parameter == "public_example"


def test_parse_or_infer_needs_one_of_its_arguments():
    with pytest.raises(dp.UnknownTypeException):
        RT.parse_or_infer()


# odp.HashMap[...] / odp.Vec[...] print these names
@pytest.mark.parametrize(
    "items, printed",
    [
        ((str, int), "HashMap<String, i32>"),
        ((dp.String, dp.f64), "HashMap<String, f64>"),
        (("String", "i32"), "HashMap<String, i32>"),
        ((dp.i32,), "HashMap<i32>"),
        ((list[int],), "HashMap<Vec<i32>>"),
        (("int",), "HashMap<i32>"),
    ],
)
def test_hashmap_spells_opendps_names(items, printed):
    assert dp.HashMap[items] == printed and type(dp.HashMap[items]) is str
    assert repr(dp.HashMap) == "HashMap" and str(dp.HashMap) == "HashMap"


def test_vec_reads_items_as_runtime_type_does():
    assert dp.Vec[list[int]] == "Vec<Vec<i32>>" and dp.Vec["int"] == "Vec<i32>"
    assert dp.Vec[RT.parse("HashMap<String, i32>")] == "Vec<HashMap<String, i32>>"
    for bad in (3, None, (), "a, b"):
        with pytest.raises(MakeDomainError) as caught:
            dp.HashMap[bad]
        assert caught.value.parameter == "T"


def test_hashmap_names_a_map_domain_where_opendp_takes_one():
    expected = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    # odp.domain_of(odp.HashMap[str, int]) and of "HashMap<String, i32>": this map domain
    assert dp.domain_of(dp.HashMap[str, int]) == expected
    assert dp.domain_of("HashMap<String, i32>") == expected
    # a RuntimeType object is read as the name it prints, as OpenDP 0.16 takes it (issue 20)
    assert dp.domain_of(str(RT.parse("HashMap<String, i32>"))) == expected
    assert dp.domain_of(RT.parse("HashMap<String, i32>")) == expected
    assert dp.domain_of(RT.parse("Vec<i32>")) == dp.vector_domain(dp.atom_domain(T="i32"))
    with pytest.raises(DPError):
        dp.domain_of(RT.parse("Vec<Vec<i32>>"))
    assert expected.carrier_type == dp.HashMap[dp.String, dp.i32]
    # odp.space_of(odp.HashMap[str, int], M=odp.l1_distance(T=int)): (map domain, L1Distance(i32))
    assert dp.space_of(dp.HashMap[str, int], M=dp.l1_distance(T=int)) == (
        expected,
        dp.l1_distance(T="i32"),
    )
    assert dp.metric_of(str(RT.parse("L1Distance<f64>"))) == dp.l1_distance(T="f64")
    # odp: Type("No match for concrete type HashMap<String, i32>") for an atom domain
    with pytest.raises(MakeDomainError) as caught:
        dp.atom_domain(T=dp.HashMap[str, int])
    assert caught.value.parameter == "T"


def test_a_function_converts_to_a_hashmap_type():
    dp.enable_features("honest-but-curious")
    # odp.new_function(lambda x: {"a": x}, TO=odp.HashMap[str, int])(1) == {"a": 1}
    assert dp.new_function(lambda x: {"a": x}, TO=dp.HashMap[str, int])(1) == {"a": 1}
