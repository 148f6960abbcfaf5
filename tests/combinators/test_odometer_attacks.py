"""Regression tests from the referee's counterexamples against the odometer and the privacy
filter (findings A, B, C, D of referee-odo at 742b5c6; each assertion is the referee's), and
further attacks of the same kinds: a query's or the caller's objects never decide a check, every
failure is typed, NumPy losses are accepted as OpenDP accepts them, and the budget is compared
exactly."""

from __future__ import annotations

import math
import threading
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.domains import AtomDomain, Domain
from certdp.core.transformation import Measurement


def _forced(obj, name, value):
    """The public write is refused (domains/metrics/measures are immutable); the test then
    forces it past that hypothesis (object.__setattr__) to check the defence behind it."""
    with pytest.raises(dp.DPError, match="immutable"):
        setattr(obj, name, value)
    object.__setattr__(obj, name, value)


D = dp.atom_domain(T="f64", nan=False)
M = dp.absolute_distance(T="f64")
PURE = dp.max_divergence()


def _filter(d_in=1.0, d_out=1.0, measure=PURE):
    odometer = dp.c.make_fully_adaptive_composition(D, M, measure)
    return dp.c.make_privacy_filter(odometer, d_in, d_out)


def _stub(loss, function=lambda x: 0.0, domain=D, metric=M, measure=PURE):
    return Measurement(domain, function, metric, measure, lambda d_in: loss)


class _StrRaises(Exception):
    def __str__(self):
        raise RuntimeError("__str__ of the query's exception raised")


# --- A. the query's own objects still decide whether they match (odometer.tex, item 4) ---


def test_a_query_domain_whose_key_lies_is_refused():
    """odometer.tex, proof of item 4: "a query's objects are never asked whether they match".
    False: `_same` calls `type(ours).__eq__(ours, theirs)`, and `Domain.__eq__` compares
    `self._key() == other._key()`, where `other._key` is looked up on the QUERY's domain object.
    An honest Laplace measurement on atom_domain(bounds=(0, 1)) (valid, eps = 1 at d_in = 1) whose
    domain instance gets `_key = lambda: D._key()` is accepted by a filter on the UNBOUNDED
    domain.  Its admission then refuses data outside [0, 1], so two datasets at distance 0.9
    give a value versus an error with probability 1 (eps = inf) through a budget-1 filter."""
    bounded = dp.atom_domain(bounds=(0.0, 1.0), nan=False)
    laplace = dp.m.make_laplace(bounded, M, 1.0)
    _forced(bounded, "_key", lambda: D._key())
    qbl = _filter()(1.4)
    with pytest.raises(dp.DomainMismatchError):
        qbl(laplace)


def test_a_query_metric_whose_key_lies_is_refused():
    """Same hole for the metric: absolute_distance(T="f32") with an instance `_key` returning
    the f64 key passes `query-metric` (Metric.__eq__ also calls `other._key()`)."""
    metric = dp.absolute_distance(T="f32")
    _forced(metric, "_key", lambda: M._key())
    qbl = dp.c.make_fully_adaptive_composition(D, M, PURE)(0.5)
    with pytest.raises(dp.MetricMismatchError):
        qbl(_stub(0.0, metric=metric))


# --- B. untyped errors escape (odometer.tex: "_typed ... any other Exception is raised again
#        as FailedMapError / FailedFunctionError"; standard: never an untyped exception) ---


def test_a_function_exception_whose_str_raises_becomes_failed_function_error():
    """`_typed` formats f"...{cause}"; when the cause's __str__ raises, that RuntimeError
    escapes instead of FailedFunctionError (the query was already charged)."""

    def function(x):
        raise _StrRaises()

    qbl = _filter()(0.5)
    with pytest.raises(dp.FailedFunctionError):
        qbl(_stub(0.1, function=function))


