"""The accuracy conversions (measurements/_accuracy/accuracy.tex): exact numbers, the safe side
against a high-precision reference and against OpenDP 0.16, bad input, the contract."""

from __future__ import annotations

import math
import types

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedCastError, MakeDomainError
from certdp.measurements._accuracy import accuracy as acc_module
from certdp.measurements._accuracy.contract import CONTRACT, NAMES, check_case, reference

odp = pytest.importorskip("opendp.prelude")

SCALES = [0.1, 0.5, 1.0, 2.0, 3.7, 10.0, 100.0, 1e4]
ALPHAS = [0.5, 0.1, 0.05, 0.01, 1e-3, 1e-6]


@pytest.fixture(autouse=True)
def _contrib():
    """The lemma is not vetted in this branch: run with contrib."""
    dp.enable_features("contrib")
    yield


def _ulps(a: float, b: float) -> int:
    return abs(int(np.float64(a).view(np.int64)) - int(np.float64(b).view(np.int64)))


def test_prelude_exports_opendps_names():
    for name in NAMES:
        assert getattr(dp, name) is getattr(acc_module, name)
        assert name in dp.__all__


@pytest.mark.parametrize("name", NAMES)
def test_every_grid_point_is_on_the_safe_side_and_nearest(name):
    """check_case: a returned accuracy is >= the exact value and its predecessor is below it;
    a returned scale meets the accuracy and its successor does not (mpmath, 120 digits, with a
    1e-60 margin always on the side that makes the check harder)."""
    for value in SCALES:
        for alpha in ALPHAS:
            if "discrete_gaussian" in name and value > 100:
                continue  # the reference's direct sums: tested in the contract up to 1e4
            check_case(name, value, alpha)


def _exact_accuracy(name, scale, alpha):
    mp = reference.mp()
    if name.startswith("laplacian"):
        return reference.laplace_accuracy(scale, alpha)
    if name.startswith("discrete"):
        return reference.discrete_laplace_accuracy(scale, alpha)
    return scale * mp.sqrt(2) * mp.erfinv(1 - mp.mpf(alpha))


@pytest.mark.parametrize(
    "name",
    [
        "laplacian_scale_to_accuracy",
        "discrete_laplacian_scale_to_accuracy",
        "gaussian_scale_to_accuracy",
    ],
)
def test_accuracies_against_opendp(name):
    """certdp's accuracy is the least float >= the exact value: where OpenDP's is >= the exact
    value (safe), certdp's is <= OpenDP's (equal when OpenDP rounded up); where OpenDP's is below
    it (OpenDP rounds to nearest), certdp's is above OpenDP's."""
    counts = {"equal": 0, "opendp below the truth": 0}
    for scale in SCALES:
        for alpha in ALPHAS:
            ours, theirs = getattr(dp, name)(scale, alpha), getattr(odp, name)(scale, alpha)
            exact = _exact_accuracy(name, scale, alpha)
            assert ours >= exact * (1 + reference.mp().mpf(10) ** -60)
            if theirs >= exact:
                assert ours <= theirs, (scale, alpha)
            else:
                assert ours > theirs, (scale, alpha)
                counts["opendp below the truth"] += 1
            counts["equal"] += ours == theirs
            assert _ulps(ours, theirs) <= 4 or name.startswith("gaussian"), (scale, alpha)
    assert counts["equal"] >= 1 and counts["opendp below the truth"] >= 1, counts


def _scale_meets(name, scale, accuracy, alpha) -> bool:
    """Does noise of this scale meet the accuracy (reference, 120 digits)?"""
    mp = reference.mp()
    if scale == 0:
        return True
    if name == "accuracy_to_laplacian_scale":
        return mp.mpf(scale) * mp.log(1 / mp.mpf(alpha)) <= accuracy
    if name == "accuracy_to_discrete_laplacian_scale":
        return reference.discrete_laplace_accuracy(scale, alpha) <= accuracy
    return reference.gaussian_tail(mp.mpf(accuracy) / mp.mpf(scale)) <= alpha


