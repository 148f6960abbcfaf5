"""Descriptors of the Context API: the privacy unit, the privacy loss and the metric space.

``unit_of`` names the input metric and the distance ``d_in`` between neighbouring datasets;
``loss_of`` names the output measure and the budget ``d_out``; ``domain_of``, ``metric_of``
and ``space_of`` build domains and metrics from type descriptors.  Each returns exactly what
its arguments say (no value is rounded) or raises a typed error naming the argument; a
descriptor for a metric or domain certdp does not build (OpenDP's
``identifier``, maps, options) is refused with a :class:`ContextTypeError` naming it.
"""

from __future__ import annotations

import logging
import math
import re
import sys
from fractions import Fraction

import numpy as np

from certdp.core.change_metrics import change_one_distance, discrete_distance, hamming_distance
from certdp.core.conversion import exact_scalar, is_foreign_number, type_name_text
from certdp.core.domains import Domain, VectorDomain, atom_domain, vector_domain
from certdp.core.errors import DPError, shown
from certdp.core.exact_type import type_is
from certdp.core.map_domain import map_domain
from certdp.core.measures import approximate, max_divergence, zero_concentrated_divergence
from certdp.core.metrics import (
    Metric,
    absolute_distance,
    insert_delete_distance,
    l1_distance,
    l2_distance,
    symmetric_distance,
)
from certdp.core.option_domain import option_domain
from certdp.core.types import _NUMPY_ALIASES, ALL_TYPES, NUMERIC_TYPES, carrier
from certdp.numeric import inf_cast, neg_inf_cast

from .errors import ContextArgumentError, ContextTypeError

__all__ = ["unit_of", "loss_of", "domain_of", "metric_of", "space_of"]

# proof: begin units-module
logger = logging.getLogger("certdp.context")

_F64_MAX_SHOWN = sys.float_info.max
_F64_MAX = Fraction(_F64_MAX_SHOWN)

_NOT_BUILT = {
    "identifier": "symmetric_id_distance / change_one_id_distance",
}


# proof: begin plain
def _plain(value, name: str):
    """``value`` with a NumPy scalar (or ``Decimal``) made the exact Python number it denotes
    (``np.float64(0.5)`` is ``0.5``, ``np.int64(2)`` is ``2``), and a ``Fraction`` with an
    integer value made that ``int``; anything else is returned unchanged, for the caller to
    judge.  A value too large to hold exactly is refused, naming ``name``."""
    if is_foreign_number(value):  # label: plain-foreign
        value = exact_scalar(value, name, ContextArgumentError)
    if type(value) is Fraction and value.denominator == 1:  # label: plain-integer
        return int(value.numerator)
    return value


def _distance(value, name: str, integer: bool):
    """``value`` if a non-negative number (an integer when ``integer``), else a typed error;
    a ``Fraction`` that is not an ``f64`` value becomes the next ``f64`` above it (a larger
    distance between neighbours only makes the guarantee cover more)."""
    value = _plain(value, name)
    kind = type(value)
    if integer:
        if kind is not int:
            raise ContextArgumentError(
                f"must be a non-negative integer, got {shown(value)}", parameter=name
            )
    elif not type_is(value, int, float, Fraction):
        raise ContextArgumentError(f"must be a number, got {shown(value)}", parameter=name)
    if not value >= 0 or (kind is float and math.isinf(value)):
        raise ContextArgumentError(
            f"must be finite and non-negative, got {shown(value)}", parameter=name
        )
    if kind is Fraction:
        _below_f64_max(value, name)
        return inf_cast(value)  # label: distance-up
    return value


def _below_f64_max(value: Fraction, name: str) -> None:
    """Refuse (naming ``name``) a ``Fraction`` above the largest finite ``f64``, which no
    ``f64`` rounding of it can stand for."""
    if value > _F64_MAX:  # label: f64-range
        raise ContextArgumentError(
            f"must be at most the largest finite f64 ({_F64_MAX_SHOWN}), got {shown(value)}",
            parameter=name,
        )


# proof: end plain


