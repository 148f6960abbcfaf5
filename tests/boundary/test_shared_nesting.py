"""A composition or chain that reuses one object at each level doubles its parts per level;
it is refused with a typed error in bounded time and memory (referee: depth 40 used to raise
an untyped MemoryError at construction), while honest deep nesting still works."""

import pytest

import certdp.prelude as dp
from certdp.core.errors import MakeMeasurementError, MakeTransformationError


def test_a_composition_reusing_itself_at_every_level_is_refused_typed():
    dp.enable_features("contrib")
    m = dp.m.make_laplace(dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64"), 1.0)
    c = m
    with pytest.raises(MakeMeasurementError, match="at most 1048576 measurements") as caught:
        for _ in range(40):
            c = dp.c.make_composition([c, c])
    assert caught.value.parameter == "measurements"
    # below the cap the doubled composition is built and its map is the exact sum
    c = m
    for _ in range(10):
        c = dp.c.make_composition([c, c])
    assert c.map(1.0) == 1024.0


def test_a_chain_reusing_itself_at_every_level_is_refused_typed():
    dp.enable_features("contrib")
    d = dp.vector_domain(dp.atom_domain(T="i32", bounds=(0, 1)))
    c = dp.t.make_clamp(d, dp.symmetric_distance(), bounds=(0, 1))
    with pytest.raises(MakeTransformationError, match="at most 1048576") as caught:
        for _ in range(40):
            c = c >> c
    assert caught.value.parameter == "chain"
    c = dp.t.make_clamp(d, dp.symmetric_distance(), bounds=(0, 1))
    for _ in range(10):
        c = c >> c
    assert c([0, 1, 1]) == [0, 1, 1] and c.map(3) == 3
