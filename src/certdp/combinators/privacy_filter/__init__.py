"""Privacy filter: an odometer held to a budget, as a measurement."""

from .make_privacy_filter import make_privacy_filter

__all__ = ["make_privacy_filter"]