# proof: begin unit
def unit_of(
    *,
    contributions=None,
    changes=None,
    absolute=None,
    l1=None,
    l2=None,
    local=None,
    identifier=None,
    ordered: bool = False,
    U=None,
) -> tuple[Metric, object]:
    """The privacy unit ``(input metric, d_in)``: exactly one distance must be given.

    ``contributions=k``: datasets differing by adding or removing ``k`` records
    (``SymmetricDistance``; ``InsertDeleteDistance`` when ``ordered``); ``changes=k``: by
    changing ``k`` records (``ChangeOneDistance``; ``HammingDistance`` when ``ordered``);
    ``local=True``: the dataset is one person's (``DiscreteDistance``, ``d_in`` 1); ``absolute``, ``l1``,
    ``l2``: aggregates at that distance, of type ``U`` (else inferred from the value).
    ``d_in`` is returned unchanged (a NumPy scalar as the Python number of the same value, a
    non-integer ``Fraction`` rounded up to ``f64``; a ``Fraction`` above the largest ``f64`` is
    refused): the Context hands it to the compositor.  Without ``U``, the type is that of a
    NumPy scalar given (``np.int64``: i64, ``np.float32``: f32, as OpenDP infers it), else i32
    for an integer ``d_in`` and f64 for any other.
    """
    given = {
        "contributions": contributions,
        "changes": changes,
        "absolute": absolute,
        "l1": l1,
        "l2": l2,
        "local": local,
    }
    named = [name for name, value in given.items() if value is not None]
    if len(named) != 1:  # label: unit-one
        raise ContextArgumentError(
            f"exactly one distance must be given, got {named or 'none'}", parameter="privacy_unit"
        )
    (name,) = named
    if identifier is not None:
        name = "identifier"
    if name in _NOT_BUILT:  # label: unit-unsupported
        raise ContextTypeError(
            f"needs {_NOT_BUILT[name]}, which certdp does not build", parameter=name
        )
    if type(ordered) is not bool:
        raise ContextArgumentError(
            f"must be True or False, got {shown(ordered)}", parameter="ordered"
        )
    if name == "local":
        if local is not True:  # label: unit-local-true
            raise ContextArgumentError(f"must be True, got {shown(local)}", parameter="local")
        if ordered or U is not None:
            raise ContextArgumentError("must be the only parameter", parameter="local")
        return discrete_distance(), 1  # label: unit-local
    if ordered and name not in ("contributions", "changes"):
        raise ContextArgumentError(
            "is only valid with contributions or changes", parameter="ordered"
        )
    if name == "changes":
        if U is not None:
            raise ContextArgumentError("is not used with changes", parameter="U")
        d_in = _distance(changes, "changes", integer=True)
        metric = hamming_distance() if ordered else change_one_distance()  # label: unit-changes
        return metric, d_in  # label: unit-changes-return
    if name == "contributions":
        if U is not None:
            raise ContextArgumentError("is not used with contributions", parameter="U")
        if not isinstance(contributions, int) or type(contributions) is bool:
            if isinstance(contributions, (list, tuple)):
                raise ContextTypeError(
                    "per-group bounds need frame_distance, which certdp does not build",
                    parameter="contributions",
                )
        d_in = _distance(contributions, "contributions", integer=True)
        metric = insert_delete_distance() if ordered else symmetric_distance()  # label: unit-metric
        return metric, d_in  # label: unit-return
    value = given[name]
    d_in = _distance(value, name, integer=False)
    T = _carrier_of(U, value, d_in, "U")  # label: unit-type
    build = {"absolute": absolute_distance, "l1": l1_distance, "l2": l2_distance}[name]
    return build(T=T), d_in  # label: unit-aggregate


# proof: end unit


def _carrier_of(U, value, d_in, parameter: str):
    """The distance type: ``U`` if given; else a NumPy scalar's own type when certdp builds
    it (as OpenDP infers it); else from the converted ``d_in`` (int: i32, other: f64)."""
    if U is None:
        named = _numpy_type_name(value)
        if named is not None:
            return named
        return "i32" if type(d_in) is int else "f64"
    try:
        T = carrier(U)
    except DPError as error:
        raise ContextTypeError(str(error.message), parameter=parameter) from None
    if T.name not in NUMERIC_TYPES:
        raise ContextTypeError(f"must be a numeric type, got {T}", parameter=parameter)
    return T


