"""Executable Hoare triples: preconditions, postconditions and their checkers.

Each constructor folder holds a ``contract.py`` whose ``CONTRACT`` states the
theorem its LaTeX proof proves.  At run time (``dp.enable_contracts()``) the
contract guards every call; at test time :meth:`Contract.verify` searches for
neighbouring inputs that break the guarantee.

Importing this package loads only the wrapper (:mod:`.wrapper`) and the switches; the contract
classes (:mod:`.contract`, which needs sympy) are loaded on first access.
"""

from .runtime import contracts_enabled, disable_contracts, enable_contracts
from .wrapper import certified, contract_of

__all__ = [
    "Contract",
    "TransformationContract",
    "MeasurementContract",
    "Precondition",
    "Postcondition",
    "certified",
    "contract_of",
    "enable_contracts",
    "disable_contracts",
    "contracts_enabled",
]

_LAZY = {
    "Contract",
    "TransformationContract",
    "MeasurementContract",
    "Precondition",
    "Postcondition",
}


def __getattr__(name: str):
    """The contract classes, imported from :mod:`.contract` (and sympy) when first asked for."""
    if name in _LAZY:
        from . import contract

        return getattr(contract, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
