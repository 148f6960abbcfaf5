"""Randomized response on a categorical value (OpenDP's make_randomized_response)."""

from .make_randomized_response import make_randomized_response

__all__ = ["make_randomized_response"]