def test_a_map_exception_whose_str_raises_becomes_failed_map_error():
    """Same in the filter's map call at `query-loss`: RuntimeError instead of FailedMapError."""

    def bad_map(d_in):
        raise _StrRaises()

    qbl = _filter()(0.5)
    with pytest.raises(dp.FailedMapError):
        qbl(Measurement(D, lambda x: 0.0, M, PURE, bad_map))


def test_a_mismatched_query_domain_whose_repr_raises_gives_a_typed_error():
    """`_admissible` builds the mismatch message with f"{query.input_domain}", which runs the
    query's own __str__/__repr__; if that raises, a RuntimeError escapes instead of
    DomainMismatchError."""
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")

    class Loud(Domain):  # AtomDomain is sealed: a user domain with the atom's methods
        admit = AtomDomain.admit
        admit_all = AtomDomain.admit_all
        _key = AtomDomain._key

        def __repr__(self):
            raise RuntimeError("repr")

        __str__ = __repr__

    loud = Loud.__new__(Loud)
    loud.__dict__.update(dp.atom_domain(bounds=(0.0, 1.0), nan=False).__dict__)
    qbl = dp.c.make_fully_adaptive_composition(D, M, PURE)(0.5)
    with pytest.raises(dp.DomainMismatchError):
        qbl(_stub(0.0, domain=loud))


def test_data_that_cannot_be_deep_copied_gives_a_typed_error():
    """make_fully_adaptive_composition admits any Domain; `copy.deepcopy(self._data)` runs after
    the charge and outside `_typed`, so data a user domain admits but deepcopy cannot copy gives
    an untyped TypeError (and leaves the query charged)."""
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")

    class Handles(Domain):
        def admit(self, value):
            return value

        def _key(self):
            return ()

        def __repr__(self):
            return "Handles()"

    handles = Handles()
    odometer = dp.c.make_fully_adaptive_composition(handles, M, PURE)
    qbl = odometer(threading.Lock())
    with pytest.raises(dp.DPError):
        qbl(Measurement(handles, lambda x: 0, M, PURE, lambda d_in: 0.0))


# --- C. parity / precision ---


def test_a_numpy_loss_is_answered_as_in_opendp():
    """OpenDP 0.16 answers a query whose map returns np.float64(0.5) in a filter of budget 1
    (checked: `make_user_measurement(..., lambda d: np.float64(0.5))` -> answered, privacy_loss
    0.5).  certdp refuses it with FailedMapError although its own boundary accepts np.float64
    for d_in / d_out (make_privacy_filter(odo, np.float64(1), np.float64(1)) works)."""
    qbl = _filter()(0.5)
    assert qbl(_stub(np.float64(0.5))) == 0.0
    assert qbl.privacy_loss(1.0) == 0.5


def test_a_query_that_fits_the_fraction_budget_exactly_is_answered():
    """Precision, not soundness.  The check compares T = ceil_f64(S + l) with the EXACT d_out,
    so with d_out = Fraction(1, 3) a query whose loss is exactly 1/3 is refused ("would be
    0.33333333333333337 ... above the budget d_out = Fraction(1, 3)"), although the exact sum
    equals d_out (all Theorem 3 needs) and the map states 0.33333333333333337 >= 1/3.  Comparing
    the exact sum A with d_out (or T with the stated map value) would answer it."""
    qbl = _filter(d_out=Fraction(1, 3))(0.5)
    assert qbl(_stub(Fraction(1, 3))) == 0.0


# --- D. public attributes of the release decide the check (odometer.tex assumes only that
#        PRIVATE attributes are not written) ---


def test_writing_ordered_on_the_release_measure_does_not_lift_the_budget():
    """odometer.tex assumes "user code does not write the queryable's private attributes
    (names starting with _)".  `invoke` reads the PUBLIC `self.output_measure` and calls
    `measure.ordered(total, d_out)` on that object (Lemma "what runs under the lock" says the
    order runs no user code).  The analyst, holding the release, sets an instance attribute
    `q.output_measure.ordered = lambda a, b: True`: an honest Laplace query with eps = 100 is
    then answered twice under budget 1 (privacy_loss(1.0) == 200.0), and every other release of
    the same filter measurement shares that measure object and is bypassed too.  This is
    referee-comp's finding A in a new place: the fix of 5e615f5 (`_same`) does not cover it."""
    measurement = _filter()
    qbl = measurement(0.5)
    _forced(qbl.output_measure, "ordered", lambda a, b: True)
    expensive = dp.m.make_laplace(D, M, 0.01)  # eps = 100 at d_in = 1
    with pytest.raises(dp.FailedFunctionError):
        qbl(expensive)


