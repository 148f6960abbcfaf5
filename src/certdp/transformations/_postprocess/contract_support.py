"""The contract of a postprocessor (a constructor returning a ``Function``): preconditions on
the constructor's arguments and a postcondition on the Function's output for each input.

``FunctionContract.verify()`` draws constructor arguments and an input, builds the Function,
runs it and checks ``postcondition(kwargs, arg, out)``; it raises ``ContractError`` (condition
``function-postcondition``) on the first output that breaks it.  ``function_override`` replaces
the built Function (to show a wrong one is refuted).  A Function has no map: the ``bound`` of
the base class is unused (zero).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import sympy

from certdp.contracts.contract import Contract, VerificationReport
from certdp.core.errors import ContractError

__all__ = ["FunctionContract"]


@dataclass
class FunctionContract(Contract):
    """``cases()`` is a hypothesis strategy of ``(kwargs, arg)``; ``postcondition(kwargs, arg,
    out)`` is the proof's postcondition, ``True`` when ``out`` meets it."""

    bound: sympy.Expr = field(default=sympy.S.Zero)
    cases: Callable | None = None
    postcondition: Callable | None = None
    kind = "function"

    def verify(self, *, max_examples: int | None = None, function_override=None, **_ignored):
        from hypothesis import HealthCheck, given, settings

        report = VerificationReport(self.name)

        @given(self.cases())
        def search(case):
            kwargs, arg = case
            built = self.constructor(**kwargs)
            function = function_override(built) if function_override else built
            out = function(arg)
            if not self.postcondition(kwargs, arg, out):
                raise ContractError(
                    f"{self.name}({kwargs!r}) on {arg!r} gave {out!r}, which breaks the "
                    "postcondition",
                    condition="function-postcondition",
                )
            report.observe(0.0, (kwargs, arg))

        overrides = {
            "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
            "deadline": None,
        }
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        settings(settings(), **overrides)(search)()
        return report
