"""dp.unit_of, dp.loss_of, dp.space_of, dp.domain_of, dp.metric_of: OpenDP 0.16's results (the
reprs below are OpenDP's output, recorded by running it), and a typed error for every bad or
unsupported argument."""

import math

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators._context import ContextArgumentError, ContextTypeError

try:
    import opendp.prelude as odp
except ImportError:  # pragma: no cover - OpenDP is optional
    odp = None

needs_opendp = pytest.mark.skipif(odp is None, reason="OpenDP is not installed")


def test_unit_of_as_opendp_documents_it():
    assert repr(dp.unit_of(contributions=3)) == "(SymmetricDistance(), 3)"
    assert repr(dp.unit_of(l1=2.0)) == "(L1Distance(f64), 2.0)"
    assert repr(dp.unit_of(contributions=1)) == "(SymmetricDistance(), 1)"
    assert repr(dp.unit_of(absolute=1.0)) == "(AbsoluteDistance(f64), 1.0)"
    assert repr(dp.unit_of(l2=3)) == "(L2Distance(i32), 3)"
    assert repr(dp.unit_of(l1=2, U="f64")) == "(L1Distance(f64), 2)"
    assert repr(dp.unit_of(contributions=2, ordered=True)) == "(InsertDeleteDistance(), 2)"


@needs_opendp
@pytest.mark.parametrize(
    "kwargs",
    [
        {"contributions": 3},
        {"contributions": 1, "ordered": True},
        {"l1": 2.0},
        {"l2": 0.5},
        {"absolute": 1.0},
        {"absolute": 4},
        {"l1": 2, "U": "f64"},
    ],
)
def test_unit_of_agrees_with_opendp(kwargs):
    mine, theirs = dp.unit_of(**kwargs), odp.unit_of(**kwargs)
    assert repr(mine[0]) == repr(theirs[0]) and mine[1] == theirs[1]


def test_loss_of_as_opendp_documents_it():
    assert repr(dp.loss_of(epsilon=1.0)) == "(MaxDivergence, 1.0)"
    assert repr(dp.loss_of(epsilon=1.0, delta=1e-9)) == "(Approximate(MaxDivergence), (1.0, 1e-09))"
    assert repr(dp.loss_of(rho=1.0)) == "(ZeroConcentratedDivergence, 1.0)"
    assert repr(dp.loss_of(rho=0.1, delta=1e-7)) == (
        "(Approximate(ZeroConcentratedDivergence), (0.1, 1e-07))"
    )


def test_loss_of_logs_a_large_loss(caplog):
    with caplog.at_level("INFO", logger="certdp.context"):
        dp.loss_of(epsilon=6.0)
        dp.loss_of(epsilon=2.0)
    assert [record.levelname for record in caplog.records] == ["WARNING", "INFO"]


def test_space_and_domain_of():
    assert repr(dp.space_of(list[int])) == "(VectorDomain(AtomDomain(T=i32)), SymmetricDistance())"
    assert repr(dp.domain_of(list[int])) == "VectorDomain(AtomDomain(T=i32))"
    assert repr(dp.domain_of("Vec<int>")) == "VectorDomain(AtomDomain(T=i32))"
    assert repr(dp.domain_of("i32")) == "AtomDomain(T=i32)"
    assert dp.domain_of([1, 2, 3], infer=True) == dp.vector_domain(dp.atom_domain(T="i32"))
    assert dp.domain_of([1.0], infer=True) == dp.vector_domain(dp.atom_domain(T="f64"))
    assert dp.domain_of(123, infer=True) == dp.atom_domain(T="i32")
    assert dp.domain_of(True, infer=True) == dp.atom_domain(T="bool")
    assert dp.domain_of(["a"], infer=True) == dp.vector_domain(dp.atom_domain(T="String"))
    assert dp.space_of(float) == (dp.atom_domain(T="f64"), dp.absolute_distance(T="f64"))
    assert dp.space_of("Vec<f64>", M="InsertDeleteDistance")[1] == dp.insert_delete_distance()
    assert dp.space_of("f32", M="AbsoluteDistance")[1] == dp.absolute_distance(T="f32")
    assert dp.space_of([1.5], infer=True)[0] == dp.vector_domain(dp.atom_domain(T="f64"))
    # nan: an unbounded float domain admits NaN, as OpenDP's does
    assert dp.domain_of(float).nan is True


def test_metric_of():
    assert dp.metric_of("SymmetricDistance") == dp.symmetric_distance()
    assert dp.metric_of("L2Distance<f64>") == dp.l2_distance(T="f64")
    assert dp.metric_of("AbsoluteDistance<i32>") == dp.absolute_distance(T="i32")
    metric = dp.l1_distance(T="f64")
    assert dp.metric_of(metric) is metric


