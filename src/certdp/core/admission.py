"""How a dataset enters a function: exactly the elements its membership test saw.

Guarantee (conversion.tex): :func:`exact_vector` turns a dataset into the value a function
computes on, or says which rule it broke:

* a ``list`` or ``tuple`` whose elements are all values of ``T`` (numpy scalars and plain 0-d
  arrays, read as their one element, included) becomes a sequence of the exact Python values
  they denote, in order;
* a pandas ``Series`` of a NumPy dtype is read as its array, and one of pandas' string dtype
  (pandas 3's default for text) as the list of its ``str`` values (refused if one is missing);
* a plain one-dimensional ``numpy.ndarray`` of a dtype whose values are values of ``T``
  becomes a C-contiguous array of ``T``'s native dtype holding the same values (byte order,
  strides and width converted exactly; a value not exactly of ``T`` is refused); object
  arrays, 128-bit carriers and strings become lists of exact Python values;
* any other ``collections.abc.Sequence`` (``range``, ``deque``, ``array.array``) is read once
  into a list, then treated as a list;
* masked arrays and every other ``ndarray`` subclass, ``str``, ``bytes``, ``bytearray``,
  ``memoryview``, arrays of more dimensions and non-sequences are refused: each of them would
  be read differently by the function than by the test.

The result is a new object whenever anything had to change, and the argument itself otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import is_

import numpy as np

from .types import CarrierType

__all__ = ["exact_vector", "snapshot", "sequence_parameter"]


# proof: begin exact-vector
def _refused_kind(value) -> str | None:
    # Tests on type(value), never on a __class__ attribute, which an object may fake (or
    # make raise).
    # np.ma (whose first use imports numpy.ma) is looked at only for an ndarray subclass
    kind = type(value)
    if issubclass(kind, np.ndarray) and kind is not np.ndarray:
        if issubclass(kind, np.ma.MaskedArray):
            return "a masked array is refused: its masked entries would still be computed on"
        return f"{kind.__name__} (an ndarray subclass) is refused: pass a numpy.ndarray"
    if issubclass(kind, (str, bytes, bytearray, memoryview)):
        return f"a {kind.__name__} is not a vector of values"
    return None  # label: refused-kind-none


def _series_records(value):
    """The records of a pandas ``Series`` (a plain array, or a list for the object dtype), or
    ``None`` when ``value`` is not one.  pandas is imported only for a value whose real class
    comes from it, and ``isinstance`` then confirms the class."""
    if str(type(value).__module__).partition(".")[0] != "pandas":  # label: series-module
        return None
    import pandas  # noqa: PLC0415  (only ever for a value whose class is pandas')

    if not isinstance(value, pandas.Series):  # label: series-class
        return None
    if isinstance(value.dtype, np.dtype):
        array = value.to_numpy(copy=True)  # label: series-numpy
        return array.tolist() if array.dtype.kind == "O" else array
    if isinstance(value.dtype, pandas.StringDtype):  # label: series-string
        records = value.tolist()  # label: series-string-list
        if all(type(record) is str for record in records):
            return records  # label: series-string-records
        return "a pandas string Series with a missing value is refused"
    return "a pandas Series of an extension dtype (nullable, categorical) is refused"


def snapshot(value):
    """A list, a tuple or a plain ``ndarray`` of one or more dimensions holding the records of
    ``value``, or a reason."""
    series = _series_records(value)
    if series is not None:  # label: series
        return series
    reason = _refused_kind(value)  # label: refused-kind
    if reason is not None:
        return reason
    if type(value) is np.ndarray and value.ndim == 0:  # label: snapshot-zero-d
        return "a 0-d array is a scalar, not a vector"
    kind = type(value)
    if kind is list or kind is tuple or kind is np.ndarray:  # label: snapshot-plain
        return value
    if issubclass(type(value), Sequence):
        try:
            return list(value)  # label: snapshot-read
        except Exception:  # a sequence that cannot be read is not data
            return f"a {type(value).__name__} that could not be read as a sequence"
    return f"a {type(value).__name__} is not a list, tuple or 1-D numpy array"  # label: no-sequence


def _listable(array) -> bool:
    """Does ``tolist`` give the exact value of each entry of ``array`` as a Python ``bool``,
    ``int``, ``float``, ``str`` or ``bytes`` (or, for the object dtype, the object itself)?
    Not for dates and durations (raw counts), complex numbers, records or long doubles."""
    letter = array.dtype.kind
    return letter in "biuUSO" or (letter == "f" and array.dtype.itemsize <= 8)  # label: listable


def sequence_parameter(value):
    """A parameter given as a plain 1-D ``numpy.ndarray`` or a pandas ``Series`` (read as
    :func:`snapshot` reads it) of a dtype ``tolist`` reads exactly, as the list of its values in
    order (Python scalars); any other value, a refused Series or dtype included, unchanged (the
    constructor then checks it as a list, and refuses it)."""
    if type(value) is np.ndarray and value.ndim == 1:
        return value.tolist() if _listable(value) else value  # label: parameter-array
    records = _series_records(value)
    if records is None or isinstance(records, str):
        return value  # label: parameter-unchanged
    if type(records) is np.ndarray:
        return records.tolist() if _listable(records) else value  # label: parameter-series
    return records  # label: parameter-series-list


def _one_element(element):
    """A plain 0-d array's one element (as an atom domain reads it, and OpenDP reads a 0-d
    array in a list), any other element itself."""
    if type(element) is np.ndarray and element.ndim == 0:
        return element[()]  # label: element-zero-d
    return element


def exact_vector(value, T: CarrierType, nearest: bool = False):
    """The dataset ``value`` as exact values of ``T`` (see the module docstring), or a reason.

    With ``nearest``, Python floats in a list or tuple given for ``f32`` become the nearest
    binary32 values (OpenDP's conversion; infinities beyond the range)."""
    data = snapshot(value)  # label: snapshot
    if isinstance(data, str):
        return data
    if type(data) is np.ndarray:
        return _exact_array(data, T)  # label: array
    exact_kind = T.python_type
    if nearest and T.name == "f32" and any(type(element) is float for element in data):
        with np.errstate(over="ignore"):  # label: nearest
            data = [float(np.float32(x)) if type(x) is float else x for x in data]
    if all(map(is_, map(type, data), repeat(exact_kind))):  # label: already-exact
        return data
    converted = [T.exact(_one_element(element)) for element in data]  # label: convert
    if any(element is None for element in converted):
        return f"an element is not a value of {T}"
    return converted


def _exact_array(array: np.ndarray, T: CarrierType):
    """``array`` in ``T``'s native dtype, exactly, or a reason."""
    if array.ndim != 1:  # label: one-dimensional
        return f"shape: a {array.ndim}-d array is not a vector"
    letter = array.dtype.kind
    if letter == "O" or (T.name == "String" and letter == "U"):
        return exact_vector(array.tolist(), T)  # label: object-array
    if T.is_float and letter == "f":
        wide = np.ascontiguousarray(array.astype(np.float64, copy=False))  # label: widen
        if array.dtype.itemsize > 8 and not np.array_equal(wide, array, equal_nan=True):
            return f"an element is not a value of {T}"
        if T.name == "f64":
            return wide  # label: f64-array
        with np.errstate(over="ignore"):
            narrow = wide.astype(np.float32)
        if not np.array_equal(narrow.astype(np.float64), wide, equal_nan=True):
            return f"an element is not a value of {T}"
        return narrow  # label: f32-array
    if T.is_integer and letter in "iu":
        if array.size:
            # The ends are compared as Python ints: NumPy before 2.0 compares integers of
            # different widths through float64, which is not exact.
            low, high = int(array.min()), int(array.max())  # label: int-ends
            if low < T.min or high > T.max:  # label: int-range
                return f"an element is outside the range of {T}"
        if T.bits > 64:
            return array.tolist()  # label: wide-int
        return np.ascontiguousarray(array.astype(T.numpy_dtype, copy=False))  # label: int-array
    if T.name == "bool" and letter == "b":
        return np.ascontiguousarray(array)  # label: bool-array
    return f"elements of dtype {array.dtype} are not values of {T}"


# proof: end exact-vector
