"""Support of the measure conversions: the zCDP to (epsilon, delta) curve, rounded up.
Each module has a ``.tex`` lemma beside it."""

from .cdp_delta import cdp_delta, inf_exp, inf_ln_1p

__all__ = ["cdp_delta", "inf_exp", "inf_ln_1p"]
