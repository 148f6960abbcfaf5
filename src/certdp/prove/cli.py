"""``certdp prove [NAME...]``: prove, print one line per name, fail on a counterexample."""

from __future__ import annotations

import json
import sys
import time

from .engine import CACHE, prove

__all__ = ["run"]


def _line(name: str, result: dict) -> str:
    origin = "cached" if result.get("cached") else f"{result.get('seconds', 0)}s"
    formats = ",".join(result.get("formats", []))
    sizes = ",".join(str(s) for s in result.get("sizes", []))
    return f"{result['status']:<15} {name}  [{formats}; N={sizes}; {origin}]  {result['detail']}"


def run(arguments) -> int:
    started = time.perf_counter()
    writable = CACHE.parent.exists() and _writable(CACHE)

    def progress(name, result):
        if not arguments.json:
            print(_line(name, result), flush=True)
            _print_scope(name)

    results = prove(
        arguments.names or None, timeout_seconds=arguments.timeout, jobs=arguments.jobs,
        force=arguments.force, cache=CACHE if writable else None, progress=progress,
    )  # fmt: skip
    if arguments.json:
        json.dump(results, sys.stdout, indent=1)
        print()
    else:
        for name, result in results.items():
            if result.get("cached"):
                print(_line(name, result))
                _print_scope(name)
        for name, result in results.items():
            for example in result.get("counterexamples", []):
                print(f"COUNTEREXAMPLE {name}: {example['claim']}\n  {example['example']}")
        counts = {}
        for result in results.values():
            counts[result["status"]] = counts.get(result["status"], 0) + 1
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        print(f"certdp prove: {summary} in {time.perf_counter() - started:.1f}s")
    undecided = [n for n, r in results.items() if r["status"] == "timeout"]
    if undecided and not arguments.json:
        print(
            f"not proved (solver timeout): {', '.join(undecided)}; re-run with a larger --timeout"
        )
    # a counterexample fails; a timeout is reported (it is no proof) but is not a refutation
    return 1 if any(r["status"] == "counterexample" for r in results.values()) else 0


def _print_scope(name: str) -> None:
    """What the check of ``name`` covers (its model's ``SCOPE``), indented under its line."""
    from . import scope

    declared = scope(name)
    if declared is not None:
        for sentence in declared.sentences():
            print(f"    {sentence}")


def _writable(path) -> bool:
    import os

    return os.access(path if path.exists() else path.parent, os.W_OK)
