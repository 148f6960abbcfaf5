"""The domain of 2-D numpy arrays, optionally with rows bounded in p-norm."""

from .array2_domain import NPArray2Domain, array2_domain

__all__ = ["array2_domain", "NPArray2Domain"]
