"""A bounded proof obligation: one instance of a constructor's theorem, as an SMT query.

An :class:`Obligation` builds a formula that is satisfiable exactly when the instance has a
counterexample (a pair of neighbouring datasets whose outputs are farther apart than the map
allows, or an output outside the output domain); ``certdp prove`` asks the solver for a model of
it.  ``decode`` turns such a model into concrete datasets, and ``confirm`` runs the real code
on them, so a counterexample is reported with what the code itself does on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Obligation"]


@dataclass
class Obligation:
    """``claim`` about ``constructor`` at records of ``format``, datasets of length ``<= size``."""

    constructor: str
    claim: str
    format: str
    size: int
    violation: Callable[[], tuple[object, Callable[[object], dict]]]
    confirm: Callable[[dict], str] | None = None
    tags: dict = field(default_factory=dict)
    #: ``"z3"``, or ``"bitwuzla"`` for pure bit-vector/IEEE formulas that z3 does not finish
    #: (the formula is handed over in SMT-LIB 2; its decoder then gets ``{name: value}``).
    solver: str = "z3"

    @property
    def key(self) -> str:
        return f"{self.constructor}: {self.claim}"
