"""make_sum: the seed's figures, the dispatch to the specialised sums, typed errors, the
contract, and chaining after make_clamp."""

import dataclasses
import importlib
import math

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import FailedFunctionError, MakeTransformationError
from certdp.transformations.sum.make_sum import DEFAULT_SIZE_LIMIT, canonical_order

INTEGER_CONSTRUCTORS = [
    "sized_bounded_int_checked_sum",
    "bounded_int_monotonic_sum",
    "sized_bounded_int_monotonic_sum",
    "bounded_int_ordered_sum",
    "sized_bounded_int_ordered_sum",
    "bounded_int_split_sum",
    "sized_bounded_int_split_sum",
]
FLOAT_CONSTRUCTORS = [
    "bounded_float_checked_sum",
    "sized_bounded_float_checked_sum",
    "bounded_float_ordered_sum",
    "sized_bounded_float_ordered_sum",
]


@pytest.fixture
def spy(monkeypatch):
    """Record which specialised constructors make_sum calls, and with what."""
    calls = []

    def install(folders):
        for folder in folders:
            package = importlib.import_module(f"certdp.transformations.{folder}")
            name = f"make_{folder}"
            original = getattr(package, name)

            def recording(*args, _name=name, _original=original, **kwargs):
                calls.append((_name, args, kwargs))
                return _original(*args, **kwargs)

            monkeypatch.setattr(package, name, recording)
        return calls

    return install


def space(bounds, size=None, metric=None, T=None):
    domain = dp.vector_domain(dp.atom_domain(bounds=bounds, T=T), size=size)
    return domain, (metric or dp.symmetric_distance())


# -- the seed's integer figures -------------------------------------------------------------


def test_seed_unknown_size():
    sum_trans = space((0, 10)) >> dp.t.then_sum()
    assert sum_trans([1, 2, 4]) == 7
    assert sum_trans.map(d_in=1) == 10


def test_seed_known_size_and_stair_step():
    sum_trans = space((-10, 10), size=3) >> dp.t.then_sum()
    assert sum_trans([1, 2, 4]) == 7
    assert sum_trans.map(d_in=2) == 20
    assert [sum_trans.map(d_in) for d_in in range(10)] == [0, 0, 20, 20, 40, 40, 60, 60, 80, 80]


def test_seed_insert_delete_uses_the_ordered_sum(spy):
    calls = spy(INTEGER_CONSTRUCTORS)
    t = dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(1, 20))), dp.insert_delete_distance())
    assert calls == [("make_bounded_int_ordered_sum", ((1, 20), "i32"), {})]
    assert t.input_metric == dp.insert_delete_distance()
    direct = dp.t.make_bounded_int_ordered_sum(bounds=(1, 20))
    for data in ([], [1, 20, 5], [20] * 7):
        assert t(data) == direct(data)
    assert [t.map(d) for d in range(5)] == [direct.map(d) for d in range(5)]


def test_clamp_then_sum():
    t = (
        (dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance())
        >> dp.t.then_clamp((0, 10))
        >> dp.t.then_sum()
    )
    assert t([1, 20, -3, 4]) == 15
    assert t.map(1) == 10
    assert t.input_domain == dp.vector_domain(dp.atom_domain(T="i32"))


# -- integer dispatch -------------------------------------------------------------------------

INTEGER_DISPATCH = [
    # (T, bounds, size, metric, expected constructor)
    ("i32", (0, 10), 5, "symmetric", "make_sized_bounded_int_checked_sum"),
    ("i32", (-10, 10), 5, "symmetric", "make_sized_bounded_int_checked_sum"),
    ("i8", (0, 100), 2, "symmetric", "make_sized_bounded_int_monotonic_sum"),
    ("i8", (-100, -1), 2, "symmetric", "make_sized_bounded_int_monotonic_sum"),
    ("u8", (0, 200), 2, "symmetric", "make_sized_bounded_int_monotonic_sum"),
    ("i16", (-10000, 10000), 5, "symmetric", "make_sized_bounded_int_split_sum"),
    ("i32", (0, 10), None, "symmetric", "make_bounded_int_monotonic_sum"),
    ("i64", (-10, 0), None, "symmetric", "make_bounded_int_monotonic_sum"),
    ("u64", (3, 9), None, "symmetric", "make_bounded_int_monotonic_sum"),
    ("i32", (-1, 1), None, "symmetric", "make_bounded_int_split_sum"),
    ("i32", (0, 10), 5, "insert_delete", "make_sized_bounded_int_checked_sum"),
    ("i8", (-100, 20), 2, "insert_delete", "make_sized_bounded_int_ordered_sum"),
    ("i8", (0, 100), 2, "insert_delete", "make_sized_bounded_int_ordered_sum"),
    ("i32", (-1, 1), None, "insert_delete", "make_bounded_int_ordered_sum"),
    ("u32", (0, 5), None, "insert_delete", "make_bounded_int_ordered_sum"),
]


