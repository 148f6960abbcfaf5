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
import time
from pathlib import Path

import z3

from certdp.contracts.smt import solver_version
from certdp.core.features import enable_features

__all__ = [
    "MODELS",
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

#: Model modules and, per constructor (or lemma), the files whose code the model stands for.
MODELS = {
    "certdp.transformations._summation.smt_model": "summation",
    "certdp.transformations.clamp.smt_model": "clamp",
    "certdp.transformations.is_equal.smt_model": "is_equal",
    "certdp.measurements._laplace.smt_model": "laplace",
    "certdp.samplers.smt_model": "samplers",
    "certdp.transformations.count.smt_model": "count",
    "certdp.combinators.composition.smt_model": "composition",
    "certdp.combinators.pureDP_to_zCDP.smt_model": "pureDP_to_zCDP",
    "certdp.transformations.sum.smt_model": "sum",
    "certdp.transformations.mean.smt_model": "mean",
    "certdp.combinators.zCDP_to_approxDP.smt_model": "zCDP_to_approxDP",
}

_SHARED = ["contracts/smt.py", "contracts/obligation.py", "prove/engine.py"]


def _module_file(module: str) -> Path:
    return _PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def known_constructors() -> dict[str, str]:
    """``{name: model module}`` for every constructor or lemma with a model."""
    names = {}
    for module in MODELS:
        for name in importlib.import_module(module).MODELLED:
            names[name] = module
    return names


def fingerprint(name: str, module: str) -> str:
    """SHA-256 of the model, the shared SMT encoding, the modelled code and the solver version."""
    modelled = importlib.import_module(module).MODELLED[name]
    digest = hashlib.sha256(solver_version().encode())
    for relative in [*_SHARED, str(_module_file(module).relative_to(_PACKAGE)), *modelled]:
        digest.update(relative.encode() + b"\0" + (_PACKAGE / relative).read_bytes() + b"\0")
    return digest.hexdigest()


def solve(obligation, timeout_seconds: float) -> dict:
    """One obligation: ``{"status": proved|counterexample|timeout, ...}``.  Its violation is a
    formula or a list of cases (formulas with their decoders), checked one after another."""
    started = time.perf_counter()
    cases = obligation.violation()
    if not isinstance(cases, list):
        cases = [cases]
    undecided = None
    for formula, decode in cases:
        remaining = timeout_seconds - (time.perf_counter() - started)
        if remaining <= 0:
            undecided = undecided or "time budget spent"
            break
        solver = z3.Solver()  # a fresh solver per case: non-incremental bit-blasting is faster
        solver.set("timeout", max(1, int(remaining * 1000)))
        solver.add(formula)
        answer = solver.check()
        if answer == z3.sat:
            example = decode(solver.model())
            if obligation.confirm is not None:
                example["code"] = obligation.confirm(example)
            return {
                "status": "counterexample", "claim": obligation.claim,
                "seconds": round(time.perf_counter() - started, 3), "example": _jsonable(example),
            }  # fmt: skip
        if answer == z3.unknown:
            undecided = solver.reason_unknown()
    seconds = round(time.perf_counter() - started, 3)
    if undecided is None:
        return {"status": "proved", "claim": obligation.claim, "seconds": seconds,
                "cases": len(cases)}  # fmt: skip
    return {"status": "timeout", "claim": obligation.claim, "seconds": seconds,
            "reason": undecided}  # fmt: skip


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (int, str, bool)) or value is None:
        return value
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _prove_shard(task) -> tuple[str, int, list[dict], list]:
    """Solve every ``shards``-th obligation of ``name`` from ``shard`` on."""
    name, module, timeout_seconds, shard, shards = task
    # The machine check is about the code as it is, vetted or not: the models call the real
    # constructors' maps, which the vetting gate would otherwise refuse while a proof is unvetted.
    enable_features("contrib")
    obligations = importlib.import_module(module).obligations([name])[shard::shards]
    outcomes = [solve(obligation, timeout_seconds) for obligation in obligations]
    described = [(o.format, o.size) for o in obligations]
    return name, shard, outcomes, described


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
        detail = f"all {len(outcomes)} instances unsatisfiable (no counterexample exists)"
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
    fingerprint is unchanged; returns ``{name: result}`` and rewrites ``cache``."""
    known = known_constructors()
    wanted = list(known) if not names else list(names)
    unknown = [n for n in wanted if n not in known]
    stored = cached_results(cache) if cache is not None else {}
    results, tasks = {}, []
    for name in unknown:
        results[name] = {"status": "not-run", "detail": "no SMT model", "sizes": [],
                         "formats": [], "solver_version": solver_version()}  # fmt: skip
    for name in wanted:
        if name in unknown:
            continue
        current = fingerprint(name, known[name])
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
            result["fingerprint"] = fingerprint(name, known[name])
            results[name] = result
            if progress:
                progress(name, result)

    if work:
        if jobs > 1:
            context = multiprocessing.get_context("spawn")
            with context.Pool(jobs) as pool:
                for part in pool.imap_unordered(_prove_shard, work):
                    collect(*part)
        else:
            for item in work:
                collect(*_prove_shard(item))
    if cache is not None and tasks:
        merged = dict(stored)
        for name, result in results.items():
            if name in known:
                merged[name] = {k: v for k, v in result.items() if k != "cached"}
        cache.write_text(json.dumps(dict(sorted(merged.items())), indent=1) + "\n")
    return {name: results[name] for name in wanted}
