"""Run the bounded proofs: ask z3 for a counterexample to every obligation of a constructor, and
cache each constructor's result under a fingerprint of its model and the code it models.

Statuses: ``proved`` (every obligation unsatisfiable), ``counterexample`` (the solver found a
pair; it is decoded, run through the real code, and reported), ``timeout`` (the solver gave up
on some obligation, none refuted), ``not-run`` (no model, or not run yet at this fingerprint).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import multiprocessing
import os
from pathlib import Path

from certdp._imported import imported_files
from certdp.contracts.smt import solver_version
from certdp.core.features import disable_features, enable_features, feature_enabled

from .solver import solve

__all__ = [
    "MODELS",
    "MODEL_FILE",
    "discover_models",
    "CACHE",
    "solve",
    "fingerprint",
    "prove",
    "cached_results",
    "known_constructors",
]

_PACKAGE = Path(__file__).resolve().parents[1]  # src/certdp
#: The committed cache: a fresh clone starts warm.
CACHE = Path(__file__).resolve().parent / "results.json"

#: The file name of a model module: every one under the package is discovered.
MODEL_FILE = "smt_model.py"


def discover_models(package: Path = _PACKAGE) -> dict[str, str]:
    """``{model module: the folder it sits in}`` for every ``smt_model.py`` under ``package``,
    sorted by module name.  There is no registry to edit: a model beside its constructor (or
    in its ``_topic`` folder) is found, and a package holding a subset of the constructors
    finds the models it holds."""
    found = {}
    for path in sorted(package.rglob(MODEL_FILE)):
        relative = path.relative_to(package).with_suffix("")
        if "__pycache__" in relative.parts:
            continue
        found[".".join(("certdp", *relative.parts))] = relative.parent.name
    return found


#: Model modules, discovered (kept under this name for the callers that read it).
MODELS = discover_models()

#: What every result depends on besides its own model and code: the shared SMT vocabulary, the
#: obligation record and the decision procedure.  (Not the engine: scheduling and caching do not
#: change what is proved.)
_SHARED = [
    "contracts/smt.py",
    "contracts/smt_code.py",
    "contracts/obligation.py",
    "prove/solver.py",
]


def _module_file(module: str) -> Path:
    return _PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def known_constructors() -> dict[str, str]:
    """``{name: model module}`` for every constructor or lemma with a model."""
    names = {}
    for module in MODELS:
        for name in importlib.import_module(module).MODELLED:
            names[name] = module
    return names


def requirements(name: str, module: str) -> list[str]:
    """The names whose proved results ``name``'s theorem relies on besides its own obligations
    (a model's ``REQUIRES``): a lemma proved once, or the constructors a dispatcher delegates
    to, so that the same obligations are not solved again for every constructor using them."""
    return list(getattr(importlib.import_module(module), "REQUIRES", {}).get(name, ()))


def fingerprint(name: str, module: str) -> str:
    """SHA-256 of the model, the shared SMT encoding, the modelled code, every package file the
    model imports (transitively, read statically: :mod:`certdp._imported`), the solver version and
    the fingerprints of the results it requires (a change to a required lemma's model or code
    makes this result stale too)."""
    modelled = importlib.import_module(module).MODELLED[name]
    digest = hashlib.sha256(solver_version().encode())
    imported = [
        str(path.relative_to(_PACKAGE.resolve()))
        for path in imported_files(_module_file(module), _PACKAGE)
    ]
    for relative in [*_SHARED, str(_module_file(module).relative_to(_PACKAGE)), *modelled]:
        digest.update(relative.encode() + b"\0" + (_PACKAGE / relative).read_bytes() + b"\0")
    for relative in imported:  # every package file the model imports, transitively
        digest.update(b"imports\0" + relative.encode() + b"\0")
        digest.update((_PACKAGE / relative).read_bytes() + b"\0")
    required = requirements(name, module)
    if required:
        known = known_constructors()
        for other in required:
            digest.update(b"requires\0" + other.encode() + b"\0")
            digest.update(fingerprint(other, known[other]).encode())
    return digest.hexdigest()


def with_requirements(name: str, own: dict, lookup) -> dict:
    """``own`` (the result of ``name``'s own obligations) combined with the results it requires
    (``lookup(other)``, already combined): proved only when all are proved; otherwise the first
    requirement that is not, named in the detail."""
    known = known_constructors()
    required = requirements(name, known[name]) if name in known else []
    if not required:
        return own
    combined = dict(own)
    if own.get("status") != "proved":
        return combined
    for other in required:
        entry = lookup(other)
        if entry.get("status") != "proved":
            status = entry.get("status")
            combined["status"] = status if status in ("counterexample", "timeout") else "not-run"
            combined["detail"] = (
                f"{own.get('detail')}; but it relies on {other}, which is {status}: "
                f"{entry.get('detail')}"
            )
            return combined
    combined["detail"] = f"{own.get('detail')}; and it relies on {', '.join(required)}, proved"
    combined["formats"] = sorted(
        set(own.get("formats") or []).union(*(lookup(o).get("formats") or [] for o in required))
    )
    return combined


def _prove_shard(task) -> tuple[str, int, list[dict], list]:
    """Solve every ``shards``-th obligation of ``name`` from ``shard`` on."""
    name, module, timeout_seconds, shard, shards = task
    # The machine check is about the code as it is, vetted or not: the models call the real
    # constructors' maps, which the vetting gate would otherwise refuse while a proof is unvetted.
    had_contrib = feature_enabled("contrib")
    enable_features("contrib")
    try:
        obligations = importlib.import_module(module).obligations([name])[shard::shards]
        outcomes = [solve(obligation, timeout_seconds) for obligation in obligations]
    finally:  # an in-process run leaves the caller's feature set as it found it
        if not had_contrib:
            disable_features("contrib")
    described = [(o.format, o.size) for o in obligations]
    return name, shard, outcomes, described


def _write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


def _summarise(described, outcomes) -> dict:
    formats = sorted({fmt for fmt, _ in described})
    sizes = sorted({size for _, size in described})
    refuted = [o for o in outcomes if o["status"] == "counterexample"]
    unknown = [o for o in outcomes if o["status"] == "timeout"]
    if not outcomes:
        status, detail = "not-run", "no obligation at these sizes"
    elif refuted:
        status = "counterexample"
        detail = (
            f"{len(refuted)} of {len(outcomes)} instances refuted; first: {refuted[0]['claim']}"
        )
    elif unknown:
        status = "timeout"
        detail = (
            f"{len(unknown)} of {len(outcomes)} instances undecided; first: {unknown[0]['claim']}"
        )
    else:
        status = "proved"
        detail = (
            f"all {len(outcomes)} instances unsatisfiable: no counterexample to the model's "
            "obligations (its scope states what they check of the code)"
        )
    return {
        "status": status,
        "detail": detail,
        "sizes": sizes,
        "formats": formats,
        "solver_version": solver_version(),
        "instances": [
            {"claim": o["claim"], "status": o["status"], "seconds": o["seconds"]} for o in outcomes
        ],
        "counterexamples": refuted,
        "timeouts": unknown,
    }


def cached_results(cache: Path = CACHE) -> dict:
    try:
        return json.loads(cache.read_text())
    except (OSError, ValueError):
        return {}


def prove(
    names=None, *, timeout_seconds: float = 300.0, jobs: int = 2, force: bool = False,
    cache: Path | None = CACHE, progress=None,
) -> dict:  # fmt: skip
    """Prove the constructors ``names`` (default: all modelled), re-using cached results whose
    fingerprint is unchanged; returns ``{name: result}``.  Each constructor's result is merged
    into ``cache`` as soon as all its obligations are decided."""
    known = known_constructors()
    wanted = list(known) if not names else list(names)
    # what a wanted result relies on is proved (or read from the cache) with it
    needed = list(wanted)
    for name in needed:
        if name in known:
            needed += [other for other in requirements(name, known[name]) if other not in needed]
    unknown = [n for n in wanted if n not in known]
    stored = cached_results(cache) if cache is not None else {}
    results, tasks = {}, []
    for name in unknown:
        results[name] = {"status": "not-run", "detail": "no SMT model", "sizes": [],
                         "formats": [], "solver_version": solver_version()}  # fmt: skip
    # each result records the fingerprint of the files as they were when the run began: one
    # taken when the result comes in could be of files edited meanwhile, which it did not prove
    started: dict[str, str] = {}
    for name in needed:
        if name in unknown:
            continue
        current = started[name] = fingerprint(name, known[name])
        entry = stored.get(name)
        if not force and entry and entry.get("fingerprint") == current:
            results[name] = dict(entry, cached=True)
        else:
            tasks.append((name, known[name], timeout_seconds))
    # the slowest models first, each split in shards, so that the workers finish together
    tasks.sort(key=lambda t: -stored.get(t[0], {}).get("seconds", 1e9))
    shards = max(1, jobs)
    work = [(*task, shard, shards) for task in tasks for shard in range(shards)]
    parts: dict[str, list] = {task[0]: [] for task in tasks}

    def collect(name, shard, outcomes, described):
        parts[name].append((shard, outcomes, described))
        if len(parts[name]) == shards:
            ordered = sorted(parts[name], key=lambda part: part[0])
            result = _summarise(
                [d for part in ordered for d in part[2]], [o for part in ordered for o in part[1]]
            )
            result["seconds"] = round(sum(o["seconds"] for part in ordered for o in part[1]), 2)
            result["fingerprint"] = started[name]
            results[name] = result
            record(name)
            if progress:
                progress(name, result)

    def record(name):
        """Merge one finished result into the cache at once (re-read, so that results another
        run wrote meanwhile are kept): an interrupted run keeps what it finished."""
        if cache is None:
            return
        merged = cached_results(cache)
        merged[name] = {k: v for k, v in results[name].items() if k != "cached"}
        _write_atomically(cache, json.dumps(dict(sorted(merged.items())), indent=1) + "\n")

    if work:
        if jobs > 1:
            context = multiprocessing.get_context("spawn")
            with context.Pool(jobs) as pool:
                for part in pool.imap_unordered(_prove_shard, work):
                    collect(*part)
        else:
            for item in work:
                collect(*_prove_shard(item))
    answer: dict = {}

    def final(name):
        if name not in answer:
            answer[name] = with_requirements(name, results[name], final)
        return answer[name]

    return {name: final(name) for name in wanted}
