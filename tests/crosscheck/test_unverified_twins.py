"""A twin on which nothing was verified (every pair unchecked, or nothing built) is not "ok":
its status is "unchecked" in the table, the JSON and the summary, and the run exits 2 unless a
failing finding makes it 1."""

import json

from certdp.crosscheck.findings import VIOLATION, Finding, TwinResult
from certdp.crosscheck.report import render, summary, to_json
from certdp.crosscheck.run import CrosscheckReport


def _result(name, *, built=1, pairs=0, unchecked=0, findings=()):
    result = TwinResult(name, points=1, built=built, pairs=pairs)
    result.unchecked_pairs = unchecked
    if unchecked:
        result.unchecked_reasons = {"the target's map refuses the distance": unchecked}
    result.findings = list(findings)
    return result


def test_status_of_a_twin_whose_pairs_were_all_unchecked():
    assert _result("a", pairs=3).status() == "ok"
    assert _result("a", pairs=3, unchecked=5).status() == "ok"  # some pairs checked and passed
    assert _result("a", unchecked=5).status() == "unchecked"
    assert not _result("a", unchecked=5).verified
    assert _result("a", built=0).status() == "unchecked"
    assert _result("a").status() == "ok"  # no pair search at all (maps, noise): as before
    finding = Finding(twin="a", check="tree-wrap", severity=VIOLATION, point="p", summary="s")
    assert _result("a", unchecked=5, findings=[finding]).status() == VIOLATION


def test_report_exit_status_table_json_and_summary():
    checked, refused = _result("checked", pairs=4), _result("refused", unchecked=7)
    report = CrosscheckReport(target="opendp.prelude", quick=False, results=[checked, refused])
    assert report.unverified == ["refused"] and report.exit_status() == 2
    data = json.loads(to_json(report))
    assert data["unverified"] == ["refused"] and data["exit_status"] == 2
    assert [t["status"] for t in data["twins"]] == ["ok", "unchecked"]
    text = summary(report)
    assert "not verified (nothing built, or every pair unchecked): refused" in text
    rows = [line.plain for line in render(report)]
    assert any(row.startswith("refused") and "unchecked" in row.split()[1] for row in rows)
    assert any("UNCHECKED refused: 7 pairs not checked" in row for row in rows)
    # all verified: exit 0; a violation still exits 1
    assert CrosscheckReport("t", False, results=[checked]).exit_status() == 0
    finding = Finding(twin="checked", check="pair", severity=VIOLATION, point="p", summary="s")
    bad = _result("checked", pairs=4, findings=[finding])
    assert CrosscheckReport("t", False, results=[bad, refused]).exit_status() == 1
