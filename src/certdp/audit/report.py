"""``certdp audit``: does each constructor's code, proof and contract still agree?

For every constructor folder it runs five checks and reports one row:

artifacts  code, proof, contract and at least one test file exist;
binding    every range the proof lists exists, every ``\\ref{code:...}`` names a
           label in those ranges, and the proof's precondition ids equal the contract's;
freshness  the proven ranges and the proof match the ledger's last vetting
           (OUTDATED otherwise, with the commit and the ``git diff`` to read);
contracts  the contract's hypothesis search finds no violation (quick budget);
build      with ``--build``: the proof compiles with no undefined reference.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import time
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .discovery import ConstructorFolder, ProofText, discover, repository_root
from .ledger import Ledger, Vetting, current_fingerprints, head_commit
from .sources import read_markers
from .status import NEVER_VETTED, OUTDATED, status_of

__all__ = ["Check", "ConstructorAudit", "audit", "vet", "CHECKS"]

CHECKS = ("artifacts", "binding", "freshness", "contracts", "build")
OK, FAIL, SKIPPED, UNVETTED = "ok", "FAIL", "skipped", "unvetted"
QUICK_EXAMPLES = 20


@dataclass
class Check:
    status: str
    detail: str = ""


@dataclass
class ConstructorAudit:
    key: str
    name: str
    checks: dict[str, Check] = field(default_factory=dict)

    def failed(self, strict: bool) -> bool:
        bad = {FAIL, OUTDATED} | ({UNVETTED} if strict else set())
        return any(check.status in bad for check in self.checks.values())


def _contract(constructor: ConstructorFolder):
    package = constructor.module.rpartition(".")[0]
    module = importlib.import_module(package + ".contract")
    contracts = getattr(module, "CONTRACTS", None)
    return contracts[constructor.name] if contracts is not None else module.CONTRACT


def check_artifacts(constructor: ConstructorFolder) -> Check:
    missing = [
        kind
        for kind, path in (
            ("code", constructor.code),
            ("proof", constructor.proof),
            ("contract", constructor.contract),
        )
        if not path.exists()
    ]
    if not constructor.tests():
        missing.append("tests")
    return Check(FAIL, "missing " + ", ".join(missing)) if missing else Check(OK)


def check_binding(constructor: ConstructorFolder) -> Check:
    if not constructor.proof.exists():
        return Check(FAIL, "no proof")
    proof = ProofText(constructor.proof)
    problems = []
    if not proof.code_ranges:
        problems.append("the proof covers no code range")
    labels: set[str] = set()
    for file, name in proof.code_ranges:
        path = constructor.proof.parent / file
        if not path.exists():
            problems.append(f"proven file {file} does not exist")
            continue
        try:
            markers = read_markers(path)
        except Exception as error:
            problems.append(str(error))
            continue
        if name not in markers.ranges:
            problems.append(f"range {name!r} is not in {file}")
            continue
        labels |= set(markers.labels_in(name).values())
    for lemma in proof.lemma_documents:
        if not lemma.exists():
            problems.append(
                f"lemma document {constructor.relative(lemma.parent)}/{lemma.name} does not exist"
            )
            continue
        for file, name in ProofText(lemma).code_ranges:
            try:
                if name not in read_markers(lemma.parent / file).ranges:
                    problems.append(f"lemma {lemma.name}: range {name!r} is not in {file}")
            except Exception as error:
                problems.append(f"lemma {lemma.name}: {error}")
    broken = [label for label in proof.code_references if label not in labels]
    if broken:
        problems.append("broken reference(s) to code label(s): " + ", ".join(broken))
    try:
        contract_ids = _contract(constructor).precondition_ids
    except Exception as error:
        problems.append(f"contract does not load: {type(error).__name__}: {error}")
    else:
        only_contract = [i for i in contract_ids if i not in proof.precondition_ids]
        only_proof = [i for i in proof.precondition_ids if i not in contract_ids]
        if only_contract:
            problems.append(
                "precondition mismatch: the proof does not state " + ", ".join(only_contract)
            )
        if only_proof:
            problems.append("precondition mismatch: the contract lacks " + ", ".join(only_proof))
    return Check(FAIL, "; ".join(problems)) if problems else Check(OK)


def check_freshness(constructor: ConstructorFolder, ledger: Ledger) -> Check:
    status = status_of(constructor, ledger)
    if status.state == NEVER_VETTED:
        return Check(UNVETTED, "never vetted: run certdp vet " + constructor.name + ' --by "Name"')
    if status.state == OUTDATED:
        return Check(
            OUTDATED,
            f"OUTDATED since vetting at {status.commit} by {status.reviewer}: changed "
            f"{', '.join(status.changed)}; see: {status.diff_command}",
        )
    return Check(OK, f"vetted by {status.reviewer} at {status.commit} on {status.date}")


def check_contracts(constructor: ConstructorFolder, examples: int) -> Check:
    from certdp.core.features import enable_features

    # the audit checks contracts whether or not the proof is vetted yet
    enable_features("contrib")
    try:
        report = _contract(constructor).verify(max_examples=examples)
    except Exception as error:
        return Check(FAIL, f"{type(error).__name__}: {error}"[:2000])
    return Check(OK, f"{report.examples} examples, tightest {report.max_tightness:.3g}")


def check_build(constructor: ConstructorFolder) -> Check:
    """Build the proof with the proofs Makefile (incremental); it fails on undefined references."""
    relative = constructor.proof.relative_to(constructor.root / "src" / "certdp").with_suffix(
        ".pdf"
    )
    target = (constructor.root / "build" / "proofs" / relative).resolve()
    result = subprocess.run(
        ["make", "--no-print-directory", "-s", str(target)],
        cwd=constructor.root,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0 or not target.exists():
        return Check(FAIL, (result.stdout + result.stderr).strip()[-1500:] or "no PDF produced")
    return Check(OK, constructor.relative(target))


def _contracts_job(args) -> tuple[str, Check]:
    root, key, name, examples = args
    constructor = next(c for c in discover(Path(root)) if c.key == key)
    return key, check_contracts(constructor, examples)


def audit(
    root: Path | None = None, *, names=None, examples: int = QUICK_EXAMPLES, build=False, jobs=None
) -> list[ConstructorAudit]:
    """Audit every constructor (or those ``names``) and return one row each."""
    root = root or repository_root()
    ledger = Ledger(root)
    constructors = [c for c in discover(root) if not names or c.name in names]
    rows = {c.key: ConstructorAudit(c.key, c.name) for c in constructors}
    for constructor in constructors:
        row = rows[constructor.key].checks
        row["artifacts"] = check_artifacts(constructor)
        row["binding"] = check_binding(constructor)
        row["freshness"] = check_freshness(constructor, ledger)
        row["build"] = check_build(constructor) if build else Check(SKIPPED)
    jobs = jobs or min(len(constructors), os.cpu_count() or 1) or 1
    work = [(str(root), c.key, c.name, examples) for c in constructors if c.contract.exists()]
    if jobs > 1 and len(work) > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_contracts_job, work))
    else:
        results = [_contracts_job(item) for item in work]
    for key, check in results:
        rows[key].checks["contracts"] = check
    for row in rows.values():
        row.checks.setdefault("contracts", Check(FAIL, "no contract"))
    return [rows[c.key] for c in constructors]


def vet(
    name: str, reviewer: str, root: Path | None = None, examples: int = QUICK_EXAMPLES
) -> Vetting:
    """Record that ``reviewer`` vetted constructor ``name``; refused if binding or contracts fail."""
    from certdp.core.errors import DPError

    root = root or repository_root()
    matches = [c for c in discover(root) if c.name == name]
    if not matches:
        raise DPError(f"no constructor named {name!r}", parameter="name")
    constructor = matches[0]
    if not reviewer.strip():
        raise DPError("a reviewer name is required", parameter="--by")
    for check in (
        check_artifacts(constructor),
        check_binding(constructor),
        check_contracts(constructor, examples),
    ):
        if check.status != OK:
            raise DPError(f"refusing to vet {name}: {check.detail}", parameter="name")
    fingerprints, proof = current_fingerprints(constructor)
    vetting = Vetting(fingerprints, proof, head_commit(root), reviewer.strip())
    Ledger(root).record(constructor.key, vetting)
    return vetting


def render_table(rows: list[ConstructorAudit], strict: bool, elapsed: float) -> str:
    width = max([len(row.name) for row in rows] + [11])
    lines = [f"{'constructor':<{width}}  " + "  ".join(f"{c:<10}" for c in CHECKS)]
    for row in rows:
        lines.append(
            f"{row.name:<{width}}  " + "  ".join(f"{row.checks[c].status:<10}" for c in CHECKS)
        )
    details = [
        f"  {row.name} {name}: {check.detail}"
        for row in rows
        for name, check in row.checks.items()
        if check.status not in (OK, SKIPPED)
    ]
    failed = sum(row.failed(strict) for row in rows)
    unvetted = sum(row.checks["freshness"].status == UNVETTED for row in rows)
    outdated = sum(row.checks["freshness"].status == OUTDATED for row in rows)
    summary = (
        f"{len(rows)} constructors: {len(rows) - failed} passed, {failed} failed "
        f"({outdated} outdated, {unvetted} never vetted{'' if strict else ', allowed without --strict'}) "
        f"in {elapsed:.1f} s"
    )
    return "\n".join(lines + ([""] + details if details else []) + ["", summary])


def to_json(rows: list[ConstructorAudit], strict: bool) -> str:
    return json.dumps(
        {
            "constructors": [
                {
                    "key": row.key,
                    "name": row.name,
                    "failed": row.failed(strict),
                    "checks": {name: asdict(check) for name, check in row.checks.items()},
                }
                for row in rows
            ],
            "failed": sum(row.failed(strict) for row in rows),
            "strict": strict,
        },
        indent=2,
    )


def to_junit(rows: list[ConstructorAudit], strict: bool, elapsed: float) -> str:
    failures = sum(
        check.status in ({FAIL, OUTDATED} | ({UNVETTED} if strict else set()))
        for row in rows
        for check in row.checks.values()
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
            if check.status in ({FAIL, OUTDATED} | ({UNVETTED} if strict else set())):
                ElementTree.SubElement(case, "failure", message=check.status).text = check.detail
            elif check.status == SKIPPED:
                ElementTree.SubElement(case, "skipped")
    return ElementTree.tostring(suite, encoding="unicode")


def run(
    names=None,
    *,
    strict=False,
    as_json=False,
    junit=None,
    build=False,
    examples=QUICK_EXAMPLES,
    root=None,
) -> int:
    start = time.perf_counter()
    rows = audit(root, names=names, examples=examples, build=build)
    elapsed = time.perf_counter() - start
    print(to_json(rows, strict) if as_json else render_table(rows, strict, elapsed))
    if junit:
        Path(junit).write_text(to_junit(rows, strict, elapsed), encoding="utf-8")
    return 1 if any(row.failed(strict) for row in rows) else 0
