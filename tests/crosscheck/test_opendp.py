"""Cross-checking OpenDP 0.16.0 (in the dev extra that `make test` installs, so these run in
CI): the must-find list is found, and every violation reported reproduces in a fresh process
with OpenDP alone.

One quick run over every twin (``quick_report``, once per session, its tests kept on one
xdist worker) serves every test: a twin is checked on its own (``_check_twin``) whether it is
asked for by name or with all the others, so each must-find is read from that twin's result.
The same run is the one the documentation site shows (``opendp_quick.py``).  Each reproducer
runs once per session in a fresh process (``reproduce``): a must-find test and
``test_every_violation_reproduces_with_opendp_alone`` read the same run of the same script."""

import sys
from fractions import Fraction

import pytest

opendp = pytest.importorskip("opendp")

from certdp.crosscheck import IDEALIZED, VIOLATION, CrosscheckReport  # noqa: E402

from . import opendp_quick  # noqa: E402
from .helpers import run_reproducer  # noqa: E402

MAX = Fraction(sys.float_info.max)
TARGET = "opendp.prelude"

pytestmark = pytest.mark.xdist_group(opendp_quick.GROUP)


# session scope: built once, even when the worker runs other modules between these tests
@pytest.fixture(scope="session")
def quick_report(tmp_path_factory):
    report = opendp_quick.quick_report(tmp_path_factory)
    assert (report.target, report.quick) == (TARGET, True)
    return report


@pytest.fixture(scope="session")
def reproduce(tmp_path_factory):
    """``reproduce(script)``: the script's run in a fresh Python process (``run_reproducer``),
    once per session for each script text."""
    runs = {}

    def run(script: str):
        if script not in runs:
            runs[script] = run_reproducer(script, tmp_path_factory.mktemp("reproducer"))
        return runs[script]

    return run


def alone(quick_report, name: str) -> CrosscheckReport:
    """The report of the twin ``name`` alone, from the quick run over every twin."""
    results = [result for result in quick_report.results if result.twin == name]
    assert len(results) == 1, name
    return CrosscheckReport(quick_report.target, quick_report.quick, results=results)


def test_the_saturating_pairwise_ordered_sum_is_a_violation_with_a_pair(quick_report, reproduce):
    """make_sized_bounded_float_ordered_sum(16, (-0.2 MAX, 0.75 MAX), S="Pairwise<f64>"):
    map(2) = 0.95 MAX, yet moving one record moves the sum by 1.0 MAX."""
    report = alone(quick_report, "make_sized_bounded_float_ordered_sum")
    point = "(16, (-3.5953862697246315e+307, 1.3482698511467367e+308), S='Pairwise<f64>')"
    found = [f for f in report.findings if f.point.endswith(point)]
    assert len(found) == 1
    finding = found[0]
    assert finding.severity == VIOLATION and finding.check == "search"
    assert finding.d_in == "2"
    assert Fraction(19, 20) * MAX * Fraction(999, 1000) < Fraction(float(finding.claimed))
    assert Fraction(float(finding.claimed)) < Fraction(19, 20) * MAX * Fraction(1001, 1000)
    assert Fraction(finding.actual) >= MAX  # the sum moves by a whole MAX
    x, x_prime = eval(finding.x), eval(finding.x_prime)  # literals written by the reproducer
    assert sorted(x) == sorted(x_prime) and x != x_prime  # one record moved, nothing changed
    assert finding.proof.endswith("make_sized_bounded_float_ordered_sum.tex")
    result = reproduce(finding.reproducer)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "import certdp" not in finding.reproducer
    assert report.exit_status() == 1


def test_resize_claims_2_where_the_coupling_gives_4(quick_report, reproduce):
    """OpenDP issue #2927."""
    report = alone(quick_report, "make_resize")
    found = [f for f in report.findings if f.severity == VIOLATION]
    assert found and all(f.check == "coupling" for f in found)
    finding = found[0]
    assert (finding.claimed, finding.actual, finding.d_in) == ("2", "4", "1")
    assert "insert_delete_distance(), size=3" in finding.point
    assert "MO='InsertDeleteDistance'" in finding.point
    result = reproduce(finding.reproducer)
    assert result.returncode == 1, result.stdout + result.stderr


