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
from certdp.core.domains import AtomDomain
from certdp.core.errors import MakeMeasurementError
from certdp.core.measures import max_divergence
from certdp.core.metrics import AbsoluteDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._laplace import exact_scale, get_discretization_consts, laplace_map
from certdp.samplers import discrete_laplace_Z2k_sampler, entropy_source

__all__ = ["make_float_laplace_cks20", "then_float_laplace_cks20"]


# proof: begin constructor
@certified
def make_float_laplace_cks20(input_domain, input_metric, scale, k=None) -> Measurement:
    """Add exact discrete Laplace noise on the grid ``2^k Z`` to a float."""
    float_atoms = isinstance(input_domain, AtomDomain) and input_domain.T.is_float
    if not float_atoms:  # label: domain-check
        raise MakeMeasurementError(
            f"must be atom_domain(T=f32|f64, nan=False), got {input_domain}",
            parameter="input_domain",
        )
    T = input_domain.T
    if input_domain.nan:  # label: no-nan
        raise MakeMeasurementError(
            "must exclude NaN: use atom_domain(T=..., nan=False)", parameter="input_domain"
        )
    if not isinstance(input_metric, AbsoluteDistance) or input_metric.T != T:  # label: metric-check
        raise MakeMeasurementError(
            f"must be absolute_distance(T={T}), got {input_metric}", parameter="input_metric"
        )
    scale = exact_scale(scale)  # label: scale-check
    k, relaxation = get_discretization_consts(k, T.name)  # label: discretization
    sample = discrete_laplace_Z2k_sampler(scale, k, T.name)  # label: sampler
    largest = T.max

    def function(x):
        # infinities become the largest finite values of their sign
        x = min(max(x, -largest), largest)  # label: clamp
        return sample(entropy_source(), x)  # label: function

    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=max_divergence(),  # label: output-measure
        privacy_map=laplace_map(scale, relaxation),  # label: privacy-map
    )


# proof: end constructor


then_float_laplace_cks20 = partial_constructor(make_float_laplace_cks20)
