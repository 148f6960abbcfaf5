"""``make_integer_laplace``: exact discrete Laplace noise on one integer.

Guarantee (make_integer_laplace.tex): the input ``x`` is released as ``x + Z`` with
``Z ~ DLap(0, scale)``, saturated to the range of the carrier type; under the
absolute distance the privacy map ``d_in -> d_in / scale`` (rounded up) is valid
for the max-divergence.

The distance type is the carrier type or, as in OpenDP (its quickstart measures i32 data
with ``absolute_distance(T=f64)``), f32 or f64: a float ``d_in`` bounds the integer distance,
which is then at most ``floor(d_in)``, and the map divides ``d_in`` itself, as OpenDP does.
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
