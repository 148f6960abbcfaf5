"""Replace every NaN by a float drawn uniformly from bounds (1-stable, randomised)."""

from .make_impute_uniform_float import make_impute_uniform_float, then_impute_uniform_float

__all__ = ["make_impute_uniform_float", "then_impute_uniform_float"]
