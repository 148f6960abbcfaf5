"""Benchmark: the Context API end to end, beside OpenDP when installed.

    python benchmarks/bench_context.py

Per library, milliseconds per run (median of ``REPEATS``): build a Context (split over three
queries) on 100 floats; search the scale of a count with Laplace noise (``param``); release it;
and the same for a clamped, resized mean.  The search builds the query's chain at every value it
tries (about 60), so its cost is mostly the cost of building the Laplace measurement.  Run in a
tree where the constructors are vetted: an unvetted one is looked up in the ledger at each build.
"""

from __future__ import annotations

import statistics
import time

import _timing

REPEATS = 5
DATA = [float(i % 101) for i in range(100)]


def _steps(dp) -> dict[str, float]:
    dp.enable_features("contrib")
    timings: dict[str, float] = {}

    def timed(name, action):
        start = time.perf_counter()
        result = action()
        timings[name] = (time.perf_counter() - start) * 1e3
        return result

    domain = dp.vector_domain(dp.atom_domain(T=float, nan=False))
    context = timed(
        "compositor",
        lambda: dp.Context.compositor(
            data=DATA,
            privacy_unit=dp.unit_of(contributions=1),
            privacy_loss=dp.loss_of(epsilon=1.0),
            split_evenly_over=3,
            domain=domain,
        ),
    )
    count = context.query().count().laplace()
    timed("count: param", count.param)
    timed("count: release", count.release)
    mean = context.query().clamp((0.0, 100.0)).resize(size=100, constant=50.0).mean().laplace()
    timed("mean: param", mean.param)
    timed("mean: release", mean.release)
    return timings


def _median(dp) -> dict[str, float]:
    runs = [_steps(dp) for _ in range(REPEATS)]
    return {name: statistics.median(run[name] for run in runs) for name in runs[0]}


def main() -> None:
    import certdp.prelude as dp

    ours = _median(dp)
    odp = _timing.opendp()
    theirs = _median(odp) if odp is not None else None
    print(_timing.load())
    print(
        f"{'step (ms, median of ' + str(REPEATS) + ')':<28}{'certdp':>10}{'OpenDP':>10}{'ratio':>8}"
    )
    for name, value in ours.items():
        other = f"{theirs[name]:>10.2f}{value / theirs[name]:>8.1f}" if theirs else ""
        print(f"{name:<28}{value:>10.2f}{other}")
    for name, value in ours.items():
        why = "the search builds and checks a chain per probe" if "param" in name else ""
        _timing.target(name, value, theirs[name] if theirs else None, 1.0, why)


if __name__ == "__main__":
    main()
