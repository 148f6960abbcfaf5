"""Every certified constructor, found from the source tree."""

from __future__ import annotations

__all__ = ["certified_constructors"]


def certified_constructors(names=None) -> list:
    """The ``make_*`` constructors carrying a contract, optionally only those named."""
    from certdp import combinators, measurements, numpy, transformations

    found = []
    for namespace in (transformations, measurements, numpy, combinators):
        for name in namespace.__all__:
            constructor = getattr(namespace, name)
            if getattr(constructor, "__certdp_certified__", False):
                found.append(constructor)
    if names:
        unknown = set(names) - {constructor.__name__ for constructor in found}
        if unknown:
            raise SystemExit(f"unknown constructor(s): {', '.join(sorted(unknown))}")
        found = [constructor for constructor in found if constructor.__name__ in names]
    return found
