"""Benchmark: how fast ``certdp crosscheck`` tries pairs, compares maps and draws noise.

    python benchmarks/bench_crosscheck.py            # --quick grid
    python benchmarks/bench_crosscheck.py --full     # the full grid (minutes)

One process (``jobs=1``), so the rates are per core.  Targets: certdp's own prelude, and OpenDP
when it is installed.  Per twin and check: pairs tried per second (counterexample search, the
target's function on both inputs plus the exact distances), map values compared per second
(target, certdp and the proof's exact bound), noise draws tested per second.  Wall time
includes building every point in the target and in certdp.  No speed target is fixed for it
(it measures the checker, not a release); it says so at the end.
"""

from __future__ import annotations

import importlib.util
import sys
import time

import _timing

from certdp.crosscheck.run import crosscheck


def rate(count: float, seconds: float) -> str:
    return f"{count / seconds:10,.0f}" if seconds > 0 and count else f"{'-':>10}"


def table(target: str, quick: bool) -> None:
    start = time.perf_counter()
    report = crosscheck(target, quick=quick)
    wall = time.perf_counter() - start
    print(f"\n{target} ({'--quick' if quick else 'full grid'}): {wall:.1f} s wall, one process")
    print(
        f"{'twin':<38} {'pairs':>8} {'pairs/s':>10} {'maps':>6} {'maps/s':>10} "
        f"{'draws':>8} {'draws/s':>10}"
    )
    totals = [0, 0.0, 0, 0.0, 0, 0.0]
    for r in report.results:
        tried = r.pairs + r.unchecked_pairs  # checked and unchecked: each ran the target
        print(
            f"{r.twin:<38} {tried:>8} {rate(tried, r.search_seconds)} {r.map_values:>6} "
            f"{rate(r.map_values, r.map_seconds)} {r.samples:>8} "
            f"{rate(r.samples, r.noise_seconds)}"
        )
        for i, value in enumerate(
            (tried, r.search_seconds, r.map_values, r.map_seconds, r.samples, r.noise_seconds)
        ):
            totals[i] += value
    print(
        f"{'all twins':<38} {totals[0]:>8} {rate(totals[0], totals[1])} {totals[2]:>6} "
        f"{rate(totals[2], totals[3])} {totals[4]:>8} {rate(totals[4], totals[5])}"
    )
    print(f"findings: {len(report.findings)} ({len(report.violations)} failing)")


def main() -> None:
    quick = "--full" not in sys.argv
    print(_timing.load())
    table("certdp.prelude", quick)
    if importlib.util.find_spec("opendp") is not None:
        table("opendp.prelude", quick)
    else:
        print("\nOpenDP is not installed: pip install opendp==0.16.0 to benchmark it too")
    print("target: none fixed (the rates measure the checker, not a release)")


if __name__ == "__main__":
    main()
