"""Fully adaptive composition: an odometer that answers any number of measurements."""

from .make_fully_adaptive_composition import (
    make_fully_adaptive_composition,
    then_fully_adaptive_composition,
)

__all__ = ["make_fully_adaptive_composition", "then_fully_adaptive_composition"]
