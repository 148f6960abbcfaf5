"""Benchmark: make_count, make_resize and make_mean on 10^5 records, beside OpenDP 0.16.

    PYTHONPATH=src python3 benchmarks/bench_transforms.py            # certdp alone
    PYTHONPATH=src /tmp/odp-t/bin/python benchmarks/bench_transforms.py   # also OpenDP

Times are the best of several runs of ``invoke`` (domain check included, contracts off) on a
Python list of f64 records in [0, 10].  Resizing to half the length shuffles all records
(Fisher--Yates from the OS CSPRNG, one exact uniform draw per record).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import certdp.prelude as cdp  # noqa: E402

N = 10**5
REPEAT = 5


def best_ms(function) -> float:
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def cases(dp):
    """(name, transformation) pairs, built with the library ``dp`` (certdp or OpenDP)."""
    unsized = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0)))
    sized = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0)), size=N)
    sym, ordered = dp.symmetric_distance(), dp.insert_delete_distance()
    built = [
        ("count", dp.t.make_count(unsized, sym)),
        ("resize: pad to 2N", dp.t.make_resize(unsized, sym, 2 * N, 0.0)),
        ("resize: sample N/2", dp.t.make_resize(unsized, sym, N // 2, 0.0)),
        (
            "resize: pad, shuffled (Sym -> ID)",
            dp.t.make_resize(unsized, sym, 2 * N, 0.0, MO="InsertDeleteDistance"),
        ),
        ("resize: prefix (ID -> ID)", dp.t.make_resize(unsized, ordered, N // 2, 0.0)),
        ("mean", dp.t.make_mean(sized, sym)),
    ]
    return built


def main() -> None:
    cdp.enable_features("contrib")
    data = [(i * 7919 % 1000) / 100.0 for i in range(N)]
    rows = [(name, best_ms(lambda t=t: t(data))) for name, t in cases(cdp)]
    try:
        import opendp.prelude as odp

        odp.enable_features("contrib")
        opendp = {}
        for name, t in cases(odp):
            opendp[name] = best_ms(lambda t=t: t(data))
    except ImportError:
        opendp = None
    print(f"{N} f64 records; best of {REPEAT} runs, milliseconds")
    header = f"{'transformation':36} {'certdp':>10}"
    print(header + (f" {'OpenDP 0.16':>12} {'ratio':>7}" if opendp else ""))
    for name, ms in rows:
        line = f"{name:36} {ms:10.2f}"
        if opendp:
            line += f" {opendp[name]:12.2f} {ms / opendp[name]:7.2f}"
        print(line)


if __name__ == "__main__":
    main()
