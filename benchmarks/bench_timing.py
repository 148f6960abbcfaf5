"""The timing channel of every sampler: does a release take longer when its noise is large, or
when its data is large?

Run: ``python benchmarks/bench_timing.py [--releases N] [--vector-releases M] [--size S]
[--only gaussian-f64 ...]``
(``make bench``).  For each release path (Laplace and Gaussian; integer (i32) and float (f64,
default k = -1074); scalar and vector of ``S`` elements) two channels are measured:

* noise: releases of a fixed small input; the time of the releases whose noise magnitude
  (``|output - input|``, summed over a vector) is in the top 5 % against the others;
* data: releases of data near the type's largest finite value (i32: 2^31 - 101 .. 2^31 - 1; f64:
  1e300 .. 1e300 + ...) against data in 0..100, the two interleaved so that drift of the machine
  affects both alike.

Each row prints the ratio of the median times (large / small), the one-sided Mann-Whitney
p-value that the large group is slower (scipy; ``-`` without it) and the number of releases.
A ratio near 1 with a large p is no channel this test can see; a small p with a ratio above 1
is a channel of that size.  Contracts are off; ``contrib`` is enabled so that the gate never
refuses (it runs at construction only).
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

I32_MAX = 2**31 - 1


def mann_whitney_greater(large: list[float], small: list[float]) -> float | None:
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        return None
    return float(mannwhitneyu(large, small, alternative="greater").pvalue)


def measurement(kind: str, T: str, vector: bool, size: int):
    """The release path under test: ``make_laplace`` or ``make_gaussian`` on i32 or f64."""
    if T == "f64":
        atom = dp.atom_domain(T=float, nan=False)
        distance = dp.absolute_distance(T=float)
    else:
        atom = dp.atom_domain(T="i32")
        distance = dp.absolute_distance(T="i32")
    if vector:
        domain = dp.vector_domain(atom, size=size)
        metric = (dp.l1_distance if kind == "laplace" else dp.l2_distance)(
            T=float if T == "f64" else "i32"
        )
    else:
        domain, metric = atom, distance
    make = dp.m.make_laplace if kind == "laplace" else dp.m.make_gaussian
    return make(domain, metric, 10.0)


def timed(release, value) -> tuple[float, object]:
    start = time.perf_counter()
    output = release(value)
    return time.perf_counter() - start, output


def magnitude(output, value) -> float:
    if isinstance(output, list):
        return sum(abs(float(o) - float(v)) for o, v in zip(output, value))
    return abs(float(output) - float(value))


def noise_channel(release, value, releases: int) -> tuple[float, float | None, int]:
    samples = [timed(release, value) for _ in range(releases)]
    ranked = sorted(samples, key=lambda sample: magnitude(sample[1], value))
    cut = int(len(ranked) * 0.95)
    small = [seconds for seconds, _ in ranked[:cut]]
    large = [seconds for seconds, _ in ranked[cut:]]
    ratio = statistics.median(large) / statistics.median(small)
    return ratio, mann_whitney_greater(large, small), releases


def data_channel(release, small_value, large_value, releases: int) -> tuple:
    small, large = [], []
    for _ in range(releases):
        small.append(timed(release, small_value)[0])
        large.append(timed(release, large_value)[0])
    ratio = statistics.median(large) / statistics.median(small)
    return ratio, mann_whitney_greater(large, small), 2 * releases


def data_of(T: str, vector: bool, size: int, large: bool):
    if T == "f64":
        values = [1e300 * (1 + i / 1000) if large else float(i % 101) for i in range(size)]
    else:
        values = [I32_MAX - (i % 101) if large else i % 101 for i in range(size)]
    return values if vector else values[0] if not large else values[size // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=int, default=20000, help="scalar releases per row")
    parser.add_argument("--vector-releases", type=int, default=2000, help="vector releases")
    parser.add_argument("--size", type=int, default=100, help="elements of a vector release")
    parser.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="release paths to measure, e.g. gaussian-f64 laplace-i32 (default: all)",
    )
    options = parser.parse_args()
    print(
        f"bench_timing: scale 10, f64 with k = -1074; scalar {options.releases} releases, "
        f"vector {options.vector_releases} releases of {options.size} elements per row"
    )
    print(f"  {'release path':34s} {'channel':6s} {'large/small':>11s} {'MW p':>9s} {'n':>7s}")
    for kind in ("laplace", "gaussian"):
        for T in ("i32", "f64"):
            for vector in (False, True):
                if options.only is not None and f"{kind}-{T}" not in options.only:
                    continue
                built = measurement(kind, T, vector, options.size)
                count = options.vector_releases if vector else options.releases
                name = f"{kind} {T} {'vector' if vector else 'scalar'}"
                small = data_of(T, vector, options.size, large=False)
                large = data_of(T, vector, options.size, large=True)
                for channel, result in (
                    ("noise", noise_channel(built, small, count)),
                    ("data", data_channel(built, small, large, count // 2)),
                ):
                    ratio, p, n = result
                    shown = "-" if p is None else f"{p:9.2g}"
                    print(f"  {name:34s} {channel:6s} {ratio:11.3f} {shown:>9s} {n:7d}")


if __name__ == "__main__":
    main()
