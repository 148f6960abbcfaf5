"""Find constructor folders: every subpackage of ``transformations``/``measurements``."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

__all__ = ["constructor_packages", "export_constructors", "prelude_name"]


def constructor_packages(namespace: ModuleType) -> list[ModuleType]:
    """Import and return every constructor subpackage of ``namespace``, sorted by name."""
    return [
        importlib.import_module(f"{namespace.__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(namespace.__path__), key=lambda info: info.name)
        if info.ispkg and not info.name.startswith("_")
    ]


def export_constructors(namespace: ModuleType) -> list[str]:
    """Copy each subpackage's ``__all__`` names into ``namespace``; return them."""
    exported = []
    for package in constructor_packages(namespace):
        for name in package.__all__:
            setattr(namespace, name, getattr(package, name))
            exported.append(name)
    return exported


#: Prelude names that are namespaces of their own, not answered by ``dp.t``/``dp.m``/``dp.c``.
_NAMESPACES = frozenset({"t", "m", "c", "numpy", "examples"})


def prelude_name(namespace: str, name: str):
    """The prelude's ``name``, for a ``namespace`` that lacks it: OpenDP's ``dp.t``, ``dp.m``
    and ``dp.c`` also carry its domains, metrics, measures, core classes and type names
    (``dp.t.symmetric_distance()`` runs there), so ported code finds them here too.  Looked up
    lazily (the prelude imports the namespaces); anything else is an ``AttributeError``."""
    if not name.startswith("_") and name not in _NAMESPACES:
        from certdp import prelude

        if name in prelude.__all__:
            return getattr(prelude, name)
    raise AttributeError(f"module {namespace!r} has no attribute {name!r}")
