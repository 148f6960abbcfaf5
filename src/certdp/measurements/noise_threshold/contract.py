"""Contract of ``make_noise_threshold``: the theorem of make_noise_threshold.tex, executable.

The theorem is make_laplace_threshold's under Approximate(MaxDivergence) and
make_gaussian_threshold's under Approximate(ZeroConcentratedDivergence): the checks below are
the chosen constructor's contract applied to the built measurement, with ``MO`` the requested
``output_measure``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import Precondition
from certdp.core.exact_type import type_is
from certdp.core.measures import (
    ApproximateDivergence,
    MaxDivergence,
    ZeroConcentratedDivergence,
    approximate,
    max_divergence,
    zero_concentrated_divergence,
)
from certdp.measurements.gaussian_threshold.contract import CONTRACT as GAUSSIAN_THRESHOLD
from certdp.measurements.gaussian_threshold.contract import SYMBOL_MEANINGS as GAUSSIAN_MEANINGS
from certdp.measurements.laplace_threshold.contract import CONTRACT as LAPLACE_THRESHOLD
from certdp.measurements.laplace_threshold.contract import SYMBOL_MEANINGS as LAPLACE_MEANINGS
from certdp.measurements.laplace_threshold.contract import ThresholdContract

from .make_noise_threshold import make_noise_threshold

__all__ = ["CONTRACT", "SYMBOL_MEANINGS"]

ZCDP = sympy.Symbol("zcdp", nonnegative=True, integer=True)
SYMBOL_MEANINGS = {
    **LAPLACE_MEANINGS,
    **GAUSSIAN_MEANINGS,
    "zcdp": "1 when ``output_measure`` is Approximate(ZeroConcentratedDivergence) (the bound is "
    "make_gaussian_threshold's, over the components of an ``l02inf_distance``), 0 when it is "
    "Approximate(MaxDivergence) (make_laplace_threshold's, over an ``l01inf_distance``)",
}
#: The postcondition: the chosen constructor's (rendered on the docs page).
BOUND = sympy.Piecewise(
    (GAUSSIAN_THRESHOLD.bound, sympy.Eq(ZCDP, 1)), (LAPLACE_THRESHOLD.bound, True)
)


def _inner_arguments(arguments: SimpleNamespace) -> SimpleNamespace:
    values = {key: value for key, value in vars(arguments).items() if key != "output_measure"}
    return SimpleNamespace(**values, MO=arguments.output_measure)


def _chosen(output_measure):
    """The contract of the constructor ``output_measure`` selects."""
    if type(output_measure.measure) is ZeroConcentratedDivergence:
        return GAUSSIAN_THRESHOLD
    return LAPLACE_THRESHOLD


def arguments():
    return st.one_of(
        LAPLACE_THRESHOLD.arguments().map(
            lambda kw: {**kw, "output_measure": approximate(max_divergence())}
        ),
        GAUSSIAN_THRESHOLD.arguments().map(
            lambda kw: {**kw, "output_measure": approximate(zero_concentrated_divergence())}
        ),
    )


@dataclass
class NoiseThresholdContract(ThresholdContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        _chosen(arguments.output_measure).check_map_value(
            _inner_arguments(arguments), built, d_in, d_out
        )

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        chosen = _chosen(kwargs["output_measure"])
        return chosen.check_pair(built, kwargs, x, x_prime, d_in, stated)


CONTRACT = NoiseThresholdContract(
    constructor=make_noise_threshold,
    preconditions=[
        Precondition(
            "output-measure-approximate",
            lambda a: (
                type(a.output_measure) is ApproximateDivergence
                and type_is(a.output_measure.measure, MaxDivergence, ZeroConcentratedDivergence)
            ),
            "output_measure must be Approximate(MaxDivergence) or "
            "Approximate(ZeroConcentratedDivergence)",
            parameter="output_measure",
        ),
    ],
    bound=BOUND,
    arguments=arguments,
)
