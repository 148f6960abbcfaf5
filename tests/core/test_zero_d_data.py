"""A 0-d NumPy array given as data is its one element, as at the boundary and as in OpenDP 0.16
(which reads ``array.item()``); the element is then judged by certdp's rules for that scalar.

Expected values are OpenDP 0.16's (``odp.m.make_laplace(odp.atom_domain(T=T), ...,
scale=0.0)(array)`` and ``odp.atom_domain(T=T).member(array)``); the rows where certdp refuses
what OpenDP accepts are its deliberate rules for scalars (a Python int is no f64, 0.1 no f32),
checked here to hold for the 0-d array exactly as for its element.
"""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedFunctionError


def atom(T):
    return dp.atom_domain(T=T, nan=False) if T in ("f32", "f64") else dp.atom_domain(T=T)


def laplace0(T):
    return dp.m.make_laplace(atom(T), dp.absolute_distance(T=T), scale=0.0)


# OpenDP 0.16 accepts each and releases this value at scale 0
ACCEPTED = [
    ("f64", np.array(1.5), 1.5),
    ("f64", np.array(1.5, dtype=np.float32), 1.5),
    ("f32", np.array(1.5, dtype=np.float32), 1.5),
    ("f32", np.array(1.5), 1.5),
    ("i32", np.array(3), 3),
    ("i32", np.array(3, dtype=np.int8), 3),
    ("i32", np.array(3, dtype=object), 3),
    ("i64", np.array(2**40), 2**40),
]


@pytest.mark.parametrize("T, array, expected", ACCEPTED)
def test_a_0d_array_is_admitted_as_its_element(T, array, expected):
    released = laplace0(T)(array)
    assert released == expected and type(released) is type(expected)
    assert atom(T).member(array) is True
    assert atom(T).admit(array) == expected and type(atom(T).admit(array)) is type(expected)


# OpenDP 0.16 refuses these too (TypeError "inferred type is f64", ValueError "not representable
# by i32"; member False for NaN)
@pytest.mark.parametrize(
    "T, array", [("i32", np.array(3.0)), ("i32", np.array(2**40)), ("f64", np.array(np.nan))]
)
def test_a_0d_array_opendp_refuses_is_refused(T, array):
    with pytest.raises(FailedFunctionError) as caught:
        laplace0(T)(array)
    assert caught.value.parameter == "arg"
    assert atom(T).member(array) is False


@pytest.mark.parametrize("T, array", [("f64", np.array(2)), ("f32", np.array(0.1))])
def test_a_0d_array_follows_certdps_rule_for_its_element(T, array):
    # OpenDP 0.16 accepts both (an int for f64; 0.1 rounded to f32); certdp refuses the element
    # itself, and so the array holding it
    element = array.item()
    assert atom(T).member(element) is False
    assert atom(T).member(array) is False
    with pytest.raises(FailedFunctionError, match="not a value of"):
        laplace0(T)(array)


def test_other_atom_types_and_bounds():
    # odp: True for each but the out-of-bounds one
    assert dp.atom_domain(T=str).member(np.array("a")) is True
    assert dp.atom_domain(T=bool).member(np.array(True)) is True
    assert dp.atom_domain(bounds=(0, 10)).member(np.array(5)) is True
    assert dp.atom_domain(bounds=(0, 10)).member(np.array(11)) is False


def test_arrays_that_are_not_plain_0d_stay_refused():
    domain = dp.atom_domain(T="i32")
    assert domain.member(np.array([3])) is False  # 1-d: not a scalar
    assert domain.member(np.ma.masked_array(3)) is False  # a subclass is never unwrapped
    nested = np.empty((), dtype=object)
    nested[()] = np.array(3)
    assert domain.member(nested) is False  # an array held in a 0-d array is no value
    assert dp.vector_domain(domain).member(np.array(3)) is False  # a 0-d array is no vector


def test_a_context_over_0d_data_runs_as_opendps():
    # odp.Context.compositor(data=np.array(1.5), ...) builds; its d_in is 1
    dp.enable_features("contrib")  # the Context's row is outdated until the lead re-vets it
    context = dp.Context.compositor(
        data=np.array(1.5),
        privacy_unit=dp.unit_of(contributions=1),
        privacy_loss=dp.loss_of(epsilon=1.0),
        split_evenly_over=1,
    )
    assert context.d_in == 1
    assert dp.domain_of(np.array(1.5), infer=True).member(np.array(1.5)) is True
