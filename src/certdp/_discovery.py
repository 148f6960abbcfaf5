"""Find constructor folders: every subpackage of ``transformations``/``measurements``."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

__all__ = ["constructor_packages", "export_constructors"]


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
