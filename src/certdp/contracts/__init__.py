"""Executable Hoare triples: preconditions, postconditions and their checkers.

Each constructor folder holds a ``contract.py`` whose ``CONTRACT`` states the
theorem its LaTeX proof proves.  At run time (``dp.enable_contracts()``) the
contract guards every call; at test time :meth:`Contract.verify` searches for
neighbouring inputs that break the guarantee.
"""

from .contract import (
    Contract,
    MeasurementContract,
    Postcondition,
    Precondition,
    TransformationContract,
    certified,
    contract_of,
)
from .runtime import contracts_enabled, disable_contracts, enable_contracts

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
