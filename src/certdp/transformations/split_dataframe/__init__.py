"""Split a text into lines and fields and load them into a data frame (1-stable)."""

from .make_split_dataframe import make_split_dataframe

__all__ = ["make_split_dataframe"]
