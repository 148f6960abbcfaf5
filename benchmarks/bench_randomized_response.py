"""Randomized response: median seconds per release, certdp beside OpenDP 0.16 when installed.

Bit vectors of 10^2, 10^3 and 10^4 bits (issue 22's target: 10^4 bits no slower than OpenDP),
one boolean and one of 10 categories.  certdp draws every bit with an exact Bernoulli trial
(two random bits on average); OpenDP's column uses its default (not constant-time) sampler.
Run: ``python benchmarks/bench_randomized_response.py`` (enables ``contrib``).
"""

from __future__ import annotations

import statistics
import time

import certdp.prelude as cdp

try:
    import opendp.prelude as odp
except ImportError:  # OpenDP is optional: certdp's column alone
    odp = None

REPEATS = 9


def _median(release, data) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        release(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _cases(dp, fixed: bool):
    for bits in (100, 1000, 10_000):
        size = -(-bits // 8) * 8
        domain = (
            dp.bitvector_domain(max_weight=10, size=size)
            if fixed
            else dp.bitvector_domain(max_weight=10)
        )
        data = bytes([1] + [0] * (size // 8 - 1))
        m = dp.m.make_randomized_response_bitvec(domain, dp.discrete_distance(), f=0.5)
        yield f"bitvec {size} bits", m, data
    yield "bool", dp.m.make_randomized_response_bool(0.75), True
    categories = [f"c{i}" for i in range(10)]
    yield "10 categories", dp.m.make_randomized_response(categories, 0.5), "c3"


def main() -> None:
    cdp.enable_features("contrib")
    theirs = {}
    if odp is not None:
        odp.enable_features("contrib")
        theirs = {name: _median(m, data) for name, m, data in _cases(odp, fixed=False)}
    print(f"{'release':<22}{'certdp (ms)':>14}{'OpenDP (ms)':>14}{'ratio':>8}")
    for name, m, data in _cases(cdp, fixed=True):
        ours = _median(m, data)
        other = theirs.get(name)
        shown = f"{other * 1e3:14.4f}{ours / other:8.2f}" if other else f"{'-':>14}{'-':>8}"
        print(f"{name:<22}{ours * 1e3:14.4f}{shown}")


if __name__ == "__main__":
    main()
