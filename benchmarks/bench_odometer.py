"""Benchmark: what the privacy filter costs per query as its history grows, beside OpenDP when
installed.

    python benchmarks/bench_odometer.py

For each library: build a filter over an odometer on f64 atoms (pure DP, budget 1e9, so nothing
is refused), release it, and answer ``n`` Laplace queries; then read ``privacy_loss(1.0)`` once.
One thread; microseconds per query, for several ``n``.  certdp keeps the exact running sum of the
charged losses, so a query costs the same whatever the history; ``privacy_loss`` calls every
answered query's map, so it grows with ``n``.

A second table: milliseconds per query on a dataset of ``records`` f64 values (a vector domain
under the symmetric distance; a query with a constant function and map), which shows the cost of
the copy of the data each release gets (a new list of the floats in certdp).
"""

from __future__ import annotations

import time

import _timing

import certdp.prelude as dp

SIZES = (100, 1000, 5000)


def run(lib, n: int) -> tuple[float, float]:
    lib.enable_features("contrib")
    T = "f64" if lib is dp else float
    space = lib.atom_domain(T=T, nan=False), lib.absolute_distance(T=T)
    odometer = lib.c.make_fully_adaptive_composition(*space, lib.max_divergence())
    queryable = lib.c.make_privacy_filter(odometer, d_in=1.0, d_out=1e9)(0.0)
    query = lib.m.make_laplace(*space, scale=3.0)
    start = time.perf_counter()
    for _ in range(n):
        queryable(query)
    answered = time.perf_counter() - start
    start = time.perf_counter()
    queryable.privacy_loss(1.0)
    return answered / n * 1e6, (time.perf_counter() - start) * 1e6


RECORDS = (1_000, 100_000, 300_000)
QUERIES = 20


def run_records(lib, records: int) -> float:
    lib.enable_features("contrib")
    T = "f64" if lib is dp else float
    domain = lib.vector_domain(lib.atom_domain(T=T, nan=False))
    metric = lib.symmetric_distance()
    odometer = lib.c.make_fully_adaptive_composition(domain, metric, lib.max_divergence())
    queryable = lib.c.make_privacy_filter(odometer, d_in=1, d_out=1e9)([0.5] * records)
    if lib is dp:
        query = dp.Measurement(domain, lambda x: 0.0, metric, dp.max_divergence(), lambda d: 1.0)
    else:
        lib.enable_features("honest-but-curious")  # OpenDP's user measurements ask for it
        query = lib.m.make_user_measurement(
            domain, metric, lib.max_divergence(), lambda x: 0.0, lambda d: 1.0
        )
    start = time.perf_counter()
    for _ in range(QUERIES):
        queryable(query)
    return (time.perf_counter() - start) / QUERIES * 1e3


def main() -> None:
    libraries = [("certdp", dp)]
    odp = _timing.opendp()
    if odp is not None:
        libraries.append(("OpenDP", odp))
    print(_timing.load())
    per_query = {}
    print(f"{'library':<8} {'n':>6} {'us/query':>10} {'privacy_loss us':>16}")
    for name, lib in libraries:
        for n in SIZES:
            per_query[name, n], loss = run(lib, n)
            print(f"{name:<8} {n:>6} {per_query[name, n]:>10.1f} {loss:>16.1f}")
    print()
    print(f"{'library':<8} {'records':>8} {'ms/query':>10}")
    for name, lib in libraries:
        for records in RECORDS:
            print(f"{name:<8} {records:>8} {run_records(lib, records):>10.3f}")
    for n in SIZES:
        ours, theirs = per_query["certdp", n], per_query.get(("OpenDP", n))
        _timing.target(f"query after {n} queries", ours, theirs, 1.0)


if __name__ == "__main__":
    main()
