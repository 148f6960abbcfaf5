"""``make_vector_integer_laplace``: exact discrete Laplace noise on every integer of a vector.

Guarantee (make_vector_integer_laplace.tex): each element ``x_i`` is released as
``x_i + Z_i`` with independent ``Z_i ~ DLap(0, scale)``, saturated to the range of
the carrier type; under the L1 distance the privacy map
``d_in -> d_in / scale`` (rounded up) is valid for the max-divergence.

The distance type is the carrier type or, as OpenDP 0.16's ``make_laplace`` also accepts,
f32 or f64 (``l1_distance(T=f64)`` over i32 vectors): the map divides the exact ``d_in``,
fractional or not, rounding up (OpenDP first rounds ``d_in`` to the nearest value of the
distance type; the proof lists where the two differ).
"""

from __future__ import annotations

import numpy as np

from certdp.contracts import certified
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._laplace import laplace_arguments, laplace_measurement
from certdp.samplers import discrete_laplace_batch_sampler, entropy_source

__all__ = ["make_vector_integer_laplace", "then_vector_integer_laplace"]


# proof: begin constructor
def fits_int64_sums(draws: np.ndarray) -> bool:
    """Are the draws int64 values below 2^62 in magnitude (so that int64 sums with 32-bit
    integers are exact)?"""
    limit = 1 << 62
    return draws.dtype == np.int64 and (
        draws.size == 0 or -limit < draws.min() <= draws.max() < limit
    )


@certified
def make_vector_integer_laplace(input_domain, input_metric, scale, k=None) -> Measurement:
    """Add exact discrete Laplace noise of ``scale`` to each element of an integer vector."""
    T, scale, _, relaxation = laplace_arguments(  # label: arguments
        input_domain, input_metric, scale, k, vector=True, integer=True
    )
    noise = discrete_laplace_batch_sampler(scale)  # label: sampler
    lower, upper = T.min, T.max

    def function(x):
        draws = noise(entropy_source(), len(x))  # label: draws
        if T.bits <= 32 and fits_int64_sums(draws):
            sums = np.asarray(x, dtype=np.int64) + draws  # label: int64-sums
            return np.clip(sums, lower, upper).tolist()  # label: int64-clip
        noisy = (int(x_i) + int(z) for x_i, z in zip(x, draws.tolist()))  # label: exact-sums
        return [min(max(value, lower), upper) for value in noisy]  # label: clip

    return laplace_measurement(  # label: measurement
        input_domain, input_metric, function, scale, relaxation
    )


# proof: end constructor


then_vector_integer_laplace = partial_constructor(make_vector_integer_laplace)
