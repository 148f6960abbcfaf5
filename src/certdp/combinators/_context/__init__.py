"""The Context API (OpenDP's ``dp.Context``, ``dp.Query``, ``dp.unit_of``, ``dp.loss_of``,
``dp.space_of``, ``dp.domain_of``, ``dp.metric_of``) and the budget split it relies on."""

from .context import Context, PartialChain, Query, register
from .errors import BudgetExhaustedError, ContextArgumentError, ContextBusyError, ContextTypeError
from .split import split_budget
from .units import domain_of, loss_of, metric_of, space_of, unit_of

__all__ = [
    "Context",
    "Query",
    "PartialChain",
    "register",
    "unit_of",
    "loss_of",
    "space_of",
    "domain_of",
    "metric_of",
    "split_budget",
    "BudgetExhaustedError",
    "ContextBusyError",
    "ContextArgumentError",
    "ContextTypeError",
]
