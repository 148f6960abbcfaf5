"""Contract of ``make_noise_threshold``: the theorem of make_noise_threshold.tex, executable.

The theorem is make_laplace_threshold's: the checks below are that constructor's contract
applied to the built measurement, with ``MO`` the requested ``output_measure``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from certdp.contracts.contract import Precondition
from certdp.core.measures import ApproximateDivergence, MaxDivergence, approximate, max_divergence
from certdp.measurements.laplace_threshold.contract import CONTRACT as LAPLACE_THRESHOLD
from certdp.measurements.laplace_threshold.contract import SYMBOL_MEANINGS, ThresholdContract

from .make_noise_threshold import make_noise_threshold

__all__ = ["CONTRACT", "SYMBOL_MEANINGS"]


def _inner_arguments(arguments: SimpleNamespace) -> SimpleNamespace:
    values = {key: value for key, value in vars(arguments).items() if key != "output_measure"}
    return SimpleNamespace(**values, MO=arguments.output_measure)


def arguments():
    return LAPLACE_THRESHOLD.arguments().map(
        lambda kw: {**kw, "output_measure": approximate(max_divergence())}
    )


@dataclass
class NoiseThresholdContract(ThresholdContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        LAPLACE_THRESHOLD.check_map_value(_inner_arguments(arguments), built, d_in, d_out)


CONTRACT = NoiseThresholdContract(
    constructor=make_noise_threshold,
    preconditions=[
        Precondition(
            "output-measure-approximate-max-divergence",
            lambda a: (
                type(a.output_measure) is ApproximateDivergence
                and type(a.output_measure.measure) is MaxDivergence
            ),
            "output_measure must be Approximate(MaxDivergence)",
            parameter="output_measure",
        ),
    ],
    bound=LAPLACE_THRESHOLD.bound,
    arguments=arguments,
)