def test_writing_input_domain_on_the_release_does_not_admit_foreign_queries():
    """`_admissible` compares with the PUBLIC `self.input_domain`; `q.input_domain = bounded`
    makes a query on atom_domain(bounds=(0, 1)) admissible on unbounded data (value vs error on
    datasets 0.9 apart, as in test A).  The check should use the space fixed at construction."""
    bounded = dp.atom_domain(bounds=(0.0, 1.0), nan=False)
    qbl = _filter()(1.4)
    qbl.input_domain = bounded
    with pytest.raises(dp.DomainMismatchError):
        qbl(dp.m.make_laplace(bounded, M, 1.0))


# --- further attacks of the same kinds ---


def test_mutating_the_measure_shown_by_the_release_does_not_admit_another_measure():
    """The release's public output_measure is a copy: making its inner measure zCDP does not
    make an Approximate(zCDP) query admissible under an Approximate(MaxDivergence) filter."""
    qbl = _filter(d_out=(1.0, 1e-6), measure=dp.approximate(PURE))(0.5)
    _forced(qbl.output_measure, "measure", dp.zero_concentrated_divergence())
    azcdp = dp.approximate(dp.zero_concentrated_divergence())
    with pytest.raises(dp.MeasureMismatchError):
        qbl(_stub((0.1, 0.0), measure=azcdp))
    assert qbl.privacy_loss(1.0) == (0.0, 0.0)


def test_mutating_the_domain_shown_by_the_release_does_not_admit_a_bounded_query():
    """Setting bounds on the release's public input_domain object changes nothing checked."""
    bounded = dp.atom_domain(bounds=(0.0, 1.0), nan=False)
    qbl = _filter()(1.4)
    _forced(qbl.input_domain, "bounds", (0.0, 1.0))
    with pytest.raises(dp.DomainMismatchError):
        qbl(dp.m.make_laplace(bounded, M, 1.0))
    assert qbl.input_domain is not _filter().input_domain


def test_a_nested_element_domain_whose_key_lies_is_refused():
    """The key of a vector domain holds its element domain; an instance _key on the query's
    element domain is never called either."""
    ours = dp.vector_domain(dp.atom_domain(T="f64", nan=False))
    element = dp.atom_domain(bounds=(0.0, 1.0), nan=False)
    _forced(element, "_key", lambda: D._key())
    theirs = dp.vector_domain(element)
    metric = dp.symmetric_distance()
    qbl = dp.c.make_fully_adaptive_composition(ours, metric, PURE)([0.5, 3.0])
    query = Measurement(theirs, lambda x: 0.0, metric, PURE, lambda d_in: 0.0)
    with pytest.raises(dp.DomainMismatchError):
        qbl(query)
    honest = Measurement(dp.vector_domain(dp.atom_domain(T="f64", nan=False)),
                         lambda x: len(x), metric, PURE, lambda d_in: 0.0)  # fmt: skip
    assert qbl(honest) == 2


def test_an_instance_eq_on_the_query_domain_is_never_called():
    """An instance __eq__ (or _key) that claims equality decides nothing."""
    bounded = dp.atom_domain(bounds=(0.0, 1.0), nan=False)
    _forced(bounded, "__eq__", lambda other: True)
    _forced(bounded, "_key", lambda: D._key())
    qbl = dp.c.make_fully_adaptive_composition(D, M, PURE)(0.5)
    with pytest.raises(dp.DomainMismatchError):
        qbl(_stub(0.0, domain=bounded))


