"""Contract of ``make_cdf``: the theorem of make_cdf.tex, executable.

Precondition: ``TA`` names f32 or f64.  Postcondition (``postconditions.py``): the output is,
bit for bit, the IEEE replay of the running sums and quotients in ``TA`` (exact rationals), and
on non-negative values with a finite end it does not decrease, lies in ``[0, 1]`` and ends at 1.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import Precondition
from certdp.transformations._postprocess.contract_support import FunctionContract
from certdp.transformations._postprocess.postconditions import cdf_postcondition, cdf_shape

from .make_cdf import make_cdf

_FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
    st.floats(0, 1e6),
    st.integers(0, 50).map(float),
)


@st.composite
def cases(draw):
    TA = draw(st.sampled_from(["f32", "f64", "float"]))
    return {"TA": TA}, draw(st.lists(_FLOATS, min_size=1, max_size=10))


def _holds(kwargs, arg, out) -> bool:
    TA = "f64" if kwargs["TA"] == "float" else kwargs["TA"]
    return cdf_postcondition(arg, out, TA) and cdf_shape(arg, out)


CONTRACT = FunctionContract(
    constructor=make_cdf,
    preconditions=[
        Precondition(
            "TA-float",
            lambda a: a.TA in ("f32", "f64", "float", float),
            "TA must name f32 or f64",
            parameter="TA",
        )
    ],
    cases=cases,
    postcondition=_holds,
)
