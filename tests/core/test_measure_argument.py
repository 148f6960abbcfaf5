"""The ``MO`` argument of the measurement constructors (core/measures.tex, Lemma [measures are
tags] item 5): the OpenDP name, the measure or (without parameters) its class is accepted; any
other object, a NumPy array of one or two names included, is a typed refusal naming ``MO``,
never an untyped exception from an elementwise comparison (referee-hist2, session 7)."""

from __future__ import annotations

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, MakeMeasurementError, MakeTransformationError
from certdp.core.measure_argument import measure_requested
from certdp.core.measures import (
    ApproximateDivergence,
    MaxDivergence,
    ZeroConcentratedDivergence,
)


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _geometric(MO):
    return dp.m.make_geometric(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 1.0, MO=MO)


def _gaussian(MO):
    return dp.m.make_gaussian(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 1.0, MO=MO)


def _threshold_space():
    return (
        dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32")),
        dp.l01inf_distance(dp.absolute_distance(T="i32")),
    )


def _laplace_threshold(MO):
    return dp.m.make_laplace_threshold(*_threshold_space(), 1.0, 5, MO=MO)


def _noise_threshold(MO):
    return dp.m.make_noise_threshold(*_threshold_space(), MO, 1.0, 5)


# (constructor, the OpenDP name it accepts, the forms of its measure it accepts)
CASES = [
    (_geometric, "MaxDivergence", [MaxDivergence(), MaxDivergence]),
    (
        _gaussian,
        "ZeroConcentratedDivergence",
        [ZeroConcentratedDivergence(), ZeroConcentratedDivergence],
    ),
    (_laplace_threshold, "Approximate<MaxDivergence>", [ApproximateDivergence(MaxDivergence())]),
]

HOSTILE = [
    lambda name: np.array([name, "x"]),
    lambda name: np.array([name]),
    lambda name: [name],
    lambda name: (name,),
    lambda name: name.encode(),
    lambda name: name + " ",
    lambda name: 1,
    lambda name: None,
    lambda name: ApproximateDivergence,
    lambda name: ApproximateDivergence(ZeroConcentratedDivergence()),
]


@pytest.mark.parametrize("make, name, accepted", CASES)
def test_the_name_the_measure_and_its_class_are_accepted(make, name, accepted):
    assert make(name).output_measure == make(accepted[0]).output_measure
    for MO in accepted:
        make(MO)


@pytest.mark.parametrize("make, name, accepted", CASES)
@pytest.mark.parametrize("hostile", range(len(HOSTILE)))
def test_any_other_MO_is_a_typed_refusal_naming_MO(make, name, accepted, hostile):
    MO = HOSTILE[hostile](name)
    if name == "ZeroConcentratedDivergence" and MO is ApproximateDivergence:
        MO = MaxDivergence  # the class of another measure
    with pytest.raises(MakeMeasurementError) as caught:
        make(MO)
    assert caught.value.parameter == "MO"


@pytest.mark.parametrize("make, name, accepted", CASES)
def test_a_zero_dimensional_array_is_read_as_its_scalar(make, name, accepted):
    """The exact boundary reads a 0-d array as the scalar it holds, for MO as for every
    argument (scale=np.array(2.0) is the scale 2.0): the name itself, so accepted."""
    assert make(np.array(name)).output_measure == make(name).output_measure
    with pytest.raises(MakeMeasurementError):
        make(np.array(name + "x"))


def test_the_measure_of_another_constructor_is_refused():
    with pytest.raises(MakeMeasurementError):
        _geometric(ZeroConcentratedDivergence())
    with pytest.raises(MakeMeasurementError):
        _gaussian(MaxDivergence())
    with pytest.raises(MakeMeasurementError):
        _laplace_threshold(MaxDivergence())


@pytest.mark.parametrize("output_measure", [np.array(["x", "y"]), np.array([1]), "Approximate"])
def test_noise_constructors_refuse_an_array_output_measure_typed(output_measure):
    with pytest.raises(MakeMeasurementError):
        _noise_threshold(output_measure)
    with pytest.raises(MakeMeasurementError):
        dp.m.make_noise(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), output_measure, 1.0)


@pytest.mark.parametrize(
    "MO", [np.array(["SymmetricDistance", "x"]), np.array(["SymmetricDistance"])]
)
def test_resize_refuses_an_array_MO_typed(MO):
    with pytest.raises(MakeTransformationError):
        dp.t.make_resize(
            dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 3, 0, MO=MO
        )


def test_measure_requested_never_raises_and_is_exact():
    approx = ApproximateDivergence(MaxDivergence())
    assert measure_requested("MaxDivergence", MaxDivergence(), "MaxDivergence")
    assert measure_requested(MaxDivergence, MaxDivergence(), "MaxDivergence")
    assert measure_requested(ApproximateDivergence(MaxDivergence()), approx, "A")
    assert not measure_requested(ApproximateDivergence, approx, "A")
    assert not measure_requested(ApproximateDivergence(ZeroConcentratedDivergence()), approx, "A")

    class Named(str):
        pass

    class Hostile:
        def __eq__(self, other):
            raise RuntimeError("compared")

        __hash__ = None

    for MO in (Named("MaxDivergence"), np.array(["MaxDivergence"]), np.array([1, 2]), Hostile()):
        assert measure_requested(MO, MaxDivergence(), "MaxDivergence") is False


def test_every_refusal_is_a_DPError():
    """The two-element array of referee-hist2's tests 4 and 5, as they wrote them."""
    with pytest.raises(DPError):
        _geometric(np.array(["MaxDivergence", "x"]))
    with pytest.raises(DPError):
        _laplace_threshold(np.array(["Approximate<MaxDivergence>", "x"]))
