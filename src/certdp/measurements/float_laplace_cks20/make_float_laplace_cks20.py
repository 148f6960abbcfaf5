"""``make_float_laplace_cks20``: exact discrete Laplace noise on one float.

Guarantee (make_float_laplace_cks20.tex): the input is rounded to the nearest
multiple of ``2^k`` (ties toward +inf), exact discrete Laplace noise of scale
``scale`` is added and the noisy grid point is rounded to the nearest float;
under the absolute distance the privacy map
``d_in -> (d_in + 2^k - 2^k_min) / scale`` (rounded up) is valid for the
max-divergence.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._laplace import laplace_arguments, laplace_measurement
from certdp.samplers import discrete_laplace_Z2k_sampler, entropy_source

__all__ = ["make_float_laplace_cks20", "then_float_laplace_cks20"]


# proof: begin constructor
@certified
def make_float_laplace_cks20(input_domain, input_metric, scale, k=None) -> Measurement:
    """Add exact discrete Laplace noise on the grid ``2^k Z`` to a float."""
    T, scale, k, relaxation = laplace_arguments(  # label: arguments
        input_domain, input_metric, scale, k, vector=False, integer=False
    )
    sample = discrete_laplace_Z2k_sampler(scale, k, T.name)  # label: sampler
    largest = T.max

    def function(x):
        # infinities become the largest finite values of their sign
        x = min(max(x, -largest), largest)  # label: clamp
        return sample(entropy_source(), x)  # label: function

    return laplace_measurement(  # label: measurement
        input_domain, input_metric, function, scale, relaxation
    )


# proof: end constructor


then_float_laplace_cks20 = partial_constructor(make_float_laplace_cks20)
