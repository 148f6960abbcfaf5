"""``make_private_np_mean``: a DP estimate of the mean row of a 2-D array of known size ``n``.

Guarantee (``make_private_np_mean.tex``): the measurement is the chain
``make_np_clamp`` (when ``norm`` is given) ``>> make_np_sum >> make_laplace`` (``p = 1``, pure
DP) or ``make_gaussian`` (``p = 2``, zCDP) with noise scale ``scale * n``, followed by the
division of the noisy sums by ``n``, a postprocessing; its privacy map is the chain's, the
composition of the proven maps of its steps (rounding of the float sums included).
"""

from __future__ import annotations

import math

import numpy as np

from certdp.contracts import certified
from certdp.core.errors import DPError, MakeMeasurementError, shown
from certdp.core.exact_type import type_is
from certdp.core.metrics import L1Distance, SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.postprocess import Function, postprocess
from certdp.core.transformation import Measurement
from certdp.measurements.gaussian import make_gaussian
from certdp.measurements.laplace import make_laplace
from certdp.numpy.array2_domain.array2_domain import is_array2_domain
from certdp.numpy.np_clamp import make_np_clamp
from certdp.numpy.np_sum import make_np_sum

__all__ = ["make_private_np_mean", "then_private_np_mean"]


# proof: begin constructor
@certified
def make_private_np_mean(
    input_domain, input_metric, scale, norm=None, p=None, origin=None
) -> Measurement:
    """The noisy column sums (noise scale ``scale * n``) divided by the size ``n``; pure DP for
    ``p = 1``, zCDP for ``p = 2``.  ``norm`` (with ``p``, default 2, and ``origin``) clamps the
    rows first; without ``norm``, ``p`` defaults to the domain's."""
    if not is_array2_domain(input_domain):  # label: domain-check
        raise MakeMeasurementError(
            f"must be an array2_domain, got {shown(input_domain)}", parameter="input_domain"
        )
    if not type_is(input_metric, SymmetricDistance):  # label: metric-check
        raise MakeMeasurementError(
            f"must be symmetric_distance(), got {shown(input_metric)}", parameter="input_metric"
        )
    if not type_is(scale, int, float) or scale < 0:  # label: scale
        raise MakeMeasurementError(
            f"must be a non-negative number (int or float), got {shown(scale)}", parameter="scale"
        )
    if type(scale) is float and not math.isfinite(scale):  # label: scale-finite
        raise MakeMeasurementError(f"must be finite, got {shown(scale)}", parameter="scale")
    if p is None:  # label: p-default
        p = 2 if norm is not None else input_domain.p
    if norm is None:
        if input_domain.norm is None:  # label: bounded-or-norm
            raise MakeMeasurementError(
                "must bound the row norm (array2_domain(norm=..., p=...)), or give norm",
                parameter="input_domain",
            )
        if origin is not None:  # label: origin-without-norm
            raise MakeMeasurementError("may only be given with norm", parameter="origin")
        if p != input_domain.p:  # label: p-mismatch
            raise MakeMeasurementError(
                f"p={shown(p)} disagrees with the domain's p={shown(input_domain.p)}; without "
                "norm, p must be the domain's",
                parameter="p",
            )
    size = input_domain.size
    if size is None:  # label: size-known
        raise MakeMeasurementError(
            "must have a known size (array2_domain(size=...))", parameter="input_domain"
        )
    if size == 0:  # label: size-positive
        raise MakeMeasurementError("the size must be positive", parameter="input_domain")
    try:
        if norm is not None:
            clamp = make_np_clamp(input_domain, input_metric, norm, p, origin)  # label: clamp
            summed = clamp >> make_np_sum(*clamp.output_space)  # label: sum-clamped
        else:
            summed = make_np_sum(input_domain, input_metric)  # label: sum
    except DPError as error:
        text = str(error).removeprefix(f"{error.parameter}: " if error.parameter else "")
        raise MakeMeasurementError(text, parameter=error.parameter) from None
    try:
        noise_scale = float(scale * size)  # label: noise-scale
    except OverflowError:  # an int product beyond f64
        noise_scale = math.inf
    if not math.isfinite(noise_scale):  # label: noise-scale-finite
        raise MakeMeasurementError(
            f"scale * size = {shown(scale)} * {size} overflows f64", parameter="scale"
        )
    if type_is(summed.output_metric, L1Distance):  # label: measure
        noisy = summed >> make_laplace(*summed.output_space, noise_scale)  # label: laplace
    else:
        noisy = summed >> make_gaussian(*summed.output_space, noise_scale)  # label: gaussian

    def divide(sums):
        return np.array(sums, dtype=np.float64) / size  # label: divide

    return postprocess(Function(divide, "ExtrinsicObject"), noisy)  # label: postprocess


# proof: end constructor


then_private_np_mean = partial_constructor(make_private_np_mean)
