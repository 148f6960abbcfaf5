"""Postprocessing: ``dp.new_function`` and a measurement's release handed to it.

Guarantee (postprocess.tex): calling a :class:`Function` calls the callback on the same argument
and returns what it returns; :func:`postprocess` builds the measurement releasing
``postprocess1(measurement0(x))`` with ``measurement0``'s input domain, metric, measure and map, which
stay valid (postprocessing never increases any of certdp's divergences); a tower
``m >> f1 >> f2 >> ...`` is one measurement applying ``f1, f2, ...`` in a loop to ``m``'s release
(no call depth grows with its height).  What the callback
raises becomes a ``FailedFunctionError`` carrying only the exception's class name and text (a
function of the release, so itself postprocessing), never the release or the callback's frames.
Building a Function requires the feature ``"honest-but-curious"``, by which the user states that
the callback reads nothing but its argument and randomness of its own.
"""

from __future__ import annotations

import numpy as np

from .conversion import NUMPY_INTEGER_TYPES, type_name_text
from .errors import FailedFunctionError, MakeDomainError, type_mismatch
from .exact_type import type_is
from .features import assert_features
from .transformation import Measurement
from .types import _NUMPY_ALIASES, _PYTHON_ALIASES, INTEGER_TYPES, CarrierType

__all__ = ["Function", "new_function", "postprocess", "output_shape", "convert_output"]


# proof: begin postprocess
class Function:
    """A postprocessing function: ``Function(callback, TO)(x)`` is ``callback(x)`` converted to
    the type ``TO`` names, as OpenDP converts a callback's value (:func:`convert_output`)."""

    def __init__(self, callback, TO):
        self._callback = callback
        self.TO = _output_name(TO)  # label: name
        self._shape = output_shape(self.TO)  # label: shape

    def __call__(self, arg):
        return convert_output(self._callback(arg), self._shape)  # label: call

    def __repr__(self) -> str:
        return f"Function(TO={self.TO})"


def new_function(function, TO) -> Function:
    """``function`` as a :class:`Function` with output type ``TO`` (a type name or a Python
    type; each value the function returns is converted to it, see :func:`convert_output`)."""
    assert_features("honest-but-curious", reason="the callback is trusted")  # label: feature
    if not callable(function):  # label: callable
        raise type_mismatch(MakeDomainError)(
            f"must be callable, got {type(function).__name__}", parameter="function"
        )
    return Function(function, TO)  # label: build


def _output_name(TO) -> str:
    """``TO`` as a type name: a string as given, ``int``/``float``/``bool``/``str`` and the NumPy
    scalar types as OpenDP reads them (``core/types``), a ``dp.RuntimeType`` as the name it
    prints; a typed error naming
    ``TO`` for anything else."""
    for python_type, name in (*_PYTHON_ALIASES.items(), *_NUMPY_ALIASES.items()):
        if TO is python_type:
            return name  # label: name-python
    TO = type_name_text(TO, "TO", type_mismatch(MakeDomainError))  # label: name-runtime-type
    if type(TO) is not str:  # label: name-str
        raise type_mismatch(MakeDomainError)(
            f"must be a type name or a Python type, got {TO!r}", parameter="TO"
        )
    return TO


#: The scalar type names a Function converts to, and ``ExtrinsicObject`` (any value, unchanged).
_SCALARS = (*INTEGER_TYPES[:4], *INTEGER_TYPES[5:9], "usize", "f32", "f64", "bool", "String")


#: Scalar aliases OpenDP accepts in a type name (``core/types``: ``float`` is ``f64``).
_ALIASES = {"int": "i32", "float": "f64", "str": "String"}


def output_shape(TO: str):
    """The parsed form of the output type name ``TO``: a scalar name, ``"ExtrinsicObject"``,
    ``("Vec", T)``, ``("HashMap", K, V)`` or ``("tuple", T1, ..., Tn)`` for scalar ``T``s
    (``Tuple<T1, ..., Tn>`` or ``(T1, ..., Tn)``; a vector's ``T``, a map's ``V`` and a tuple's
    items may also be ``ExtrinsicObject``), or ``("Option", S)`` for any of those ``S``
    but an Option; ``int``, ``float`` and ``str`` stand for ``i32``, ``f64`` and ``String``.  A
    typed error naming ``TO`` for any other name."""
    shape = _shape(TO.replace(" ", ""), optional=True)  # label: shape-name
    if shape is None:
        raise type_mismatch(MakeDomainError)(
            f"must name an output type certdp converts to: one of {', '.join(_SCALARS)} (or "
            "int, float, str), ExtrinsicObject, Vec<T>, HashMap<K, V> (T, V also "
            "ExtrinsicObject), a tuple (T1, ..., Tn) or "
            f"Tuple<T1, ..., Tn> of them, or Option<...> of any of these, got {TO!r}",
            parameter="TO",
        )
    return shape


