"""dp.domain_of for dicts and HashMap names, with and without infer=True, as OpenDP 0.16 builds
them (each expected domain is what ``odp.domain_of`` returned for the same argument)."""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators._context.errors import ContextTypeError


def map_of(K, V):
    return dp.map_domain(dp.atom_domain(T=K), dp.atom_domain(T=V))


# odp.domain_of(example, infer=True)
@pytest.mark.parametrize(
    "example, expected",
    [
        ({"a": 1, "b": 2}, map_of("String", "i32")),
        ({"a": 1.0}, dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="f64", nan=True))),
        ({1: "a"}, map_of("i32", "String")),
        ({True: 1.5}, dp.map_domain(dp.atom_domain(T="bool"), dp.atom_domain(T="f64", nan=True))),
        ({"a": True}, map_of("String", "bool")),
        ({"a": "b"}, map_of("String", "String")),
        ({"a": np.int64(1)}, map_of("String", "i64")),
        ({"a": np.float32(1)}, dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="f32", nan=True))),
        ({np.int64(1): 1}, map_of("i64", "i32")),
        ({np.str_("a"): 1}, map_of("String", "i32")),
    ],
)  # fmt: skip
def test_domain_of_infers_a_dict_as_opendp(example, expected):
    assert dp.domain_of(example, infer=True) == expected
    assert str(dp.domain_of(example, infer=True).carrier_type) == str(dp.RuntimeType.infer(example))


# odp.domain_of(np scalar, infer=True): the atom domain of the scalar's type
@pytest.mark.parametrize(
    "example, T",
    [(np.int8(1), "i8"), (np.uint64(3), "u64"), (np.float32(1), "f32"), (np.str_("x"), "String"),
     (np.bool_(True), "bool")],
)  # fmt: skip
def test_domain_of_infers_a_numpy_scalar_as_opendp(example, T):
    expected = dp.atom_domain(T=T, nan=True) if T == "f32" else dp.atom_domain(T=T)
    assert dp.domain_of(example, infer=True) == expected


# odp: TypeError("elements must be homogeneously typed") for the first two, UnknownTypeException
# for the empty dict and None, an FFI error for a list value
@pytest.mark.parametrize(
    "example, rule",
    [
        ({"a": 1, "b": 2.0}, "values of a dict must all have one type, found types i32, f64"),
        ({"a": 1, 2: 2}, "keys of a dict must all have one type, found types String, i32"),
        ({"a": np.int64(1), "b": 2}, "found types i64, i32"),
        ({}, "keys of a dict must all have one type, found none"),
        ({"a": [1]}, "values of a dict must be scalars"),
        ({"a": None}, "NoneType"),
    ],
)
def test_domain_of_refuses_dicts_opendp_refuses(example, rule):
    with pytest.raises(ContextTypeError, match=rule) as caught:
        dp.domain_of(example, infer=True)
    assert caught.value.parameter == "data" and isinstance(caught.value, TypeError)


def test_a_float_key_is_refused_naming_the_argument_given():
    # odp: Type("No match for concrete type f64") for {1.5: 1} and for "HashMap<f64, i32>";
    # certdp names what the user passed (data, T), not map_domain's key_domain (issue 20)
    for T, infer, parameter in (({1.5: 1}, True, "data"), ("HashMap<f64, i32>", False, "T")):
        with pytest.raises(ContextTypeError, match="keys must be hashable") as caught:
            dp.domain_of(T, infer=infer)
        assert caught.value.parameter == parameter


def test_a_dict_value_without_infer_is_not_a_type():
    # odp: UnknownTypeException("unable to parse type: {'a': 1}")
    with pytest.raises(ContextTypeError) as caught:
        dp.domain_of({"a": 1})
    assert caught.value.parameter == "T"


@pytest.mark.parametrize(
    "T", [dict[str, int], "HashMap<String, i32>", "HashMap<String,i32>", "HashMap<str, int>"]
)
def test_domain_of_a_map_type_name(T):
    # odp.domain_of(T): MapDomain { key_domain: AtomDomain(T=String), value_domain: AtomDomain(T=i32) }
    assert dp.domain_of(T) == map_of("String", "i32")
    # a dp.RuntimeType is read by its name (the Context's proven range takes names, not objects)
    assert dp.domain_of(str(dp.RuntimeType.parse(T))) == map_of("String", "i32")


def test_a_context_over_a_dict_builds_and_a_vector_query_is_refused_typed():
    # odp.Context.compositor({"a": 1}, unit_of(contributions=1), loss_of(epsilon=1.0),
    # split_evenly_over=2) builds over this map domain with d_mids [0.5, 0.5]; its count query
    # then fails (OpenDP: "No match for concrete type MapDomain<...>")
    dp.enable_features("contrib")  # the Context's row is outdated until the lead re-vets it
    context = dp.Context.compositor(
        {"a": 1}, dp.unit_of(contributions=1), dp.loss_of(epsilon=1.0), split_evenly_over=2
    )
    assert context.accountant.input_domain == map_of("String", "i32")
    assert context.d_mids == [0.5, 0.5]
    with pytest.raises(dp.MakeTransformationError) as caught:
        context.query().count().laplace()
    assert caught.value.parameter == "input_domain"
