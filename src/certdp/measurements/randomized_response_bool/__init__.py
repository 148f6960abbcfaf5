"""Randomized response on a boolean (OpenDP's make_randomized_response_bool)."""

from .make_randomized_response_bool import make_randomized_response_bool

__all__ = ["make_randomized_response_bool"]
