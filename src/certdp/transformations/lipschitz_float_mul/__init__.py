"""Multiply a clamped float by a constant (map covers the rounding of the product)."""

from .make_lipschitz_float_mul import make_lipschitz_float_mul, then_lipschitz_float_mul

__all__ = ["make_lipschitz_float_mul", "then_lipschitz_float_mul"]
