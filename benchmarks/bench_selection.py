"""Noisy top-k selection: median milliseconds per release of certdp's exact sampler beside
OpenDP 0.16's ``make_noisy_top_k`` (when installed), and the timing channel of the sampler.

Issue 22's target: noisy top-k over 10^5 scores no slower than OpenDP.  Both release the same
distribution (``k`` peeled rounds of permute-and-flip under the max-divergence, of the
exponential mechanism under zCDP; certdp draws the latter's proposals from buckets of whole
gaps, noisy_top_k.tex), both with exact arithmetic; certdp's column is
``samplers.noisy_top_k.sample_noisy_top_k`` (the release path of the selection measurements,
without the measurement wrapper).

The second table is the timing channel: for one fixed score vector, the releases whose first
index is the top score against the others (median ratio and one-sided Mann-Whitney p-value):
the sampler's running time depends on its output (the lemma, samplers/noisy_top_k.tex, says so).

Run: ``python benchmarks/bench_selection.py [--size N] [--repeats R] [--timing-releases M]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import _timing
import numpy as np

from certdp.samplers.noisy_top_k import sample_noisy_top_k

odp = _timing.opendp()

NOISES = {"exponential": "max_divergence", "gumbel": "zero_concentrated_divergence"}


def score_vectors(size: int) -> dict[str, list]:
    """Score vectors of ``size`` entries: counts, spread floats and a ramp (far-apart scores)."""
    generator = np.random.default_rng(2026)
    return {
        "int counts 0..1000": generator.integers(0, 1000, size).tolist(),
        "float N(0, 100^2)": (generator.standard_normal(size) * 100).tolist(),
        "int ramp 0..n-1": list(range(size)),
    }


def opendp_release(scores: list, noise: str, k: int, scale: float):
    if odp is None:
        return None
    T = int if isinstance(scores[0], int) else float
    atom = odp.atom_domain(T=T, nan=False) if T is float else odp.atom_domain(T=T)
    measure = getattr(odp, NOISES[noise])()
    m = odp.m.make_noisy_top_k(
        odp.vector_domain(atom), odp.linf_distance(T=T), measure, k=k, scale=scale
    )
    return lambda: m(scores)


#: Why certdp's exact sampler can miss the target: permute-and-flip decides the whole factors
#: exp(-1) of every visited score's trial side by side in NumPy (one 32-bit integer per factor)
#: and visits only the survivors in Python, the random order drawn in chunks and the rest at
#: once; the exponential mechanism makes fewer than e proposals per round, drawn from buckets
#: of whole gaps. Each round passes over the scores: in NumPy's int64 loops when every score
#: (times the common denominator) lies in [-2^62, 2^62], else over Python ints.
REASONS = {
    "exponential": "one pass over the scores per round (maximum, threshold, side-by-side "
    "factors); Python ints when the scores exceed the int64 column",
    "gumbel": "one pass over the scores per round (maximum, near-top buckets); Python ints "
    "when the scores exceed the int64 column",
}


def speed_table(size: int, repeats: int) -> None:
    rows = []
    for name, scores in score_vectors(size).items():
        for noise in NOISES:
            for k in (1, 10):
                times = _timing.interleaved(
                    {
                        "certdp": lambda s=scores, k=k, n=noise: sample_noisy_top_k(s, 1, k, n),
                        "OpenDP": opendp_release(scores, noise, k, 1.0),
                    },
                    repeats,
                )
                ours, theirs = times["certdp"], times.get("OpenDP")
                shown = f"{1e3 * theirs:.1f}" if theirs else "-"
                rows.append(
                    [
                        name,
                        noise,
                        k,
                        f"{1e3 * ours:.1f}",
                        shown,
                        _timing.ratio(ours, theirs),
                        _timing.verdict(ours, theirs, reason=REASONS[noise]),
                    ]
                )
    _timing.table(
        ["scores", "noise", "k", "certdp ms", "OpenDP ms", "ratio", "target <= 1x"],
        rows,
        title=f"noisy top-k over {size} scores, scale 1: median of {repeats} interleaved "
        f"releases; {_timing.load()}",
    )


def mann_whitney_greater(large: list[float], small: list[float]) -> float | None:
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        return None
    if not large or not small:
        return None
    return float(mannwhitneyu(large, small, alternative="greater").pvalue)


def timing_table(releases: int) -> None:
    print()
    print(f"timing channel: {releases} releases of k = 1 over 1000 scores (0..999, scale 50)")
    print(f"{'noise':12} {'others/top':>11} {'p (others slower)':>18} {'top':>6} {'others':>7}")
    scores = list(range(1000))
    for noise in NOISES:
        top, others = [], []
        for _ in range(releases):
            start = time.perf_counter()
            (index,) = sample_noisy_top_k(scores, 50, 1, noise)
            elapsed = time.perf_counter() - start
            (top if index == 999 else others).append(elapsed)
        ratio = statistics.median(others) / statistics.median(top) if top and others else None
        p = mann_whitney_greater(others, top)
        shown_ratio = f"{ratio:11.2f}" if ratio is not None else f"{'-':>11}"
        shown_p = f"{p:18.3g}" if p is not None else f"{'-':>18}"
        print(f"{noise:12} {shown_ratio} {shown_p} {len(top):6} {len(others):7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10**5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--timing-releases", type=int, default=2000)
    arguments = parser.parse_args()
    speed_table(arguments.size, arguments.repeats)
    timing_table(arguments.timing_releases)


if __name__ == "__main__":
    main()