def test_a_query_whose_copy_fails_stays_charged():
    """The copy comes after the charge, so the query is charged whatever the data: a failed
    copy is a typed error and the loss stays spent."""
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")

    class Handles(Domain):
        def admit(self, value):
            return value

        def _key(self):
            return ()

    handles = Handles()
    odometer = dp.c.make_fully_adaptive_composition(handles, M, PURE)
    measurement = dp.c.make_privacy_filter(odometer, 1.0, 1.0)
    qbl = measurement(threading.Lock())
    with pytest.raises(dp.FailedFunctionError, match="data copy"):
        qbl(Measurement(handles, lambda x: 0, M, PURE, lambda d_in: 0.75))
    assert qbl.privacy_loss(1.0) == 0.75
    with pytest.raises(dp.FailedFunctionError, match="refused before release"):
        qbl(Measurement(handles, lambda x: 0, M, PURE, lambda d_in: 0.5))


def test_numpy_losses_in_pairs_and_in_the_odometer():
    """NumPy coordinates of an approximate loss, and NumPy losses in an odometer's
    privacy_loss, are their exact values."""
    approx = dp.approximate(PURE)
    qbl = _filter(d_out=(1.0, 1e-6), measure=approx)(0.5)
    assert qbl(_stub((np.float64(0.5), np.float32(0.0)), measure=approx)) == 0.0
    assert qbl.privacy_loss(1.0) == (0.5, 0.0)
    odometer_qbl = dp.c.make_fully_adaptive_composition(D, M, PURE)(0.5)
    odometer_qbl(_stub(np.float64(0.25)))
    odometer_qbl(_stub(np.float64(0.5)))
    assert odometer_qbl.privacy_loss(1.0) == 0.75


def test_a_numpy_nan_loss_is_refused_typed():
    qbl = _filter()(0.5)
    with pytest.raises(dp.FailedMapError):
        qbl(_stub(np.float64("nan")))
    assert qbl.privacy_loss(1.0) == 0.0


def test_the_exact_budget_fits_sums_that_reach_it_and_refuses_past_it():
    """Three queries of exactly 1/3 fill a budget of 1 exactly; one more (any positive loss)
    is refused."""
    qbl = _filter(d_out=1)(0.5)
    for _ in range(3):
        qbl(_stub(Fraction(1, 3)))
    with pytest.raises(dp.FailedFunctionError, match="refused before release"):
        qbl(_stub(Fraction(1, 10**30)))
    assert qbl.privacy_loss(1.0) == 1.0


def test_a_huge_fraction_budget_admits_finite_queries():
    """Under a Fraction budget above the largest f64, queries whose exact total passes the
    largest f64 (so its rounding is +inf) but not the budget are answered; the reported loss
    is then +inf (rounded up), never below the exact total."""
    qbl = _filter(d_out=Fraction(2**1100))(0.5)
    assert qbl(_stub(1.5e308)) == 0.0
    assert qbl(_stub(1.5e308)) == 0.0
    assert qbl.privacy_loss(1.0) == math.inf


def test_the_release_repr_never_raises():
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    class Loud(Domain):  # AtomDomain is sealed: a user domain with the atom's methods
        admit = AtomDomain.admit
        admit_all = AtomDomain.admit_all
        _key = AtomDomain._key

        def __repr__(self):
            raise RuntimeError("repr")

    loud = Loud.__new__(Loud)
    loud.__dict__.update(D.__dict__)
    qbl = dp.c.make_fully_adaptive_composition(loud, M, PURE)(0.5)
    assert "OdometerQueryable" in repr(qbl)


