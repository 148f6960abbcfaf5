"""Binary search: probes and seconds of every example in the binary-search docs of OpenDP 0.16
and of certdp, beside OpenDP when it is installed.

A probe is one evaluation of the predicate (for ``binary_search_param`` and
``binary_search_chain``: one call of ``make_chain``; the chain search calls it once more at
the end in both libraries); seconds are the fastest of five runs of the example after a
first one, in a warm process, the two libraries taking turns within every repeat.
Target: no more probes than OpenDP, time <= 1.5x OpenDP's.

Examples marked "adapted" build, in certdp, the nearest chain certdp has (it has no
``impute_constant`` or ``count_by_categories``); "OpenDP only" ones are timed in OpenDP alone.
Every missed target is listed at the end with by how much and why (more probes; time in the
search itself or in building and checking the chains), followed by the three certdp functions
with the most own time in it (cProfile; ``--profile``: eight).
Run: ``python benchmarks/bench_search.py [--profile]`` (needs ``contrib`` in certdp while the search's proof
is not vetted; the script enables it in both libraries).
"""

from __future__ import annotations

import cProfile
import math
import pstats
import sys
import time
from pathlib import Path

import _timing

import certdp.prelude as cdp

odp = _timing.opendp()

ACCURACY_SCALE = 1000.0 / math.log(1 / 0.05)  # OpenDP's accuracy_to_laplacian_scale(1000, .05)


class Counter:
    """Counts the evaluations of a predicate (or make_chain) and the seconds spent in them."""

    def __init__(self):
        self.calls, self.inside = 0, 0.0

    def __call__(self, function):
        def counted(value):
            self.calls += 1
            start = time.perf_counter()
            try:
                result = function(value)
            finally:
                self.inside += time.perf_counter() - start
            return Timed(result, self) if hasattr(result, "check") else result

        return counted


class Timed:
    """A chain whose ``check`` counts as time spent in the chain (not in the search)."""

    def __init__(self, chain, counter: Counter):
        self._chain, self._counter = chain, counter

    def check(self, d_in, d_out):
        start = time.perf_counter()
        try:
            return self._chain.check(d_in, d_out)
        finally:
            self._counter.inside += time.perf_counter() - start

    def __getattr__(self, name):
        return getattr(self._chain, name)


def _is_opendp(dp) -> bool:
    return dp is odp


# -- OpenDP's docs examples (binary_search, binary_search_param, binary_search_chain) ---------
def ge_5(dp, count):
    return dp.binary_search(count(lambda x: x >= 5.0))


def le_5(dp, count):
    return dp.binary_search(count(lambda x: x <= 5.0))


def gt_5_int(dp, count):
    return dp.binary_search(count(lambda x: x > 5), T=int)


def lt_5_int(dp, count):
    return dp.binary_search(count(lambda x: x < 5), T=int)


def le_5_lower_bound(dp, count):
    return dp.binary_search(count(lambda x: x <= 5), bounds=(0, None))


def gaussian_mean_epsilon(dp, count):
    space = dp.vector_domain(dp.atom_domain(bounds=(0.0, 100.0)), 1000), dp.symmetric_distance()
    dp_mean = dp.c.make_fix_delta(
        dp.c.make_zCDP_to_approxDP(space >> dp.t.then_mean() >> dp.m.then_gaussian(1.0)), 1e-8
    )
    return dp.binary_search(count(lambda d_out: dp_mean.check(3, (d_out, 1e-8))), bounds=(0.0, 1.0))


def histogram_sensitivity(dp, count):
    histogram = dp.t.make_count_by_categories(
        dp.vector_domain(dp.atom_domain(T=str)),
        dp.symmetric_distance(),
        categories=["a"],
        MO=dp.L2Distance[int],
    )
    return dp.binary_search(count(lambda d_out: histogram.check(3, d_out)), bounds=(0, 100))


def laplace_mean_chain(dp, count):
    if _is_opendp(dp):
        pre = (
            dp.space_of(list[float])
            >> dp.t.then_impute_constant(0.0)
            >> dp.t.then_clamp(bounds=(0.0, 1.0))
            >> dp.t.then_resize(size=10, constant=0.0)
            >> dp.t.then_mean()
        )
    else:  # adapted: no impute_constant; a NaN-free domain instead
        pre = (
            (dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance())
            >> dp.t.then_clamp(bounds=(0.0, 1.0))
            >> dp.t.then_resize(size=10, constant=0.0)
            >> dp.t.then_mean()
        )
    chain = dp.binary_search_chain(count(lambda s: pre >> dp.m.then_laplace(scale=s)), 1, 1.0)
    return chain.map(1)


def widest_sum_bounds(dp, count):
    def make_sum(b):
        space = dp.vector_domain(dp.atom_domain((-b, b)), 10_000), dp.symmetric_distance()
        return space >> dp.t.then_sum() >> dp.m.then_laplace(100.0)

    chain = dp.binary_search_chain(count(make_sum), d_in=2, d_out=1.0, bounds=(0, 10_000))
    return chain.map(2)


