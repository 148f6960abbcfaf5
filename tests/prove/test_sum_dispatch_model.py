"""make_sum's dispatch model: the code agrees with it case by case, and a wrong dispatch is
refuted with the case it gets wrong."""

import importlib

from certdp.core.types import carrier
from certdp.prove.engine import solve
from certdp.transformations.sum.smt_model import dispatch_instance, expected_sum


def test_dispatch_agrees_with_the_code():
    for T, size, bounds, metric in [
        (carrier("i8"), 4, (-3, 5), "symmetric"),
        (carrier("i8"), None, (0, 127), "symmetric"),
        (carrier("u32"), 4, (0, 5), "insert_delete"),
        (carrier("f64"), None, (-1e300, 1e300), "symmetric"),
        (carrier("f32"), 4, (-1.0, 1.0), "insert_delete"),
    ]:
        assert solve(dispatch_instance(T, size, bounds, metric), 30)["status"] == "proved"


def test_the_model_of_the_choice():
    assert expected_sum(carrier("i8"), 4, (-3, 5), False)[0] == "make_sized_bounded_int_checked_sum"
    assert expected_sum(carrier("i8"), 4, (-127, 127), True)[0] == (
        "make_sized_bounded_int_ordered_sum"
    )
    assert expected_sum(carrier("i8"), None, (0, 127), False)[0] == "make_bounded_int_monotonic_sum"
    assert expected_sum(carrier("i8"), None, (-3, 5), False)[0] == "make_bounded_int_split_sum"


def test_a_wrong_dispatch_is_refuted(monkeypatch):
    # an unsized float sum dispatched with a smaller record limit: a smaller (invalid) map
    make_sum_module = importlib.import_module("certdp.transformations.sum.make_sum")
    monkeypatch.setattr(make_sum_module, "DEFAULT_SIZE_LIMIT", 1 << 10)
    outcome = solve(dispatch_instance(carrier("f64"), None, (-1.0, 1.0), "symmetric"), 30)
    assert outcome["status"] == "counterexample", outcome
    assert outcome["example"]["differs"].startswith("map(")