def _scalar(name: str):
    """The scalar name ``name`` denotes (an alias resolved), or ``None``."""
    name = _ALIASES.get(name, name)
    return name if name in _SCALARS else None


def _item(name: str):
    """The scalar name ``name`` denotes, ``"ExtrinsicObject"`` for itself, or ``None``."""
    return name if name == "ExtrinsicObject" else _scalar(name)


def _shape(name: str, optional: bool):
    """The shape ``name`` (spaces removed) names, or ``None``; an ``Option`` only if
    ``optional``."""
    if _item(name) is not None:  # label: shape-scalar
        return _item(name)
    if optional and name.startswith("Option<") and name.endswith(">"):  # label: shape-option
        inner = _shape(name[len("Option<") : -1], optional=False)
        return None if inner is None else ("Option", inner)
    if name.startswith("Tuple<") and name.endswith(">"):  # label: shape-tuple-generic
        name = "(" + name[len("Tuple<") : -1] + ")"
    for outer in ("Vec", "HashMap"):
        if name.startswith(outer + "<") and name.endswith(">"):  # label: shape-generic
            items = name[len(outer) + 1 : -1].split(",")
            # the elements of a vector and the values of a map may be ExtrinsicObject, not keys
            inner = (*map(_scalar, items[:-1]), _item(items[-1]))  # label: shape-items
            if len(inner) == (2 if outer == "HashMap" else 1) and None not in inner:
                return (outer, *inner)
    if name.startswith("(") and name.endswith(")"):  # label: shape-tuple
        # a tuple's items may be ExtrinsicObject, as in OpenDP's "(f64, ExtrinsicObject)"
        inner = tuple(_item(item) for item in name[1:-1].split(","))  # label: shape-tuple-items
        if len(inner) >= 2 and None not in inner:
            return ("tuple", *inner)
    return None


def convert_output(value, shape):
    """``value`` converted to the type ``shape`` describes (:func:`output_shape`), as OpenDP
    converts a callback's value: an integer type takes an ``int`` (or NumPy integer) in its
    range, ``f64`` an ``int`` or ``float`` (as ``float()`` rounds it), ``f32`` the same, then
    rounded to the nearest binary32 (overflowing to an infinity), ``bool`` and ``String`` their own
    values; a vector a list or tuple of such values (a list), a tuple one of the same length, a
    map a dict; ``ExtrinsicObject`` anything, unchanged.  Any other value raises
    :class:`FailedFunctionError` naming ``TO``."""
    if type(shape) is tuple:
        kind, inner = shape[0], shape[1:]
        if kind == "Option":  # label: convert-option
            return None if value is None else convert_output(value, inner[0])
        if kind == "Vec" and type_is(value, list, tuple):  # label: convert-vec
            return [convert_output(item, inner[0]) for item in value]
        if kind == "HashMap" and inner[0] in ("f32", "f64"):  # label: convert-map-float-key
            raise FailedFunctionError(
                f"a map's keys may not be floats (distinct keys could round to one), got "
                f"{_shown_shape(shape)}",
                parameter="TO",
            )
        if kind == "HashMap" and type(value) is dict:  # label: convert-map
            key, item = inner
            return {convert_output(k, key): convert_output(v, item) for k, v in value.items()}
        if kind == "tuple" and type(value) is tuple and len(value) == len(inner):
            return tuple(convert_output(v, t) for v, t in zip(value, inner))  # label: convert-tuple
        raise FailedFunctionError(
            f"the function's value, a {type(value).__name__}, is not a {_shown_shape(shape)}",
            parameter="TO",
        )
    if shape == "ExtrinsicObject":  # label: convert-any
        return value
    if shape in ("f32", "f64"):
        number = _float(value)  # label: convert-float
        if shape == "f32":
            with np.errstate(over="ignore"):
                number = float(np.float32(number))  # label: convert-f32
        return number
    exact = CarrierType(shape).exact(value)  # label: convert-exact
    if exact is None:
        raise FailedFunctionError(
            f"the function's value {_shown_value(value)} is not representable by {shape}",
            parameter="TO",
        )
    return exact


