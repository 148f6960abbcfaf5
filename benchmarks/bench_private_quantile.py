"""Private quantile: seconds of one release of ``make_private_quantile`` on 10^6 records (f64 and
i64, known and unknown size, both output measures), certdp beside OpenDP 0.16 when installed.

Each row times one invocation (median of 3, warm process) on a Python list, as a user passes
data. Target (issue #22): certdp's time <= 1x OpenDP's.
A second table times the construction with 10^6 candidates (sorted, reversed, a ``range``):
certdp converts each candidate in Python (to a value of the type, then sorts a copy, then the
scores check it again), OpenDP in Rust.
Run: ``python benchmarks/bench_private_quantile.py`` (enables ``contrib`` in both libraries).
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


def _seconds(measurement, data) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        measurement(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _cases(rng):
    floats = [rng.gauss(0.0, 1.0) for _ in range(N)]
    ints = [rng.randrange(-1000, 1000) for _ in range(N)]
    float_candidates = [i / 10 for i in range(-30, 31)]
    int_candidates = list(range(-1000, 1000, 10))
    for measure, short in (("max_divergence", "pure"), ("zero_concentrated_divergence", "zCDP")):
        yield (
            f"f64, no size, 61 cand., {short}",
            "f64",
            None,
            measure,
            float_candidates,
            floats,
        )
        yield (
            f"f64, size 10^6, 61 cand., {short}",
            "f64",
            N,
            measure,
            float_candidates,
            floats,
        )
        yield f"i64, no size, 200 cand., {short}", "i64", None, measure, int_candidates, ints


def _build(lib, T, size, measure, candidates):
    element = lib.atom_domain(T=T, nan=False) if T.startswith("f") else lib.atom_domain(T=T)
    domain = lib.vector_domain(element, size=size) if size else lib.vector_domain(element)
    return lib.m.make_private_quantile(
        domain, lib.symmetric_distance(), getattr(lib, measure)(), candidates, 0.5, 1.0
    )


def main() -> None:
    cdp.enable_features("contrib")
    if odp is not None:
        odp.enable_features("contrib")
    rng = random.Random(0)
    print(f"{'case':40} {'certdp s':>10} {'OpenDP s':>10} {'ratio':>7}")
    for label, T, size, measure, candidates, data in _cases(rng):
        mine = _seconds(_build(cdp, T, size, measure, candidates), data)
        if odp is None:
            print(f"{label:40} {mine:10.3f} {'-':>10} {'-':>7}")
            continue
        other = _seconds(_build(odp, T, size, measure, candidates), data)
        print(f"{label:40} {mine:10.3f} {other:10.3f} {mine / other:7.2f}")


def _build_seconds(lib, T, candidates) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        _build(lib, T, None, "max_divergence", candidates)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main_build() -> None:
    print(f"\n{'construction, 10^6 candidates':40} {'certdp s':>10} {'OpenDP s':>10} {'ratio':>7}")
    cases = [
        ("f64, sorted list", "f64", [i / 4 for i in range(N)]),
        ("f64, reversed list", "f64", [i / 4 for i in range(N, 0, -1)]),
        ("i64, range", "i64", range(0, 10 * N, 10)),
    ]
    for label, T, candidates in cases:
        mine = _build_seconds(cdp, T, candidates)
        if odp is None:
            print(f"{label:40} {mine:10.3f} {'-':>10} {'-':>7}")
            continue
        other = _build_seconds(odp, T, candidates)
        print(f"{label:40} {mine:10.3f} {other:10.3f} {mine / other:7.2f}")


if __name__ == "__main__":
    main()
    main_build()