@pytest.mark.parametrize(
    "kwargs, error, parameter",
    [
        ({}, ContextArgumentError, "privacy_unit"),
        ({"contributions": 1, "l1": 1.0}, ContextArgumentError, "privacy_unit"),
        ({"contributions": -1}, ContextArgumentError, "contributions"),
        ({"contributions": 1.5}, ContextArgumentError, "contributions"),
        ({"contributions": True}, ContextArgumentError, "contributions"),
        ({"contributions": [1, 2]}, ContextTypeError, "contributions"),
        ({"l1": math.nan}, ContextArgumentError, "l1"),
        ({"l2": math.inf}, ContextArgumentError, "l2"),
        ({"absolute": -1.0}, ContextArgumentError, "absolute"),
        ({"absolute": "1"}, ContextArgumentError, "absolute"),
        ({"l1": 1.0, "ordered": True}, ContextArgumentError, "ordered"),
        ({"contributions": 1, "ordered": 1}, ContextArgumentError, "ordered"),
        ({"contributions": 1, "U": "f64"}, ContextArgumentError, "U"),
        ({"l1": 1.0, "U": "String"}, ContextTypeError, "U"),
        ({"l1": 1.0, "U": "q7"}, ContextTypeError, "U"),
        ({"local": False}, ContextArgumentError, "local"),
        ({"local": 1}, ContextArgumentError, "local"),
        ({"local": True, "ordered": True}, ContextArgumentError, "local"),
        ({"local": True, "U": "i32"}, ContextArgumentError, "local"),
        ({"changes": 1.5}, ContextArgumentError, "changes"),
        ({"changes": -1}, ContextArgumentError, "changes"),
        ({"changes": 1, "U": "i32"}, ContextArgumentError, "U"),
        ({"changes": 1, "identifier": "id"}, ContextTypeError, "identifier"),
        ({"contributions": 1, "identifier": "id"}, ContextTypeError, "identifier"),
    ],
)
def test_unit_of_refuses(kwargs, error, parameter):
    with pytest.raises(error) as raised:
        dp.unit_of(**kwargs)
    assert raised.value.parameter == parameter
    assert isinstance(raised.value, dp.DPError)


@pytest.mark.parametrize(
    "kwargs, parameter",
    [
        ({}, "privacy_loss"),
        ({"epsilon": 1.0, "rho": 1.0}, "privacy_loss"),
        ({"delta": 1e-6}, "privacy_loss"),
        ({"epsilon": -1.0}, "epsilon"),
        ({"epsilon": math.nan}, "epsilon"),
        ({"rho": "1"}, "rho"),
        ({"epsilon": 1.0, "delta": 2.0}, "delta"),
        ({"epsilon": 1.0, "delta": -1e-9}, "delta"),
    ],
)
def test_loss_of_refuses(kwargs, parameter):
    with pytest.raises(ContextArgumentError) as raised:
        dp.loss_of(**kwargs)
    assert raised.value.parameter == parameter
    assert isinstance(raised.value, ValueError)  # OpenDP raises ValueError here


@pytest.mark.parametrize(
    "T", [list[list[int]], "Option<Vec<int>>", "HashMap<String, Vec<i32>>", "q8", 3.5]
)
def test_domain_of_refuses_what_certdp_does_not_build(T):
    with pytest.raises(ContextTypeError):
        dp.domain_of(T)


@pytest.mark.parametrize("data", [[], [[1]], {}, {"a": [1]}, None, 1 + 2j])
def test_domain_of_refuses_to_infer(data):
    with pytest.raises(ContextTypeError) as raised:
        dp.domain_of(data, infer=True)
    assert raised.value.parameter == "data" and isinstance(raised.value, TypeError)


@pytest.mark.parametrize("M", ["ChangeOneDistance", "L1Distance", "Nope<f64>", 3, "L1Distance<q>"])
def test_metric_of_refuses(M):
    with pytest.raises(dp.DPError) as raised:
        dp.metric_of(M)
    assert isinstance(raised.value, TypeError)


def test_space_of_refuses_a_metric_for_strings():
    with pytest.raises(ContextTypeError) as raised:
        dp.space_of("String")
    assert raised.value.parameter == "M"


def test_opendp_type_names_are_accepted():
    assert dp.domain_of(dp.i32) == dp.atom_domain(T="i32")
    assert dp.domain_of(dp.Vec[dp.i32]) == dp.vector_domain(dp.atom_domain(T="i32"))
    assert dp.space_of(dp.f64) == (dp.atom_domain(T="f64"), dp.absolute_distance(T="f64"))
    assert dp.unit_of(l1=1.0, U=dp.f32) == (dp.l1_distance(T="f32"), 1.0)


