"""Benchmark: what the adaptive compositor costs per query, beside OpenDP when installed.

    python benchmarks/bench_compositors.py

For each library: build ``make_adaptive_composition`` over vectors of floats with ``n`` budgets,
release it on a dataset of ``size`` records, and answer ``n`` queries (a stub measurement that
returns its input's length, so the time is the compositor's: the checks, the charge, the copy of
the data, the queryable); then the same with the budget exhausted (every query refused).  One
thread; microseconds per query.  certdp copies the data for each query (so that no query can
change what the next one sees), which grows with ``size``.
"""

from __future__ import annotations

import time

import _timing

import certdp.prelude as cdp

QUERIES = 200


def _stub_query(dp, space):
    """A measurement that returns its input's length: the query's own work is nothing."""
    if dp is cdp:
        return dp.Measurement(space[0], len, space[1], dp.max_divergence(), lambda d: 0.01)
    return dp.m.make_user_measurement(*space, dp.max_divergence(), len, lambda d: 0.01)


def per_query(dp, size: int) -> tuple[float, float]:
    """Microseconds per answered and per refused query of the library ``dp``."""
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
    query = _stub_query(dp, space)
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
        except Exception:  # noqa: BLE001 - each library's refusal of an exhausted budget
            pass
    refused = time.perf_counter() - start
    return answered / QUERIES * 1e6, refused / QUERIES * 1e6


def main() -> None:
    cdp.enable_features("contrib")
    odp = _timing.opendp()
    if odp is not None:
        odp.enable_features("honest-but-curious")
    libraries = [("certdp", cdp)] + ([("opendp", odp)] if odp is not None else [])
    print(_timing.load())
    print(f"{'library':<8} {'records':>8} {'us/answered query':>18} {'us/refused query':>17}")
    answered = {}
    for size in (10, 1_000, 100_000):
        for name, dp in libraries:
            answered[name, size], refused = per_query(dp, size)
            print(f"{name:<8} {size:>8} {answered[name, size]:>18.1f} {refused:>17.1f}")
    for size in (10, 1_000, 100_000):
        _timing.target(
            f"answered query, {size} records",
            answered["certdp", size],
            answered.get(("opendp", size)),
            1.0,
            "certdp copies the data for each query",
        )


if __name__ == "__main__":
    main()
