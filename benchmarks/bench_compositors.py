"""Benchmark: what the adaptive compositor costs per query, beside OpenDP when installed.

    PYTHONPATH=src python3 benchmarks/bench_compositors.py

For each library: build ``make_adaptive_composition`` over vectors of floats with ``n`` budgets,
release it on a dataset of ``size`` records, and answer ``n`` queries (a stub measurement that
returns its input's length, so the time is the compositor's: the checks, the charge, the copy of
the data, the queryable); then the same with the budget exhausted (every query refused).  One
thread; microseconds per query.  certdp copies the data for each query (so that no query can
change what the next one sees), which grows with ``size``.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import certdp.prelude as dp  # noqa: E402

QUERIES = 200


def certdp_run(size: int) -> tuple[float, float]:
    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()
    query = dp.Measurement(space[0], len, space[1], dp.max_divergence(), lambda d: 0.01)
    qbl = dp.c.make_adaptive_composition(*space, dp.max_divergence(), 1, [0.01] * QUERIES)(
        [0.5] * size
    )
    start = time.perf_counter()
    for _ in range(QUERIES):
        qbl(query)
    answered = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(QUERIES):
        try:
            qbl(query)
        except dp.DPError:
            pass
    refused = time.perf_counter() - start
    return answered / QUERIES * 1e6, refused / QUERIES * 1e6


def opendp_run(size: int) -> tuple[float, float]:
    import opendp.prelude as odp

    odp.enable_features("contrib", "honest-but-curious")
    space = odp.vector_domain(odp.atom_domain(T=float, nan=False)), odp.symmetric_distance()
    query = odp.m.make_user_measurement(
        *space, odp.max_divergence(), lambda x: len(x), lambda d: 0.01
    )
    qbl = odp.c.make_adaptive_composition(*space, odp.max_divergence(), 1, [0.01] * QUERIES)(
        [0.5] * size
    )
    start = time.perf_counter()
    for _ in range(QUERIES):
        qbl(query)
    answered = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(QUERIES):
        try:
            qbl(query)
        except Exception:  # noqa: BLE001 - OpenDP's refusal
            pass
    refused = time.perf_counter() - start
    return answered / QUERIES * 1e6, refused / QUERIES * 1e6


def main() -> None:
    runs = [("certdp", certdp_run)]
    if importlib.util.find_spec("opendp") is not None:
        runs.append(("opendp", opendp_run))
    print(f"{'library':<8} {'records':>8} {'us/answered query':>18} {'us/refused query':>17}")
    for size in (10, 1_000, 100_000):
        for name, run in runs:
            answered, refused = run(size)
            print(f"{name:<8} {size:>8} {answered:>18.1f} {refused:>17.1f}")


if __name__ == "__main__":
    main()
