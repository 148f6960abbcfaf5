"""``certdp crosscheck``: the table, JSON and JUnit forms of a :class:`CrosscheckReport`.

Progress (one line per twin, with a live bar on a terminal) goes to standard error; standard
output holds only the report.  Exit status: 0 nothing failed, 1 a violation, a sampler
deviation, a timeout or a crash of the target (or a suspect with ``--fail-on-suspect``), 2 nothing could be checked (the target does not import, an unknown twin, or no
point of any twin could be built in the target).
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from rich.text import Text

from certdp.audit.terminal import console, plural, progress

from .findings import MAP_CLASSES, SEVERITIES, fails
from .run import DEFAULT_TIMEOUT, CrosscheckReport, crosscheck
from .twins import TWINS

__all__ = ["run", "render", "to_json", "to_junit", "write_reproducers", "digest"]

STATUS_STYLES = {
    "ok": "green",
    "violation": "bold red",
    "deviation": "bold red",
    "suspect": "yellow",
    "idealized": "cyan",
    "timeout": "bold red",
    "crash": "bold red",
    "missing in target": "magenta",
    "unchecked": "dim",
    "error": "bold red",
}


def _rate(count: float, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s" if seconds > 0 and count else "-"


def render(report: CrosscheckReport) -> list[Text]:
    """The table (one row per twin), each finding, and a summary, as styled lines."""
    if report.error:
        return [Text(f"certdp crosscheck: {report.error}", style="bold red")]
    width = max([len(result.twin) for result in report.results] + [4])
    header = (
        f"{'twin':<{width}}  {'status':<17} {'built':>9}  "
        + " ".join(f"{c:>12}" for c in MAP_CLASSES)
        + f"  {'pairs':>8} {'unchecked':>9} {'pairs/s':>9}  {'samples':>9}"
    )
    lines = [Text(header)]
    for result in report.results:
        status = result.status()
        line = Text(f"{result.twin:<{width}}  ")
        line.append(f"{status:<17}", style=STATUS_STYLES.get(status, ""))
        line.append(f" {result.built:>4}/{result.points:<4}  ")
        line.append(" ".join(f"{result.map_classes[c]:>12}" for c in MAP_CLASSES))
        tried = result.pairs + result.unchecked_pairs
        line.append(
            f"  {result.pairs:>8} {result.unchecked_pairs:>9} "
            f"{_rate(tried, result.search_seconds):>9}  {result.samples:>9}"
        )
        lines.append(line)
    findings = report.findings
    if findings:
        lines.append(Text(""))
    for finding in findings:
        line = Text("  ")
        line.append(finding.severity.upper(), style=STATUS_STYLES.get(finding.severity, ""))
        line.append(f" {finding.twin} [{finding.check}] {finding.summary}")
        lines.append(line)
        lines.append(Text(f"      at: {finding.point}", style="dim"))
        if finding.x:
            lines.append(Text(f"      x = {finding.x}", style="dim"))
            if finding.x_prime:
                lines.append(Text(f"      x' = {finding.x_prime}", style="dim"))
        if finding.proof:
            lines.append(Text(f"      exact bound: certdp proof {finding.proof}", style="dim"))
    for result in report.results:
        if result.unchecked_pairs:
            lines.append(Text(f"  UNCHECKED {result.twin}: {_reasons(result)}", style="dim"))
    for result in report.results:
        if result.missing:
            lines.append(Text(f"  MISSING {result.twin}: {result.notes[0]}", style="magenta"))
    errors = [result for result in report.results if result.error]
    for result in errors:
        lines.append(Text(f"  ERROR {result.twin}: {result.error}", style="bold red"))
    lines += [Text(""), Text(summary(report))]
    return lines


def _reasons(result) -> str:
    """``N pairs not checked: reason (count); ...``, most frequent first."""
    shown = sorted(result.unchecked_reasons.items(), key=lambda item: -item[1])
    return f"{plural(result.unchecked_pairs, 'pair')} not checked: " + "; ".join(
        f"{reason} ({count})" for reason, count in shown
    )


def summary(report: CrosscheckReport) -> str:
    counts = {severity: 0 for severity in SEVERITIES}
    for finding in report.findings:
        counts[finding.severity] += 1
    built = sum(result.built for result in report.results)
    points = sum(result.points for result in report.results)
    nouns = {
        "idealized": ("idealized finding", "idealized findings"),
        "crash": ("crash", "crashes"),
    }
    found = ", ".join(
        plural(count, *nouns.get(severity, (severity,))) for severity, count in counts.items()
    )
    mode = " (--quick)" if report.quick else ""
    missing = [result.twin for result in report.results if result.missing]
    checked = sum(result.pairs for result in report.results)
    unchecked = sum(result.unchecked_pairs for result in report.results)
    text = (
        f"{report.target}{mode}: {plural(len(report.results), 'twin')}, {built} of {points} "
        f"points built by the target; {plural(checked, 'pair')} checked, {unchecked} unchecked "
        f"(never counted as passing); {found}; in {report.seconds:.1f} s"
    )
    if missing:
        text += f"; missing in target: {', '.join(missing)}"
    if report.unverified:
        text += (
            f"; not verified (nothing built, or every pair unchecked): "
            f"{', '.join(report.unverified)}"
        )
    if counts["suspect"]:
        text += (
            "; a suspect on a measurement is an under-reported privacy loss (the target's "
            "privacy map is below certdp's exact loss) that needs review; "
            + (
                "suspects fail this run (--fail-on-suspect)"
                if report.fail_on_suspect
                else "by default the run exits 0 on suspects (--fail-on-suspect makes them fail)"
            )
        )
    return text


def to_json(report: CrosscheckReport) -> str:
    return json.dumps(
        {
            "target": report.target,
            "quick": report.quick,
            "seconds": round(report.seconds, 3),
            "error": report.error,
            "exit_status": report.exit_status(),
            "fail_on_suspect": report.fail_on_suspect,
            "missing_in_target": [r.twin for r in report.results if r.missing],
            "unverified": report.unverified,
            "pairs_checked": sum(r.pairs for r in report.results),
            "pairs_unchecked": sum(r.unchecked_pairs for r in report.results),
            "twins": [result.to_dict() for result in report.results],
            "findings": [finding.to_dict() for finding in report.findings],
        },
        indent=2,
        default=str,
    )


def to_junit(report: CrosscheckReport) -> str:
    suite = ElementTree.Element(
        "testsuite",
        name=f"certdp-crosscheck {report.target}",
        tests=str(max(len(report.results), 1)),
        failures=str(len(report.violations)),
        time=f"{report.seconds:.3f}",
    )
    if report.error:
        case = ElementTree.SubElement(suite, "testcase", classname="crosscheck", name="target")
        ElementTree.SubElement(
            case, "error", message="crosscheck could not run"
        ).text = report.error
    for result in report.results:
        case = ElementTree.SubElement(
            suite, "testcase", classname=f"crosscheck.{report.target}", name=result.twin
        )
        failing = [
            finding
            for finding in result.findings
            if fails(finding.severity, report.fail_on_suspect)
        ]
        if result.error:
            ElementTree.SubElement(case, "error", message="check crashed").text = result.error
        elif failing:
            ElementTree.SubElement(case, "failure", message=failing[0].severity).text = "\n".join(
                f"{finding.summary} at {finding.point}" for finding in failing
            )
        elif result.missing:
            ElementTree.SubElement(
                case, "skipped", message="missing in target"
            ).text = result.notes[0]
        elif not result.checked:
            ElementTree.SubElement(case, "skipped", message="the target built no point")
        other = [
            finding
            for finding in result.findings
            if not fails(finding.severity, report.fail_on_suspect)
        ]
        if other:
            ElementTree.SubElement(case, "system-out").text = "\n".join(
                f"{finding.severity}: {finding.summary}" for finding in other
            )
    return ElementTree.tostring(suite, encoding="unicode")


def write_reproducers(report: CrosscheckReport, folder: str | Path) -> list[Path]:
    """Write every finding's reproducer script into ``folder``; return their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index, finding in enumerate(report.findings, 1):
        if not finding.reproducer:
            continue
        path = folder / f"{index:03d}_{finding.severity}_{finding.twin}_{finding.check}.py"
        path.write_text(finding.reproducer)
        written.append(path)
    return written


