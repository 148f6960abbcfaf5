"""``make_randomized_response_bool``: Warner's randomized response on one boolean.

Guarantee (make_randomized_response_bool.tex): for ``prob`` a float in ``[1/2, 1)`` the
measurement releases its input with probability exactly ``prob`` and its negation otherwise
(an exact Bernoulli trial on the dyadic rational ``prob``); under the discrete distance its map
is ``0`` for ``d_in < 1`` and otherwise the smallest f64 ``>= ln(prob / (1 - prob))``
valid for the max-divergence.  ``constant_time`` is accepted as in OpenDP; certdp's draw
never reads the data, so the distribution of its running time is the same for every input, but
a draw's own duration varies with the random bits it consumes.

Relation to OpenDP 0.16: OpenDP also accepts ``prob = 1`` (no privacy, map ``inf``); certdp
refuses it with ``MakeMeasurementError`` naming ``prob`` (issue #22: p outside (0, 1) is refused).
"""

from __future__ import annotations

from fractions import Fraction

from certdp.contracts import certified
from certdp.core.change_metrics import DiscreteDistance
from certdp.core.domains import atom_domain
from certdp.core.errors import MakeMeasurementError, shown
from certdp.core.measures import MaxDivergence
from certdp.core.transformation import Measurement
from certdp.measurements._randomized_response.log_ratio import inf_scaled_abs_ln
from certdp.samplers.bernoulli import bernoulli_ratio
from certdp.samplers.uniform import entropy_source

__all__ = ["make_randomized_response_bool"]


# proof: begin constructor
@certified
def make_randomized_response_bool(prob, constant_time=False) -> Measurement:
    """Release a boolean, negated with probability ``1 - prob``."""
    if type(prob) is not float or not 0.5 <= prob < 1.0:  # label: prob-check
        raise MakeMeasurementError(
            f"must be a float in [0.5, 1) (1 excluded), got {shown(prob)}", parameter="prob"
        )
    if type(constant_time) is not bool:  # label: constant-time-check
        raise MakeMeasurementError(
            f"must be a bool, got {shown(constant_time)}", parameter="constant_time"
        )
    keep = Fraction(prob)  # exact: prob is a dyadic rational  # label: keep
    n, d = keep.numerator, keep.denominator

    def function(arg: bool) -> bool:
        truthful = bernoulli_ratio(entropy_source(), n, d)  # label: draw
        return arg if truthful else not arg  # label: release

    def privacy_map(d_in):
        if d_in < 1:  # only equal inputs are closer than 1  # label: map-zero
            return 0.0
        return inf_scaled_abs_ln(1, keep / (1 - keep))  # label: map-loss

    return Measurement(
        input_domain=atom_domain(T="bool"),  # label: input-domain
        function=function,
        input_metric=DiscreteDistance(),  # label: input-metric
        output_measure=MaxDivergence(),  # label: output-measure
        privacy_map=privacy_map,
    )


# proof: end constructor