def test_unit_of_local_and_changes_are_opendps():
    # OpenDP 0.16: unit_of(local=True) -> (DiscreteDistance(), 1); unit_of(changes=1) ->
    # (ChangeOneDistance(), 1); unit_of(changes=2, ordered=True) -> (HammingDistance(), 2)
    assert repr(dp.unit_of(local=True)) == "(DiscreteDistance(), 1)"
    assert repr(dp.unit_of(changes=1)) == "(ChangeOneDistance(), 1)"
    assert repr(dp.unit_of(changes=2, ordered=True)) == "(HammingDistance(), 2)"
    metric, d_in = dp.unit_of(local=True)
    assert metric == dp.discrete_distance() and d_in == 1 and type(d_in) is int


def test_a_local_context_spends_randomized_response():
    context = dp.Context.compositor(
        data=True,
        privacy_unit=dp.unit_of(local=True),
        privacy_loss=dp.loss_of(epsilon=1.0),
        split_evenly_over=1,
        domain=dp.atom_domain(T=bool),
    )
    query = context.query().randomized_response_bool(0.7)
    # ln(0.7 / 0.3) = 0.84729786038720..., rounded up; OpenDP 0.16 prints 0.8472978603872036
    assert query.resolve().map(1) == 0.8472978603872034
    assert type(query.release()) is bool
    assert context.remaining_privacy_loss() == []


# OpenDP 0.16: dp.domain_of(np.array(..., dtype=...), infer=True) gives these domains
@pytest.mark.parametrize(
    "array, expected",
    [
        (np.array([1, 2, 3]), dp.vector_domain(dp.atom_domain(T="i64"))),
        (np.array([1, 2], dtype=np.int32), dp.vector_domain(dp.atom_domain(T="i32"))),
        (np.array([1, 2], dtype=np.uint32), dp.vector_domain(dp.atom_domain(T="u32"))),
        (np.array([1, 2], dtype=np.uint64), dp.vector_domain(dp.atom_domain(T="u64"))),
        (np.array([1.0, 2.0]), dp.vector_domain(dp.atom_domain(T="f64", nan=True))),
        (np.array([], dtype=float), dp.vector_domain(dp.atom_domain(T="f64", nan=True))),
        (np.array([1.0], dtype=np.float32), dp.vector_domain(dp.atom_domain(T="f32", nan=True))),
        (np.array([True, False]), dp.vector_domain(dp.atom_domain(T="bool"))),
        (np.array(["a", "b"]), dp.vector_domain(dp.atom_domain(T="String"))),
        (np.array(5), dp.atom_domain(T="i32")),
    ],
)
def test_domain_of_infers_a_numpy_array_as_opendp(array, expected):
    assert dp.domain_of(array, infer=True) == expected


# OpenDP 0.16 fails on each too (no vector domain of i8/u8/i16/u16, unknown dtype, 2 axes)
@pytest.mark.parametrize(
    "array",
    [
        np.array([1, 2], dtype=np.int8),
        np.array([1, 2], dtype=np.uint8),
        np.array([1, 2], dtype=np.int16),
        np.array([1, 2], dtype=np.uint16),
        np.array([1, 2], dtype=np.float16),
        np.array([object()]),
        np.array([[1, 2]]),
    ],
)
def test_domain_of_refuses_numpy_arrays_opendp_refuses(array):
    with pytest.raises(ContextTypeError) as raised:
        dp.domain_of(array, infer=True)
    assert raised.value.parameter == "data" and isinstance(raised.value, TypeError)


def test_a_compositor_over_a_numpy_array_as_in_opendps_quantile_notebook():
    dp.enable_features("contrib")
    context = dp.Context.compositor(
        data=np.array([1.0, 5.0, 9.0]),
        privacy_unit=dp.unit_of(contributions=1),
        privacy_loss=dp.loss_of(epsilon=1.0),
        split_evenly_over=1,
    )
    query = context.query().count().laplace()
    assert query.param() == 1.0  # OpenDP 0.16: 1.0
    assert isinstance(query.release(), int)


def test_domain_of_maps_and_options_as_opendps_docstring():
    """The reprs are those of OpenDP 0.16's domain_of docstring examples."""
    assert repr(dp.domain_of(dict[str, int])) == (
        "MapDomain { key_domain: AtomDomain(T=String), value_domain: AtomDomain(T=i32) }"
    )
    assert dp.domain_of("HashMap<String, i32>") == dp.domain_of(dict[str, int])
    assert repr(dp.domain_of("Option<int>")) == "OptionDomain(AtomDomain(T=i32))"
    with pytest.raises(ContextTypeError) as raised:
        dp.space_of(dict[str, int])
    assert raised.value.parameter == "M"


def test_space_of_option_gets_no_default_metric():
    """Referee ref-new: OpenDP 0.16 has no default metric for OptionDomain<AtomDomain<i32>>."""
    with pytest.raises(ContextTypeError) as caught:
        dp.space_of("Option<i32>")
    assert caught.value.parameter == "M"
    with pytest.raises(ContextTypeError) as caught:
        dp.space_of("Option<i32>", M="AbsoluteDistance")
    assert caught.value.parameter == "M"
    assert dp.space_of("Vec<i32>")[1] == dp.symmetric_distance()
