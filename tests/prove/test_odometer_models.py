"""The odometer and filter models: the code's readings and map equal the models on random
inputs, the unedited code is proved, and unsound edits of the code are refuted by
``certdp prove``'s own step (a filter comparing the wrong way, a filter that charges after the
release, a map rounding the budget down, an odometer adding in floats)."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators.composition.smt_model import composed_loss
from certdp.combinators.fully_adaptive_composition import smt_model as odometer_model
from certdp.combinators.privacy_filter import smt_model as filter_model
from certdp.contracts.smt import float_of
from certdp.prove.engine import solve

from .edited import prove_edited

_F64 = z3.Float64()
_LOSSES = st.one_of(
    st.floats(min_value=0.0, allow_nan=False),
    st.sampled_from([0.0, 5e-324, 1e-300, 1 / 3, 1.0, 1e308, 1.7976931348623157e308, math.inf]),
)
ODOMETER = "combinators/_odometer/odometer.py"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


@given(st.lists(_LOSSES, min_size=1, max_size=4))
def test_odometer_readings_are_the_model(losses):
    readings = odometer_model.code_readings(tuple(losses))
    for step, reading in enumerate(readings):
        model, _ = composed_loss([z3.FPVal(v, _F64) for v in losses[: step + 1]], _F64)
        assert _bits(float_of(z3.simplify(model))) == _bits(reading)


@given(
    st.one_of(
        _LOSSES,
        st.fractions(min_value=0, max_value=10**6),
        st.integers(min_value=0, max_value=10**400),
    ),
    st.sampled_from([0.0, 1.0, 2.5]),
)
def test_filter_map_is_the_model(d_out, d_in):
    value = filter_model.filter_map(d_in, d_out, d_in)
    if d_out == math.inf:
        assert value == math.inf
        return
    model = float_of(z3.simplify(z3.fpToFP(z3.RTP(), z3.RealVal(str(Fraction(d_out))), _F64)))
    assert _bits(value) == _bits(model)
    assert value == math.inf or Fraction(value) >= Fraction(d_out)


# every obligation of both models, which is `certdp prove make_fully_adaptive_composition
# make_privacy_filter`: the full re-proof is `certdp prove`'s; `make test` checks that its
# committed result is current and that a stale one fails `certdp audit --strict`
# (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_the_unedited_code_is_proved():
    for obligation in odometer_model.obligations() + filter_model.obligations():
        assert solve(obligation, 300)["status"] == "proved", obligation.claim


def test_a_filter_comparing_the_wrong_way_is_refuted(tmp_path):
    edit = {
        ODOMETER: [
            (
                "if not _within(self._pair, after, d_out):",
                "if not _within(self._pair, d_out, after):",
            )
        ]
    }
    summary = prove_edited(tmp_path, "make_privacy_filter", edit, select="(sequence)")
    assert summary["status"] == "counterexample", summary


def test_a_filter_that_charges_after_the_release_is_refused_nothing_is_refuted(tmp_path):
    edit = {
        ODOMETER: [
            ("                self._spent = after  # label: charge-spent\n", ""),
            ("            self._charged.append((query, loss))  # label: charge\n", ""),
            (  # the release sits inside the sequential block (16 spaces)
                '                released = _typed(function, data, FailedFunctionError, "function")'
                "  # label: release\n",
                '                released = _typed(function, data, FailedFunctionError, "function")\n'
                "                with self._lock:\n"
                "                    if self._budget is not None:\n"
                "                        self._spent = after\n"
                "                    self._charged.append((query, loss))\n",
            ),
        ]
    }
    summary = prove_edited(tmp_path, "make_privacy_filter", edit, select="(callback)")
    assert summary["status"] == "counterexample", summary
    # the sequential instances cannot see it: only queries submitted during a release can
    summary = prove_edited(tmp_path / "seq", "make_privacy_filter", edit, select="(sequence)")
    assert summary["status"] == "proved", summary


def test_a_filter_map_rounding_the_budget_down_is_refuted(tmp_path):
    edit = {
        "combinators/privacy_filter/make_privacy_filter.py": [
            ('return inf_cast(value, "f64")  # label: stated', "return float(value)")
        ]
    }
    summary = prove_edited(tmp_path, "make_privacy_filter", edit, select="budgets (f64 samples")
    assert summary["status"] == "counterexample", summary


def test_an_odometer_adding_in_floats_is_refuted(tmp_path):
    edit = {
        ODOMETER: [
            (
                'return compose_losses(measure, losses, FailedMapError, "query")',
                "return float(sum(losses))",
            )
        ]
    }
    summary = prove_edited(
        tmp_path, "make_fully_adaptive_composition", edit, select="odometer (MaxDivergence)"
    )
    assert summary["status"] == "counterexample", summary


@given(
    st.tuples(
        st.one_of(_LOSSES, st.fractions(min_value=0, max_value=10**6)),
        st.one_of(st.floats(min_value=0.0, max_value=1.0), st.fractions(min_value=0, max_value=1)),
    ),
    st.sampled_from([0.0, 1.0, 2.5]),
)
def test_approximate_zcdp_filter_map_is_the_model(d_out, d_in):
    value = filter_model.filter_map(d_in, d_out, d_in)
    assert type(value) is tuple and len(value) == 2
    for stated, budget in zip(value, d_out):
        if budget == math.inf:
            assert stated == math.inf
            continue
        exact = z3.RealVal(str(Fraction(budget)))
        model = float_of(z3.simplify(z3.fpToFP(z3.RTP(), exact, _F64)))
        assert _bits(stated) == _bits(model)


def test_the_pair_instances_see_both_coordinates_bind():
    # the seeded pair lists must exercise refusals by rho alone and by delta alone, else an
    # edit of one coordinate's accounting could pass unseen
    by_rho = by_delta = 0
    for losses in filter_model.pair_loss_lists():
        for d_out in filter_model.PAIR_CHECK_BUDGETS:
            answered, _ = filter_model.code_budget(losses, d_out, False)
            kept = []
            for loss, ok in zip(losses, answered):
                if ok:
                    kept.append(loss)
                    continue
                rho_past = math.inf in (loss[0], *(k[0] for k in kept)) or sum(
                    Fraction(v[0]) for v in [*kept, loss]
                ) > Fraction(d_out[0])
                by_rho += rho_past
                by_delta += not rho_past
    assert by_rho > 10 and by_delta > 10


def test_an_approximate_zcdp_filter_not_adding_delta_is_refuted(tmp_path):
    edit = {
        ODOMETER: [
            (
                "_exact_sum([e for _, e in losses]))",
                "_exact_sum([e for _, e in losses][-1:]))",
            )
        ]
    }
    summary = prove_edited(tmp_path, "make_privacy_filter", edit, select="(pairs, sequence)")
    assert summary["status"] == "counterexample", summary


def test_an_approximate_zcdp_filter_admitting_delta_above_one_is_refuted(tmp_path):
    edit = {
        "combinators/privacy_filter/make_privacy_filter.py": [
            ("if approximate_zcdp and not d_out[1] <= 1:", "if approximate_zcdp and False:")
        ]
    }
    summary = prove_edited(tmp_path, "make_privacy_filter", edit, select="(pair map)")
    assert summary["status"] == "counterexample", summary


def test_the_real_child_guard_is_proved():
    dp.enable_features("contrib")
    assert solve(filter_model.child_guard_instance(), 60)["status"] == "proved"


@pytest.mark.parametrize(
    "old, new",
    [
        # the guard never refuses: a child keeps answering after the query returned
        ("if not live[0]:  # label: sequential-guard", "if False:  # label: sequential-guard"),
        # the query's function never ends for its children
        ("live[0] = False  # label: sequential-end", "live[0] = True  # label: sequential-end"),
        # no guard is installed around the query's function (a guard that never refuses)
        ("guard = _answering_while(live, number)", "guard = lambda: None"),
        # the guard is installed under every measure (MaxDivergence children stop answering)
        (
            "sequential = self._pair and _is_approximate_zcdp(measure)\n",
            "sequential = True\n",
        ),
    ],
    ids=["never-refuses", "never-ends", "no-guard", "every-measure"],
)
def test_an_unsound_child_guard_in_the_code_is_refuted(tmp_path, old, new):
    edit = {"combinators/_odometer/odometer.py": [(old, new)]}
    summary = prove_edited(tmp_path, "make_privacy_filter", edit, select="child guard")
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize(
    "relative, old, new",
    [
        # the guard is kept only by queryables made in the query's own thread (the old gap)
        (
            "combinators/_odometer/odometer.py",
            "everywhere = guarded_everywhere(guard)  # label: sequential-everywhere",
            "everywhere = contextlib.nullcontext()  # label: sequential-everywhere",
        ),
        # a queryable keeps only its own thread's hooks, not the process-wide ones
        ("core/queryable.py", "return (*here, *extra)  # label: current", "return here"),
    ],
    ids=["not-everywhere", "thread-local-only"],
)
def test_a_child_guard_missing_other_threads_is_refuted(tmp_path, relative, old, new):
    summary = prove_edited(tmp_path, "make_privacy_filter", {relative: [(old, new)]}, "child guard")
    assert summary["status"] == "counterexample", summary


# two of odometer_model.obligations(), proved by `certdp prove make_fully_adaptive_composition`
# (the full re-proof is `certdp prove`'s; `make test` checks that its committed result is
# current and that a stale one fails `certdp audit --strict`)
@pytest.mark.slow
def test_the_real_renyi_odometer_is_proved():
    for kind in ("code", "model"):
        assert solve(odometer_model.renyi_instance(kind), 120)["status"] == "proved"


@pytest.mark.parametrize(
    "new",
    [
        "return RenyiCurve(curves[:2], charged=True)  # label: renyi-total",  # parts past the second dropped
        "return RenyiCurve(curves[-1:], charged=True)  # label: renyi-total",  # only the latest query
        "return RenyiCurve([max(curves, key=lambda c: c(2.0))], charged=True)  # label: renyi-total",  # max
    ],
    ids=["first-two", "latest-only", "largest-at-2"],
)
def test_an_unsound_renyi_odometer_is_refuted(tmp_path, new):
    edit = {
        "combinators/_odometer/odometer.py": [
            ("return RenyiCurve(curves, charged=True)  # label: renyi-total", new)
        ]
    }
    summary = prove_edited(
        tmp_path, "make_fully_adaptive_composition", edit, select="odometer (RenyiDivergence)"
    )
    assert summary["status"] == "counterexample", summary
