"""Data frames and ``DataFrameDomain``: named, typed columns of one common length.

Guarantee (dataframe_domain.tex): a :class:`DataFrame` is immutable once built; its *schema* is
the set of its column names with each column's carrier type (kept even when the frame has no
row); its *rows* are the tuples of the entries at one position, columns in the order of their
sorted names.  The symmetric distance of two frames (core/metrics.py) is that of their row
multisets when their schemas are equal, and infinite otherwise; so two frames at finite
distance have the same schema, and an error that depends only on the schema is the same on
both (Lemma [schema errors]).
"""

from __future__ import annotations

from itertools import repeat
from operator import is_
from types import MappingProxyType
from weakref import WeakKeyDictionary

from .domains import Domain, refuse
from .errors import (
    DPError,
    FailedCastError,
    FailedFunctionError,
    MakeDomainError,
    shown,
    type_mismatch,
)
from .frozen import Frozen
from .types import ALL_TYPES, CarrierType, carrier

__all__ = ["Column", "DataFrame", "DataFrameDomain", "dataframe_domain", "schema_column"]


# proof: begin frame
class Column(Frozen):
    """The entries of one column (a tuple of members of ``atom_domain(T=T)``, NaN allowed for
    floats) and their carrier type ``T``."""

    frozen_error = FailedFunctionError

    def __init__(self, T: CarrierType, values: tuple):
        self.T = T  # label: column-type
        self.values = values  # label: column-values


class DataFrame(Frozen):
    """Columns keyed by names of the carrier type ``K``, all ``length`` entries long."""

    frozen_error = FailedFunctionError

    def __init__(self, K: CarrierType, columns: dict, length: int):
        if type(length) is not int or length < 0:  # label: frame-count
            raise FailedFunctionError("must be an int >= 0", parameter="length")
        if type(columns) is not dict:  # label: frame-map
            raise FailedFunctionError("must be a dict of Column", parameter="columns")
        for column in columns.values():
            if type(column) is not Column:  # label: frame-column
                raise FailedFunctionError("every value must be a Column", parameter="columns")
            if len(column.values) != length:  # label: frame-length
                raise FailedFunctionError("columns must have one common length", parameter="arg")
        self.K = K
        self.columns = MappingProxyType(dict(columns))  # label: frame-columns
        self.length = length

    def schema(self) -> frozenset:
        """The column names, each with its column's carrier type."""
        return frozenset((name, column.T) for name, column in self.columns.items())

    def rows(self) -> list[tuple]:
        """One tuple per position: the entries there, columns in sorted-name order."""
        ordered = [self.columns[name].values for name in sorted(self.columns)]  # label: rows
        if not ordered:
            return [()] * self.length  # label: rows-empty
        return list(zip(*ordered))

    def __repr__(self) -> str:
        return f"DataFrame(K={self.K}, columns={len(self.columns)}, rows={self.length})"


#: Each Column whose entries are known to be values of a carrier type, with the very objects
#: ``(T, name, values)`` of that knowledge: the column's type, the exact str the entries are
#: values of the carrier type of, and the tuple; weak keys: a record goes with its column.
_MEMBERS: WeakKeyDictionary = WeakKeyDictionary()  # label: members-table


def _record_members(frame: DataFrame) -> DataFrame:
    """Record that every entry of every column of ``frame`` is a value of ``String`` and return
    ``frame``.  Private: only for certdp's own code whose proof shows that every entry of every
    column of ``frame`` is an exact ``str`` (a frame recorded wrongly would pass admission
    unread)."""
    for column in frame.columns.values():
        _MEMBERS[column] = (column.T, "String", column.values)  # label: members-record
    return frame


def _known_members(column: Column, T: CarrierType, name: str, values: tuple) -> bool:
    """Were the entries ``values`` known to be values of the carrier type named ``name`` when
    ``T`` and ``values``, these very objects, were the type and entries of ``column``?"""
    known = _MEMBERS.get(column)  # label: members-lookup
    if known is None:
        return False
    return known[0] is T and known[1] is name and known[2] is values  # label: members-same


