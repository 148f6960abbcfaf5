"""OpenDP's general noise constructor: Laplace noise under the max-divergence, Gaussian noise
under zCDP (OpenDP's make_noise)."""

from .make_noise import make_noise, then_noise

__all__ = ["make_noise", "then_noise"]
