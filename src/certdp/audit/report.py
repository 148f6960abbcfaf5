"""``certdp audit``: run the checks (:mod:`certdp.audit.checks`) and report them.

A table for people (coloured on a terminal, plain when piped), JSON for programs, JUnit XML for
CI.  Progress, one line per constructor as it finishes, goes to standard error, so that standard
output holds only the report.  An audit that cannot run (nothing found, an unknown name, no
ledger) prints what was not found and exits 2; failed checks exit 1.
"""

from __future__ import annotations

import json
import sys
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import asdict
from pathlib import Path

from rich.text import Text

from .checks import (
    CHECKS,
    OK,
    QUICK_EXAMPLES,
    SKIPPED,
    UNVETTED,
    AuditError,
    BuildSetup,
    ConstructorAudit,
    audit,
    is_failure,
    select,
)
from .discovery import package_root
from .ledger import LEDGER_PATH
from .status import OUTDATED
from .terminal import console, plural, progress, styled

__all__ = ["run", "render_table", "summary", "to_json", "to_junit", "EXIT_FAILED", "EXIT_ERROR"]

EXIT_FAILED, EXIT_ERROR = 1, 2


def summary(rows: list[ConstructorAudit], strict: bool, elapsed: float) -> str:
    failed = sum(row.failed(strict) for row in rows)
    unvetted = sum(row.checks["freshness"].status == UNVETTED for row in rows)
    outdated = sum(row.checks["freshness"].status == OUTDATED for row in rows)
    allowed = "" if strict or not unvetted else ", allowed without --strict"
    return (
        f"{plural(len(rows), 'constructor')}: {len(rows) - failed} passed, {failed} failed "
        f"({outdated} outdated, {unvetted} never vetted{allowed}) in {elapsed:.1f} s"
    )


#: Column titles where a check's name is longer than its column.
COLUMN_TITLES = {"machine_checked": "smt"}


def render_table(rows: list[ConstructorAudit], strict: bool, elapsed: float) -> list[Text]:
    """The table, the details of every check not ok, and the summary, as styled lines."""
    width = max([len(row.name) for row in rows] + [11])
    header = f"{'constructor':<{width}}  " + "  ".join(
        f"{COLUMN_TITLES.get(c, c):<10}" for c in CHECKS
    )
    lines = [Text(header.rstrip())]
    for row in rows:
        line = Text(f"{row.name:<{width}}")
        for name in CHECKS:
            line.append("  ")
            line.append_text(styled(row.checks[name].status, 10))
        line.rstrip()
        lines.append(line)
    details = [
        Text(f"  {row.name} {name}: {check.detail}")
        for row in rows
        for name, check in row.checks.items()
        if check.status not in (OK, SKIPPED)
    ]
    details = [Text("")] + details if details else []
    return lines + details + [Text(""), Text(summary(rows, strict, elapsed))]


def to_json(rows: list[ConstructorAudit], strict: bool, **context) -> str:
    return json.dumps(
        {
            "constructors": [
                {
                    "key": row.key,
                    "name": row.name,
                    "failed": row.failed(strict),
                    "checks": {name: asdict(check) for name, check in row.checks.items()},
                    "trusted_base": row.trusted_base,
                }
                for row in rows
            ],
            "failed": sum(row.failed(strict) for row in rows),
            "strict": strict,
            **context,
        },
        indent=2,
    )


def to_junit(rows: list[ConstructorAudit], strict: bool, elapsed: float) -> str:
    failures = sum(
        is_failure(check.status, strict) for row in rows for check in row.checks.values()
    )
    suite = ElementTree.Element(
        "testsuite",
        name="certdp-audit",
        tests=str(len(rows) * len(CHECKS)),
        failures=str(failures),
        time=f"{elapsed:.3f}",
    )
    for row in rows:
        for name in CHECKS:
            check = row.checks[name]
            case = ElementTree.SubElement(suite, "testcase", classname=row.key, name=name)
            if is_failure(check.status, strict):
                ElementTree.SubElement(case, "failure", message=check.status).text = check.detail
            elif check.status == SKIPPED:
                ElementTree.SubElement(case, "skipped", message=check.detail)
    return ElementTree.tostring(suite, encoding="unicode")


def _junit_error(message: str) -> str:
    suite = ElementTree.Element("testsuite", name="certdp-audit", tests="1", errors="1")
    case = ElementTree.SubElement(suite, "testcase", classname="certdp-audit", name="audit")
    ElementTree.SubElement(case, "error", message="audit could not run").text = message
    return ElementTree.tostring(suite, encoding="unicode")


def _build_note(build: BuildSetup) -> str:
    if build.runs:
        return f"proof PDFs: {build.output}"
    if build.requested:
        return f"proofs not built: {build.skipped().detail}"
    return "proofs not built (add --build to compile them)"


def run(
    names=None,
    *,
    strict=False,
    as_json=False,
    junit=None,
    build=False,
    build_dir: str | Path | None = None,
    examples=QUICK_EXAMPLES,
    package: Path | None = None,
) -> int:
    """Audit, print the report, write JUnit if asked; the exit status (0, 1 or 2)."""
    start = time.perf_counter()
    package = (package or package_root()).resolve()
    out, err = console(sys.stdout), console(sys.stderr)
    setup = BuildSetup.detect(build, Path(build_dir) if build_dir else None, package)
    context = {
        "package": str(package),
        "ledger": str(package / LEDGER_PATH),
        "build": {
            "requested": setup.requested,
            "ran": setup.runs,
            "missing_tools": list(setup.missing),
            "output": str(setup.output) if setup.runs else None,
        },
    }
    try:
        total = len(select(package, names))
        err.print(f"certdp audit: {plural(total, 'constructor')} in {package}")
        with progress(total, "auditing", sys.stderr) as reporter:
            rows = audit(
                package,
                names=names,
                examples=examples,
                build=setup,
                on_row=lambda row: reporter.done(row.verdict(), row.name),
                on_phase=reporter.describe,
            )
    except AuditError as error:
        err.print(Text(f"certdp audit: error: {error}", style="bold red"))
        if as_json:
            print(json.dumps({"error": str(error), "constructors": [], **context}, indent=2))
        if junit:
            Path(junit).write_text(_junit_error(str(error)), encoding="utf-8")
        return EXIT_ERROR
    elapsed = time.perf_counter() - start
    if as_json:
        print(to_json(rows, strict, **context))
    else:
        for line in render_table(rows, strict, elapsed):
            out.print(line)
        out.print(_build_note(setup))
    if junit:
        Path(junit).write_text(to_junit(rows, strict, elapsed), encoding="utf-8")
    return EXIT_FAILED if any(row.failed(strict) for row in rows) else 0