def _entries_of(T: CarrierType, values: tuple) -> bool:
    """Is every entry a value of ``T`` (of its exact built-in type, in range)?"""
    exact_type = {"String": str, "bool": bool}.get(T.name, int if T.is_integer else float)
    if not all(map(is_, map(type, values), repeat(exact_type))):  # label: entries-types
        return False
    if T.is_integer and values:
        return T.min <= min(values) and max(values) <= T.max  # label: entries-range
    if T.name == "f32":
        return all(T.exact(v) is v for v in values)  # label: entries-f32
    return True


class DataFrameDomain(Domain):
    """Every :class:`DataFrame` whose column names have the carrier type ``K``."""

    def __init__(self, K: CarrierType):
        self.K = K

    def admit(self, value):
        if type(value) is not DataFrame:  # label: domain-type
            raise refuse(self, f"type: must be a DataFrame, got {type(value).__name__}")
        if value.K != self.K:  # label: domain-key-type
            raise refuse(self, f"column names must have the type {self.K}")
        for name, column in value.columns.items():
            if self.K.exact(name) is not name:  # label: domain-names
                raise refuse(self, f"type: a column name is not a value of {self.K}")
            if type(column) is not Column:  # label: domain-column-type
                raise refuse(self, "type: a column must be a Column of a tuple")
            T, values = column.T, column.values  # label: domain-read
            if type(values) is not tuple:
                raise refuse(
                    self, "type: a column must be a Column of a tuple"
                )  # label: domain-column
            if type(T) is not CarrierType:
                raise refuse(self, "type: a column type is not a carrier type")  # label: domain-T
            type_name = T.name  # label: domain-name
            if type(type_name) is not str or type_name not in ALL_TYPES:  # label: domain-name-check
                raise refuse(self, "type: a column type is not a carrier type")
            if _known_members(column, T, type_name, values):
                continue  # label: domain-known
            if not _entries_of(CarrierType(type_name), values):
                raise refuse(
                    self, "type: an entry is not a value of its type"
                )  # label: domain-entries
            _MEMBERS[column] = (T, type_name, values)  # label: domain-remember
        return value

    def _key(self) -> tuple:
        return (self.K,)

    def __repr__(self) -> str:
        return f'DataFrameDomain("{self.K}")'


def dataframe_domain(K) -> DataFrameDomain:
    """The domain of data frames whose column names have the carrier type ``K`` (an integer
    type, ``bool`` or ``String``: names must compare by value)."""
    try:
        K = carrier(K)  # label: domain-carrier
    except MakeDomainError as error:
        raise MakeDomainError(reason(error), parameter="K") from None
    if K.is_float:  # label: domain-hashable
        raise type_mismatch(MakeDomainError)(
            f"column names must be hashable (an integer type, bool or String), not {shown(K)}",
            parameter="K",
        )
    return DataFrameDomain(K)


def reason(error: DPError) -> str:
    """The message of ``error`` without its ``parameter:`` prefix (to re-raise it under
    another parameter name without doubling the prefix)."""
    return error.message.removeprefix(f"{error.parameter}: ") if error.parameter else error.message


def schema_column(frame: DataFrame, name, T: CarrierType | None, parameter: str) -> Column:
    """The column ``name`` of ``frame``, which must exist and have the carrier type ``T`` (any
    type when ``T`` is None); otherwise a typed error naming ``parameter`` (both tests read the
    schema alone)."""
    column = frame.columns.get(name)  # label: column-lookup
    if column is None:
        raise FailedFunctionError(f"column does not exist: {shown(name)}", parameter=parameter)
    if T is not None and column.T != T:  # label: column-type-check
        raise FailedCastError(
            f"column {shown(name)} holds {column.T}, not {T}", parameter=parameter
        )
    return column


# proof: end frame
