"""``make_integer_laplace``: exact discrete Laplace noise on one integer.

Guarantee (make_integer_laplace.tex): the input ``x`` is released as ``x + Z`` with
``Z ~ DLap(0, scale)``, saturated to the range of the carrier type; under the
absolute distance the privacy map ``d_in -> d_in / scale`` (rounded up) is valid
for the max-divergence.

The distance type is the carrier type or, as OpenDP 0.16's ``make_laplace`` also accepts,
f32 or f64 (``absolute_distance(T=f64)`` over i32 data): the map divides the exact ``d_in``,
fractional or not, rounding up (OpenDP first rounds ``d_in`` to the nearest value of the
distance type; the proof lists where the two differ).
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._laplace import laplace_arguments, laplace_measurement
from certdp.samplers import discrete_laplace_sampler, entropy_source

__all__ = ["make_integer_laplace", "then_integer_laplace"]


# proof: begin constructor
@certified
def make_integer_laplace(input_domain, input_metric, scale, k=None) -> Measurement:
    """Add exact discrete Laplace noise of ``scale`` to an integer."""
    T, scale, _, relaxation = laplace_arguments(  # label: arguments
        input_domain, input_metric, scale, k, vector=False, integer=True
    )
    noise = discrete_laplace_sampler(scale)  # label: sampler
    lower, upper = T.min, T.max

    def function(x):
        return min(max(int(x) + noise(entropy_source()), lower), upper)  # label: function

    return laplace_measurement(  # label: measurement
        input_domain, input_metric, function, scale, relaxation
    )


# proof: end constructor


then_integer_laplace = partial_constructor(make_integer_laplace)