@pytest.mark.parametrize(
    "name",
    [
        "accuracy_to_laplacian_scale",
        "accuracy_to_discrete_laplacian_scale",
        "accuracy_to_gaussian_scale",
    ],
)
def test_scales_against_opendp(name):
    """certdp's scale is the largest float meeting the accuracy: where OpenDP's meets it too,
    certdp's is >= OpenDP's; where OpenDP's does not (its bisection returns the failing end of
    its bracket; rounding to nearest), certdp's is below OpenDP's."""
    failing = 0
    for accuracy in SCALES:
        for alpha in ALPHAS:
            ours, theirs = getattr(dp, name)(accuracy, alpha), getattr(odp, name)(accuracy, alpha)
            assert _scale_meets(name, ours, accuracy, alpha)
            if _scale_meets(name, theirs, accuracy, alpha):
                assert ours >= theirs, (accuracy, alpha)
            else:
                assert ours < theirs, (accuracy, alpha)
                failing += 1
            assert _ulps(ours, theirs) <= 16 or name.endswith("gaussian_scale"), (accuracy, alpha)
    assert failing >= 1  # OpenDP's value misses the accuracy somewhere on this grid


def test_discrete_gaussian_against_opendp():
    """Same integer accuracy as OpenDP for scales up to 64 at ordinary alpha; above 64 the bound
    by the continuous Gaussian is at most two larger; the scales are never above OpenDP's by
    more than rounding, and never above the continuous Gaussian's (OpenDP's cap)."""
    for scale in SCALES:
        for alpha in ALPHAS:
            ours = dp.discrete_gaussian_scale_to_accuracy(scale, alpha)
            theirs = odp.discrete_gaussian_scale_to_accuracy(scale, alpha)
            if scale <= 64:
                assert ours == theirs, (scale, alpha)
            else:
                assert theirs <= ours <= theirs + 2, (scale, alpha)
    for accuracy in [1.0, 2.0, 3.0, 5.5, 10.0, 40.0]:
        for alpha in ALPHAS:
            ours = dp.accuracy_to_discrete_gaussian_scale(accuracy, alpha)
            theirs = odp.accuracy_to_discrete_gaussian_scale(accuracy, alpha)
            assert ours <= dp.accuracy_to_gaussian_scale(accuracy, alpha)
            assert ours <= theirs * (1 + 1e-12), (accuracy, alpha, ours, theirs)


def test_exact_numbers_equal_to_opendp():
    """Points where OpenDP's value is the correctly directed one: certdp returns it exactly."""
    points = [
        ("gaussian_scale_to_accuracy", 2.0, 0.5),
        ("gaussian_scale_to_accuracy", 0.5, 0.01),
        ("laplacian_scale_to_accuracy", 100.0, 1e-10),
        ("discrete_laplacian_scale_to_accuracy", 1.0, 0.05),
        ("discrete_gaussian_scale_to_accuracy", 1.0, 0.05),
        ("discrete_gaussian_scale_to_accuracy", 10.0, 0.1),
        ("accuracy_to_laplacian_scale", 2.0, 0.5),
        ("accuracy_to_gaussian_scale", 0.5, 0.01),
        ("accuracy_to_discrete_laplacian_scale", 0.5, 0.01),
        ("accuracy_to_discrete_gaussian_scale", 2.0, 0.5),
    ]
    for name, value, alpha in points:
        assert getattr(dp, name)(value, alpha) == getattr(odp, name)(value, alpha), name


def test_where_opendp_falls_below_the_truth():
    """OpenDP's f64 formulas at tiny alpha: certdp's values are exact and safe."""
    # discrete Gaussian, scale 3.7, alpha = 5e-324: OpenDP says 31, the tail there is ~1e-16
    assert odp.discrete_gaussian_scale_to_accuracy(3.7, 5e-324) == 31.0
    ours = dp.discrete_gaussian_scale_to_accuracy(3.7, 5e-324)
    assert reference.discrete_gaussian_tail(3.7, 31) > 1e-20
    check_case("discrete_gaussian_scale_to_accuracy", 3.7, 5e-324)
    assert ours > 31
    # Gaussian, alpha = 1e-10: OpenDP's erf_inv(1 - 1e-10) is low by ~2e-9 relative
    theirs = odp.gaussian_scale_to_accuracy(100.0, 1e-10)
    assert reference.gaussian_tail(theirs / 100.0) > 1e-10  # OpenDP's accuracy does not hold
    assert dp.gaussian_scale_to_accuracy(100.0, 1e-10) > theirs
    check_case("gaussian_scale_to_accuracy", 100.0, 1e-10)


