"""The geometric mechanism: the Laplace mechanism on integers, optionally within bounds
(OpenDP's make_geometric)."""

from .make_geometric import make_geometric, then_geometric

__all__ = ["make_geometric", "then_geometric"]
