"""``make_randomized_response_bitvec``: RAPPOR-style randomized response on every bit.

Guarantee (make_randomized_response_bitvec.tex): over ``bitvector_domain(max_weight=m,
size=n)`` (both given) and the discrete distance, for ``f`` a float in ``(0, 1]``, the
measurement flips each of the ``n`` bits, the last one included, independently with
probability exactly ``f / 2`` (each bit is replaced by a fair coin with probability ``f``).  Its
map is ``0`` for ``d_in < 1`` and otherwise the smallest f64 ``>= 2 m ln((2 - f) / f)``, valid
for the max-divergence: two members differ in at most ``2 m`` bits and have the same length
(OpenDP 0.16's domain has no length, so its ``ε`` misses the length; its #2930).
``constant_time`` is accepted as in OpenDP; the draws never read the data (the running time's
distribution is the same for every input), but a draw's duration varies with its random bits.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.contracts import certified
from certdp.core.bitvector_domain import BitVectorDomain
from certdp.core.change_metrics import DiscreteDistance
from certdp.core.errors import MakeMeasurementError, shown
from certdp.core.measures import MaxDivergence
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._randomized_response.log_ratio import inf_scaled_abs_ln
from certdp.samplers.bernoulli import bernoulli_ratio
from certdp.samplers.uniform import entropy_source

__all__ = ["make_randomized_response_bitvec", "then_randomized_response_bitvec"]


# proof: begin constructor
@certified
def make_randomized_response_bitvec(
    input_domain, input_metric, f, constant_time=False
) -> Measurement:
    """Flip every bit of a fixed-length bit vector with probability ``f / 2``."""
    if type(input_domain) is not BitVectorDomain:  # label: domain-check
        raise MakeMeasurementError(
            f"must be a bitvector_domain, got {shown(input_domain)}", parameter="input_domain"
        )
    if input_domain.max_weight is None:  # label: weight-check
        raise MakeMeasurementError(
            "must bound the weight (bitvector_domain(max_weight=...))", parameter="input_domain"
        )
    if input_domain.size is None:  # label: size-check
        raise MakeMeasurementError(
            "must fix the length (bitvector_domain(size=...)): members of different lengths "
            "would be told apart by the length of the output (OpenDP #2930)",
            parameter="input_domain",
        )
    if type(input_metric) is not DiscreteDistance:  # label: metric-check
        raise MakeMeasurementError(
            f"must be discrete_distance(), got {shown(input_metric)}", parameter="input_metric"
        )
    if type(f) is not float or not 0.0 < f <= 1.0:  # label: f-check
        raise MakeMeasurementError(f"must be a float in (0, 1], got {shown(f)}", parameter="f")
    if type(constant_time) is not bool:  # label: constant-time-check
        raise MakeMeasurementError(
            f"must be a bool, got {shown(constant_time)}", parameter="constant_time"
        )
    flip = Fraction(f) / 2  # exact: f is a dyadic rational  # label: flip
    n, d = flip.numerator, flip.denominator
    bits = input_domain.size  # label: bits
    weight = input_domain.max_weight

    def function(arg: bytes) -> bytes:
        source = entropy_source()
        mask = 0
        for position in range(bits):  # every bit, the last one included  # label: every-bit
            if bernoulli_ratio(source, n, d):  # label: draw
                mask |= 1 << position
        flipped = int.from_bytes(arg, "little") ^ mask  # label: flip-bits
        return flipped.to_bytes(len(arg), "little")  # label: release

    def privacy_map(d_in):
        if d_in < 1:  # only equal inputs are closer than 1  # label: map-zero
            return 0.0
        return inf_scaled_abs_ln(2 * weight, (2 - 2 * flip) / (2 * flip))  # label: map-loss

    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=MaxDivergence(),  # label: output-measure
        privacy_map=privacy_map,
    )


# proof: end constructor


then_randomized_response_bitvec = partial_constructor(make_randomized_response_bitvec)