def test_metric_bounded_insert_delete_to_hamming_is_a_violation_with_a_pair(
    quick_report, reproduce
):
    """OpenDP 0.16's map(d_in) = d_in // 2 from insert-delete to Hamming: a rotation of a
    sized dataset is at insert-delete distance 2 and Hamming distance up to the size."""
    report = alone(quick_report, "make_metric_bounded")
    found = [f for f in report.findings if f.severity == VIOLATION]
    assert found and all(f.check == "search" for f in found)
    for finding in found:
        assert "insert_delete_distance()" in finding.point and "size=3" in finding.point
        x, x_prime = eval(finding.x), eval(finding.x_prime)  # literals written by the reproducer
        assert len(x) == len(x_prime) == 3 and sorted(x) == sorted(x_prime)
        hamming = sum(repr(u) != repr(v) for u, v in zip(x, x_prime))
        assert Fraction(finding.actual) == hamming > Fraction(finding.claimed)
        result = reproduce(finding.reproducer)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "import certdp" not in finding.reproducer
    assert report.exit_status() == 1


def test_laplace_threshold_releases_a_lone_key_more_often_than_its_delta(quick_report, reproduce):
    """OpenDP issue #2922: scale 1, threshold 5, a key of count 1 on one side only (distance
    (1, 1, 1)) is released with probability e^-4 / (1 + e^-1) = 1.339 %, OpenDP claims
    delta = 0.4926 %; a lone key of count 0 (distance (1, 0, 0)) with P[Z >= 5], OpenDP claims
    (0, 0)."""
    report = alone(quick_report, "make_laplace_threshold")
    found = {f.d_in: f for f in report.findings if f.severity == VIOLATION}
    assert set(found) == {"(1, 1, 1)", "(1, 0, 0)"}
    assert all(f.check == "lone-keys" for f in found.values())
    tail = found["(1, 1, 1)"]
    assert eval(tail.claimed) == (1.0, 0.004925833956035741)
    assert abs(float(eval(tail.actual.replace("exp", "__import__('math').exp"))) - 0.0133898) < 1e-6
    assert eval(found["(1, 0, 0)"].claimed) == (0.0, 0.0)
    for finding in found.values():
        result = reproduce(finding.reproducer)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "import certdp" not in finding.reproducer


def test_gaussian_threshold_releases_a_lone_key_more_often_than_its_delta(quick_report, reproduce):
    """The Gaussian analogue of #2922: scale 1, threshold 3, a key of count 1 on one side only
    is released with probability P[Z >= 2] (Z ~ N_Z(0, 1)), OpenDP claims the continuous tail
    P[X > 2] = 2.275 %; a lone key of count 0 with P[Z >= 3] = 0.457 %, OpenDP claims (0, 0)."""
    report = alone(quick_report, "make_gaussian_threshold")
    found = {f.d_in: f for f in report.findings if f.severity == VIOLATION}
    assert set(found) == {"(1, 1, 1)", "(1, 0, 0)"}
    assert all(f.check == "lone-keys" for f in found.values())
    assert eval(found["(1, 1, 1)"].claimed) == (0.5, 0.022750137373805046)
    assert eval(found["(1, 0, 0)"].claimed) == (0.0, 0.0)
    for finding in found.values():
        result = reproduce(finding.reproducer)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "import certdp" not in finding.reproducer


