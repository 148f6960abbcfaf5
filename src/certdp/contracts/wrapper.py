"""The wrapper every constructor carries: the vetting gate, the boundary, and the contract.

:func:`certified` decorates each ``make_*`` function.  The wrapper calls the vetting gate
(:mod:`certdp.audit.gate`), passes every argument through the boundary
(:mod:`certdp.core.conversion`) and, only when contracts are enabled, loads the constructor's
``contract.py`` and attaches its runtime checks.  It imports neither sympy nor hypothesis: those
are loaded with a contract module, on the first call with contracts on.  Proven in
``certified.tex``.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from typing import TYPE_CHECKING

import numpy as np

from certdp.audit.gate import _up_to_date, covering, require_vetted_or_contrib
from certdp.core import switches
from certdp.core.conversion import exact_arguments
from certdp.core.errors import MakeMeasurementError, MakeTransformationError
from certdp.core.exact_type import type_is
from certdp.core.transformation import attach_postcondition
from certdp.core.types import infer_type

__all__ = ["certified", "contract_of", "exact_call"]

if TYPE_CHECKING:  # annotations only: importing contract.py loads sympy
    from .contract import Contract


# proof: begin certified
def contract_of(constructor) -> Contract:
    """The contract of a certified constructor, from the ``contract.py`` beside it."""
    module = importlib.import_module(constructor.__certdp_contract_module__)
    contracts = getattr(module, "CONTRACTS", None)
    if contracts is not None:
        return contracts[constructor.__name__]
    return module.CONTRACT


_CONSTRUCTION_ERRORS = {
    "Transformation": MakeTransformationError,
    "Measurement": MakeMeasurementError,
}


def exact_call(signature: inspect.Signature, args, kwargs, error):
    """The arguments of a constructor call after the boundary (:mod:`certdp.core.conversion`).

    Every scalar among them becomes the exact Python value it denotes, or the call is refused
    with ``error`` naming the parameter; so is a call that does not fit the signature.
    """
    try:
        bound = signature.bind(*args, **kwargs)  # label: bind
    except TypeError as exc:
        raise error(str(exc), parameter="arguments") from None  # label: bind-refused
    _infer_type_arguments(signature, bound)  # label: infer-T
    exact = exact_arguments(bound.arguments, error)  # label: exact-arguments
    for parameter, value in exact.items():
        bound.arguments[parameter] = value  # label: replace
    return bound.args, bound.kwargs  # label: exact-call-return


def _infer_type_arguments(signature: inspect.Signature, bound: inspect.BoundArguments) -> None:
    """Fill ``T`` (or the ``<T>`` of ``S``) from NumPy-typed bounds, before they become exact.

    OpenDP takes a constructor's carrier type from the type of its bounds when ``T`` is not
    given: ``np.float32`` bounds mean ``f32``, ``np.int8`` bounds ``i8``.  The boundary turns
    those bounds into Python values, so it records the type they carried first.
    """
    bounds = bound.arguments.get("bounds")
    if not type_is(bounds, tuple, list) or len(bounds) != 2:
        return
    first = bounds[0]
    if not isinstance(first, (np.integer, np.floating)):
        return
    name = infer_type(first).name
    if "T" in signature.parameters and bound.arguments.get("T") is None:
        bound.arguments["T"] = name
    if "S" in signature.parameters:
        S = bound.arguments.get("S", signature.parameters["S"].default)
        if type(S) is str and S.endswith("<T>"):
            bound.arguments["S"] = S[: -len("<T>")] + f"<{name}>"


def certified(constructor):
    """Attach the contract in the sibling ``contract.py`` to ``constructor``.

    A constructor whose proof is not vetted and up to date requires the ``contrib``
    feature (:mod:`certdp.audit.gate`).  Once vetted, and with contracts disabled, the
    wrapper costs one set lookup and one flag check.  When the gate call of this very
    invocation passed by the cheap check, the constructors first called during the
    construction (in this thread) may pass on that check (``covering``).
    """
    package = constructor.__module__.rpartition(".")[0]

    name = constructor.__name__
    signature = inspect.signature(constructor)
    error = _CONSTRUCTION_ERRORS.get(
        constructor.__annotations__.get("return", ""), MakeTransformationError
    )

    @functools.wraps(constructor)
    def wrapper(*args, **kwargs):
        check = None
        if name not in _up_to_date:  # label: fast-path
            check = require_vetted_or_contrib(name)  # label: gate-call
        opened = None
        try:
            if check is not None:  # set inside the try: the finally below always closes it
                opened = covering.set(check)  # label: scope-open
            args, kwargs = exact_call(signature, args, kwargs, error)  # label: boundary-call
            if not switches.contracts.enabled:  # label: contracts-off
                return constructor(*args, **kwargs)  # label: plain-call
            contract = contract_of(wrapper)  # label: contract-load
            from .contract import Postcondition  # label: postcondition-load

            arguments = contract.bind(args, kwargs)  # label: contract-bind
            contract.check_preconditions(arguments)  # label: preconditions
            built = constructor(*args, **kwargs)  # label: checked-call
            attach_postcondition(built, Postcondition(contract, arguments))  # label: attach
            return built
        finally:
            if check is not None:  # label: scope-close
                check.open = False  # first: a closed check covers nothing, wherever it is held
            if opened is not None:
                covering.reset(opened)  # label: scope-reset

    wrapper.__certdp_contract_module__ = package + ".contract"
    wrapper.__certdp_certified__ = True
    return wrapper


# proof: end certified
