"""Contract of ``make_approximate``: the theorem of make_approximate.tex, executable.

The map returns ``(d, delta)``: at run time ``d`` must be at least the inner map's value and
``delta`` must be ``0``; at test time the inner measurement is a Laplace (pure DP) or a
Gaussian (zCDP) measurement, and ``d`` must be at least the exact divergence of the pair under
it (its own contract computes it), which with ``delta = 0`` is the closeness the proof states.
"""

from dataclasses import dataclass

import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import (
    CombinatorContract,
    component_divergence,
    pure_measurements,
    zcdp_measurements,
)
from certdp.contracts.contract import Precondition, at_least
from certdp.core.errors import ContractError
from certdp.core.measures import MaxDivergence, ZeroConcentratedDivergence
from certdp.core.transformation import Measurement

from .make_approximate import make_approximate

INNER = sympy.Symbol("d", nonnegative=True)


def arguments():
    inner = st.sampled_from(["f64", "i32"]).flatmap(
        lambda T: st.one_of(pure_measurements(T), zcdp_measurements(T))
    )
    return inner.map(lambda measurement: {"measurement": measurement})


@dataclass
class ApproximateContract(CombinatorContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        inner = arguments.measurement.map(d_in)
        if not (
            type(d_out) is tuple
            and len(d_out) == 2
            and at_least(d_out[0], inner)
            and at_least(d_out[1], 0)
        ):
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r} does not state at least ({inner!r}, 0)",
                condition="privacy-map",
            )

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        """The first coordinate against the exact divergence of the pair (delta is 0)."""
        return super().check_pair(built, kwargs, x, x_prime, d_in, stated[0])


def _divergence(built, kwargs, x, x_prime):
    return component_divergence(kwargs["measurement"], x, x_prime), {}


CONTRACT = ApproximateContract(
    constructor=make_approximate,
    preconditions=[
        Precondition(
            "measurement-pure-or-zcdp",
            lambda a: (
                isinstance(a.measurement, Measurement)
                and type(a.measurement.output_measure)
                in (MaxDivergence, ZeroConcentratedDivergence)
            ),
            "measurement must be a (valid) measurement with output measure MaxDivergence or "
            "ZeroConcentratedDivergence",
            parameter="measurement",
        ),
    ],
    bound=sympy.Tuple(INNER, 0),
    arguments=arguments,
    divergence=_divergence,
    closed_form=None,
)
