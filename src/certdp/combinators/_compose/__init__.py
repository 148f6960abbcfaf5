"""Adding privacy losses under the measures certdp composes, and the one check that a part's
space is the composition's (compose.tex)."""

from .compose import (
    COMPOSABLE,
    add_losses,
    composable,
    compose_losses,
    fresh_measure,
    sequential_only,
)
from .same import same_space

__all__ = [
    "COMPOSABLE",
    "add_losses",
    "compose_losses",
    "composable",
    "fresh_measure",
    "same_space",
    "sequential_only",
]