def test_bitvec_randomized_response_claims_a_finite_loss_where_the_length_tells_apart(
    quick_report, reproduce
):
    """OpenDP issue #2930: bitvector_domain(max_weight=4) has no length, so b"\\x00" and
    b"\\x00\\x00" (weight 0, discrete distance 1) are both members; their releases have 1 and 2
    bytes (disjoint supports, max-divergence inf) while OpenDP claims map(1) = 0.80067 at
    f = 0.95."""
    report = alone(quick_report, "make_randomized_response_bitvec")
    found = [f for f in report.findings if f.severity == VIOLATION]
    assert len(found) == 1
    finding = found[0]
    assert finding.check == "lengths" and finding.actual == "inf" and finding.d_in == "1"
    assert finding.claimed == "0.8006676684558611"
    assert (eval(finding.x), eval(finding.x_prime)) == (b"\x00", b"\x00\x00")
    assert finding.proof.endswith("make_randomized_response_bitvec.tex")
    result = reproduce(finding.reproducer)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "REPRODUCED" in result.stdout
    assert "import certdp" not in finding.reproducer


def test_np_sum_under_idealized_numerics_is_reported_as_what_the_flag_gives_up(quick_report):
    report = alone(quick_report, "make_np_sum")
    assert report.findings
    assert {f.severity for f in report.findings} == {IDEALIZED}
    assert report.exit_status() == 0  # not a bug: OpenDP builds it only under the flag
    without_columns = [
        f for f in report.findings if "num_columns" not in f.point and f.check == "search"
    ]
    assert without_columns
    assert all(f.actual == "inf" for f in without_columns)  # sums of different lengths
    notes = report.results[0].notes
    assert any("must know num_columns" in note for note in notes)


def test_every_twin_is_checked_and_nothing_crashes(quick_report):
    assert quick_report.error == ""
    for result in quick_report.results:
        assert result.error == "", (result.twin, result.error)
        assert result.built > 0, result.twin


def test_every_violation_reproduces_with_opendp_alone(quick_report, reproduce):
    violations = quick_report.violations
    assert violations  # at least the two must-finds
    for finding in violations:
        result = reproduce(finding.reproducer)
        assert result.returncode == 1, (finding.point, result.stdout, result.stderr)


def test_the_violations_are_only_the_known_ones(quick_report):
    """On OpenDP 0.16.0 elsewhere, no violation: the saturating pairwise float sums (f32 and
    f64, sized and unsized), resize, the thresholded releases' delta (make_laplace_threshold,
    make_gaussian_threshold and make_noise_threshold), make_randomized_response_bitvec's lengths
    (#2930), make_metric_bounded's insert-delete to Hamming map, the sums of squared
    deviations and variances (#2923) and make_b_ary_tree (a branch sum wrapped at the type's
    limit; the L2 map d_in * layers), nothing else."""
    twins = {f.twin for f in quick_report.violations}
    assert twins <= {
        "make_sized_bounded_float_ordered_sum",
        "make_bounded_float_ordered_sum",
        "make_resize",
        "make_laplace_threshold",
        "make_gaussian_threshold",
        "make_noise_threshold",
        "make_randomized_response_bitvec",
        "make_metric_bounded",  # insert-delete -> Hamming: d_in // 2 where the size is needed
        "make_sum_of_squared_deviations",  # OpenDP #2923: the rounding of the mean is ignored
        "make_variance",  # OpenDP #2923, through the sum of squared deviations
        "make_b_ary_tree",  # a wrapped branch sum; the L2 map d_in * layers
    }
    thresholded = ("make_laplace_threshold", "make_gaussian_threshold", "make_noise_threshold")
    for finding in quick_report.violations:
        if finding.twin == "make_randomized_response_bitvec":  # OpenDP #2930
            assert finding.check == "lengths"
        elif finding.twin == "make_b_ary_tree":  # "search": a wrapped sum the pair search drew
            assert finding.check in ("tree-wrap", "tree-spread", "search"), finding.check
        elif finding.twin in ("make_sum_of_squared_deviations", "make_variance"):
            assert finding.check in ("mean-rounding", "search"), finding.check
        elif finding.twin not in ("make_resize", "make_metric_bounded") + thresholded:
            assert "Pairwise" in finding.point
    assert not [f for f in quick_report.findings if f.severity == "deviation"]
