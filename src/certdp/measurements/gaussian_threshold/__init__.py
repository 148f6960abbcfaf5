"""The thresholded Gaussian release of counts with keys not known in advance (OpenDP's
make_gaussian_threshold)."""

from .make_gaussian_threshold import make_gaussian_threshold, then_gaussian_threshold

__all__ = ["make_gaussian_threshold", "then_gaussian_threshold"]
