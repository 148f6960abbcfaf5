"""Cast one column of a data frame, with a default where an entry does not convert."""

from .make_df_cast_default import make_df_cast_default, then_df_cast_default

__all__ = ["make_df_cast_default", "then_df_cast_default"]
