"""Odometers and odometer queryables: pay-as-you-go accounting of adaptively chosen
measurements (odometer.tex), shared by ``make_fully_adaptive_composition`` and
``make_privacy_filter``."""

from .odometer import Odometer, OdometerQueryable

__all__ = ["Odometer", "OdometerQueryable"]