def test_edges():
    assert dp.laplacian_scale_to_accuracy(1.0, 1.0) == 0.0
    assert math.copysign(1, dp.laplacian_scale_to_accuracy(1.0, 1.0)) == 1  # not -0.0
    assert dp.laplacian_scale_to_accuracy(0.0, 0.05) == 0.0
    assert dp.discrete_laplacian_scale_to_accuracy(0.0, 0.05) == 0.0  # OpenDP: nan
    assert dp.gaussian_scale_to_accuracy(0.0, 0.05) == 0.0
    assert dp.discrete_gaussian_scale_to_accuracy(0.0, 0.05) == 1.0
    assert dp.discrete_gaussian_scale_to_accuracy(1.0, 1.0) == 1.0
    for name in NAMES:
        if name.startswith("accuracy_to"):
            assert getattr(dp, name)(0.0, 0.05) == 0.0
    # overflow: an accuracy beyond f64 is +inf (>= the truth), a scale the largest f64
    assert dp.laplacian_scale_to_accuracy(1e308, 1e-300) == math.inf
    assert dp.gaussian_scale_to_accuracy(1e308, 1e-300) == math.inf
    assert dp.accuracy_to_laplacian_scale(1e308, 0.9999999) == np.finfo(float).max
    # subnormal and tiny scales
    for name in NAMES:
        for value in (5e-324, 1e-300):
            for alpha in (0.05, 5e-324 if not name.startswith("accuracy_to") else 1e-300):
                check_case(name, value, alpha)


def test_f32():
    alpha = float(np.float32(0.05))
    for name in NAMES:
        result = getattr(dp, name)(1.5, alpha, T="f32")
        assert float(np.float32(result)) == result
    a32 = dp.laplacian_scale_to_accuracy(1.0, alpha, T="f32")
    assert a32 >= reference.laplace_accuracy(1.0, alpha)
    below = float(np.nextafter(np.float32(a32), np.float32(0)))
    assert below < reference.laplace_accuracy(1.0, alpha)
    s32 = dp.accuracy_to_gaussian_scale(1.0, alpha, T="f32")
    assert reference.gaussian_tail(1.0 / s32) <= alpha
    above = float(np.nextafter(np.float32(s32), np.float32(1)))
    assert reference.gaussian_tail(1.0 / above) > alpha
    with pytest.raises(FailedCastError) as error:  # 0.1 is not an f32 value
        dp.laplacian_scale_to_accuracy(0.1, alpha, T="f32")
    assert error.value.parameter == "scale"
    # alpha = 0.05 is not one either: it is rounded down (test_accuracy_referee.py)
    assert dp.laplacian_scale_to_accuracy(1.0, 0.05, T="f32") >= a32


BAD_VALUES = [
    (-1.0, "may not be negative"),
    (-0.0, "may not be negative"),
    (math.nan, "must be finite"),
    (math.inf, "must be finite"),
    (True, "must be a number"),
]


@pytest.mark.parametrize("name", NAMES)
def test_bad_scale_or_accuracy(name):
    parameter = "accuracy" if name.startswith("accuracy_to") else "scale"
    for value, message in BAD_VALUES:
        with pytest.raises(DPError, match=message) as error:
            getattr(dp, name)(value, 0.05)
        assert error.value.parameter == parameter
        assert error.value.variant == "InvalidDistance"
    for value in (np.float64(-0.0), np.float32(-1.0), np.float64(np.nan), np.int64(-3)):
        with pytest.raises(DPError) as error:
            getattr(dp, name)(value, 0.05)
        assert error.value.parameter == parameter and error.value.variant == "InvalidDistance"
    with pytest.raises(DPError) as error:
        getattr(dp, name)("1.0", 0.05)
    assert error.value.parameter == parameter
    with pytest.raises(MakeDomainError) as error:
        getattr(dp, name)(1, 0.05, T="i32")
    assert error.value.parameter == "T"


