"""Whether the SMT solvers of ``certdp prove`` are installed (the ``certdp[prove]`` extra).

A plain ``pip install certdp`` leaves them out: only ``certdp prove`` runs them, and the audit
reads their cached results only where it can check what produced them.  This module sits
outside ``certdp.prove`` (whose import loads the solvers) and imports one only when asked.
"""

from __future__ import annotations

import importlib

__all__ = ["missing_solvers", "INSTALL_HINT"]

#: The import name and the distribution of each solver.
SOLVERS = (("z3", "z3-solver"), ("bitwuzla", "bitwuzla"))

INSTALL_HINT = "pip install 'certdp[prove]'"


def missing_solvers() -> list[str]:
    """The distributions of the solvers that cannot be imported (empty when all can)."""
    missing = []
    for module, distribution in SOLVERS:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(distribution)
    return missing
