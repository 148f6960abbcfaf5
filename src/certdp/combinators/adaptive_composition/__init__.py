"""Interactive (adaptive) sequential composition: a queryable that answers up to
``len(d_mids)`` measurements, each within its share of the budget."""

from .make_adaptive_composition import (
    make_adaptive_composition,
    make_sequential_composition,
    then_adaptive_composition,
    then_sequential_composition,
)

__all__ = [
    "make_adaptive_composition",
    "then_adaptive_composition",
    "make_sequential_composition",
    "then_sequential_composition",
]
