"""Benchmark the integer sums on 10^6 i64 values, beside numpy.sum and OpenDP 0.16.

Run: ``python benchmarks/bench_int_sums.py`` (``make bench``).  OpenDP is timed when it can
be imported, or through the interpreter named by ``OPENDP_PYTHON`` (for example
``OPENDP_PYTHON=/tmp/odp/bin/python``); certdp never imports it otherwise.

Each certdp sum is timed on a NumPy int64 array and on a Python list, as a whole call
(membership check of the input domain, then the function) and as the function alone.
Times are the median of ``REPEATS`` calls.  The data are a fixed arithmetic pattern in
[-1000, 1000] (no saturation), plus a saturating variant for the ordered sum.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import certdp.prelude as dp  # noqa: E402

SIZE = 1_000_000
REPEATS = 5
BOUND = 1000
TOP = 2**63 - 1


def pattern(size: int) -> list[int]:
    return [(i * 7919) % (2 * BOUND + 1) - BOUND for i in range(size)]


def median_seconds(call, data) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        call(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def certdp_rows(values: list[int]) -> list[tuple[str, str, float, float]]:
    array = np.array(values, dtype=np.int64)
    positives = np.abs(array)
    cases = [
        (
            "checked (sized)",
            dp.t.make_sized_bounded_int_checked_sum(SIZE, (-BOUND, BOUND), T="i64"),
            array,
        ),
        ("monotonic", dp.t.make_bounded_int_monotonic_sum((0, BOUND), T="i64"), positives),
        ("split", dp.t.make_bounded_int_split_sum((-BOUND, BOUND), T="i64"), array),
        ("ordered", dp.t.make_bounded_int_ordered_sum((-BOUND, BOUND), T="i64"), array),
        (
            "make_sum (symmetric)",
            dp.t.make_sum(
                dp.vector_domain(dp.atom_domain(bounds=(-BOUND, BOUND), T="i64")),
                dp.symmetric_distance(),
            ),
            array,
        ),
    ]
    rows = []
    for name, transformation, data in cases:
        for kind, payload in (("ndarray", data), ("list", data.tolist())):
            whole = median_seconds(transformation, payload)
            function = median_seconds(transformation.function, payload)
            rows.append((name, kind, whole, function))
    # a fold that saturates early and often (falls back to the exact left fold)
    saturating = dp.t.make_bounded_int_ordered_sum((-TOP, TOP), T="i64")
    data = np.array([TOP, TOP, -TOP, -TOP] * (SIZE // 4), dtype=np.int64)
    rows.append(
        (
            "ordered, saturating",
            "ndarray",
            median_seconds(saturating, data),
            median_seconds(saturating.function, data),
        )
    )
    return rows


OPENDP_SNIPPET = """
import statistics, sys, time
import opendp.prelude as dp
dp.enable_features("contrib")
size, repeats, bound = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
data = [(i * 7919) % (2 * bound + 1) - bound for i in range(size)]
positives = [abs(v) for v in data]
cases = [
    ("checked (sized)", dp.t.make_sized_bounded_int_checked_sum(size, (-bound, bound), T="i64"), data),
    ("monotonic", dp.t.make_bounded_int_monotonic_sum((0, bound), T="i64"), positives),
    ("split", dp.t.make_bounded_int_split_sum((-bound, bound), T="i64"), data),
    ("ordered", dp.t.make_bounded_int_ordered_sum((-bound, bound), T="i64"), data),
]
for name, t, payload in cases:
    times = []
    for _ in range(repeats):
        start = time.perf_counter(); t(payload); times.append(time.perf_counter() - start)
    print(name, statistics.median(times))
"""


def opendp_rows() -> list[tuple[str, float]] | None:
    command = None
    try:
        import opendp  # noqa: F401

        command = [sys.executable]
    except ImportError:
        interpreter = os.environ.get("OPENDP_PYTHON")
        if interpreter:
            command = [interpreter]
    if command is None:
        return None
    output = subprocess.run(
        [*command, "-c", OPENDP_SNIPPET, str(SIZE), str(REPEATS), str(BOUND)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "RUST_BACKTRACE": "0"},
    ).stdout
    rows = []
    for line in output.splitlines():
        name, seconds = line.rsplit(" ", 1)
        rows.append((name, float(seconds)))
    return rows


def main() -> int:
    values = pattern(SIZE)
    array = np.array(values, dtype=np.int64)
    print(f"Integer sums of {SIZE:,} i64 values (median of {REPEATS}; milliseconds)")
    print(f"{'sum':<30}{'input':<10}{'whole call':>12}{'function':>12}")
    print(f"{'numpy.sum':<30}{'ndarray':<10}{'':>12}{median_seconds(np.sum, array) * 1e3:>12.2f}")
    print(f"{'builtin sum':<30}{'list':<10}{'':>12}{median_seconds(sum, values) * 1e3:>12.2f}")
    for name, kind, whole, function in certdp_rows(values):
        print(f"{'certdp ' + name:<30}{kind:<10}{whole * 1e3:>12.2f}{function * 1e3:>12.2f}")
    reference = opendp_rows()
    if reference is None:
        print("OpenDP: not importable (set OPENDP_PYTHON to time it)")
    else:
        for name, seconds in reference:
            print(f"{'OpenDP ' + name:<30}{'list':<10}{seconds * 1e3:>12.2f}{'':>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
