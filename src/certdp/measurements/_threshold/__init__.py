"""Support shared by the thresholded noise measurements: the exact tail probability of the
noise beyond the threshold and the delta it costs (exact for Laplace noise, an upper bound
for Gaussian noise), measurements whose input distances are triples ``(l0, lp, linf)``, the
argument checks and release function of the integer branch, and the whole float branch.
Each module has a ``.tex`` lemma beside it."""

from .float_release import (
    float_threshold_arguments,
    float_threshold_function,
    float_threshold_measurement,
    float_values,
    grid_distance,
)
from .gaussian_tail import gaussian_tail_bound, gaussian_threshold_delta
from .threshold_delta import laplace_tail_enclosure, threshold_delta
from .threshold_release import threshold_arguments, threshold_function
from .triple_measurement import TripleMeasurement, exact_triple

__all__ = [
    "TripleMeasurement",
    "exact_triple",
    "laplace_tail_enclosure",
    "threshold_delta",
    "gaussian_tail_bound",
    "gaussian_threshold_delta",
    "threshold_arguments",
    "threshold_function",
    "float_values",
    "float_threshold_arguments",
    "float_threshold_function",
    "float_threshold_measurement",
    "grid_distance",
]
