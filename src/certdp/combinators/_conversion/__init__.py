"""Support of the measure conversions: the zCDP to (epsilon, delta) curve, rounded up, and the
tests that a number an inner map returned is a distance or a delta.  Each module has a ``.tex``
lemma beside it."""

from .cdp_delta import cdp_delta, inf_exp, inf_ln_1p
from .inner_values import is_delta, is_distance

__all__ = ["cdp_delta", "inf_exp", "inf_ln_1p", "is_delta", "is_distance"]
