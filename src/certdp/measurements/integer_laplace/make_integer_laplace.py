"""``make_integer_laplace``: exact discrete Laplace noise on one integer.

Guarantee (make_integer_laplace.tex): the input ``x`` is released as ``x + Z`` with
``Z ~ DLap(0, scale)``, saturated to the range of the carrier type; under the
absolute distance the privacy map ``d_in -> d_in / scale`` (rounded up) is valid
for the max-divergence.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.contracts import certified
from certdp.core.domains import AtomDomain
from certdp.core.errors import MakeMeasurementError
from certdp.core.measures import max_divergence
from certdp.core.metrics import AbsoluteDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._laplace import exact_scale, integer_grid, laplace_map
from certdp.samplers import discrete_laplace_sampler, entropy_source

__all__ = ["make_integer_laplace", "then_integer_laplace"]


# proof: begin constructor
@certified
def make_integer_laplace(input_domain, input_metric, scale, k=None) -> Measurement:
    """Add exact discrete Laplace noise of ``scale`` to an integer."""
    integer_atoms = isinstance(input_domain, AtomDomain) and input_domain.T.is_integer
    if not integer_atoms:  # label: domain-check
        raise MakeMeasurementError(
            f"must be atom_domain(T=<integer type>), got {input_domain}", parameter="input_domain"
        )
    T = input_domain.T
    if not isinstance(input_metric, AbsoluteDistance) or input_metric.T != T:  # label: metric-check
        raise MakeMeasurementError(
            f"must be absolute_distance(T={T}), got {input_metric}", parameter="input_metric"
        )
    scale = exact_scale(scale)  # label: scale-check
    if not integer_grid(k):  # label: k-check
        raise MakeMeasurementError(
            f"is only valid for domains over floats (None or 0 here), got {k!r}", parameter="k"
        )
    noise = discrete_laplace_sampler(scale)  # label: sampler
    lower, upper = T.min, T.max

    def function(x):
        return min(max(int(x) + noise(entropy_source()), lower), upper)  # label: function

    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=max_divergence(),  # label: output-measure
        privacy_map=laplace_map(scale, Fraction(0)),  # label: privacy-map
    )


# proof: end constructor


then_integer_laplace = partial_constructor(make_integer_laplace)
