"""option_domain: members, admission, refusals (typed, naming the parameter), as OpenDP 0.16."""

import math

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedFunctionError, MakeDomainError


def test_members_are_none_and_the_element_domain_members():
    domain = dp.option_domain(dp.atom_domain(T="f64", nan=False))
    assert domain.member(None) and domain.member(1.5) and domain.member(np.float64(2.0))
    assert not domain.member(math.nan) and not domain.member(1) and not domain.member("1")
    bounded = dp.option_domain(dp.atom_domain(bounds=(0, 10)))
    assert bounded.member(None) and bounded.member(10) and not bounded.member(11)


def test_a_nan_admitting_float_atom_is_allowed_as_in_opendp():
    domain = dp.option_domain(dp.atom_domain(T="f64"))
    assert domain.member(math.nan) and domain.member(None)
    assert domain.element_domain == dp.atom_domain(T="f64", nan=True)


def test_admission_hands_exact_values_and_refuses_by_rule():
    domain = dp.option_domain(dp.atom_domain(T="i32"))
    assert domain.admit(None) is None
    assert type(domain.admit(np.int64(3))) is int
    with pytest.raises(FailedFunctionError) as error:
        domain.admit(2**40)
    assert str(2**40) not in str(error.value)


def test_vectors_of_options_admit_lists_and_object_arrays():
    vector = dp.vector_domain(dp.option_domain(dp.atom_domain(T="String")), size=3)
    assert vector.member(["a", None, ""])
    assert vector.member(np.array(["a", None, "b"], dtype=object))
    assert not vector.member(["a", None]) and not vector.member(["a", None, 1])


def test_only_atom_domains_are_allowed():
    atoms = dp.atom_domain(T="i32")
    for element in (dp.vector_domain(atoms), dp.option_domain(atoms), 3, None):
        with pytest.raises(MakeDomainError) as error:
            dp.option_domain(element)
        assert error.value.parameter == "element_domain" and isinstance(error.value, TypeError)


def test_the_descriptor_must_name_the_element_domain():
    atoms = dp.atom_domain(T="f64")
    assert dp.option_domain(atoms, D="AtomDomain<f64>") == dp.option_domain(atoms)
    for D in ("AtomDomain<i32>", "AtomDomain", "OptionDomain"):
        with pytest.raises(MakeDomainError) as error:
            dp.option_domain(atoms, D=D)
        assert error.value.parameter == "D"


def test_equality_repr_and_immutability():
    a = dp.option_domain(dp.atom_domain(T="i32"))
    assert a == dp.option_domain(dp.atom_domain(T="i32"))
    assert a != dp.option_domain(dp.atom_domain(T="i64")) and a != dp.atom_domain(T="i32")
    assert hash(a) == hash(dp.option_domain(dp.atom_domain(T="i32")))
    assert repr(a) == "OptionDomain(AtomDomain(T=i32))"
    with pytest.raises(MakeDomainError):
        a.element_domain = dp.atom_domain(T="i64")


def test_opendp_accepts_and_refuses_the_same_element_domains():
    odp = pytest.importorskip("opendp.prelude")
    odp.option_domain(odp.atom_domain(T=float))  # NaN-admitting floats are allowed
    with pytest.raises(odp.OpenDPException):
        odp.option_domain(odp.vector_domain(odp.atom_domain(T=int)))
    with pytest.raises(odp.OpenDPException):
        odp.option_domain(odp.atom_domain(T=float), D="AtomDomain<i32>")


#: Descriptors OpenDP 0.16 parses as the type of the element domain (checked live below).
OPENDP_DESCRIPTORS = [
    ("i32", "AtomDomain<int>"),
    ("i32", "AtomDomain< i32 >"),
    ("i32", " AtomDomain<\ti32\n> "),
    ("f64", "AtomDomain<float>"),
    ("String", "AtomDomain<str>"),
    ("bool", "AtomDomain<bool>"),
    ("u8", "AtomDomain<u8>"),
]

#: Descriptors both refuse: another type, another shape, no such type.
REFUSED_DESCRIPTORS = [
    ("f64", "AtomDomain<f32>"),
    ("u64", "AtomDomain<usize>"),
    ("i32", "AtomDomain<i32, i32>"),
    ("i32", "OptionDomain<i32>"),
    ("i32", "atomdomain<i32>"),
    ("i32", "AtomDomain <i32>"),
    ("i32", "AtomDomain<\u0131nt>"),
]


@pytest.mark.parametrize("T, D", OPENDP_DESCRIPTORS)
def test_descriptors_opendp_parses_are_accepted(T, D):
    atoms = dp.atom_domain(T=T)
    assert dp.option_domain(atoms, D=D) == dp.option_domain(atoms)


@pytest.mark.parametrize("T, D", REFUSED_DESCRIPTORS)
def test_descriptors_of_other_types_or_shapes_are_refused(T, D):
    with pytest.raises(MakeDomainError) as error:
        dp.option_domain(dp.atom_domain(T=T), D=D)
    assert error.value.parameter == "D" and isinstance(error.value, TypeError)


@pytest.mark.parametrize("D", ["i32", "AtomDomain<\u00a0i32>", 3, int])
def test_descriptors_opendp_also_reads_are_refused_as_stated(D):
    """OpenDP 0.16 also takes a bare type name and strips Unicode spaces; certdp refuses
    (option_domain.tex, 'The descriptor and OpenDP')."""
    with pytest.raises(MakeDomainError) as error:
        dp.option_domain(dp.atom_domain(T="i32"), D=D)
    assert error.value.parameter == "D"


def test_opendp_agrees_on_the_descriptors():
    odp = pytest.importorskip("opendp.prelude")
    for T, D in OPENDP_DESCRIPTORS:
        assert str(odp.option_domain(odp.atom_domain(T=T), D=D)) == str(
            odp.option_domain(odp.atom_domain(T=T))
        )
    for T, D in REFUSED_DESCRIPTORS:
        with pytest.raises(odp.OpenDPException):
            odp.option_domain(odp.atom_domain(T=T), D=D)
