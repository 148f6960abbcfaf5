"""Rényi-DP curves as certdp evaluates them (renyi_curve.tex)."""

from .renyi_curve import RenyiCurve, compose_curves, renyi_order

__all__ = ["RenyiCurve", "compose_curves", "renyi_order"]
