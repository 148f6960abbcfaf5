"""Contract of ``make_split_dataframe``: the theorem of make_split_dataframe.tex, executable.

Preconditions (ids as in the proof): the separator is None or a str without NUL; the column
names are a list of values of one hashable type.  Stability bound ``d_out = d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.transformations.create_dataframe.contract import _names_ok

from .make_split_dataframe import make_split_dataframe


def arguments():
    return st.fixed_dictionaries(
        {
            "separator": st.sampled_from([None, ",", "", " ", "ab"]),
            "col_names": st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4),
        }
    )


CONTRACT = TransformationContract(
    constructor=make_split_dataframe,
    preconditions=[
        Precondition(
            "separator-str-without-nul",
            lambda a: (
                a.separator is None or (type(a.separator) is str and "\x00" not in a.separator)
            ),
            "separator must be None or a str without the NUL character",
            parameter="separator",
        ),
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
