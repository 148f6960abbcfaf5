"""Adding privacy losses under the measures certdp composes (compose.tex)."""

from .compose import (
    COMPOSABLE,
    add_losses,
    composable,
    compose_losses,
    fresh_measure,
    sequential_only,
)

__all__ = [
    "COMPOSABLE",
    "add_losses",
    "compose_losses",
    "composable",
    "fresh_measure",
    "sequential_only",
]
