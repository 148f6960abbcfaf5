"""Support shared by the thresholded noise measurements: the exact tail probability of the
noise beyond the threshold and the delta it costs. Each module has a ``.tex`` lemma beside it."""

from .threshold_delta import laplace_tail_enclosure, threshold_delta

__all__ = ["laplace_tail_enclosure", "threshold_delta"]
