"""Quantile scores: seconds of ``make_quantile_score_candidates`` on 10^6 records (f64 and i64,
known and unknown size), certdp beside OpenDP 0.16 when it is installed.

Each row times one invocation (median of 3, warm process) on a Python list, as a user passes
data; the scores of both libraries are compared too. Target: certdp's time <= 1x OpenDP's.
Run: ``python benchmarks/bench_quantile.py`` (enables ``contrib`` in both libraries).
"""

from __future__ import annotations

import random
import statistics
import time

import certdp.prelude as cdp

try:
    import opendp.prelude as odp
except ImportError:  # OpenDP is optional: certdp's column alone
    odp = None

N = 10**6


def _seconds(transformation, data) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        transformation(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _cases(rng):
    floats = [rng.gauss(0.0, 1.0) for _ in range(N)]
    ints = [rng.randrange(-1000, 1000) for _ in range(N)]
    float_candidates = [i / 10 for i in range(-30, 31)]
    int_candidates = list(range(-1000, 1000, 10))
    yield "f64, unknown size, 61 candidates", "f64", None, float_candidates, floats
    yield f"f64, size {N}, 61 candidates", "f64", N, float_candidates, floats
    yield "i64, unknown size, 200 candidates", "i64", None, int_candidates, ints


def _build(lib, T, size, candidates):
    element = lib.atom_domain(T=T, nan=False) if T.startswith("f") else lib.atom_domain(T=T)
    domain = lib.vector_domain(element, size=size) if size else lib.vector_domain(element)
    return lib.t.make_quantile_score_candidates(domain, lib.symmetric_distance(), candidates, 0.5)


def main() -> None:
    cdp.enable_features("contrib")
    if odp is not None:
        odp.enable_features("contrib")
    rng = random.Random(0)
    print(f"{'case':40} {'certdp s':>10} {'OpenDP s':>10} {'ratio':>7} {'same scores':>12}")
    for label, T, size, candidates, data in _cases(rng):
        ours = _build(cdp, T, size, candidates)
        mine = _seconds(ours, data)
        if odp is None:
            print(f"{label:40} {mine:10.3f} {'-':>10} {'-':>7} {'-':>12}")
            continue
        theirs = _build(odp, T, size, candidates)
        other = _seconds(theirs, data)
        same = ours(data) == theirs(data)
        print(f"{label:40} {mine:10.3f} {other:10.3f} {mine / other:7.2f} {str(same):>12}")


if __name__ == "__main__":
    main()
