"""An audit that would check nothing fails, saying what it did not find (exit status 2)."""

import json
import shutil
import xml.etree.ElementTree as ElementTree

from .conftest import FOLDER, LEDGER, run


def test_unknown_name_fails(repo, tmp_path):
    junit = tmp_path / "audit.xml"
    result = run(repo, "audit", "make_nonexistent", "--json", "--junit", str(junit))
    assert result.returncode == 2
    assert "no constructor named make_nonexistent" in result.stderr
    assert "make_is_equal" in result.stderr  # the names that do exist
    report = json.loads(result.stdout)
    assert "make_nonexistent" in report["error"] and report["constructors"] == []
    suite = ElementTree.parse(junit).getroot()
    assert suite.get("errors") == "1" and "make_nonexistent" in suite.find("testcase/error").text


def test_a_known_and_an_unknown_name_fail_too(repo):
    result = run(repo, "audit", "make_is_equal", "make_nonexistent")
    assert result.returncode == 2 and "make_nonexistent" in result.stderr


def test_no_constructor_found_fails(repo):
    shutil.rmtree(repo / FOLDER)
    for arguments in ((), ("--strict",), ("--json",)):
        result = run(repo, "audit", *arguments)
        assert result.returncode == 2, arguments
        assert "no constructor found" in result.stderr
        assert "0 constructors" not in result.stdout


def test_missing_ledger_fails(repo):
    (repo / LEDGER).unlink()
    result = run(repo, "audit")
    assert result.returncode == 2
    assert "no vetting ledger at" in result.stderr and "vetting-ledger.json" in result.stderr


def test_verify_of_an_unknown_name_fails():
    from pathlib import Path

    result = run(Path(__file__).resolve().parents[2], "verify", "make_nonexistent")
    assert result.returncode == 2 and "make_nonexistent" in result.stderr
