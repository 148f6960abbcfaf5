"""Check: the quick cross-check of certdp against itself gives each twin the same result run
over every twin at once as run for that twin alone (what tests/crosscheck/test_certdp_itself.py
relies on when it checks one twin per test).

    python benchmarks/crosscheck_per_twin.py [TARGET]     # default certdp.prelude

Hypothesis is derandomized as in the tests' ``ci`` profile, so both runs draw the same random
pairs.  Per twin it compares what the test reads: built, pairs, map values, map classes,
samples, and the findings (twin, check, severity, point, summary); it prints each twin's seconds
alone and the mismatches, and exits 1 on any.  Not a benchmark (``make bench`` runs only
``bench_*.py``): two whole quick runs, about a minute and a half.
"""

from __future__ import annotations

import sys
import time

from hypothesis import HealthCheck, settings

from certdp.crosscheck.run import crosscheck


def summary(result) -> tuple:
    findings = sorted((f.twin, f.check, f.severity, f.point, f.summary) for f in result.findings)
    return (
        result.built,
        result.pairs,
        result.map_values,
        dict(result.map_classes),
        result.samples,
        findings,
    )


def main(target: str) -> int:
    settings.register_profile(
        "per-twin", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    settings.load_profile("per-twin")
    start = time.perf_counter()
    whole = crosscheck(target, quick=True)
    print(f"every twin at once: {time.perf_counter() - start:.1f} s, {len(whole.results)} twins")
    mismatches = 0
    total = 0.0
    for result in whole.results:
        start = time.perf_counter()
        alone = crosscheck(target, [result.twin], quick=True)
        seconds = time.perf_counter() - start
        total += seconds
        (own,) = alone.results
        same = summary(own) == summary(result) and alone.error == whole.error
        mismatches += not same
        print(f"{seconds:7.2f} s  {'same' if same else 'DIFFERENT'}  {result.twin}")
        if not same:
            print(f"    at once: {summary(result)}\n    alone:   {summary(own)}")
    print(f"each twin alone: {total:.1f} s in all; {mismatches} twins differ")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "certdp.prelude"))
