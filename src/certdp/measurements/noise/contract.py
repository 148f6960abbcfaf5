"""Contract of ``make_noise``: the theorem of make_noise.tex, executable.

The theorem is that of the constructor it returns: under the max-divergence, make_laplace's
(bound ``(d_in + size * relaxation) / scale``, exact max-divergence of each pair); under zCDP,
make_gaussian's (bound ``(d_in + relaxation)^2 / (2 scale^2)``, exact zero-concentrated
divergence). Each check below is the chosen constructor's own contract applied to the built
measurement, with the arguments it was built from.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, Precondition, at_least
from certdp.core.errors import ContractError
from certdp.core.exact_type import type_is
from certdp.core.measures import (
    MaxDivergence,
    ZeroConcentratedDivergence,
    max_divergence,
    zero_concentrated_divergence,
)
from certdp.measurements.gaussian.contract import CONTRACT as GAUSSIAN
from certdp.measurements.laplace.contract import CONTRACT as LAPLACE

from .make_noise import make_noise

MEASURE = sympy.Symbol("measure")


def _inner(output_measure):
    return LAPLACE if type(output_measure) is MaxDivergence else GAUSSIAN


def _inner_arguments(arguments: SimpleNamespace) -> SimpleNamespace:
    values = {key: value for key, value in vars(arguments).items() if key != "output_measure"}
    if type(arguments.output_measure) is ZeroConcentratedDivergence:
        values["MO"] = "ZeroConcentratedDivergence"
    return SimpleNamespace(**values)


def arguments():
    pure = LAPLACE.arguments().map(lambda kw: {**kw, "output_measure": max_divergence()})
    zcdp = GAUSSIAN.arguments().map(
        lambda kw: {**{k: v for k, v in kw.items() if k != "MO"},
                    "output_measure": zero_concentrated_divergence()}
    )  # fmt: skip
    return st.one_of(pure, zcdp)


@dataclass
class NoiseContract(MeasurementContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        inner = _inner(arguments.output_measure)
        bound = inner.exact_bound(_inner_arguments(arguments), built, d_in)
        if not at_least(d_out, bound):
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r} is below {inner.name}'s bound {bound}",
                condition="privacy-map",
            )

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        inner = _inner(kwargs["output_measure"])
        inner_kwargs = vars(_inner_arguments(SimpleNamespace(**kwargs)))
        return inner.check_pair(built, inner_kwargs, x, x_prime, d_in, stated)


CONTRACT = NoiseContract(
    constructor=make_noise,
    preconditions=[
        Precondition(
            "output-measure-pure-or-zcdp",
            lambda a: type_is(a.output_measure, MaxDivergence, ZeroConcentratedDivergence),
            "output_measure must be MaxDivergence or ZeroConcentratedDivergence",
            parameter="output_measure",
        ),
    ],
    bound=sympy.Piecewise((LAPLACE.bound, sympy.Eq(MEASURE, 0)), (GAUSSIAN.bound, True)),
    arguments=arguments,
)

#: The bound's symbol, explained on the constructor's page.
SYMBOL_MEANINGS = {
    "measure": "the ``output_measure`` argument: 0 for the max-divergence (the Laplace "
    "mechanism's bound), 1 for the zero-concentrated divergence (the Gaussian mechanism's)",
}
