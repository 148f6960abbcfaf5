"""Contract of ``make_noisy_top_k``: the theorem of make_noisy_top_k.tex, executable.  The pair's
divergence is computed from exact selection laws (``_selection/contract_support.py``): the whole
ranking under Gumbel noise (zCDP, ``D_alpha / alpha`` at a grid of orders), the first index under
exponential noise (max-divergence; a lower bound of the whole ranking's)."""

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

from .make_noisy_top_k import make_noisy_top_k


def arguments():
    return st.tuples(spaces(), MEASURES, st.integers(1, 3), SCALES, st.booleans()).map(
        lambda t: {
            "input_domain": t[0][0],
            "input_metric": t[0][1],
            "output_measure": t[1],
            "k": t[2],
            "scale": t[3],
            "negate": t[4],
        }
    )


def _divergence(built, kwargs, x, x_prime):
    return divergence_of(
        built,
        kwargs,
        x,
        x_prime,
        k=kwargs["k"],
        negate=kwargs.get("negate", False),
        measure=kwargs["output_measure"],
        first_only=False,
    )


CONTRACT = MeasurementContract(
    constructor=make_noisy_top_k,
    preconditions=[
        *common_preconditions(with_measure=True),
        Precondition(
            "k-positive",
            lambda a: (
                type(a.k) is int
                and a.k >= 1
                and (a.input_domain.size is None or a.k <= a.input_domain.size)
            ),
            "k must be an integer >= 1 (at most the domain's size, when fixed)",
            parameter="k",
        ),
        Precondition(
            "negate-bool", lambda a: type(a.negate) is bool, "negate must be a bool", "negate"
        ),
    ],
    bound=BOUND,
    parameters=lambda arguments, built: parameters(arguments),
    arguments=arguments,
    d_in=lambda built: st.sampled_from(
        [0, 1, 2] if built.input_metric.T.is_integer else [0.0, 0.5, 1.0, 2.0]
    ),
    divergence=_divergence,
    datasets_max_size=3,
    # make_noisy_top_k.tex: it raises exactly on a vector of fewer than k scores
    raises_on=lambda x, kwargs: len(x) < kwargs["k"],
)

__all__ = ["CONTRACT", "SYMBOL_MEANINGS"]
