"""OpenDP's general thresholded noise constructor (make_noise_threshold): the thresholded
Laplace release under Approximate(MaxDivergence)."""

from .make_noise_threshold import make_noise_threshold, then_noise_threshold

__all__ = ["make_noise_threshold", "then_noise_threshold"]
