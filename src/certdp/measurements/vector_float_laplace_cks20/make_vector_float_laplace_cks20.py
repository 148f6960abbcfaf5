"""``make_vector_float_laplace_cks20``: exact discrete Laplace noise on every float of a vector.

Guarantee (make_vector_float_laplace_cks20.tex): each element is rounded to the
nearest multiple of ``2^k`` (ties toward +inf), exact discrete Laplace noise of
scale ``scale`` (``scale / 2^k`` grid steps) is added, and the noisy grid point is
rounded to the nearest float; under the L1 distance the privacy map
``d_in -> (d_in + size * (2^k - 2^k_min)) / scale`` (rounded up) is valid for the
max-divergence.
"""

from __future__ import annotations

import numpy as np

from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._laplace import laplace_arguments, laplace_measurement
from certdp.samplers import discrete_laplace_Z2k_batch_sampler, entropy_source

__all__ = ["make_vector_float_laplace_cks20", "then_vector_float_laplace_cks20"]


# proof: begin constructor
@certified
def make_vector_float_laplace_cks20(input_domain, input_metric, scale, k=None) -> Measurement:
    """Add exact discrete Laplace noise on the grid ``2^k Z`` to each element of a float vector."""
    T, scale, k, relaxation = laplace_arguments(  # label: arguments
        input_domain, input_metric, scale, k, vector=True, integer=False
    )
    if relaxation != 0:
        if input_domain.size is None:  # label: size-check
            raise MakeMeasurementError(
                "domain size must be known if discretization is not exact", parameter="input_domain"
            )
        relaxation = relaxation * input_domain.size  # label: total-relaxation
    sample = discrete_laplace_Z2k_batch_sampler(scale, k, T.name)  # label: sampler
    largest = T.max

    def function(x):
        # infinities become the largest finite values of their sign (no NaN is admitted)
        finite = np.clip(np.asarray(x, dtype=np.float64), -largest, largest)  # label: clamp
        return sample(entropy_source(), finite)  # label: function

    return laplace_measurement(  # label: measurement
        input_domain, input_metric, function, scale, relaxation
    )


# proof: end constructor


then_vector_float_laplace_cks20 = partial_constructor(make_vector_float_laplace_cks20)
