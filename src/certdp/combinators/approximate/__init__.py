"""Any pure or zCDP measurement as delta-approximate with delta = 0."""

from .make_approximate import make_approximate

__all__ = ["make_approximate"]
