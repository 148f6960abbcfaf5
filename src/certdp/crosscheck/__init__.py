"""``certdp crosscheck``: audit another DP library against certdp's proofs.

::

    import certdp.crosscheck
    report = certdp.crosscheck("opendp.prelude", ["make_resize"], quick=True)
    report.violations, report.exit_status()

The package itself is callable (``certdp.crosscheck(target, names=None, quick=False,
progress=None, jobs=1, fail_on_suspect=False, timeout=600)``, the same as :func:`certdp.crosscheck.run.crosscheck`).  The target is
imported only here, by the name given; nothing else in certdp imports it.

Modules: :mod:`.twins` (the registry: one twin per certdp constructor), :mod:`.grids` (edge
values), :mod:`.target` (importing and building in the target), :mod:`.mapcheck` (map values
against the exact bound), :mod:`.pairs` and :mod:`.search` (counterexamples on the target's
own function), :mod:`.coupling` (randomised transformations), :mod:`.noise` (samplers),
:mod:`.reproducer` (scripts in the target's API), :mod:`.run` and :mod:`.report` (the command).
"""

from __future__ import annotations

import sys
import types

from .findings import DEVIATION, IDEALIZED, SUSPECT, VIOLATION, Finding, TwinResult
from .run import CrosscheckReport, crosscheck

__all__ = [
    "crosscheck",
    "CrosscheckReport",
    "Finding",
    "TwinResult",
    "VIOLATION",
    "DEVIATION",
    "SUSPECT",
    "IDEALIZED",
]


class _CallableModule(types.ModuleType):
    """Lets ``certdp.crosscheck(...)`` call :func:`crosscheck` directly."""

    def __call__(self, target, names=None, quick: bool = False, progress=None, jobs: int = 1,
                 **options):  # fmt: skip
        """``options``: ``fail_on_suspect`` and ``timeout`` (see :func:`.run.crosscheck`)."""
        return crosscheck(target, names, quick=quick, progress=progress, jobs=jobs, **options)


sys.modules[__name__].__class__ = _CallableModule