@pytest.mark.parametrize("T, bounds, size, metric, expected", INTEGER_DISPATCH)
def test_integer_dispatch(spy, T, bounds, size, metric, expected):
    calls = spy(INTEGER_CONSTRUCTORS)
    metric = {"symmetric": dp.symmetric_distance(), "insert_delete": dp.insert_delete_distance()}[
        metric
    ]
    domain = dp.vector_domain(dp.atom_domain(bounds=bounds, T=T), size=size)
    t = dp.t.make_sum(domain, metric)
    assert [name for name, _, _ in calls] == [expected]
    arguments = ((size,) if size is not None else ()) + (bounds, T)
    assert calls[0][1] == arguments
    assert t.input_domain == domain and t.input_metric == metric
    assert t.output_domain == dp.atom_domain(T=T) and t.output_metric == dp.absolute_distance(T)
    direct = getattr(dp.t, expected)(*arguments)
    assert [t.map(d) for d in range(3)] == [direct.map(d) for d in range(3)]
    example = [bounds[1], bounds[1], bounds[0]] if size is None else [bounds[1]] * size
    assert t(example) == direct(example)


def test_checked_sum_under_insert_delete_keeps_the_sized_map():
    t = dp.t.make_sum(*space((0, 10), size=4, metric=dp.insert_delete_distance()))
    assert [t.map(d) for d in range(6)] == [0, 0, 10, 10, 20, 20]
    assert t([10, 0, 3, 10]) == 23


def test_overflowing_range_is_refused_as_the_specialised_sum_refuses():
    # size 3, i32 bounds (-2**31 + 1, 2**31 - 1): the split sum's U - L is not an i32
    with pytest.raises(dp.ArithmeticOverflowError) as error:
        dp.t.make_sum(*space((-(2**31) + 1, 2**31 - 1), size=3))
    assert error.value.parameter == "bounds"
    with pytest.raises(dp.ArithmeticOverflowError):
        dp.t.make_sum(*space((-(2**31), 0)))  # |L| is not an i32


def test_saturating_results_match_the_specialised_sums():
    top = 2**31 - 1
    assert dp.t.make_sum(*space((0, top), size=3))([top] * 3) == top
    split = dp.t.make_sum(*space((-top, top)))
    assert split([top, top, -top, -top, -top]) == -1
    ordered = dp.t.make_sum(*space((-top, top), metric=dp.insert_delete_distance()))
    assert ordered([top, top, -top]) == 0


# -- errors -------------------------------------------------------------------------------------


def test_missing_bounds_is_a_typed_error():
    with pytest.raises(MakeTransformationError, match="bounded") as error:
        dp.t.make_sum(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance())
    assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError, match="bounded"):
        dp.t.make_sum(dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance())


@pytest.mark.parametrize(
    "metric", [dp.l1_distance("i32"), dp.l2_distance("f64"), dp.absolute_distance("i32")]
)
def test_wrong_metric_is_a_typed_error(metric):
    with pytest.raises(MakeTransformationError, match="symmetric_distance") as error:
        dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(0, 1))), metric)
    assert error.value.parameter == "input_metric"


@pytest.mark.parametrize(
    "domain",
    [
        dp.atom_domain(bounds=(0, 1)),
        dp.vector_domain(dp.vector_domain(dp.atom_domain(bounds=(0, 1)))),
        dp.vector_domain(dp.atom_domain(T="String")),
        dp.vector_domain(dp.atom_domain(T="bool")),
    ],
)
def test_wrong_domain_is_a_typed_error(domain):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_sum(domain, dp.symmetric_distance())
    assert error.value.parameter == "input_domain"


def test_then_sum_on_a_bad_space_is_a_typed_error():
    with pytest.raises(MakeTransformationError):
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()) >> dp.t.then_sum()


def test_out_of_domain_data_is_refused():
    t = dp.t.make_sum(*space((0, 10), size=2))
    for data in ([1, 11], [1, 2, 3], [1.0, 2.0], np.array([1, 2, 3])):
        with pytest.raises(FailedFunctionError):
            t(data)


# -- contract --------------------------------------------------------------------------------


def _integer_contract():
    base = contract_of(dp.t.make_sum)

    def integer_arguments():
        return base.arguments().filter(lambda kw: kw["input_domain"].element_domain.T.is_integer)

    return dataclasses.replace(base, arguments=integer_arguments)


def test_contract_verifies_on_integers():
    report = _integer_contract().verify()
    assert report.examples > 0 and report.max_tightness >= 0.5


def test_contract_verifies_on_integers_and_floats():
    report = contract_of(dp.t.make_sum).verify()
    assert report.examples > 0


