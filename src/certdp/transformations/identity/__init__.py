"""The identity transformation on a domain and metric (1-stable)."""

from .make_identity import make_identity, then_identity

__all__ = ["make_identity", "then_identity"]
