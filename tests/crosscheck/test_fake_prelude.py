"""The negative case without OpenDP: a prelude with one halved map is caught with a pair."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from fractions import Fraction

import certdp.crosscheck
from certdp.crosscheck import SUSPECT, VIOLATION

from .fake_prelude import BROKEN
from .helpers import ROOT, run_reproducer

FAKE = "tests.crosscheck.fake_prelude"


def test_the_halved_map_is_a_violation_with_a_pair_that_reproduces(tmp_path):
    report = certdp.crosscheck(FAKE, [BROKEN], quick=True)
    assert report.exit_status() == 1
    violations = [f for f in report.findings if f.severity == VIOLATION]
    assert violations and all(f.twin == BROKEN and f.check == "search" for f in violations)
    finding = violations[0]
    assert Fraction(finding.actual) > Fraction(finding.claimed)
    assert finding.x and finding.x_prime
    assert finding.proof.endswith("make_sized_bounded_int_checked_sum.tex")
    result = run_reproducer(finding.reproducer, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "REPRODUCED" in result.stdout
    assert "import certdp" not in finding.reproducer  # the target's own API only


def test_the_halved_map_is_also_below_the_exact_bound(tmp_path):
    report = certdp.crosscheck(FAKE, [BROKEN], quick=True)
    suspects = [f for f in report.findings if f.severity == SUSPECT]
    assert suspects and suspects[0].check == "map"
    result = run_reproducer(suspects[0].reproducer, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr


def test_the_other_twins_of_the_fake_are_clean():
    others = ["make_sized_bounded_int_split_sum", "make_clamp", "make_count"]
    report = certdp.crosscheck(FAKE, others, quick=True)
    assert report.findings == []
    assert report.exit_status() == 0
    assert all(result.built and result.pairs for result in report.results)


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "certdp", "crosscheck", *args],
        cwd=ROOT,
        env={"PYTHONPATH": f"{ROOT}:{ROOT / 'src'}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_cli_json_junit_and_exit_status(tmp_path):
    junit = tmp_path / "crosscheck.xml"
    result = _cli(FAKE, BROKEN, "--quick", "--json", "--junit", str(junit))
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["target"] == FAKE and data["exit_status"] == 1
    assert any(f["severity"] == VIOLATION for f in data["findings"])
    suite = ElementTree.parse(junit).getroot()
    assert suite.get("failures") == str(sum(f["severity"] == VIOLATION for f in data["findings"]))
    assert suite.find("testcase/failure") is not None


def test_cli_table_and_reproducer_folder(tmp_path):
    result = _cli(FAKE, BROKEN, "--quick", "--reproducers", str(tmp_path))
    assert result.returncode == 1
    assert "VIOLATION" in result.stdout and BROKEN in result.stdout
    assert {path.name.split("_")[1] for path in tmp_path.glob("*.py")} == {"suspect", "violation"}


def test_nothing_to_check_exits_2():
    assert _cli("no_such_module_for_certdp", "--quick").returncode == 2
    assert _cli(FAKE, "make_no_such_constructor", "--quick").returncode == 2
    assert _cli("json", "--quick").returncode == 2  # importable, but no prelude
    report = certdp.crosscheck("no_such_module_for_certdp")
    assert report.exit_status() == 2 and "cannot import" in report.error