@pytest.mark.parametrize("name", NAMES)
def test_bad_alpha(name):
    to_scale = name.startswith("accuracy_to")
    bad = [0.0, -0.0, -0.5, 1.5, math.nan, math.inf, -math.inf] + ([1.0] if to_scale else [])
    for alpha in bad:
        with pytest.raises(DPError) as error:
            getattr(dp, name)(1.0, alpha)
        assert error.value.parameter == "alpha", (name, alpha)
    if not to_scale:
        getattr(dp, name)(1.0, 1.0)  # alpha = 1 is allowed here, as in OpenDP


def test_exact_inputs_are_accepted():
    """Integers, NumPy scalars and rationals with an exact f64 value are read exactly."""
    from fractions import Fraction

    base = dp.gaussian_scale_to_accuracy(2.0, 0.25)
    assert dp.gaussian_scale_to_accuracy(2, Fraction(1, 4)) == base
    assert dp.gaussian_scale_to_accuracy(np.float64(2.0), np.float32(0.25)) == base


def test_contract_verifies():
    report = CONTRACT.verify(max_examples=40)
    assert report.examples == 40


def test_contract_refutes_a_wrong_module():
    """A module whose Gaussian accuracy is one float too small (the predecessor of the real
    one) is refuted: the contract is not vacuous."""

    def low(scale, alpha, T=None):
        real = acc_module.gaussian_scale_to_accuracy(scale, alpha, T)
        return math.nextafter(real, 0) if real > 0 else real

    functions = {name: getattr(acc_module, name) for name in NAMES}
    wrong = types.SimpleNamespace(**{**functions, "gaussian_scale_to_accuracy": low})
    with pytest.raises(DPError, match="tail"):
        for alpha in (0.05, 0.01, 0.3):
            check_case("gaussian_scale_to_accuracy", 1.0, alpha, wrong)


def test_the_guide_page_runs():
    """docs/guide/accuracy.rst: its examples run (in one namespace, as the site builds them),
    the one declaring an error raises it, and what it says about OpenDP's numbers holds."""
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs/guide/accuracy.rst"
    blocks = re.findall(
        r"\.\. certdp-run::\n((?:   :raises: \w+\n)?)\n((?:   .*\n|\n)+)", page.read_text()
    )
    assert len(blocks) == 4
    namespace: dict = {}
    for option, body in blocks:
        code = "\n".join(line[3:] for line in body.splitlines())
        if option:
            name = option.split(":raises:")[1].strip()
            with pytest.raises(DPError) as error:
                exec(code, namespace)
            assert type(error.value).__name__ == name
        else:
            exec(code, namespace)
    assert odp.discrete_gaussian_scale_to_accuracy(3.7, 5e-324) == 31.0
    assert reference.gaussian_tail(odp.gaussian_scale_to_accuracy(100.0, 1e-10) / 100) > 1e-10


@pytest.mark.parametrize("name", NAMES)
def test_an_unvetted_lemma_requires_contrib(monkeypatch, request, name):
    """Every conversion passes the audit gate under the row name ``accuracy``."""
    from certdp.audit import gate
    from certdp.audit.status import NEVER_VETTED, VettingStatus
    from certdp.core.errors import FeatureNotEnabledError
    from certdp.core.features import disable_features

    monkeypatch.setattr(gate, "vetting_status", lambda row: VettingStatus(NEVER_VETTED))
    if "accuracy" in gate._up_to_date:
        gate._up_to_date.discard("accuracy")
        request.addfinalizer(lambda: gate._up_to_date.add("accuracy"))
    disable_features("contrib")
    with pytest.raises(FeatureNotEnabledError, match="accuracy requires 'contrib'"):
        getattr(dp, name)(1.0, 0.5)
    dp.enable_features("contrib")
    assert getattr(dp, name)(1.0, 0.5) >= 0
