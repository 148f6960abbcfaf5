"""Benchmark the privacy map of the thresholded Gaussian release, beside OpenDP 0.16.

Run: ``python benchmarks/bench_gaussian_threshold.py``.  OpenDP is timed when it can be
imported.  certdp's map bounds the discrete Gaussian tail from a fixed number of exponential
enclosures (gaussian_tail.tex), so its time should not grow with the scale; OpenDP's uses the
continuous Gaussian tail (an erfc), which is faster but below the survival probability of a
lone key (see make_gaussian_threshold.tex).  Times are medians of ``REPEATS`` map calls at
``d_in = (1, 1, 1)`` with the threshold three scales above the key.  A second table times
certdp alone at threshold 100 on scales with long exact values (1075-bit rationals, the longest
``exact_scale`` accepts, and huge floats): the map rounds ``2 scale^2`` and ``scale`` outward to
short dyadics first, so these cost about as much as the short ones.
"""

from __future__ import annotations

import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import certdp.prelude as dp  # noqa: E402

REPEATS = 5
SCALES = (1.0, 10.0, 1e3, 1e6, 1e12)
LONG_SCALES = tuple(Fraction(2**1075 - 1, 2 ** (1075 - k) + 7) for k in (20, 35, 60)) + (
    1e300,
    1.7976931348623157e308,
)


def median_seconds(call, repeats=REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def built(library, scale, threshold=None):
    library.enable_features("contrib")
    T = "i64"
    domain = library.map_domain(library.atom_domain(T=str if library is not dp else "String"),
                                library.atom_domain(T=T))  # fmt: skip
    metric = library.l02inf_distance(library.absolute_distance(T=T))
    threshold = int(3 * scale) + 1 if threshold is None else threshold
    return library.m.make_gaussian_threshold(domain, metric, scale, threshold)


def main() -> None:
    try:
        import opendp.prelude as odp
    except ImportError:
        odp = None
    print(f"{'scale':>8}  {'certdp map':>12}  {'certdp delta':>14}  {'OpenDP map':>12}  "
          f"{'OpenDP delta':>14}")  # fmt: skip
    for scale in SCALES:
        ours = built(dp, scale)
        seconds = median_seconds(lambda m=ours: m.map((1, 1, 1)))
        delta = ours.map((1, 1, 1))[1]
        theirs, their_delta = "-", "-"
        if odp is not None:
            other = built(odp, scale)
            theirs = f"{median_seconds(lambda m=other: m.map((1, 1, 1))) * 1e3:9.3f} ms"
            their_delta = f"{other.map((1, 1, 1))[1]:.6g}"
        print(f"{scale:>8g}  {seconds * 1e3:9.3f} ms  {delta:>14.6g}  {theirs:>12}  "
              f"{their_delta:>14}")  # fmt: skip
    print(f"\n{'long scale':>10}  {'certdp map':>12}  {'certdp delta':>14}   (threshold 100)")
    for scale in LONG_SCALES:
        ours = built(dp, scale, threshold=100)
        seconds = median_seconds(lambda m=ours: m.map((1, 1, 1)))
        delta = ours.map((1, 1, 1))[1]
        print(f"{float(scale):>10.3g}  {seconds * 1e3:9.3f} ms  {delta:>14.6g}")


if __name__ == "__main__":
    main()
