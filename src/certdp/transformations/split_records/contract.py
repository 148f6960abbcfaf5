"""Contract of ``make_split_records``: the theorem of make_split_records.tex, executable.

Precondition (id as in the proof): the separator is ``None`` (for ``","``) or a ``str`` without
NUL.  Stability bound ``d_out = d_in``.  Separators drawn: ``None``, the usual ones, empty,
several characters, white space.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract

from .make_split_records import make_split_records


def arguments():
    separators = st.one_of(
        st.none(),
        st.one_of(
            st.sampled_from([",", "", " ", ", ", "\t", "ab", "\n"]), st.text(max_size=2)
        ).filter(lambda s: "\x00" not in s),
    )
    return st.fixed_dictionaries({"separator": separators})


CONTRACT = TransformationContract(
    constructor=make_split_records,
    preconditions=[
        Precondition(
            "separator-str-without-nul",
            lambda a: (
                a.separator is None or (type(a.separator) is str and "\x00" not in a.separator)
            ),
            "separator must be None or a str without the NUL character",
            parameter="separator",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
