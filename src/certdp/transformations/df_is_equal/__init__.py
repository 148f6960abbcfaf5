"""Replace one column of a data frame by its equality with a value (1-stable)."""

from .make_df_is_equal import make_df_is_equal, then_df_is_equal

__all__ = ["make_df_is_equal", "then_df_is_equal"]
