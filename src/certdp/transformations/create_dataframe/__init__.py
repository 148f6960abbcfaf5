"""Load a vector of split lines into a data frame of String columns (1-stable)."""

from .make_create_dataframe import make_create_dataframe

__all__ = ["make_create_dataframe"]
