"""Data-dependent time of the vector float Laplace release at tiny scales.

Run: ``python benchmarks/bench_tiny_scale_data.py [--releases N] [--size S] [--scale-exp E]``.
Releases of ``make_vector_float_laplace_cks20(..., 2.0**E, k=-1074)`` on a vector of ``S``
zeros against a vector of ``S`` ones, interleaved so that drift of the machine affects both
alike; prints the median time of each and their ratio (zeros over ones).  Near 0, results
whose spacing is below ``2^-1021`` (``|value|`` below about ``2^-969``) go through the exact
integer rounding instead of the f64 shortcut.  Contracts are off; ``contrib`` is enabled.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import certdp.prelude as dp  # noqa: E402

dp.enable_features("contrib")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=int, default=10, help="releases of each data set")
    parser.add_argument("--size", type=int, default=1000, help="elements of a release")
    parser.add_argument("--scale-exp", type=int, default=-1000, help="scale = 2.0**E")
    args = parser.parse_args()
    domain = dp.vector_domain(dp.atom_domain(T="f64", nan=False))
    meas = dp.m.make_vector_float_laplace_cks20(
        domain, dp.l1_distance(T="f64"), 2.0**args.scale_exp, k=-1074
    )
    data = {"zeros": [0.0] * args.size, "ones": [1.0] * args.size}
    for values in data.values():
        meas(values)  # warm-up: bucket bounds and tables
    times: dict[str, list[float]] = {name: [] for name in data}
    for _ in range(args.releases):
        for name, values in data.items():
            start = time.perf_counter()
            meas(values)
            times[name].append(time.perf_counter() - start)
    zeros, ones = statistics.median(times["zeros"]), statistics.median(times["ones"])
    print(f"scale 2^{args.scale_exp}, {args.size} elements, {args.releases} releases each")
    print(f"{'data':>6} {'median ms':>10}")
    print(f"{'zeros':>6} {zeros * 1e3:10.2f}")
    print(f"{'ones':>6} {ones * 1e3:10.2f}")
    print(f"ratio zeros/ones: {zeros / ones:.2f}")


if __name__ == "__main__":
    main()
