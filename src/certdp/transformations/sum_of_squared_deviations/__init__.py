"""The sum of squared deviations of a known number of bounded floats, rounding accounted for."""

from .make_sum_of_squared_deviations import (
    make_sum_of_squared_deviations,
    then_sum_of_squared_deviations,
)

__all__ = ["make_sum_of_squared_deviations", "then_sum_of_squared_deviations"]
