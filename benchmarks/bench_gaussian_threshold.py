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

from fractions import Fraction

import _timing

import certdp.prelude as dp

REPEATS = 5
#: The map's time may vary at most by this factor over SCALES (it should not grow with them).
FLAT = 2.0
SCALES = (1.0, 10.0, 1e3, 1e6, 1e12)
LONG_SCALES = tuple(Fraction(2**1075 - 1, 2 ** (1075 - k) + 7) for k in (20, 35, 60)) + (
    1e300,
    1.7976931348623157e308,
)


def median_seconds(call, repeats=REPEATS) -> float:
    return _timing.best_and_median(call, repeats)[1]


def built(library, scale, threshold=None):
    library.enable_features("contrib")
    T = "i64"
    domain = library.map_domain(library.atom_domain(T=str if library is not dp else "String"),
                                library.atom_domain(T=T))  # fmt: skip
    metric = library.l02inf_distance(library.absolute_distance(T=T))
    threshold = int(3 * scale) + 1 if threshold is None else threshold
    return library.m.make_gaussian_threshold(domain, metric, scale, threshold)


def main() -> None:
    odp = _timing.opendp()
    print(_timing.load())
    spent = []
    print(f"{'scale':>8}  {'certdp map':>12}  {'certdp delta':>14}  {'OpenDP map':>12}  "
          f"{'OpenDP delta':>14}")  # fmt: skip
    for scale in SCALES:
        ours = built(dp, scale)
        seconds = median_seconds(lambda m=ours: m.map((1, 1, 1)))
        spent.append(seconds)
        delta = ours.map((1, 1, 1))[1]
        theirs, their_delta = "-", "-"
        if odp is not None:
            other = built(odp, scale)
            theirs = f"{median_seconds(lambda m=other: m.map((1, 1, 1))) * 1e3:9.3f} ms"
            their_delta = f"{other.map((1, 1, 1))[1]:.6g}"
        print(f"{scale:>8g}  {seconds * 1e3:9.3f} ms  {delta:>14.6g}  {theirs:>12}  "
              f"{their_delta:>14}")  # fmt: skip
    growth = max(spent) / min(spent)
    met = "met" if growth <= FLAT else "missed (the time varied with the scale; see the load)"
    print(
        f"target: map time flat in the scale (slowest / fastest <= {FLAT:g}): {met} ({growth:.2f})"
    )
    print(f"\n{'long scale':>10}  {'certdp map':>12}  {'certdp delta':>14}   (threshold 100)")
    for scale in LONG_SCALES:
        ours = built(dp, scale, threshold=100)
        seconds = median_seconds(lambda m=ours: m.map((1, 1, 1)))
        delta = ours.map((1, 1, 1))[1]
        print(f"{float(scale):>10.3g}  {seconds * 1e3:9.3f} ms  {delta:>14.6g}")


if __name__ == "__main__":
    main()
