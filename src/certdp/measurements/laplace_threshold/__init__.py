"""The thresholded Laplace release of counts with keys not known in advance (OpenDP's
make_laplace_threshold)."""

from .make_laplace_threshold import make_laplace_threshold, then_laplace_threshold

__all__ = ["make_laplace_threshold", "then_laplace_threshold"]
