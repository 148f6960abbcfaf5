"""The project's error hierarchy.

Every error certdp raises on purpose is a :class:`DPError`.  Each subclass
corresponds to one stage at which something can go wrong (building a domain,
building a transformation, running a function, evaluating a map, ...), and
carries a ``variant`` string spelled like OpenDP's error variants and a ``message``,
so that code written for OpenDP's ``OpenDPException`` (an alias of :class:`DPError` in
``certdp.prelude``) can match on them.  Where OpenDP raises ``TypeError`` (a value of the
wrong type), certdp raises the error's :func:`type_mismatch` form, which is also a
``TypeError``.

Messages follow one rule: they name the offending parameter and the rule it
broke, e.g. ``"bounds: lower bound 3 must not exceed upper bound 1"``.
"""

from __future__ import annotations

from fractions import Fraction

from .exact_type import fraction_field_bits, type_is

__all__ = [
    "DPError",
    "MakeDomainError",
    "MakeTransformationError",
    "MakeMeasurementError",
    "FailedFunctionError",
    "FailedMapError",
    "FailedCastError",
    "DomainMismatchError",
    "MetricMismatchError",
    "MeasureMismatchError",
    "ArithmeticOverflowError",
    "FeatureNotEnabledError",
    "FloatingPointEnvironmentError",
    "ContractError",
    "type_mismatch",
    "shown",
]


# proof: begin errors
class DPError(Exception):
    """Base class of every error raised by certdp."""

    variant = "DPError"

    def __init__(self, message: str, *, parameter: str | None = None):
        self.parameter = parameter  # label: parameter
        self.message = f"{parameter}: {message}" if parameter else message
        super().__init__(self.message)  # label: message


class MakeDomainError(DPError):
    """A domain could not be built from the given descriptors."""

    variant = "MakeDomain"


class MakeTransformationError(DPError):
    """A transformation constructor refused its arguments."""

    variant = "MakeTransformation"


class MakeMeasurementError(DPError):
    """A measurement constructor refused its arguments."""

    variant = "MakeMeasurement"


class FailedFunctionError(DPError):
    """Invoking a transformation or measurement failed (e.g. data outside the input domain)."""

    variant = "FailedFunction"


class FailedMapError(DPError):
    """A stability or privacy map could not produce a sound distance."""

    variant = "FailedMap"


class FailedCastError(DPError):
    """A value could not be represented exactly in the requested type."""

    variant = "FailedCast"


class DomainMismatchError(DPError):
    """Two domains that must be equal (e.g. when chaining) are not."""

    variant = "DomainMismatch"


class MetricMismatchError(DPError):
    """Two metrics that must be equal (e.g. when chaining) are not."""

    variant = "MetricMismatch"


class MeasureMismatchError(DPError):
    """Two measures that must be equal (e.g. when composing) are not."""

    variant = "MeasureMismatch"


class ArithmeticOverflowError(DPError):
    """An arithmetic result is not representable (integer overflow, non-finite float)."""

    variant = "Overflow"


class FeatureNotEnabledError(DPError):
    """A feature flag required by a constructor has not been enabled."""

    variant = "FeatureNotEnabled"


class FloatingPointEnvironmentError(DPError):
    """The floating-point environment is not IEEE 754 default (rounding mode, FTZ or DAZ)."""

    variant = "FloatingPointEnvironment"


class ContractError(DPError):
    """An executable contract (precondition or postcondition) was violated."""

    variant = "Contract"

    def __init__(self, message: str, *, condition: str, parameter: str | None = None):
        self.condition = condition  # label: condition
        super().__init__(f"[{condition}] {message}", parameter=parameter)  # label: contract-message


def _shown_scalar(value) -> str:
    """``shown`` of a value that is not an exact tuple or list."""
    if type(value) is int and value.bit_length() > 1100:
        return f"an integer of {value.bit_length()} bits"  # label: shown-int
    if type(value) is Fraction:  # its int fields' sizes, in constant time: no gcd
        bits = fraction_field_bits(value)  # label: shown-fields
        if bits > 1100:
            return f"a rational of {bits}-bit numerator or denominator"  # label: shown-fraction
    try:
        return repr(value)  # label: shown-repr
    except Exception as error:  # noqa: BLE001 - any failure of a foreign repr is replaced
        return f"a {type(value).__name__} value ({type(error).__name__} printing it)"  # label: shown-unprintable


_TEXT, _VALUE, _LEAVE = 0, 1, 2


def shown(value) -> str:
    """``repr(value)`` for a message, or, for an ``int`` or ``Fraction`` with more than 1100
    bits (beyond every binary64 value; printing one may be slow or refused by Python), a
    description of its size, or, when ``repr`` raises, the type's name; a tuple or list is
    shown element by element, iteratively (no recursion, whatever its nesting depth)."""
    pieces: list[str] = []
    open_ids: set[int] = set()
    work: list = [(_VALUE, value)]
    while work:  # label: shown-loop
        kind, item = work.pop()
        if kind == _TEXT:
            pieces.append(item)
        elif kind == _LEAVE:
            open_ids.discard(item)
        elif type_is(item, tuple, list):
            is_list = type(item) is list
            if id(item) in open_ids:  # a container inside itself, as repr shows it
                pieces.append("[...]" if is_list else "(...)")  # label: shown-cycle
                continue
            open_ids.add(id(item))
            closing = "]" if is_list else (",)" if len(item) == 1 else ")")  # label: shown-tuple
            todo = [(_TEXT, "[" if is_list else "(")]
            for index, element in enumerate(item):  # label: shown-items
                if index:
                    todo.append((_TEXT, ", "))
                todo.append((_VALUE, element))
            todo += [(_TEXT, closing), (_LEAVE, id(item))]
            work.extend(reversed(todo))
        else:
            pieces.append(_shown_scalar(item))
    return "".join(pieces)


_TYPE_MISMATCHES: dict = {}


def type_mismatch(error: type[DPError]) -> type[DPError]:
    """The subclass of ``error`` that is also a ``TypeError`` (same name and variant): raised
    where OpenDP raises ``TypeError``, so that both ``except TypeError`` and ``except
    error`` catch it."""
    if error not in _TYPE_MISMATCHES:
        _TYPE_MISMATCHES[error] = type(error.__name__, (error, TypeError), {})  # label: mixin
    return _TYPE_MISMATCHES[error]


# proof: end errors
