"""refperf: a frame stage after an unproven stage (hand-built dp.Transformation, a user
transformation with an equal-comparing DataFrameDomain subclass, a Transformation subclass,
a stage whose function was replaced) must still refuse a non-member with a typed error,
as on main.  Fails on perf (b60805d): AttributeError, or a non-member value returned."""

import pytest

import certdp.prelude as dp
from certdp.core.dataframe_domain import Column, DataFrame, DataFrameDomain, dataframe_domain
from certdp.core.errors import FailedFunctionError
from certdp.core.types import carrier
from tests.combinators.forged import forged_subclass

INTS = dp.vector_domain(dp.atom_domain(T="i32"))
SYM = dp.symmetric_distance()
FRAMES = dataframe_domain("String")


def select():
    return dp.t.make_select_column(key="a", TOA="i32")


def test_hand_built_stage_returning_a_non_frame():
    liar = dp.Transformation(INTS, FRAMES, lambda xs: "not a frame", SYM, SYM, lambda d: d)
    with pytest.raises(FailedFunctionError, match="must be a DataFrame"):
        (liar >> select())([1])


def test_hand_built_stage_returning_a_non_member_frame():
    def bad(xs):
        return DataFrame(carrier("String"), {"a": Column(carrier("i32"), (2**40, 1.5))}, 2)

    liar = dp.Transformation(INTS, FRAMES, bad, SYM, SYM, lambda d: d)
    chain = liar >> select()
    with pytest.raises(FailedFunctionError, match="not a value of its type"):
        out = chain([1])
        assert chain.output_domain.member(out)  # perf returns [2**40, 1.5], not a member


def test_user_transformation_with_an_equal_comparing_domain_subclass():
    dp.enable_features("contrib", "honest-but-curious")

    Liar = forged_subclass(  # the class statement is refused: DataFrameDomain is sealed
        DataFrameDomain,
        "Liar",
        {
            "admit": lambda self, value: value,
            "__eq__": lambda self, other: isinstance(other, DataFrameDomain) and other.K == self.K,
            "__hash__": DataFrameDomain.__hash__,
        },
    )
    user = dp.t.make_user_transformation(
        INTS, SYM, Liar(carrier("String")), SYM, lambda xs: {"a": xs}, lambda d: d
    )
    with pytest.raises(FailedFunctionError, match="must be a DataFrame"):
        (user >> select())([1, 2])


def test_replaced_function_of_a_proven_stage():
    split = dp.t.make_split_dataframe(separator=",", col_names=["a"])
    chain = split >> dp.t.make_select_column(key="a", TOA="String")
    split.function = lambda s: ("garbage",)
    with pytest.raises(FailedFunctionError, match="must be a DataFrame"):
        chain("1\n2")
