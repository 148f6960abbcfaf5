"""Calling a user's callback safely (the unproven user constructors' shared helpers).

:func:`user_call` runs a callback and hands back its value or only the class name of what it
raised, with the exception dropped before the caller raises its typed error;
:func:`require_kinds` refuses, typed, a constructor argument of the wrong kind.
"""

from __future__ import annotations

from .errors import type_mismatch

__all__ = ["require_kinds", "user_call"]


def require_kinds(error, arguments) -> None:
    """Raise ``error`` (a DPError class, as a type mismatch) naming the first ``(value, kind,
    parameter)`` of ``arguments`` whose value is not an instance of ``kind``."""
    for value, kind, parameter in arguments:
        if not isinstance(value, kind):
            raise type_mismatch(error)(
                f"must be a {kind.__name__}, got {type(value).__name__}", parameter=parameter
            )


def user_call(callback, arg, keep=()):
    """``(True, callback(arg))``, or ``(False, name)``: the class name of the exception it
    raised (any ``BaseException``; ``KeyboardInterrupt``, ``SystemExit`` and the classes in ``keep``
    pass unchanged).  The exception is dropped
    when this frame ends, before the caller raises its typed error, so that error keeps neither
    the exception (whose text and frames may show the data) as ``__context__`` nor ``__cause__``
    nor the callback's frame in its traceback."""
    try:
        return True, callback(arg)
    except keep:
        raise
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:
        return False, type(error).__name__