def _numpy_type_name(value):
    """The certdp name of a NumPy integer or f32/f64 scalar's type (``np.int64``: ``"i64"``),
    or ``None`` for anything else."""
    if not isinstance(value, np.generic) or isinstance(value, np.bool_):
        return None
    dtype = value.dtype
    kind = {"i": "i", "u": "u", "f": "f"}.get(dtype.kind)
    name = None if kind is None else f"{kind}{8 * dtype.itemsize}"
    return name if name in NUMERIC_TYPES else None


def _warn_range(name: str, value, typical, most) -> None:
    if value > most:
        logger.warning("%s is %r; it should be at most %r", name, value, most)
    elif value > typical:
        logger.info("%s is %r; it is usually at most %r", name, value, typical)


# proof: begin loss
def _loss(value, name: str, at_most=None):
    """``value`` if a non-negative number (at most ``at_most`` when given, compared exactly,
    before any rounding), else a typed error; a ``Fraction`` that is not an ``f64`` value
    becomes the next ``f64`` below it (a budget never grows)."""
    value = _plain(value, name)
    if not type_is(value, int, float, Fraction) or not value >= 0:
        raise ContextArgumentError(
            f"must be a non-negative number, got {shown(value)}", parameter=name
        )
    if at_most is not None and not value <= at_most:  # label: loss-at-most
        raise ContextArgumentError(f"must be at most {at_most}, got {shown(value)}", name)
    if type(value) is Fraction:
        _below_f64_max(value, name)
        return neg_inf_cast(value)  # label: loss-down
    return value


def loss_of(epsilon=None, delta=None, rho=None):
    """The privacy loss ``(output measure, d_out)``: ``epsilon`` (pure DP) or ``rho`` (zCDP),
    with ``delta`` for their approximate forms (``d_out = (epsilon or rho, delta)``).

    Values are returned unchanged (a NumPy scalar as the Python number of the same value, a
    non-integer ``Fraction`` rounded down to ``f64``; a ``Fraction`` above the largest ``f64`` is
    refused); ``delta`` must be at most 1 as given; a value above the usual range is logged,
    as OpenDP does.
    """
    if (epsilon is None) == (rho is None):  # label: loss-one
        raise ContextArgumentError(
            "exactly one of epsilon and rho must be given", parameter="privacy_loss"
        )
    if epsilon is not None:
        measure, loss = max_divergence(), _loss(epsilon, "epsilon")
        _warn_range("epsilon", loss, 1, 5)
    else:
        measure, loss = zero_concentrated_divergence(), _loss(rho, "rho")
        _warn_range("rho", loss, 0.25, 0.5)
    if delta is None:
        return measure, loss  # label: loss-pure
    delta = _loss(delta, "delta", at_most=1)  # label: loss-delta
    _warn_range("delta", delta, 1e-6, 1e-6)
    return approximate(measure), (loss, delta)  # label: loss-approximate


# proof: end loss


_VECTOR = re.compile(r"^\s*Vec\s*<\s*(.+?)\s*>\s*$")
_PYTHON_NAMES = {"int": "i32", "float": "f64", "bool": "bool", "str": "String"}


def _atom_name(T) -> str:
    if isinstance(T, str):
        name = _PYTHON_NAMES.get(T.strip(), T.strip())
        if name in ALL_TYPES:
            return name
        raise ContextTypeError(f"unrecognized carrier type {T!r}", parameter="T")
    try:
        return carrier(T).name
    except DPError:
        raise ContextTypeError(f"unrecognized carrier type {T!r}", parameter="T") from None


#: The element types of a one-axis NumPy array OpenDP 0.16 builds a vector domain for.
_ARRAY_TYPES = {
    np.bool_: "bool",
    np.int32: "i32",
    np.int64: "i64",
    np.uint32: "u32",
    np.uint64: "u64",
    np.float32: "f32",
    np.float64: "f64",
    np.str_: "String",
}


