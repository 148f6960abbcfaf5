"""A dict's keys and values must be scalars: containers are refused before any recursion
(context.tex, dict-scalars), so a self-holding or deeply nested dict gives a typed error."""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators._context.errors import ContextTypeError


def _deep(depth):
    value = 1
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize(
    "data",
    [
        _deep(5000),
        {"a": [1, 2]},
        {"a": (1,)},
        {"a": np.array([1.0])},
        {"a": np.array(1.0)},
        {("a",): 1},
    ],
    ids=["deep", "list", "tuple", "array", "0-d array", "tuple key"],
)
def test_a_container_inside_a_dict_is_refused_typed(data):
    with pytest.raises(ContextTypeError) as caught:
        dp.domain_of(data, infer=True)
    assert caught.value.parameter == "data"


def test_a_dict_holding_itself_is_refused_typed():
    data = {}
    data["self"] = data
    with pytest.raises(ContextTypeError):
        dp.domain_of(data, infer=True)


def test_a_flat_dict_still_infers_its_map_domain():
    expected = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    assert dp.domain_of({"a": 1, "b": 2}, infer=True) == expected