def fixed_laplace_scale(dp, count):
    def make_fixed_laplace(scale):
        return dp.m.make_laplace(
            dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale
        )

    return dp.binary_search_param(count(make_fixed_laplace), d_in=0.1, d_out=1.0)


def _make_mean(dp):
    def make_mean(data_size):
        space = (
            dp.vector_domain(dp.atom_domain(bounds=(0.0, 500_000.0)), data_size),
            dp.symmetric_distance(),
        )
        return space >> dp.t.then_mean() >> dp.m.then_laplace(ACCURACY_SCALE)

    return make_mean


def smallest_size(dp, count):
    return dp.binary_search_param(count(_make_mean(dp)), d_in=2, d_out=1.0, bounds=(1, 1000000))


def smallest_size_unbounded(dp, count):
    return dp.binary_search_param(count(_make_mean(dp)), d_in=2, d_out=1.0)


# -- certdp's README and docs examples, and the approximate-DP mean -----------------
def _gaussian_release(dp):
    space = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.l2_distance(T="f64")

    def release(scale):
        gaussian = dp.m.make_gaussian(*space, scale)
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), 1e-6)

    return release


def readme_gaussian(dp, count):
    return dp.binary_search_chain(count(_gaussian_release(dp)), 1.0, (1.0, 1e-6)).map(1.0)


def readme_gaussian_epsilon_30(dp, count):
    return dp.binary_search_chain(count(_gaussian_release(dp)), 1.0, (30.0, 1e-6)).map(1.0)


def tutorial_count_mean(dp, count):
    space = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()
    counted = space >> dp.t.then_count()
    averaged = (
        space
        >> dp.t.then_clamp(bounds=(0.0, 80.0))
        >> dp.t.then_resize(size=100, constant=40.0)
        >> dp.t.then_mean()
    )
    count_sensitivity, mean_sensitivity = counted.map(1), averaged.map(1)

    def make_release(s):
        both = dp.c.make_composition(
            [
                counted >> dp.m.then_gaussian(scale=s * count_sensitivity),
                averaged >> dp.m.then_gaussian(scale=s * mean_sensitivity),
            ]
        )
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(both), delta=1e-6)

    return dp.binary_search_param(count(make_release), d_in=1, d_out=(1.0, 1e-6))


def approx_dp_mean(dp, count):
    space = dp.vector_domain(dp.atom_domain(bounds=(0.0, 100.0)), 1000), dp.symmetric_distance()

    def make(scale):
        mean = space >> dp.t.then_mean() >> dp.m.then_gaussian(scale)
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(mean), 1e-8)

    return dp.binary_search_param(count(make), d_in=3, d_out=(1.0, 1e-8))


def tiny_epsilon_gaussian(dp, count):
    """The referee's search (formerly a timed unit test): d_out = (1e-300, 1e-6), where each map
    bisects the profile from 0 down to 1e-300 (some 600 evaluations of the curve per map)."""

    def make(scale):
        gaussian = dp.m.make_gaussian(
            dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale
        )
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), 1e-6)

    return dp.binary_search_param(count(make), 1.0, (1e-300, 1e-6))


EXAMPLES = [
    ("OpenDP binary_search x >= 5.", ge_5, ""),
    ("OpenDP binary_search x <= 5.", le_5, ""),
    ("OpenDP binary_search x > 5, T=int", gt_5_int, ""),
    ("OpenDP binary_search x < 5, T=int", lt_5_int, ""),
    ("OpenDP binary_search x <= 5, bounds=(0, None)", le_5_lower_bound, ""),
    ("OpenDP binary_search gaussian mean epsilon", gaussian_mean_epsilon, ""),
    ("OpenDP binary_search histogram L2", histogram_sensitivity, "OpenDP only"),
    ("OpenDP chain laplace mean scale", laplace_mean_chain, "adapted"),
    ("OpenDP chain widest sum bounds", widest_sum_bounds, ""),
    ("OpenDP param laplace scale", fixed_laplace_scale, ""),
    ("OpenDP param smallest size", smallest_size, ""),
    ("OpenDP param smallest size, no bounds", smallest_size_unbounded, ""),
    ("certdp README gaussian (1, 1e-6)", readme_gaussian, ""),
    ("certdp README gaussian (30, 1e-6)", readme_gaussian_epsilon_30, ""),
    ("certdp tutorial count+mean", tutorial_count_mean, ""),
    ("approx-DP mean scale (issue 18)", approx_dp_mean, ""),
    ("tiny-epsilon gaussian (1e-300, 1e-6)", tiny_epsilon_gaussian, ""),
]


#: Timed runs per example and library; the fastest is reported (both libraries alike), as the
#: examples take milliseconds and a shared machine's scheduling adds noise of that order.  The
#: two libraries take turns within every repeat, so that a change of load falls on both.
REPEATS = 5


