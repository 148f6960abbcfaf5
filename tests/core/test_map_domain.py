"""map_domain: construction rules (OpenDP's key types), admission and membership."""

import math
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.core.errors import FailedFunctionError, MakeDomainError


def test_members_are_dicts_of_members():
    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    assert repr(domain) == (
        "MapDomain { key_domain: AtomDomain(T=String), value_domain: AtomDomain(T=i32) }"
    )
    assert domain.member({"a": 1, "b": 2})
    assert domain.member({})
    assert not domain.member({"a": 1.0})  # a float is no i32
    assert not domain.member({1: 1})  # an int is no String
    assert not domain.member([("a", 1)])  # not a dict
    assert not domain.member({"a": 2**31})  # outside i32


def test_admission_makes_numpy_scalars_exact_and_copies():
    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i64"))
    given_value = {np.str_("a"): np.int64(3), "b": 4}
    admitted = domain.admit(given_value)
    assert admitted == {"a": 3, "b": 4}
    assert all(type(k) is str and type(v) is int for k, v in admitted.items())
    assert admitted is not given_value


def test_bounded_keys_and_values():
    domain = dp.map_domain(dp.atom_domain(bounds=(0, 5)), dp.atom_domain(bounds=(0.0, 1.0)))
    assert domain.member({3: 0.5})
    assert not domain.member({7: 0.5})
    assert not domain.member({3: 1.5})
    nan_values = dp.map_domain(dp.atom_domain(T="bool"), dp.atom_domain(T="f64"))
    assert nan_values.member({True: math.nan})


def test_a_dict_subclass_is_refused():
    class Tricky(dict):
        def items(self):
            return [("a", 1)]

    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    with pytest.raises(FailedFunctionError, match=r"must be a dict .*, got Tricky"):
        domain.admit(Tricky(b=2))
    # the standard library's dict types are read as the plain dict of their entries
    # (attacker-21 row 11; OpenDP 0.16 accepts them)
    admitted = domain.admit(OrderedDict(a=1))
    assert type(admitted) is dict and admitted == {"a": 1}


def test_bool_and_int_keys_stay_distinct_types():
    ints = dp.map_domain(dp.atom_domain(T="i32"), dp.atom_domain(T="i32"))
    assert not ints.member({True: 1})
    bools = dp.map_domain(dp.atom_domain(T="bool"), dp.atom_domain(T="i32"))
    assert not bools.member({1: 1})
    assert bools.member({np.bool_(True): 1, False: 2})


@pytest.mark.parametrize("T", ["f32", "f64"])
def test_float_keys_are_refused_as_in_opendp(T):
    with pytest.raises(MakeDomainError, match="hashable") as info:
        dp.map_domain(dp.atom_domain(T=T), dp.atom_domain(T="i32"))
    assert isinstance(info.value, TypeError) and info.value.parameter == "key_domain"


def test_non_atom_and_non_domain_arguments_are_refused():
    vector = dp.vector_domain(dp.atom_domain(T="i32"))
    with pytest.raises(MakeDomainError, match="atom_domain") as info:
        dp.map_domain(dp.atom_domain(T="String"), vector)
    assert info.value.parameter == "value_domain"
    with pytest.raises(MakeDomainError, match="must be a domain") as info:
        dp.map_domain("String", dp.atom_domain(T="i32"))
    assert isinstance(info.value, TypeError) and info.value.parameter == "key_domain"


def test_equality_and_immutability():
    a = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    b = dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int))
    assert a == b and hash(a) == hash(b)
    assert a != dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i64"))
    with pytest.raises(MakeDomainError):
        a.key_domain = dp.atom_domain(T="i32")


@given(st.dictionaries(st.text(max_size=3), st.integers(-(2**40), 2**40), max_size=6))
def test_membership_is_the_entrywise_rule(value):
    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    expected = all(-(2**31) <= v < 2**31 for v in value.values())
    assert domain.member(value) == expected
    if expected:
        assert domain.admit(value) == value


def test_membership_agrees_with_opendp():
    odp = pytest.importorskip("opendp.prelude")
    cases = [{"a": 1}, {"a": 2**31}, {}, {"a": 1, "b": -5}]
    ours = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i64"))
    theirs = odp.map_domain(odp.atom_domain(T="String"), odp.atom_domain(T="i64"))
    for value in cases:
        assert ours.member(value) == theirs.member(value)
    for T in ["u32", "i32", "u64", "i64", "bool", "String"]:
        assert repr(dp.map_domain(dp.atom_domain(T=T), dp.atom_domain(T="i32"))) == str(
            odp.map_domain(odp.atom_domain(T=T), odp.atom_domain(T="i32"))
        )


def test_referee_float_keys_refused_and_numpy_entries_made_exact():
    """referee-hist (session 7)."""
    with pytest.raises(MakeDomainError):
        dp.map_domain(dp.atom_domain(T="f64"), dp.atom_domain(T="i32"))
    domain = dp.map_domain(dp.atom_domain(T="i32"), dp.atom_domain(T="i32"))
    admitted = domain.admit({np.int32(1): np.int64(3)})
    assert admitted == {1: 3} and [type(x) for x in (*admitted, *admitted.values())] == [int, int]
    assert not domain.member({True: 1})
