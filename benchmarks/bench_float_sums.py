"""Benchmark: certdp's float sums on 10^6 f64 records, beside numpy.sum and OpenDP 0.16.

    python benchmarks/bench_float_sums.py    # certdp and numpy, and OpenDP when installed

Times are the best of several runs of ``invoke`` (domain check included, contracts off) on
a numpy array and on a Python list.  Target: each certdp sized sum no slower than OpenDP's
sum of the same ``S`` on the same input.
"""

from __future__ import annotations

import _timing
import numpy as np

import certdp.prelude as cdp

N = 10**6
BOUNDS = (-10.0, 10.0)


def best_ms(function, repeat: int) -> float:
    return _timing.best_and_median(function, repeat)[0] * 1e3


def data() -> tuple[np.ndarray, list[float]]:
    index = np.arange(N, dtype=np.uint64)
    mixed = (index * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)) >> np.uint64(
        11
    )
    array = (mixed.astype(np.float64) / 2.0**53) * 20.0 - 10.0
    return array, array.tolist()


def main() -> None:
    cdp.disable_contracts()
    cdp.enable_features("contrib")  # the gate refuses a proof change until it is re-vetted
    array, listed = data()
    rows = []
    for S in ("Pairwise<f64>", "Sequential<f64>", "Exact<f64>"):
        built = cdp.t.make_sized_bounded_float_checked_sum(N, BOUNDS, S=S)
        rows.append(
            (
                f"certdp sized {S}",
                best_ms(lambda built=built: built(array), 20),
                best_ms(lambda built=built: built(listed), 3),
            )
        )
    unsized = cdp.t.make_bounded_float_checked_sum(N, BOUNDS)
    rows.append(
        (
            "certdp unsized Pairwise<f64>",
            best_ms(lambda: unsized(array), 20),
            best_ms(lambda: unsized(listed), 3),
        )
    )
    rows.append(
        ("numpy.sum", best_ms(lambda: np.sum(array), 20), best_ms(lambda: np.sum(listed), 3))
    )
    domain = cdp.vector_domain(cdp.atom_domain(bounds=BOUNDS), size=N)
    rows.append(
        (
            "certdp domain check only",
            best_ms(lambda: domain.member(array), 20),
            best_ms(lambda: domain.member(listed), 3),
        )
    )
    odp = _timing.opendp()
    if odp is not None:
        space = odp.vector_domain(odp.atom_domain(bounds=BOUNDS), size=N), odp.symmetric_distance()
        summed = space >> odp.t.then_sum()
        rows.append(
            (
                "OpenDP 0.16 make_sum (sized)",
                best_ms(lambda: summed(array), 10),
                best_ms(lambda: summed(listed), 2),
            )
        )
        for S in ("Pairwise<f64>", "Sequential<f64>"):
            built = odp.t.make_sized_bounded_float_checked_sum(N, BOUNDS, S=S)
            rows.append(
                (
                    f"OpenDP 0.16 sized {S}",
                    best_ms(lambda built=built: built(array), 10),
                    best_ms(lambda built=built: built(listed), 2),
                )
            )
    else:
        rows.append(("OpenDP 0.16 (not importable here)", float("nan"), float("nan")))
    print(f"float sums of {N:,} f64 records, best time in ms ({_timing.load()})")
    print(f"{'':38} {'numpy array':>12} {'list':>10}")
    for name, on_array, on_list in rows:
        print(f"{name:38} {on_array:12.2f} {on_list:10.1f}")
    times = {name: (on_array, on_list) for name, on_array, on_list in rows}
    why = "the exact domain check of every record and the proven summation order"
    for S in ("Pairwise<f64>", "Sequential<f64>"):
        theirs = times.get(f"OpenDP 0.16 sized {S}")
        for column, kind in enumerate(("an array", "a list")):
            _timing.target(
                f"sized {S} on {kind}",
                times[f"certdp sized {S}"][column],
                None if theirs is None else theirs[column],
                1.0,
                why,
            )


if __name__ == "__main__":
    main()
