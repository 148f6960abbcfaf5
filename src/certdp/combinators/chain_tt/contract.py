"""Contract of ``make_chain_tt``: the chaining theorem for two transformations, executable.

At run time the map must be at least ``map1(map0(d_in))``; at test time the chain of a clamp
and a sum or a count is run on neighbouring datasets and the distance of its outputs must be
within the map (the output-domain and stability check of every transformation contract).
"""

from dataclasses import dataclass

import sympy
from hypothesis import strategies as st

from certdp.combinators._support.chain_support import clamps, outer_transformations
from certdp.contracts.contract import Precondition, TransformationContract, at_least
from certdp.core.errors import ContractError
from certdp.core.transformation import Transformation

from .make_chain_tt import make_chain_tt

COMPOSED = sympy.Symbol("map_1(map_0(d_in))", nonnegative=True)


@st.composite
def arguments(draw):
    inner = draw(clamps())
    return {"transformation1": draw(outer_transformations(inner)), "transformation0": inner}


@dataclass
class ChainContract(TransformationContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        composed = arguments.transformation1.map(arguments.transformation0.map(d_in))
        if not at_least(d_out, composed):
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r} is below map1(map0(d_in)) = {composed!r}",
                condition="stability-map",
            )


CONTRACT = ChainContract(
    constructor=make_chain_tt,
    preconditions=[
        Precondition(
            "transformations-valid",
            lambda a: (
                isinstance(a.transformation1, Transformation)
                and isinstance(a.transformation0, Transformation)
            ),
            "transformation1 and transformation0 must be (valid) transformations",
            parameter="transformation1",
        ),
    ],
    bound=COMPOSED,
    arguments=arguments,
)