def test_a_map_that_ignores_the_known_size_penalty_is_refuted():
    import hypothesis.strategies as st

    fixed = dataclasses.replace(
        contract_of(dp.t.make_sum),
        arguments=lambda: st.just(
            {"input_domain": space((-10, 10), size=3)[0], "input_metric": dp.symmetric_distance()}
        ),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: (d_in // 2) * 10)


def test_runtime_contract_checks_make_sum():
    dp.enable_contracts()
    t = dp.t.make_sum(*space((-4, 6), size=3))
    assert t.map(3) == 10 and t([6, 6, -4]) == 8
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_sum(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance())
    assert error.value.condition == "input-domain-bounded"


# -- float dispatch (needs the float sums) --------------------------------------------------------


@pytest.mark.parametrize(
    "bounds, size, metric, expected, arguments, d_in, d_out",
    [
        (
            (-10.0, 10.0),
            1000,
            "symmetric",
            "make_sized_bounded_float_checked_sum",
            (1000, (-10.0, 10.0)),
            2,
            20.00000000004426,
        ),
        (
            (-10.0, 10.0),
            None,
            "symmetric",
            "make_bounded_float_checked_sum",
            (DEFAULT_SIZE_LIMIT, (-10.0, 10.0)),
            1,
            20.00000009313226,
        ),
        (
            (-10.0, 0.0),
            None,
            "symmetric",
            "make_bounded_float_checked_sum",
            (DEFAULT_SIZE_LIMIT, (-10.0, 0.0)),
            1,
            10.00000009313226,
        ),
        (
            (0.0, 1.0),
            None,
            "insert_delete",
            "make_bounded_float_checked_sum",
            (DEFAULT_SIZE_LIMIT, (0.0, 1.0)),
            2,
            2.000000009313226,
        ),
        (
            (0.0, 1e303),
            None,
            "insert_delete",
            "make_bounded_float_ordered_sum",
            (DEFAULT_SIZE_LIMIT, (0.0, 1e303)),
            2,
            2.000000009313226e303,
        ),
        (
            (0.0, 1e303),
            None,
            "symmetric",
            "make_bounded_float_ordered_sum",
            (DEFAULT_SIZE_LIMIT, (0.0, 1e303)),
            2,
            2.000000009313226e303,
        ),
    ],
)
def test_float_dispatch(spy, bounds, size, metric, expected, arguments, d_in, d_out):
    calls = spy(FLOAT_CONSTRUCTORS)
    metric = {"symmetric": dp.symmetric_distance(), "insert_delete": dp.insert_delete_distance()}[
        metric
    ]
    domain = dp.vector_domain(dp.atom_domain(bounds=bounds), size=size)
    t = dp.t.make_sum(domain, metric)
    assert calls == [(expected, arguments, {"S": "Pairwise<f64>"})]
    assert t.input_domain == domain and t.input_metric == metric
    assert t.map(d_in) == d_out


def test_float_sum_of_unknown_size_with_f32_uses_pairwise_f32(spy):
    calls = spy(FLOAT_CONSTRUCTORS)
    dp.t.make_sum(*space((0.0, 1.0), T="f32"))
    assert calls[0][2] == {"S": "Pairwise<f32>"}


def test_canonical_order_is_total_on_records():
    data = [0.0, -0.0, 3.5, -1.0, -0.0, 0.0]
    assert [math.copysign(1.0, v) for v in canonical_order(data)[1:5]] == [-1.0, -1.0, 1.0, 1.0]
    array = np.array(data)
    assert canonical_order(array).tolist() == canonical_order(data)
    signs = [math.copysign(1.0, v) for v in canonical_order(data)]
    assert [math.copysign(1.0, v) for v in canonical_order(array)] == signs
    # reorderings of one multiset have the same canonical order: insert-delete distance 0
    assert (
        dp.insert_delete_distance().distance(
            canonical_order(data), canonical_order(list(reversed(data)))
        )
        == 0
    )


def test_a_chosen_sum_on_another_space_is_refused(monkeypatch):
    package = importlib.import_module("certdp.transformations.bounded_int_split_sum")
    real = package.make_bounded_int_split_sum
    monkeypatch.setattr(
        package, "make_bounded_int_split_sum", lambda bounds, T: real((bounds[0], bounds[1] + 1), T)
    )
    with pytest.raises(dp.DomainMismatchError) as error:
        dp.t.make_sum(*space((-1, 1)))
    assert error.value.parameter == "input_domain"


def test_contract_verifies_on_the_saturating_float_branch(spy):
    """Bounds where a float sum could overflow: the ordered float sums, sorted first under the
    symmetric distance (the sums of up to 12 records of 1e308 do saturate)."""
    import hypothesis.strategies as st

    calls = spy(FLOAT_CONSTRUCTORS)
    cases = [((0.0, 1e303), None), ((0.0, 1e308), 3), ((-1e308, 0.0), 2), ((-1e305, 0.0), None)]
    arguments = st.builds(
        lambda case, metric: {
            "input_domain": space(case[0], size=case[1])[0],
            "input_metric": metric,
        },
        st.sampled_from(cases),
        st.sampled_from([dp.symmetric_distance(), dp.insert_delete_distance()]),
    )
    fixed = dataclasses.replace(contract_of(dp.t.make_sum), arguments=lambda: arguments)
    report = fixed.verify()
    assert report.examples > 0
    chosen = {name for name, _, _ in calls}
    assert chosen == {"make_bounded_float_ordered_sum", "make_sized_bounded_float_ordered_sum"}
    assert (
        dp.t.make_sum(*space((0.0, 1e308), size=3))([1e308, 1e308, 0.0]) == 1.7976931348623157e308
    )