def run(
    target,
    names=None,
    *,
    quick=False,
    as_json=False,
    junit=None,
    reproducers=None,
    jobs=2,
    fail_on_suspect=False,
    timeout=None,
) -> int:
    """Run the cross-check and print the report; return the exit status."""
    selected = [TWINS[name] for name in names if name in TWINS] if names else list(TWINS.values())
    total = max(len(selected), 1)
    with progress(total, f"cross-checking {target}", sys.stderr) as reporter:

        def advance(name, result):
            detail = f"{result.built}/{result.points} built, {result.pairs} pairs"
            reporter.done(result.status(), name, detail)

        report = crosscheck(
            target,
            names,
            quick=quick,
            progress=advance,
            jobs=jobs,
            fail_on_suspect=fail_on_suspect,
            timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
        )
    if junit:
        Path(junit).write_text(to_junit(report))
    if reproducers:
        write_reproducers(report, reproducers)
    if as_json:
        print(to_json(report))
    elif not report.error:
        out = console(sys.stdout)
        for line in render(report):
            out.print(line)
    if report.error:
        print(f"certdp crosscheck: error: {report.error}", file=sys.stderr)
    elif not report.checked:
        print(
            f"certdp crosscheck: error: {report.target} built no point of any twin: nothing "
            "was checked",
            file=sys.stderr,
        )
    return report.exit_status()


