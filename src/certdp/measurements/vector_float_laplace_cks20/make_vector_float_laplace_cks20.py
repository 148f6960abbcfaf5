"""``make_vector_float_laplace_cks20``: exact discrete Laplace noise on every float of a vector.

Guarantee (make_vector_float_laplace_cks20.tex): each element is rounded to the
nearest multiple of ``2^k`` (ties toward +inf), exact discrete Laplace noise of
scale ``scale`` (``scale / 2^k`` grid steps) is added, and the noisy grid point is
rounded to the nearest float; under the L1 distance the privacy map
``d_in -> (d_in + size * (2^k - 2^k_min)) / scale`` (rounded up) is valid for the
max-divergence.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.errors import MakeMeasurementError
from certdp.core.measures import max_divergence
from certdp.core.metrics import L1Distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._laplace import exact_scale, get_discretization_consts, laplace_map
from certdp.samplers import discrete_laplace_Z2k_sampler, entropy_source

__all__ = ["make_vector_float_laplace_cks20", "then_vector_float_laplace_cks20"]


# proof: begin constructor
@certified
def make_vector_float_laplace_cks20(input_domain, input_metric, scale, k=None) -> Measurement:
    """Add exact discrete Laplace noise on the grid ``2^k Z`` to each element of a float vector."""
    vector = isinstance(input_domain, VectorDomain)
    element_domain = input_domain.element_domain if vector else None
    if not isinstance(element_domain, AtomDomain):  # label: domain-is-vector
        raise MakeMeasurementError(
            f"must be vector_domain(atom_domain(T=f32|f64, nan=False)), got {input_domain}",
            parameter="input_domain",
        )
    T = element_domain.T
    if not T.is_float:  # label: float-elements
        raise MakeMeasurementError(
            f"elements must be f32 or f64, got {T}", parameter="input_domain"
        )
    if element_domain.nan:  # label: no-nan
        raise MakeMeasurementError(
            "elements must exclude NaN: use atom_domain(T=..., nan=False)", parameter="input_domain"
        )
    if not isinstance(input_metric, L1Distance) or input_metric.T != T:  # label: metric-check
        raise MakeMeasurementError(
            f"must be l1_distance(T={T}), got {input_metric}", parameter="input_metric"
        )
    scale = exact_scale(scale)  # label: scale-check
    k, relaxation = get_discretization_consts(k, T.name)  # label: discretization
    if relaxation != 0:
        if input_domain.size is None:  # label: size-check
            raise MakeMeasurementError(
                "domain size must be known if discretization is not exact", parameter="input_domain"
            )
        relaxation = relaxation * input_domain.size  # label: total-relaxation
    sample = discrete_laplace_Z2k_sampler(scale, k, T.name)  # label: sampler
    largest = T.max

    def function(x):
        source = entropy_source()
        # infinities become the largest finite values of their sign
        finite = (min(max(x_i, -largest), largest) for x_i in x)  # label: clamp
        return [sample(source, x_i) for x_i in finite]  # label: function

    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=max_divergence(),  # label: output-measure
        privacy_map=laplace_map(scale, relaxation),  # label: privacy-map
    )


# proof: end constructor


then_vector_float_laplace_cks20 = partial_constructor(make_vector_float_laplace_cks20)
