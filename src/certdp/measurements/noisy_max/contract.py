"""Contract of ``make_noisy_max``: the theorem of make_noisy_max.tex, executable (the exact
laws of ``_selection/contract_support.py`` with ``k = 1``: the released index)."""

from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, Precondition
from certdp.measurements._selection.contract_support import (
    BOUND,
    MEASURES,
    SCALES,
    SYMBOL_MEANINGS,
    common_preconditions,
    divergence_of,
    parameters,
    spaces,
)

from .make_noisy_max import make_noisy_max


def arguments():
    return st.tuples(spaces(), MEASURES, SCALES, st.booleans()).map(
        lambda t: {
            "input_domain": t[0][0],
            "input_metric": t[0][1],
            "output_measure": t[1],
            "scale": t[2],
            "negate": t[3],
        }
    )


def _divergence(built, kwargs, x, x_prime):
    return divergence_of(
        built,
        kwargs,
        x,
        x_prime,
        k=1,
        negate=kwargs.get("negate", False),
        measure=kwargs["output_measure"],
        first_only=True,
    )


CONTRACT = MeasurementContract(
    constructor=make_noisy_max,
    preconditions=[
        *common_preconditions(with_measure=True),
        Precondition(
            "negate-bool", lambda a: type(a.negate) is bool, "negate must be a bool", "negate"
        ),
    ],
    bound=BOUND,
    parameters=lambda arguments, built: parameters(arguments, k=1),
    arguments=arguments,
    d_in=lambda built: st.sampled_from(
        [0, 1, 2] if built.input_metric.T.is_integer else [0.0, 0.5, 1.0, 2.0]
    ),
    divergence=_divergence,
    raises_on=lambda x, kwargs: len(x) == 0,  # make_noisy_max.tex: it raises on the empty vector only
    datasets_max_size=3,
)

__all__ = ["CONTRACT", "SYMBOL_MEANINGS"]