def _timed(dp, example):
    """``(probes, seconds, result or error, seconds outside the predicate)`` of one run."""
    count = Counter()
    start = time.perf_counter()
    try:
        result = example(dp, count)
    except Exception as error:  # a library that cannot run an example says why
        result = f"{type(error).__name__}: {str(error)[:60]}"
    seconds = time.perf_counter() - start
    return count.calls, seconds, result, seconds - count.inside


def run_both(libraries, example):
    """The fastest of ``REPEATS`` timed runs of ``example`` in each library of ``libraries``
    (``None`` entries skipped), the libraries taking turns, after a first untimed run of each
    (which pays each library's one-time costs: imports, first constructions)."""
    present = [dp for dp in libraries if dp is not None]
    for dp in present:
        try:
            example(dp, Counter())
        except Exception:
            pass
    best = {id(dp): None for dp in present}
    for _ in range(REPEATS):
        for dp in present:
            row = _timed(dp, example)
            if best[id(dp)] is None or row[1] < best[id(dp)][1]:
                best[id(dp)] = row
    return [None if dp is None else best[id(dp)] for dp in libraries]


def _short(value) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_short(v) for v in value) + ")"
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)[:40]


def reason(ours, theirs) -> str:
    """Why a missed target is missed, from the measurements: the probes, and the time split
    into the search's own time and the time building and checking the chains."""
    parts = []
    if ours[0] > theirs[0]:
        parts.append(f"probes {ours[0]} > {theirs[0]} (+{ours[0] - theirs[0]})")
    if ours[1] > 1.5 * theirs[1]:
        chains, their_chains = ours[1] - ours[3], theirs[1] - theirs[3]
        own_ok = ours[3] <= max(1.5 * theirs[3], 0.005)
        where = "construction-bound" if own_ok else "search-bound"
        parts.append(
            f"time x{ours[1] / theirs[1]:.2f} ({ours[1]:.3f} s vs {theirs[1]:.3f} s), {where}: "
            f"chains {chains:.3f} s vs {their_chains:.3f} s, search own {ours[3]:.3f} s vs "
            f"{theirs[3]:.3f} s"
        )
    return "; ".join(parts)


def profile(example, top: int = 8) -> None:
    """The certdp functions with the most own time (excluding their callees) in one (warm) run
    of ``example``, with their cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        example(cdp, Counter())
    except Exception:
        pass
    profiler.disable()
    stats = pstats.Stats(profiler)
    rows = [
        (own, cumulative, calls, f"{Path(file).parent.name}/{Path(file).name}:{function}")
        for (file, _, function), (_, calls, own, cumulative, _) in stats.stats.items()
        if "certdp" in file and "benchmarks" not in file
    ]
    for own, cumulative, calls, where in sorted(rows, reverse=True)[:top]:
        print(f"      own {own:7.3f} s  cumulative {cumulative:7.3f} s {calls:>7} calls  {where}")


def main() -> None:
    cdp.enable_features("contrib")
    if odp is not None:
        odp.enable_features("idealized-numerics", "honest-but-curious")
    print(_timing.load())
    print("probes: evaluations; s: seconds in all; own: seconds outside the predicate (the")
    print("search itself: brackets, bisection, bookkeeping); the rest builds and checks the chains")
    print(
        f"{'example':<46} {'certdp':>6} {'s':>6} {'own':>6} {'OpenDP':>6} {'s':>6} {'own':>6}"
        f"  {'target':<12} certdp result | OpenDP result"
    )
    met = missed = own_met = 0
    reasons = []
    for name, example, note in EXAMPLES:
        ours, theirs = run_both([cdp if note != "OpenDP only" else None, odp], example)
        cells = [f"{name:<46}"]
        for row in (ours, theirs):
            cells.append(f"{row[0]:>6} {row[1]:>6.3f} {row[3]:>6.3f}" if row else " " * 13 + "-")
        if ours and theirs and not isinstance(theirs[2], str):
            ok = ours[0] <= theirs[0] and ours[1] <= 1.5 * theirs[1]
            verdict = "met" if ok else f"MISSED x{ours[1] / theirs[1]:.2f}"
            if not ok:
                reasons.append((name, example, reason(ours, theirs)))
            met, missed = met + ok, missed + (not ok)
            own_met += ours[3] <= max(1.5 * theirs[3], 0.005)
        else:
            verdict = note or "-"
        cells.append(f" {verdict:<12}")
        results = [_short(r[2]) if r else "-" for r in (ours, theirs)]
        print(" ".join(cells), f"{results[0]} | {results[1]}" + (f"  [{note}]" if note else ""))
    if odp is not None:
        print(f"target met on {met} of {met + missed} examples run in both libraries")
        print(
            f"the search's own time within 1.5x of OpenDP's (or 5 ms) on {own_met} of "
            f"{met + missed}; where the target is missed, the time is in building and checking "
            "certdp's chains (constructors, exact maps, make_fix_delta's epsilon bisection)"
        )
    for name, example, why in reasons:
        print(f"missed: {name}: {why}; where certdp's time goes (cProfile, one run):")
        profile(example, top=8 if "--profile" in sys.argv else 3)


if __name__ == "__main__":
    main()