def _infer_array(example):
    """The type descriptor of a NumPy array, as OpenDP infers it: its element as a scalar for
    no axis, ``("Vec", element type)`` for one axis of a dtype in ``_ARRAY_TYPES``."""
    if example.ndim == 0:
        return _infer(example.item())  # label: array-scalar
    if example.ndim != 1:
        raise ContextTypeError(
            f"cannot infer a domain from an array with {example.ndim} axes; pass domain=",
            parameter="data",
        )
    name = _ARRAY_TYPES.get(example.dtype.type)  # label: array-dtype
    if name is None:
        raise ContextTypeError(
            f"cannot infer a domain from an array of dtype {example.dtype}; pass domain=",
            parameter="data",
        )
    return ("Vec", name)


def _infer(example):
    """The type descriptor of an example dataset, as OpenDP infers it."""
    kind = type(example)
    if kind is np.ndarray:
        return _infer_array(example)  # label: infer-array
    if type_is(example, list, tuple):
        if not example:
            raise ContextTypeError("cannot infer a type from an empty dataset", parameter="data")
        inner = _infer(example[0])
        if isinstance(inner, tuple):
            raise ContextTypeError("nested datasets are not supported", parameter="data")
        return ("Vec", inner)
    if kind is dict:
        keys = _one_atom(example.keys(), "keys")  # label: infer-dict
        return ("HashMap", keys, _one_atom(example.values(), "values"))
    for python, name in ((bool, "bool"), (int, "i32"), (float, "f64"), (str, "String")):
        if kind is python:
            return name
    for numpy_type, name in _NUMPY_ALIASES.items():  # np.int8(1) is an i8, as in OpenDP
        if kind is numpy_type:
            return name  # label: infer-numpy-scalar
    raise ContextTypeError(
        f"cannot infer a domain from a {kind.__name__}; pass domain=", parameter="data"
    )


def _one_atom(items, what: str) -> str:
    """The one scalar type of every item of a dict's keys or values, as OpenDP infers it (it
    reads the type of every item); none, several types or a non-scalar item are refused."""
    names = []
    for item in items:
        # a container or an array is refused before any recursion (a dict holding itself)
        if type_is(item, dict, list, tuple) or type(item) is np.ndarray:  # label: dict-scalars
            raise ContextTypeError(
                f"the {what} of a dict must be scalars; pass domain=", parameter="data"
            )
        name = _infer(item)
        if name not in names:
            names.append(name)
    if len(names) != 1:  # label: dict-one-type
        found = f"types {', '.join(names)}" if names else "none"
        raise ContextTypeError(
            f"the {what} of a dict must all have one type, found {found}", parameter="data"
        )
    return names[0]


_MAP = re.compile(r"^\s*HashMap\s*<\s*([^,<>]+?)\s*,\s*([^,<>]+?)\s*>\s*$")
_OPTION = re.compile(r"^\s*Option\s*<\s*([^,<>]+?)\s*>\s*$")


def _parse(T):
    """A descriptor ``("Vec", atom)``, ``("HashMap", key, value)``, ``("Option", atom)`` or
    ``atom`` from ``list[int]``, ``dict[str, int]``, ``"Vec<i32>"``, ``"Option<int>"``,
    ``dp.i32``, ``dp.RuntimeType.parse("Vec<i32>")`` (read as the name it prints)."""
    T = type_name_text(T, "T", ContextTypeError)  # label: parse-runtime-type
    origin = getattr(T, "__origin__", None)
    if origin is list:
        (inner,) = T.__args__
        return ("Vec", _atom_name(getattr(inner, "__name__", inner)))
    if origin is dict and len(T.__args__) == 2:
        key, value = (_atom_name(getattr(a, "__name__", a)) for a in T.__args__)
        return ("HashMap", key, value)  # label: parse-dict
    if origin is not None:
        raise ContextTypeError(f"certdp builds no domain for {T!r}", parameter="T")
    if isinstance(T, type):
        return _atom_name(T.__name__)
    if isinstance(T, str):
        match = _VECTOR.match(T)
        if match:
            return ("Vec", _atom_name(match.group(1)))
        match = _MAP.match(T)
        if match:
            return ("HashMap", _atom_name(match.group(1)), _atom_name(match.group(2)))
        match = _OPTION.match(T)
        if match:
            return ("Option", _atom_name(match.group(1)))  # label: parse-option
        if "<" in T:
            raise ContextTypeError(f"certdp builds no domain for {T!r}", parameter="T")
    return _atom_name(T)


