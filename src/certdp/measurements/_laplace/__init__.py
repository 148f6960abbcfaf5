"""Support shared by the Laplace measurements: discretization constants, the privacy map,
the checks of their arguments and the assembly of the measurement.  Each module has a ``.tex`` lemma beside it."""

from .construction import laplace_arguments, laplace_measurement
from .discretization import K_MAX, K_MIN, get_discretization_consts
from .laplace_map import laplace_map
from .parameters import exact_scale, integer_grid

__all__ = [
    "K_MIN",
    "K_MAX",
    "get_discretization_consts",
    "laplace_map",
    "exact_scale",
    "integer_grid",
    "laplace_arguments",
    "laplace_measurement",
]
