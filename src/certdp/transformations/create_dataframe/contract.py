"""Contract of ``make_create_dataframe``: the theorem of make_create_dataframe.tex, executable.

Precondition (id as in the proof): the column names are a list of values of one hashable type.
Stability bound ``d_out = d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.errors import DPError

from .make_create_dataframe import column_names, make_create_dataframe


def _names_ok(a) -> bool:
    try:
        column_names(a.col_names, a.K)
    except DPError:
        return False
    return True


def arguments():
    names = st.lists(st.sampled_from(["a", "b", "c", "x"]), max_size=4)
    return st.one_of(
        st.fixed_dictionaries({"col_names": names.filter(bool)}),
        st.fixed_dictionaries({"col_names": names, "K": st.just("String")}),
        st.fixed_dictionaries({"col_names": st.lists(st.integers(-2, 5), min_size=1, max_size=3)}),
    )


CONTRACT = TransformationContract(
    constructor=make_create_dataframe,
    preconditions=[
        Precondition(
            "col-names",
            _names_ok,
            "col_names must be a list of values of one hashable type K",
            parameter="col_names",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
