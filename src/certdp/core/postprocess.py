"""Postprocessing: ``dp.new_function`` and a measurement's release handed to it.

Guarantee (postprocess.tex): calling a :class:`Function` calls the callback on the same argument
and returns what it returns; :func:`postprocess` builds the measurement releasing
``postprocess1(measurement0(x))`` with ``measurement0``'s input domain, metric, measure and map, which
stay valid (postprocessing never increases any of certdp's divergences).  What the callback
raises becomes a ``FailedFunctionError`` carrying only the exception's class name and text (a
function of the release, so itself postprocessing), never the release or the callback's frames.
Building a Function requires the feature ``"honest-but-curious"``, by which the user states that
the callback reads nothing but its argument and randomness of its own.
"""

from __future__ import annotations

from .errors import FailedFunctionError, MakeDomainError, type_mismatch
from .features import assert_features
from .transformation import Measurement

__all__ = ["Function", "new_function", "postprocess"]


# proof: begin postprocess
class Function:
    """A postprocessing function: ``Function(callback, TO)(x)`` is ``callback(x)``."""

    def __init__(self, callback, TO: str):
        self._callback = callback
        self.TO = TO

    def __call__(self, arg):
        return self._callback(arg)  # label: call

    def __repr__(self) -> str:
        return f"Function(TO={self.TO})"


def new_function(function, TO) -> Function:
    """``function`` as a :class:`Function` with output type ``TO`` (a type name or a Python
    type; recorded, not converted to: see postprocess.tex)."""
    assert_features("honest-but-curious", reason="the callback is trusted")  # label: feature
    if not callable(function):  # label: callable
        raise type_mismatch(MakeDomainError)(
            f"must be callable, got {type(function).__name__}", parameter="function"
        )
    names = {int: "i32", float: "f64", bool: "bool", str: "String"}
    if type(TO) is str:  # label: type-name
        name = TO
    elif any(TO is python_type for python_type in names):
        name = next(names[t] for t in names if TO is t)
    else:
        raise type_mismatch(MakeDomainError)(
            f"must be a type name or a Python type, got {TO!r}", parameter="TO"
        )
    return Function(function, name)  # label: build


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


def postprocess(postprocess1: Function, measurement0: Measurement) -> Measurement:
    """``postprocess1(measurement0(x))``, with ``measurement0``'s domain, metric, measure and
    map."""

    def released(arg):
        succeeded, value = _apply(postprocess1, measurement0.invoke(arg))  # label: released
        if succeeded:
            return value  # label: released-value
        raise FailedFunctionError(  # label: released-error
            f"the postprocessing function raised {value}", parameter="postprocess1"
        )

    return Measurement(
        input_domain=measurement0.input_domain,
        function=released,
        input_metric=measurement0.input_metric,
        output_measure=measurement0.output_measure,  # label: output-measure
        privacy_map=measurement0.map,  # label: map
    )


# proof: end postprocess
