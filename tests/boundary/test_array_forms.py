"""Contracts verified on NumPy forms of the datasets they draw (issue 10, hostile inputs).

Each drawn dataset is re-expressed as a NumPy array of the carrier's dtype, byte-swapped,
strided, read-only, as an object array, in a wider dtype, and as a list of NumPy scalars:
all hold exactly the same values, so the theorem must hold on each form unchanged.
"""

import numpy as np
import pytest

from certdp.contracts.contract import contract_of
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.registry import certified_constructors


def _array(data, T):
    if T.name == "String":
        # NumPy's fixed-width text dtype drops trailing NULs: use it only where it holds the
        # same texts, so every form still carries exactly the drawn values
        array = np.array(data, dtype=np.str_)
        return array if [str(text) for text in array] == list(data) else None
    if T.bits > 64 if T.is_numeric else T.name != "bool":
        return None
    return np.array(data, dtype=T.numpy_dtype)


def native(data, T):
    return _array(data, T)


def byteswapped(data, T):
    array = _array(data, T)
    if array is None or array.dtype.itemsize == 1:
        return array
    return array.astype(array.dtype.newbyteorder(">" if array.dtype.isnative else "<"))


def strided(data, T):
    array = _array(data, T)
    if array is None:
        return None
    wide = np.zeros(2 * len(array), dtype=array.dtype)
    wide[::2] = array
    return wide[::2]


def read_only(data, T):
    array = _array(data, T)
    if array is not None:
        array.setflags(write=False)
    return array


def object_array(data, T):
    return np.array(data, dtype=object) if data else None


def wider(data, T):
    wider_dtype = {"f32": np.float64, "f64": np.longdouble}.get(T.name)
    if wider_dtype is None and T.is_integer and T.bits < 64:
        wider_dtype = np.int64 if T.is_signed or T.bits < 32 else np.uint64
    return None if wider_dtype is None else np.array(data, dtype=wider_dtype)


def numpy_scalars(data, T):
    array = _array(data, T)
    return None if array is None else list(array)


FORMS = [native, byteswapped, strided, read_only, object_array, wider, numpy_scalars]


def vector_contracts():
    found = []
    for constructor in certified_constructors():
        contract = contract_of(constructor)
        found.append(pytest.param(contract, id=constructor.__name__))
    return found


def in_form(form):
    def convert(data, domain):
        if not (isinstance(domain, VectorDomain) and isinstance(domain.element_domain, AtomDomain)):
            return data  # scalars and 2-d arrays keep their form
        return form(data, domain.element_domain.T)

    return convert


#: Constructors whose input element type has no wider NumPy dtype (usize, 64 bits, only; or
#: String, whose text has no wider form), so the form ``wider`` applies to none of their datasets.
NO_WIDER_FORM = {"make_index", "make_split_records"}


@pytest.mark.parametrize("form", FORMS, ids=[form.__name__ for form in FORMS])
@pytest.mark.parametrize("contract", vector_contracts())
def test_contract_holds_on_numpy_forms(contract, form):
    if form is wider and contract.name in NO_WIDER_FORM:
        pytest.skip("the input element type has no wider NumPy dtype")
    contract.verify(max_examples=6, data_form=in_form(form))