def _pairs_text(data: dict) -> str:
    """``N pairs checked (M more unchecked)`` for a report given as JSON; when some twins were
    recorded before unchecked pairs were counted apart (no ``unchecked_pairs``), their pairs
    include the refused ones, and the text says so."""
    twins = data["twins"]
    counted = [t for t in twins if "unchecked_pairs" in t]
    total, unchecked = sum(t["pairs"] for t in twins), sum(t["unchecked_pairs"] for t in counted)
    if len(counted) == len(twins):
        return f"{total} pairs checked ({unchecked} more unchecked)"
    return (
        f"{total} pairs ({unchecked} more unchecked on the {len(counted)} twins recorded since "
        f"unchecked pairs are counted apart; on the other {len(twins) - len(counted)}, the "
        "pairs include those the target refused)"
    )


def digest(data: dict) -> list[str]:
    """Plain lines for a report given as its JSON (live or recorded): the totals per twin with
    a finding, then each finding, grouped by severity (the docs page prints these)."""
    lines = [
        f"target {data['target']}{' (--quick)' if data['quick'] else ''}: "
        f"{len(data['twins'])} twins, "
        f"{sum(t['built'] for t in data['twins'])} of {sum(t['points'] for t in data['twins'])} "
        f"points built, {_pairs_text(data)}, "
        f"{sum(t['samples'] for t in data['twins'])} noise draws, "
        f"{sum(t['map_values'] for t in data['twins'])} map values compared; "
        f"exit status {data['exit_status']}"
    ]
    classes = {c: sum(t["map_classes"][c] for t in data["twins"]) for c in MAP_CLASSES}
    lines.append("map values: " + ", ".join(f"{n} {c}" for c, n in classes.items()))
    for severity in SEVERITIES:
        found = [f for f in data["findings"] if f["severity"] == severity]
        lines.append(f"{severity}: {len(found) or 'none'}")
        if fails(severity):  # every failing finding, with its pair
            for finding in found:
                lines.append(f"  {finding['twin']} [{finding['check']}] {finding['summary']}")
                lines.append(f"    at {finding['point']}")
                if finding["x"]:
                    lines.append(f"    x = {finding['x']}")
                    if finding["x_prime"]:
                        lines.append(f"    x' = {finding['x_prime']}")
            continue
        by_twin: dict = {}
        for finding in found:  # the others: how many per twin, and the first of them
            by_twin.setdefault(finding["twin"], []).append(finding)
        for twin, group in by_twin.items():
            first = group[0]
            lines.append(
                f"  {twin}: {len(group)} finding(s), e.g. [{first['check']}] {first['summary']}"
            )
            lines.append(f"    at {first['point']}")
    return lines
