"""Contract of ``make_split_lines``: the theorem of make_split_lines.tex, executable.

No parameters, so no preconditions; the stability bound is ``d_out = d_in``, searched over texts
whose lines are ``d_in``-close under the symmetric distance (certdp.contracts.neighbours).
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, TransformationContract

from .make_split_lines import make_split_lines

CONTRACT = TransformationContract(
    constructor=make_split_lines,
    preconditions=[],
    bound=D_IN,
    arguments=lambda: st.just({}),
)
