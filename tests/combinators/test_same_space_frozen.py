"""Regressions from referee-same (s6): carrier-type leaves judged by the other object's str
subclass; public writes to a part's domain accepted by make_composition (and the TOCTOU of
changing them back).  Domains, metrics and measures are now immutable once built, and
same_space compares leaves only at exact built-in types."""

from __future__ import annotations

import pytest

import certdp.prelude as dp
from certdp.combinators._compose import same_space
from certdp.core.errors import (
    MakeDomainError,
    MakeMeasurementError,
    MeasureMismatchError,
    MetricMismatchError,
)
from certdp.core.transformation import Measurement
from certdp.core.types import CarrierType


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


class _EqualsAnything(str):
    """A str subclass that declares itself equal to everything (reflected __eq__ wins)."""

    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


def _fake_carrier(name: str) -> CarrierType:
    fake = object.__new__(CarrierType)
    object.__setattr__(fake, "name", _EqualsAnything(name))
    return fake


def test_public_writes_refused_with_typed_errors():
    with pytest.raises(MetricMismatchError, match="T: .*immutable"):
        dp.absolute_distance(T="i32").T = _fake_carrier("i32")
    domain = dp.atom_domain(T="i32")
    with pytest.raises(MakeDomainError, match="T: .*immutable"):
        domain.T = _fake_carrier("i32")
    with pytest.raises(MakeDomainError, match="nan: .*immutable"):
        del domain.nan
    with pytest.raises(MakeDomainError, match="_key: .*immutable"):
        domain._key = lambda: ()
    with pytest.raises(MeasureMismatchError, match="measure: .*immutable"):
        dp.approximate(dp.max_divergence()).measure = dp.zero_concentrated_divergence()
    with pytest.raises(MakeDomainError, match="norm: .*immutable"):
        dp.numpy.array2_domain(norm=1.0, p=1, T="f64").norm = 2.0
    assert domain == dp.atom_domain(T="i32")  # unchanged


def test_carrier_leaf_metric_judged_by_theirs():
    """Referee test 1, with the write forced through object.__setattr__ (outside the
    hypothesis): same_space still refuses, comparing the carrier's name as an exact str."""
    ours = dp.absolute_distance(T="f64")
    theirs = dp.absolute_distance(T="i32")
    object.__setattr__(theirs, "T", _fake_carrier("i32"))
    assert same_space(ours, theirs) is False


def test_carrier_leaf_domain_judged_by_theirs():
    """Referee test 2, forced the same way."""
    ours = dp.atom_domain(T="f64")
    theirs = dp.atom_domain(T="i32")
    object.__setattr__(theirs, "T", _fake_carrier("i32"))
    object.__setattr__(theirs, "nan", True)
    assert same_space(ours, theirs) is False
    # even a forged carrier with the same name is refused: its name is not an exact str
    object.__setattr__(theirs, "T", _fake_carrier("f64"))
    assert same_space(ours, theirs) is False
    assert same_space(ours, dp.atom_domain(T="f64")) is True


def test_leaf_of_a_foreign_type_refused():
    """A leaf outside the exact built-in types never decides by its own __eq__."""

    class Anything:
        def __eq__(self, other):
            return True

        __hash__ = object.__hash__

    theirs = dp.atom_domain(bounds=(0.0, 1.0))
    object.__setattr__(theirs, "bounds", (Anything(), Anything()))
    assert same_space(dp.atom_domain(bounds=(0.0, 1.0)), theirs) is False


def _bounded_sum():
    domain = dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0)))
    return dp.t.make_sum(domain, dp.symmetric_distance()) >> dp.m.then_laplace(1.0)


def _unbounded_count():
    domain = dp.vector_domain(dp.atom_domain(T="f64"))
    return dp.t.make_count(domain, dp.symmetric_distance()) >> dp.m.then_laplace(1.0)


def test_instance_data_write_defeats_the_key_defence():
    """Referee test 3: writing element_domain.bounds / nan is refused, so the bounded part can
    never be made to look unbounded; and the honest composition is refused."""
    part = _bounded_sum()
    element = part.input_domain.element_domain
    with pytest.raises(MakeDomainError):
        element.bounds = None
    with pytest.raises(MakeDomainError):
        element.nan = True
    assert element.bounds == (0.0, 1.0) and element.nan is False
    with pytest.raises(MakeMeasurementError, match="must share one input domain"):
        dp.c.make_composition([_unbounded_count(), part])


def test_toctou_change_then_restore_impossible():
    """Referee test 4: the change-then-restore needs a write; the write is refused, so the
    composition of the two honest parts is never built."""
    part = _bounded_sum()
    element = part.input_domain.element_domain
    with pytest.raises(MakeDomainError):
        element.bounds, element.nan = None, True
    with pytest.raises(MakeMeasurementError, match="must share one input domain"):
        dp.c.make_composition([_unbounded_count(), part])


def test_fake_class_measurement_refused():
    """make_composition reads the exact type (as the odometer does), not a faked __class__."""

    class Liar:
        @property
        def __class__(self):
            return Measurement

    assert isinstance(Liar(), Measurement)
    with pytest.raises(MakeMeasurementError, match="must contain only measurements"):
        dp.c.make_composition([_bounded_sum(), Liar()])