def domain_of(T, infer: bool = False) -> Domain:
    """The domain of carrier type ``T`` (``list[int]``, ``"Vec<f64>"``, ``"i32"``, ``float``,
    ``dp.HashMap[str, int]``), or, with ``infer=True``, of the example
    dataset ``T`` (its structure is then public; a dict gives the map domain of its keys' and
    values' one type each)."""
    if type(infer) is not bool:
        raise ContextArgumentError(f"must be True or False, got {shown(infer)}", parameter="infer")
    descriptor = _infer(T) if infer else _parse(T)
    if isinstance(descriptor, tuple) and descriptor[0] == "HashMap":
        if carrier(descriptor[1]).is_float:  # label: map-float-key
            # map_domain would name its own key_domain; name what the user passed
            raise ContextTypeError(
                f"a dict's keys must be hashable (an integer type, bool or String), not "
                f"{descriptor[1]}",
                parameter="data" if infer else "T",
            )
        return map_domain(atom_domain(T=descriptor[1]), atom_domain(T=descriptor[2]))
    if isinstance(descriptor, tuple) and descriptor[0] == "Option":
        return option_domain(atom_domain(T=descriptor[1]))
    if isinstance(descriptor, tuple):
        return vector_domain(atom_domain(T=descriptor[1]))
    return atom_domain(T=descriptor)


_METRIC = re.compile(r"^\s*(\w+)\s*(?:<\s*(\w+)\s*>)?\s*$")


def metric_of(M) -> Metric:
    """The metric named by ``M`` (``"SymmetricDistance"``, ``"L1Distance<f64>"``, ...), or ``M``."""
    if isinstance(M, Metric):
        return M
    M = type_name_text(M, "M", ContextTypeError)  # label: metric-runtime-type
    match = _METRIC.match(M) if isinstance(M, str) else None
    if match is None:
        raise ContextTypeError(f"unrecognized metric {M!r}", parameter="M")
    name, T = match.groups()
    plain = {
        "SymmetricDistance": symmetric_distance,
        "InsertDeleteDistance": insert_delete_distance,
    }
    numeric = {
        "AbsoluteDistance": absolute_distance,
        "L1Distance": l1_distance,
        "L2Distance": l2_distance,
    }
    if name in plain and T is None:
        return plain[name]()
    if name in numeric and T is not None:
        return numeric[name](T=_atom_name(T))
    raise ContextTypeError(f"certdp builds no metric {M!r}", parameter="M")


def space_of(T, M=None, infer: bool = False):
    """The metric space ``(domain_of(T), metric)``: ``M`` when given (a bare numeric metric
    name takes the carrier type), else the symmetric distance for vectors and the absolute
    distance for numbers; a map or option domain gets no default metric (refused, naming M)."""
    domain = domain_of(T, infer=infer)
    vector = isinstance(domain, VectorDomain)
    if M is None:
        if vector:
            return domain, symmetric_distance()
        if getattr(domain, "T", None) is None or domain.T.name not in NUMERIC_TYPES:
            raise ContextTypeError(f"no default metric for {domain!r}; pass M", parameter="M")
        return domain, absolute_distance(T=domain.T)
    if isinstance(M, str) and M.strip() in ("AbsoluteDistance", "L1Distance", "L2Distance"):
        atom = domain.element_domain if vector else domain
        if getattr(atom, "T", None) is None:
            raise ContextTypeError(
                f"{M.strip()} needs a numeric carrier, not {domain!r}", parameter="M"
            )
        M = f"{M.strip()}<{atom.T.name}>"
    return domain, metric_of(M)


# proof: end units-module
