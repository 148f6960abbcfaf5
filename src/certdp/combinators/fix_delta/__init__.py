"""Fix delta on a privacy profile: the measure becomes Approximate(MaxDivergence)."""

from .make_fix_delta import make_fix_delta

__all__ = ["make_fix_delta"]
