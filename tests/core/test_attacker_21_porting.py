"""attacker-21's porting gaps (rows 4-7 and 11), as passing tests with their assertions kept:
pandas 3 string Series as data, NumPy arrays and pandas Series as edges and categories, and
Counter/defaultdict/OrderedDict as map data.  The expected values are OpenDP 0.16's outputs for
the same calls (recorded by attacker-21, /work/brief/s7/attacker-21.md)."""

import collections

import numpy as np
import pandas as pd
import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedFunctionError, MakeTransformationError


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _str_space():
    return dp.vector_domain(dp.atom_domain(T=str)), dp.symmetric_distance()


def test_pandas3_default_string_series_count_by():
    t = dp.t.make_count_by(*_str_space())
    series = pd.Series(["a", "b", "a"])
    assert isinstance(series.dtype, pd.StringDtype)  # pandas 3's default for text
    assert t(series) == {"a": 2, "b": 1}


def test_pandas3_default_string_series_cast_default():
    t = dp.t.make_cast_default(*_str_space(), TOA=int)
    assert t(pd.Series(["1", "2"])) == [1, 2]


def test_string_series_with_a_missing_value_or_mixed_objects_is_refused():
    t = dp.t.make_count_by(*_str_space())
    with pytest.raises(FailedFunctionError, match="missing value"):
        t(pd.Series(["a", None]))
    with pytest.raises(FailedFunctionError, match="not a value of String"):
        t(pd.Series(["a", 1], dtype=object))


def test_find_bin_numpy_edges():
    t = dp.t.make_find_bin(
        dp.vector_domain(dp.atom_domain(T=float)),
        dp.symmetric_distance(),
        edges=np.array([0.0, 1.0]),
    )
    assert t([0.5, 2.0]) == [1, 2]


def test_find_then_impute_numpy_categories():
    c = (
        _str_space()
        >> dp.t.then_find(categories=np.array(["a", "b"]))
        >> dp.t.then_impute_constant(2)
    )
    assert c(["a", "z"]) == [0, 2]


def test_index_numpy_categories():
    t = dp.t.make_index(
        dp.vector_domain(dp.atom_domain(T="usize")),
        dp.symmetric_distance(),
        categories=np.array(["a", "b"]),
        null="z",
    )
    assert t([0, 5]) == ["a", "z"]


def test_count_by_categories_pandas_categories():
    t = dp.t.make_count_by_categories(*_str_space(), categories=pd.Series(["a"]))
    assert t(["a"]) == [1, 0]


def test_array_parameters_are_still_checked():
    space = (dp.vector_domain(dp.atom_domain(T=float)), dp.symmetric_distance())
    for edges in (np.array([1.0, 0.0]), np.array([[0.0, 1.0]]), np.array([0.0, np.nan])):
        with pytest.raises(MakeTransformationError) as error:
            dp.t.make_find_bin(*space, edges=edges)
        assert error.value.parameter == "edges"
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_find(*_str_space(), categories=np.array(["a", "a"]))
    assert error.value.parameter == "categories"
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_count_by_categories(*_str_space(), categories=pd.Series(["a", None]))
    assert error.value.parameter == "categories"


def test_laplace_threshold_accepts_counter_and_defaultdict():
    m = dp.m.make_laplace_threshold(
        dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int)),
        dp.l01inf_distance(dp.absolute_distance(T=int)),
        scale=1.0,
        threshold=10,
    )
    assert sorted(m(collections.Counter(["a"] * 10**6))) == ["a"]
    assert sorted(m(collections.defaultdict(int, a=10**6))) == ["a"]
    assert sorted(m(collections.OrderedDict(a=10**6))) == ["a"]


def test_map_admission_reads_the_entries_as_a_plain_dict():
    domain = dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int))
    counts = collections.defaultdict(int, a=np.int64(3))
    admitted = domain.admit(counts)
    assert type(admitted) is dict and admitted == {"a": 3} and dict(counts) == {"a": 3}

    class Mine(dict):
        def items(self):
            return [("b", 1)]

    with pytest.raises(FailedFunctionError, match="must be a dict"):
        domain.admit(Mine(a=1))
