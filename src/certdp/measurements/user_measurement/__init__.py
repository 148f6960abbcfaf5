"""``make_user_measurement``: a measurement whose privacy claim is the user's (not proven)."""

from .user_measurement import make_user_measurement, then_user_measurement

__all__ = ["make_user_measurement", "then_user_measurement"]
