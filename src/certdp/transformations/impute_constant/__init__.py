"""Replace every NaN record by a constant (1-stable)."""

from .make_impute_constant import make_impute_constant, then_impute_constant

__all__ = ["make_impute_constant", "then_impute_constant"]
