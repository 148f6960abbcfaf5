"""Contract of ``make_report_noisy_max_gumbel``: the theorem of
make_report_noisy_max_gumbel.tex, executable (the exact permute-and-flip law of
``_selection/contract_support.py``: exponential noise, max-divergence, ``k = 1``)."""

from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, Precondition
from certdp.core.measures import max_divergence
from certdp.measurements._selection.contract_support import (
    BOUND,
    SCALES,
    SYMBOL_MEANINGS,
    common_preconditions,
    divergence_of,
    parameters,
    spaces,
)

from .make_report_noisy_max_gumbel import make_report_noisy_max_gumbel


def arguments():
    return st.tuples(spaces(), SCALES, st.sampled_from(["max", "min"])).map(
        lambda t: {
            "input_domain": t[0][0],
            "input_metric": t[0][1],
            "scale": t[1],
            "optimize": t[2],
        }
    )


def _divergence(built, kwargs, x, x_prime):
    return divergence_of(
        built,
        kwargs,
        x,
        x_prime,
        k=1,
        negate=kwargs.get("optimize", "max") == "min",
        measure=max_divergence(),
        first_only=True,
    )


CONTRACT = MeasurementContract(
    constructor=make_report_noisy_max_gumbel,
    preconditions=[
        *common_preconditions(with_measure=False),
        Precondition(
            "optimize-max-min",
            lambda a: type(a.optimize) is str and a.optimize in ("max", "min"),
            'optimize must be "max" or "min"',
            parameter="optimize",
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