def _float(value) -> float:
    """``value`` as a Python float: a float (or NumPy binary64) as it is, an ``int`` rounded by
    ``float()``; a typed error naming ``TO`` otherwise (a ``bool`` is no number)."""
    kind = type(value)
    if kind is float or kind is np.float64 or kind is np.float32:  # label: float-float
        return float(value)
    if type_is(value, int, *NUMPY_INTEGER_TYPES):  # label: float-int
        try:
            return float(value)
        except OverflowError:
            pass
    raise FailedFunctionError(
        f"the function's value {_shown_value(value)} is not a float", parameter="TO"
    )


def _shown_shape(shape) -> str:
    if type(shape) is not tuple:
        return shape
    kind, inner = shape[0], [_shown_shape(item) for item in shape[1:]]
    return f"({', '.join(inner)})" if kind == "tuple" else f"{kind}<{', '.join(inner)}>"


def _shown_value(value) -> str:
    """A short description of ``value`` for a refusal: its text when it is a short built-in
    number or string, an ``int`` of more than 128 bits by its bit length (its text is never
    made), else its type's name only (no method of the value is called)."""
    kind = type(value)
    if kind is int and value.bit_length() > 128:  # label: shown-huge-int
        return f"(an int of {value.bit_length()} bits)"
    if (
        type_is(value, int, float, bool, str) and len(text := repr(value)) <= 40
    ):  # label: shown-value
        return f"{text} (a {kind.__name__})"
    return f"(a {kind.__name__})"


def _apply(function: Function, release) -> tuple[bool, object]:
    """``(True, function(release))``, or ``(False, text)`` with the class name and text of the
    exception it raised; this frame, which holds ``release``, has ended when the caller raises."""
    try:
        return True, function(release)  # label: apply
    except Exception as error:  # label: apply-caught
        kind = type(error).__name__
        try:
            text = str(error)  # label: apply-text
        except Exception:
            text = "(its text could not be read)"
        return False, f"{kind}: {text}"  # label: apply-failed


def _tower(measurement) -> tuple:
    """``(base, functions, base_map, space)`` when ``measurement`` is a postprocessing built by
    :func:`postprocess` and left as built (its function, map, space and no runtime contract
    being the recorded ones): it releases ``functions`` applied in order to ``base``'s release,
    and its map is ``base_map``.  Otherwise ``(measurement, (), measurement.map, its space)``.
    So a tower ``m >> f >> f >> ...`` is run by a loop, never by nested calls."""
    state = measurement.__dict__
    record = state.get("_tower")
    if (
        type(measurement) is Measurement
        and type(record) is _Tower
        and state.get("function") is record.function
        and state.get("_map") is record.base_map
        and state.get("postcondition") is None
        and state.get("_node") is None
        and state.get("input_domain") is record.space[0]
        and state.get("input_metric") is record.space[1]
        and state.get("output_measure") is record.space[2]
    ):  # label: tower-kept
        return record.base, record.functions, record.base_map, record.space
    space = (measurement.input_domain, measurement.input_metric, measurement.output_measure)
    return measurement, (), measurement.map, space  # label: tower-leaf


class _Tower(tuple):
    """What :func:`postprocess` records on the measurement it builds: the ``base`` measurement,
    the ``functions`` applied to its release in order, and the built measurement's
    ``function``, map (``base_map``) and ``space`` (so a later change to any is seen by
    :func:`_tower`)."""

    __slots__ = ()

    def __new__(cls, base, functions, function, base_map, space):
        return super().__new__(cls, (base, functions, function, base_map, space))

    base = property(lambda self: self[0])
    functions = property(lambda self: self[1])
    function = property(lambda self: self[2])
    base_map = property(lambda self: self[3])
    space = property(lambda self: self[4])


def postprocess(postprocess1: Function, measurement0: Measurement) -> Measurement:
    """``postprocess1(measurement0(x))``, with ``measurement0``'s domain, metric, measure and
    map; a postprocessing of a postprocessing applies both functions in one loop to the
    innermost measurement's release."""
    base, earlier, base_map, space = _tower(measurement0)  # label: tower
    functions = (*earlier, postprocess1)  # label: functions

    def released(arg):
        release = base.invoke(arg)  # label: released
        for function in functions:
            succeeded, release = _apply(function, release)  # label: released-step
            if not succeeded:
                raise FailedFunctionError(  # label: released-error
                    f"the postprocessing function raised {release}", parameter="postprocess1"
                )
        return release  # label: released-value

    built = Measurement(
        input_domain=space[0],
        function=released,
        input_metric=space[1],
        output_measure=space[2],  # label: output-measure
        privacy_map=base_map,  # label: map
    )
    built._tower = _Tower(base, functions, released, base_map, space)  # label: record
    return built


# proof: end postprocess
