"""How the time of the #21 fast paths depends on the data (a timing remark, not a speed claim).

Two rows of measurements, each a median over ``REPEATS`` alternating runs:

* ``make_cast`` String -> i64 on ``CAST_ROWS`` records, all texts distinct against 10 distinct
  texts: the table path (the transformation's function) beside the plain row map it replaces
  (``rows.function``, a free variable of ``tabled``), with tracemalloc's peak for each;
* ``make_split_dataframe`` on a ``SPLIT_ROWS``-line CSV, clean against the same CSV with one
  odd line (a space, a CRLF line end, a missing field).

certdp claims no protection against timing channels for transformations; this script measures
what the proofs' "Timing" remarks state.  Run: ``python benchmarks/bench_data_timing.py``.
"""

from __future__ import annotations

import os
import statistics
import time
import tracemalloc

import certdp.prelude as dp

CAST_ROWS = 200_000
SPLIT_ROWS = 300_000
REPEATS = 5


def _free(function, name):
    cells = dict(zip(function.__code__.co_freevars, function.__closure__))
    return cells[name].cell_contents


def _seconds(call, data):
    start = time.perf_counter()
    call(data)
    return time.perf_counter() - start


def _peak(call, data):
    tracemalloc.start()
    call(data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def _alternating(cases):
    """``{name: median seconds}`` over ``REPEATS`` rounds, every case once per round."""
    times = {name: [] for name in cases}
    for _ in range(REPEATS):
        for name, (call, data) in cases.items():
            times[name].append(_seconds(call, data))
    return {name: statistics.median(values) for name, values in times.items()}


def cast_rows():
    dp.enable_features("contrib")
    t = dp.t.make_cast(
        dp.vector_domain(dp.atom_domain(T="String")), dp.symmetric_distance(), TOA="i64"
    )
    rows = _free(t.function, "rows")
    distinct = [str(i) for i in range(CAST_ROWS)]
    few = [str(i % 10) for i in range(CAST_ROWS)]
    cases = {
        "table, all distinct": (t.function, distinct),
        "table, 10 distinct": (t.function, few),
        "row map, all distinct": (rows.function, distinct),
        "row map, 10 distinct": (rows.function, few),
    }
    medians = _alternating(cases)
    print(f"make_cast String -> i64, {CAST_ROWS} records")
    print(f"{'path, data':26} {'median s':>9} {'peak MB':>8}")
    for name, (call, data) in cases.items():
        print(f"{name:26} {medians[name]:9.3f} {_peak(call, data) / 1e6:8.1f}")
    for path in ("table", "row map"):
        ratio = medians[f"{path}, all distinct"] / medians[f"{path}, 10 distinct"]
        print(f"{path}: all distinct / 10 distinct = {ratio:.1f}")


def split_rows():
    t = dp.t.make_split_dataframe(",", ["a", "b", "c"])
    line = "12,abc,3.5\n"
    clean = line * SPLIT_ROWS
    middle = len(line) * (SPLIT_ROWS // 2)
    cases = {
        "clean": clean,
        "one space": clean[:middle] + "12, abc,3.5\n" + clean[middle + len(line) :],
        "one CRLF": clean[:middle] + "12,abc,3.5\r\n" + clean[middle + len(line) :],
        "one missing field": clean[:middle] + "12,abc\n" + clean[middle + len(line) :],
    }
    medians = _alternating({name: (t.function, text) for name, text in cases.items()})
    print(f"\nmake_split_dataframe, {SPLIT_ROWS} lines of 3 fields")
    for name, seconds in medians.items():
        print(f"{name:26} {seconds:9.3f}  ({seconds / medians['clean']:.2f} x clean)")


if __name__ == "__main__":
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min)")
    cast_rows()
    split_rows()