@pytest.mark.parametrize(
    "data",
    [
        [1.0, 2.0, 3.0],
        np.array([1.0, 2.0, 3.0]),
        [Fraction(1, 2), Fraction(3, 2)],
        [[1.0], [2.0]],
    ],
    ids=["floats", "array", "fractions", "nested"],
)
def test_no_query_changes_the_data_the_next_query_sees(data):
    """Each release gets its own copy (a new list, a new array, or a deep copy), so a query's
    function that changes its argument in place changes nothing for the next query."""
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")

    class Anything(Domain):
        def admit(self, value):
            return value

        def _key(self):
            return ()

    anything = Anything()
    qbl = dp.c.make_fully_adaptive_composition(anything, M, PURE)(data)
    seen = []

    def vandal(x):
        seen.append(repr(x))
        if isinstance(x, np.ndarray):
            x[:] = -1.0
        elif isinstance(x[0], list):
            x[0].append(9.0)
        else:
            x.clear()
        return 0

    for _ in range(2):
        qbl(Measurement(anything, vandal, M, PURE, lambda d_in: 0.0))
    assert seen[0] == seen[1] == repr(data)


def test_a_query_whose_attributes_raise_gives_typed_errors():
    """Reading a query's domain, or looking up its map or function, happens where any
    exception becomes a typed one."""

    class NoDomain(Measurement):
        @property
        def input_domain(self):
            raise RuntimeError("no domain")

    qbl = _filter()(0.5)
    no_domain = NoDomain.__new__(NoDomain)
    no_domain.__dict__.update(_stub(0.1).__dict__)
    with pytest.raises(dp.FailedFunctionError):
        qbl(no_domain)

    class NoMap(Measurement):
        @property
        def map(self):
            raise RuntimeError("no map")

    no_map = NoMap.__new__(NoMap)
    no_map.__dict__.update(_stub(0.1).__dict__)
    with pytest.raises(dp.FailedMapError):
        qbl(no_map)

    class NoInvoke(Measurement):
        @property
        def invoke(self):
            raise RuntimeError("no function")

    no_invoke = NoInvoke.__new__(NoInvoke)
    no_invoke.__dict__.update(_stub(0.25).__dict__)
    with pytest.raises(dp.FailedFunctionError):
        qbl(no_invoke)
    assert qbl.privacy_loss(1.0) == 0.25  # charged before its function was looked up

    class Impostor:
        @property
        def __class__(self):
            raise RuntimeError("no class")

    with pytest.raises(dp.FailedFunctionError):
        qbl(Impostor())


def test_every_end_a_guard_hook_returns_is_called_once_however_the_query_ends():
    """core/queryable.tex, item Guards: a hook may return an end, called when the query ends
    (answered, refused or failed); the odometer queryable honours it as dp.Queryable does."""
    from certdp.core.queryable import guarded

    calls = []

    def hook():
        calls.append("hook")
        return lambda: calls.append("end")

    with guarded(hook):
        qbl = _filter()(0.5)
    qbl(_stub(0.5))  # answered
    with pytest.raises(dp.FailedFunctionError):
        qbl(_stub(0.75))  # refused
    with pytest.raises(dp.FailedFunctionError):
        qbl(_stub(0.1, function=lambda x: 1 / 0))  # failed half-way
    assert calls == ["hook", "end"] * 3


def test_an_odometer_released_under_approximate_zcdp_composition_does_not_wedge_it():
    """A query of an Approximate(zCDP) adaptive compositor that releases an odometer queryable:
    while that queryable answers, the compositor is busy; once it has answered, the compositor
    answers its next query."""
    azcdp = dp.approximate(dp.zero_concentrated_divergence())
    compositor = dp.c.make_adaptive_composition(
        D, M, azcdp, d_in=1.0, d_mids=[(0.5, 0.0), (0.5, 0.0)]
    )(0.5)
    odometer = dp.c.make_fully_adaptive_composition(D, M, azcdp)
    released = compositor(Measurement(D, odometer, M, azcdp, lambda d_in: (0.25, 0.0)))
    assert released(_stub((0.1, 0.0), measure=azcdp)) == 0.0
    assert compositor(_stub((0.5, 0.0), measure=azcdp)) == 0.0
    with pytest.raises(dp.FailedFunctionError, match="sequentiality"):
        released(_stub((0.1, 0.0), measure=azcdp))  # an earlier release, retired
