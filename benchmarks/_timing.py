"""Shared scaffolding of the benchmarks that compare certdp with OpenDP 0.16: OpenDP's prelude
when it is installed, interleaved timing, the machine's load, a verdict against a target ratio
and a plain-text table.

Timing is interleaved: each repeat runs every contender once, in turn, so that a change in the
machine's load during the run falls on all of them alike; the median of the repeats is kept.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def opendp():
    """OpenDP's prelude with ``contrib`` enabled, or ``None`` when OpenDP is not installed."""
    try:
        import opendp.prelude as odp
    except ImportError:  # OpenDP is optional: certdp's column alone
        return None
    odp.enable_features("contrib")
    return odp


def load() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` shows them."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def interleaved(runs: dict, repeats: int) -> dict:
    """Median seconds of each zero-argument callable of ``runs`` (``None`` entries skipped),
    the callables taking turns within every repeat."""
    times = {name: [] for name, run in runs.items() if run is not None}
    for _ in range(repeats):
        for name in times:
            start = time.perf_counter()
            runs[name]()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def verdict(ours: float, theirs: float | None, target: float = 1.0, reason: str = "") -> str:
    """``met`` when ``ours <= target * theirs``, else ``missed by X`` (the factor beyond the
    target) with ``reason``; ``-`` without an OpenDP time."""
    if theirs is None:
        return "-"
    ratio = ours / theirs
    if ratio <= target:
        return "met"
    shown = f"missed by {ratio / target:.2f}x"
    return f"{shown} ({reason})" if reason else shown


def ratio(ours: float, theirs: float | None) -> str:
    return "-" if theirs is None else f"{ours / theirs:.2f}"


def table(header: list[str], rows: list[list], title: str | None = None) -> None:
    """Print ``rows`` under ``header``, each column as wide as its widest cell; the first
    column left-aligned, the others right-aligned, the last (the verdict) left-aligned."""
    cells = [[str(cell) for cell in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    if title:
        print(title)
    last = len(header) - 1
    for row in cells:
        shown = [
            cell.ljust(width) if i in (0, last) else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths))
        ]
        print("  ".join(shown).rstrip())


def best_and_median(function, repeats: int) -> tuple[float, float]:
    """The fastest and the median seconds of ``repeats`` calls of ``function()``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def target(name: str, ours: float, theirs: float | None, goal: float = 1.0, why: str = "") -> str:
    """Print and return one line ``target <name>: <= goal x OpenDP: met | missed ...``."""
    line = f"target {name}: <= {goal:g}x OpenDP's time: {verdict(ours, theirs, goal, why)}"
    if theirs is not None:
        line += f" ({ratio(ours, theirs)}x)"
    print(line)
    return line


def array_options(doc: str, rows: int, columns: int, repeats: int) -> tuple[int, int, int]:
    """``(rows, columns, repeats)`` from ``--rows``, ``--columns`` and ``--repeats`` on the
    command line (the defaults given), for the benchmarks of a rows x columns array."""
    import argparse

    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rows", type=int, default=rows)
    parser.add_argument("--columns", type=int, default=columns)
    parser.add_argument("--repeats", type=int, default=repeats)
    options = parser.parse_args()
    return options.rows, options.columns, options.repeats
