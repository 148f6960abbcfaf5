"""The typed errors of the Context API.

Each is a :class:`DPError` and also the built-in exception OpenDP raises at the same place
(``ValueError`` or ``TypeError``), so ``except ValueError`` written for OpenDP still catches it.
"""

from __future__ import annotations

from certdp.core.errors import FailedFunctionError, MakeMeasurementError

__all__ = [
    "ContextArgumentError",
    "ContextTypeError",
    "BudgetExhaustedError",
    "ContextBusyError",
]


# proof: begin errors-module
class _Named:
    """The parameter may be given by position: ``Error("must be ...", "split_by_weights")``."""

    def __init__(self, message: str, parameter: str | None = None):
        super().__init__(message, parameter=parameter)


class ContextArgumentError(_Named, MakeMeasurementError, ValueError):
    """An argument of ``unit_of``, ``loss_of``, ``Context.compositor`` or a query is refused."""

    variant = "MakeMeasurement"


class ContextTypeError(_Named, MakeMeasurementError, TypeError):
    """A type or metric descriptor names something certdp does not build."""

    variant = "MakeMeasurement"


class BudgetExhaustedError(_Named, FailedFunctionError, ValueError):
    """A query was refused before anything was released: the budget left is too small."""

    variant = "FailedFunction"


class ContextBusyError(_Named, FailedFunctionError, RuntimeError):
    """A query was refused, before anything ran, because the Context was answering another
    (OpenDP 0.16 refuses such a query too: a queryable runs one query at a time)."""

    variant = "FailedFunction"


# proof: end errors-module
