"""The audit's checks: does each constructor's code, proof and contract still agree?

For every constructor folder of the package (a checkout's ``src/certdp`` or an installed one)
five checks give one row:

artifacts  code, proof and contract exist, and (in a checkout) at least one test file names
           the constructor; an installed package ships no tests, and the row says so;
binding    every range the proof lists exists, every ``\\ref{code:...}`` names a label in those
           ranges, and the proof's precondition ids equal the contract's;
freshness  the proven ranges and the proof match the packaged ledger's last vetting
           (outdated otherwise, with the commit and, in a checkout, the ``git diff`` to read);
contracts  the contract's hypothesis search finds no violation (quick budget);
build      when asked: the proof compiles with no undefined reference, by the packaged
           ``proofs.mk``; skipped, saying why, where LaTeX or make is missing.

An audit that would check nothing is an error (:class:`AuditError`): no constructor found, a
name that matches none, or no ledger.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from certdp.core.errors import DPError

from .closure import ProofIndex, closure
from .discovery import ConstructorFolder, ProofText, checkout_root, discover, package_root
from .ledger import CLOSURE_PREFIX, Ledger, is_closure_key
from .sources import read_markers
from .status import NEVER_VETTED, OUTDATED, status_of

__all__ = [
    "AuditError",
    "Check",
    "ConstructorAudit",
    "BuildSetup",
    "CHECKS",
    "QUICK_EXAMPLES",
    "select",
    "audit",
    "check_artifacts",
    "check_binding",
    "check_freshness",
    "check_contracts",
]

CHECKS = ("artifacts", "binding", "freshness", "contracts", "machine_checked", "build")
OK, FAIL, SKIPPED, UNVETTED, TIMEOUT = "ok", "FAIL", "skipped", "unvetted", "timeout"

#: The SMT-modelled lemmas (``certdp prove``) and the definitions that show a closure uses them.
MODELLED_LEMMAS = {
    "nearest_grid_index": "certdp.samplers.discrete_laplace_z2k.nearest_grid_index",
    "discretization": "certdp.measurements._laplace.discretization.",
    "bernoulli_ratio": "certdp.samplers.bernoulli.bernoulli_ratio",
    "uniform_below": "certdp.samplers.uniform.",
}
QUICK_EXAMPLES = 20


class AuditError(DPError):
    """The audit cannot run: there would be nothing, or nothing trustworthy, to check."""

    variant = "Audit"


@dataclass
class Check:
    status: str
    detail: str = ""


@dataclass
class ConstructorAudit:
    key: str
    name: str
    checks: dict[str, Check] = field(default_factory=dict)
    #: dotted names of the definitions behind the proven code that no proof document covers
    trusted_base: list[str] = field(default_factory=list)

    def failed(self, strict: bool) -> bool:
        return any(
            is_failure(check.status, strict)
            # a stale machine check (any edit of the modelled files, formatting included, makes
            # it so) fails the strict audit, `make audit`, which asks for `make prove`
            and (name != "machine_checked" or check.status != OUTDATED or strict)
            for name, check in self.checks.items()
        )

    def verdict(self) -> str:
        """One word for the row: ``FAIL``, ``outdated``, ``unvetted`` or ``ok``."""
        statuses = {check.status for check in self.checks.values()}
        for verdict in (FAIL, OUTDATED, UNVETTED, TIMEOUT):
            if verdict in statuses:
                return verdict
        return OK


def is_failure(status: str, strict: bool) -> bool:
    return status in ({FAIL, OUTDATED} | ({UNVETTED} if strict else set()))


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
    tests = constructor.tests()
    if tests == []:
        missing.append("tests")
    if missing:
        return Check(FAIL, "missing " + ", ".join(missing))
    if tests is None:
        return Check(OK, "code, proof, contract (tests live in the source repository)")
    return Check(OK)


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
    problems.extend(_missing_models(constructor, proof))
    for lemma in proof.lemma_documents:
        if not lemma.exists():
            problems.append(
                f"lemma document {constructor.relative(lemma.parent)}/{lemma.name} does not exist"
            )
            continue
        lemma_proof = ProofText(lemma)
        for file, name in lemma_proof.code_ranges:
            try:
                if name not in read_markers(lemma.parent / file).ranges:
                    problems.append(f"lemma {lemma.name}: range {name!r} is not in {file}")
            except Exception as error:
                problems.append(f"lemma {lemma.name}: {error}")
        missing = _missing_models(constructor, lemma_proof)
        problems.extend(f"lemma {lemma.name}: {problem}" for problem in missing)
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


def _missing_models(constructor: ConstructorFolder, proof: ProofText) -> list[str]:
    """A problem for each SMT model the proof names (``\\machineModel``) that is not a file."""
    missing = []
    for model in proof.machine_models:
        if not model.is_file():
            try:
                shown = constructor.relative(model)
            except ValueError:  # outside the package
                shown = str(model)
            missing.append(f"SMT model {shown} does not exist")
    return missing


def _readable(key: str) -> str:
    """A fingerprint key as a person reads it: ``definition certdp.numeric.floats.inf_add``."""
    if is_closure_key(key):
        file, _, name = key.removeprefix(CLOSURE_PREFIX).partition("@")
        return f"definition {name} ({file})"
    return key


def check_freshness(constructor: ConstructorFolder, ledger: Ledger, definitions=None) -> Check:
    status = status_of(constructor, ledger, definitions=definitions)
    if status.state == NEVER_VETTED:
        return Check(
            UNVETTED,
            f'never vetted: run certdp vet {constructor.name} --by "Name or role" '
            '--reviewed "what was reviewed"',
        )
    if status.state == OUTDATED and status.shadowed:
        return Check(
            OUTDATED,
            f"OUTDATED: {', '.join(status.shadowed)} shadows vetted code (Python imports it "
            "instead): remove it, or rename it",
        )
    if status.state == OUTDATED:
        where = (
            f"see: {status.diff_command}"
            if status.diff_command
            else "compare with the source repository at that vetting"
        )
        return Check(
            OUTDATED,
            f"OUTDATED since vetting at {status.vetted_at} by {status.reviewer}: changed "
            f"{', '.join(_readable(key) for key in status.changed)}; {where}",
        )
    what = f"; reviewed: {status.reviewed}" if status.reviewed else ""
    return Check(OK, f"vetted by {status.reviewer} at {status.vetted_at} on {status.date}{what}")


def _machine_line(name: str, entry: dict, hint: str = "") -> str:
    from certdp.prove import scope

    where = ""
    if entry.get("sizes") or entry.get("formats"):
        where = f" (sizes {entry['sizes']}, formats {entry['formats']}"
        where += f", {entry['solver_version']})" if entry.get("solver_version") else ")"
    declared = scope(name)
    scoped = f". Scope: {declared.text()}" if declared is not None else ""
    hint = f": {hint}" if hint else ""
    return f"{name}: {entry['status']}: {entry['detail']}{where}{hint}{scoped}"


def check_machine(constructor: ConstructorFolder, definitions=()) -> Check:
    """The bounded SMT proof of the constructor's theorem (``certdp prove``), from its cache.

    ``proved`` passes; a ``counterexample`` fails; a result whose model or code changed since it
    was proved is outdated (run ``make prove``); no model of the constructor is ``skipped``,
    naming the modelled lemmas its code relies on.
    """
    entry = machine_result(constructor.name)
    status = entry["status"]
    if status == "proved":
        return Check(OK, _machine_line(constructor.name, entry))
    if status == "counterexample":
        return Check(FAIL, _machine_line(constructor.name, entry))
    if status == "timeout":
        return Check(TIMEOUT, _machine_line(constructor.name, entry))
    if entry.get("solvers_missing"):
        return Check(SKIPPED, f"not-run: {entry['detail']}")
    if "stale" in entry["detail"]:
        return Check(OUTDATED, _machine_line(constructor.name, entry, hint="run make prove"))
    names = {definition.name for definition in definitions}
    lemmas = [
        lemma
        for lemma, prefix in MODELLED_LEMMAS.items()
        if any(name.startswith(prefix) for name in names)
    ]
    if not lemmas:
        return Check(SKIPPED, "not-run: no SMT model of this constructor")
    return Check(
        SKIPPED,
        "not-run: no SMT model of this constructor; lemmas it relies on: "
        + "; ".join(_machine_line(lemma, machine_result(lemma)) for lemma in lemmas),
    )


def machine_result(name: str) -> dict:
    """The cached ``certdp prove`` result of ``name`` (see :func:`certdp.prove.results`);
    ``not-run`` without reading it when the solvers are not installed (a result's fingerprint
    names the solver versions, and the models import the solvers)."""
    from certdp._solvers import INSTALL_HINT, missing_solvers

    missing = missing_solvers()
    if missing:
        return {
            "status": "not-run",
            "detail": f"the SMT solvers are not installed ({', '.join(missing)}): {INSTALL_HINT} "
            "to check the packaged `certdp prove` results",
            "sizes": [],
            "formats": [],
            "solver_version": None,
            "solvers_missing": True,
        }
    from certdp.prove import results

    return results([name])[name]


def check_contracts(constructor: ConstructorFolder, examples: int) -> Check:
    from certdp.core.features import disable_features, enable_features, feature_enabled

    # the audit checks contracts whether or not the proof is vetted yet; the caller's feature
    # set is restored afterwards
    had_contrib = feature_enabled("contrib")
    enable_features("contrib")
    try:
        report = _contract(constructor).verify(max_examples=examples)
    except Exception as error:
        return Check(FAIL, f"{type(error).__name__}: {error}"[:2000])
    finally:
        if not had_contrib:
            disable_features("contrib")
    return Check(OK, f"{report.examples} examples, tightest {report.max_tightness:.3g}")


@dataclass(frozen=True)
class BuildSetup:
    """Whether and where proofs are built: ``missing`` names the tools this machine lacks."""

    requested: bool
    output: Path
    missing: tuple[str, ...]

    @classmethod
    def detect(cls, requested: bool, output: Path | None, package: Path) -> BuildSetup:
        checkout = checkout_root(package)
        default = checkout / "build" / "proofs" if checkout else Path.cwd() / "certdp-proofs"
        missing = tuple(tool for tool in ("make", "latexmk") if shutil.which(tool) is None)
        return cls(requested, (output or default).resolve(), missing)

    @property
    def runs(self) -> bool:
        return self.requested and not self.missing

    def skipped(self) -> Check:
        if not self.requested:
            return Check(SKIPPED, "not requested (--build)")
        return Check(
            SKIPPED, f"{' and '.join(self.missing)} not found: install LaTeX to build the proofs"
        )


def _pdf(constructor: ConstructorFolder, setup: BuildSetup) -> Path:
    return setup.output / constructor.proof.relative_to(constructor.package).with_suffix(".pdf")


def _make(package: Path, setup: BuildSetup, targets: list[Path], *options: str):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    return subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-s",
            *options,
            "-f",
            str(package / "proofs" / "proofs.mk"),
            f"PROOFS_BUILD={setup.output}",
            f"PROOFS_PYTHON={sys.executable}",
            *map(str, targets),
        ],
        env=environment,
        capture_output=True,
        text=True,
    )


def build_proofs(constructors: list[ConstructorFolder], setup: BuildSetup) -> dict[str, Check]:
    """Build the proofs of ``constructors`` (in parallel, incrementally): one check each.

    One ``make -k -j`` builds them all; each one that fails is built once more alone, so that
    its check carries its own error.
    """
    if not constructors:
        return {}
    package = constructors[0].package
    pdfs = {c.key: _pdf(c, setup) for c in constructors}
    jobs = f"-j{os.cpu_count() or 1}"
    _make(package, setup, list(pdfs.values()), "-k", jobs)
    checks = {}
    for constructor in constructors:
        target = pdfs[constructor.key]
        if target.exists():
            checks[constructor.key] = Check(OK, str(target))
            continue
        result = _make(package, setup, [target])
        output = (result.stdout + result.stderr).strip()[-1500:]
        checks[constructor.key] = Check(FAIL, output or "no PDF produced")
    return checks


def select(package: Path | None = None, names=None) -> list[ConstructorFolder]:
    """The constructors to audit; :class:`AuditError` if there is none or a name is unknown."""
    package = (package or package_root()).resolve()
    found = discover(package)
    if not found:
        raise AuditError(
            f"no constructor found in {package} (expected make_*.py files under "
            "transformations/, measurements/ or numpy/)"
        )
    if names:
        unknown = sorted(set(names) - {c.name for c in found})
        if unknown:
            raise AuditError(
                f"no constructor named {', '.join(unknown)} in {package} "
                f"(known: {', '.join(sorted({c.name for c in found}))})",
                parameter="names",
            )
        found = [c for c in found if c.name in names]
    return found


#: The index of proven ranges (with the parsed modules) of the audit run a process is
#: working for: the rows of one run read one tree and share it; a new run starts afresh.
_RUN_INDEX: dict[str, ProofIndex] = {}


def _index_of_run(package: Path, run: str) -> ProofIndex:
    if run not in _RUN_INDEX:
        _RUN_INDEX.clear()
        _RUN_INDEX[run] = ProofIndex(package)
    return _RUN_INDEX[run]


def _row(job: tuple[str, str, int, str]) -> ConstructorAudit:
    package, key, examples, run = job
    constructor = next(c for c in discover(Path(package)) if c.key == key)
    row = ConstructorAudit(constructor.key, constructor.name)
    row.checks["artifacts"] = check_artifacts(constructor)
    row.checks["binding"] = check_binding(constructor)
    try:
        definitions = closure(constructor, _index_of_run(constructor.package, run))
    except Exception:  # a broken proof or source: binding reports it, freshness fails
        definitions = []
    row.trusted_base = [definition.name for definition in definitions if definition.trusted]
    row.checks["freshness"] = check_freshness(constructor, Ledger(constructor.package), definitions)
    row.checks["contracts"] = (
        check_contracts(constructor, examples)
        if constructor.contract.exists()
        else Check(FAIL, "no contract")
    )
    row.checks["machine_checked"] = check_machine(constructor, definitions)
    return row


def audit(
    package: Path | None = None,
    *,
    names=None,
    examples: int = QUICK_EXAMPLES,
    build: BuildSetup | None = None,
    jobs: int | None = None,
    on_row: Callable[[ConstructorAudit], None] | None = None,
    on_phase: Callable[[str], None] | None = None,
) -> list[ConstructorAudit]:
    """Audit every constructor of ``package`` (or those ``names``); one row each, sorted by key.

    ``on_row`` is called with each row as it completes, ``on_phase`` with what runs now.
    Raises :class:`AuditError` when nothing would be checked or the ledger is missing.
    """
    package = (package or package_root()).resolve()
    constructors = select(package, names)
    ledger = Ledger(package)
    if not ledger.exists:
        raise AuditError(
            f"no vetting ledger at {ledger.path}: without it no proof can be found vetted "
            "(certdp vet creates it in a source checkout)"
        )
    build = build or BuildSetup.detect(False, None, package)
    if build.runs:
        if on_phase:
            on_phase("building proofs")
        built = build_proofs(constructors, build)
    else:
        built = {c.key: build.skipped() for c in constructors}
    if on_phase:
        on_phase("checking contracts")
    run = uuid.uuid4().hex  # rows of this run share one index (_index_of_run)
    work = [(str(package), c.key, examples, run) for c in constructors]
    jobs = jobs or min(len(work), os.cpu_count() or 1)
    rows: dict[str, ConstructorAudit] = {}

    def finished(row: ConstructorAudit) -> None:
        row.checks["build"] = built[row.key]
        row.checks = {name: row.checks[name] for name in CHECKS}
        rows[row.key] = row
        if on_row:
            on_row(row)

    if jobs > 1:
        # forkserver: workers do not inherit the progress display's thread
        context = multiprocessing.get_context("forkserver")
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            for future in as_completed([pool.submit(_row, job) for job in work]):
                finished(future.result())
    else:
        for job in work:
            finished(_row(job))
    return [rows[c.key] for c in constructors]
