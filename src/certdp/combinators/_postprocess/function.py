"""``dp.new_function``: a user's callback marked as a postprocessing function.

Guarantee (function.tex): calling a :class:`Function` calls the callback on the same argument
and returns what it returns (or raises what it raises); nothing else is called or changed.
Building one requires the feature ``"honest-but-curious"``, by which the user states that the
callback reads nothing but its argument and randomness of its own, and that whether it raises
does not depend on its argument.
"""

from __future__ import annotations

from certdp.core.errors import MakeDomainError, type_mismatch
from certdp.core.features import assert_features

__all__ = ["Function", "new_function"]


# proof: begin function
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
    type; recorded, not checked: a check of the release would raise depending on its value)."""
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


# proof: end function
