"""Adding privacy losses under the measures certdp composes (compose.tex)."""

from .compose import COMPOSABLE, add_losses, composable, compose_losses, sequential_only

__all__ = ["COMPOSABLE", "add_losses", "compose_losses", "composable", "sequential_only"]
