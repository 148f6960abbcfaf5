"""Benchmark the Gaussian measurement on a vector of 10^5 elements, beside OpenDP 0.16.

Run: ``python benchmarks/bench_gaussian.py`` (``make bench``).  OpenDP is timed when it can
be imported, or through the interpreter named by ``OPENDP_PYTHON`` (for example
``OPENDP_PYTHON=/tmp/odp-g/bin/python``); certdp never imports it otherwise.

Both libraries sample the same distributions exactly: integers get discrete Gaussian noise
(CKS20); floats are rounded to the grid 2^k (k = -1074 by default) and get discrete Gaussian
noise of scale / 2^k grid steps.  Times are the median of ``REPEATS`` releases of the whole
vector (scale 1, L2 distance, output measure zCDP).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import certdp.prelude as dp  # noqa: E402

dp.enable_features("contrib")  # the gate refuses a sampler change until it is re-vetted

SIZE = 100_000
REPEATS = 3

CASES = {
    "integer (i32, scale 1)": ("i32", [i % 1000 for i in range(SIZE)]),
    "float (f64, scale 1, default k)": ("f64", [float(i % 1000) / 7.0 for i in range(SIZE)]),
}


def median_seconds(release, data, repeats=REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        release(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def certdp_measurement(T: str):
    atom = dp.atom_domain(T=T, nan=False) if T.startswith("f") else dp.atom_domain(T=T)
    return dp.m.make_gaussian(dp.vector_domain(atom, size=SIZE), dp.l2_distance(T=T), 1.0)


OPENDP_SNIPPET = """
import statistics, sys, time
import opendp.prelude as dp
dp.enable_features("contrib")
T, size, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if T == "f64":
    atom, data = dp.atom_domain(T=float, nan=False), [float(i % 1000) / 7.0 for i in range(size)]
else:
    atom, data = dp.atom_domain(T="i32"), [i % 1000 for i in range(size)]
m = dp.m.make_gaussian(dp.vector_domain(atom, size=size), dp.l2_distance(T=T), 1.0)
times = []
for _ in range(repeats):
    start = time.perf_counter(); m(data); times.append(time.perf_counter() - start)
print(statistics.median(times))
"""


def opendp_seconds(T: str) -> float | None:
    try:
        import opendp  # noqa: F401
    except ImportError:
        interpreter = os.environ.get("OPENDP_PYTHON")
        if not interpreter:
            return None
        command = [interpreter, "-c", OPENDP_SNIPPET, T, str(SIZE), str(REPEATS)]
    else:
        command = [sys.executable, "-c", OPENDP_SNIPPET, T, str(SIZE), str(REPEATS)]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return float(result.stdout.strip().splitlines()[-1])


#: Issue 18 §4: the f64 release at least this many times faster than OpenDP's.
TARGET = 10.0


def main() -> None:
    print(f"Gaussian mechanism (zCDP) on a vector of {SIZE:,} elements (median of {REPEATS})")
    print("first: the first release after construction (it fills the sampler's caches)")
    header = (
        f"{'case':<34} {'first (s)':>10} {'certdp (s)':>11} {'us/element':>11} "
        f"{'OpenDP 0.16 (s)':>16} {'speed-up':>9}"
    )
    print(header)
    print("-" * len(header))
    verdicts = []
    for name, (T, data) in CASES.items():
        measurement = certdp_measurement(T)
        first = median_seconds(measurement, data, 1)
        ours = median_seconds(measurement, data)
        theirs = opendp_seconds(T)
        opendp_text = "n/a" if theirs is None else f"{theirs:.3f}"
        speedup = "n/a" if theirs is None else f"{theirs / ours:.1f}x"
        print(
            f"{name:<34} {first:>10.3f} {ours:>11.3f} {ours / SIZE * 1e6:>11.2f} "
            f"{opendp_text:>16} {speedup:>9}"
        )
        if T == "f64" and theirs is not None:
            met = "met" if theirs / ours >= TARGET else "MISSED"
            verdicts.append(f"target {TARGET:.0f}x OpenDP for {name}: {met} ({theirs / ours:.1f}x)")
    for verdict in verdicts:
        print(verdict)
    scalar()


SCALAR_REPEATS = 2000

OPENDP_SCALAR = """
import statistics, sys, time
import opendp.prelude as dp
dp.enable_features("contrib")
m = dp.m.make_gaussian(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), 1.0)
times = []
for _ in range(int(sys.argv[1])):
    start = time.perf_counter(); m(1.0); times.append(time.perf_counter() - start)
print(statistics.median(times))
"""


def scalar() -> None:
    """One scalar f64 release (scale 1, k = -1074): certdp beside OpenDP, median of
    ``SCALAR_REPEATS`` after 100 warm-up releases."""
    atom = dp.atom_domain(T="f64", nan=False)
    measurement = dp.m.make_gaussian(atom, dp.absolute_distance(T="f64"), 1.0)
    for _ in range(100):
        measurement(1.0)
    ours = median_seconds(measurement, 1.0, SCALAR_REPEATS)
    try:
        import opendp  # noqa: F401

        command = [sys.executable, "-c", OPENDP_SCALAR, str(SCALAR_REPEATS)]
    except ImportError:
        interpreter = os.environ.get("OPENDP_PYTHON")
        command = [interpreter, "-c", OPENDP_SCALAR, str(SCALAR_REPEATS)] if interpreter else None
    theirs = None
    if command:
        result = subprocess.run(command, capture_output=True, text=True, check=True)
        theirs = float(result.stdout.strip().splitlines()[-1])
    text = (
        "n/a" if theirs is None else f"{theirs * 1e6:.1f} us ({ours / theirs:.2f}x OpenDP's time)"
    )
    print(f"scalar f64 release: certdp {ours * 1e6:.1f} us, OpenDP 0.16 {text}")
    print(
        "  why the scalar release is not faster: it runs the vectorised split sampler, whose\n"
        "  per-call NumPy work (split_to_floats' vector rounding) dominates one draw.  Rounding\n"
        "  one split draw through split_to_integers and grid_point_to_float instead (the same\n"
        "  law) measured about 20 us less under load, but it is a new case of the proof of\n"
        "  discrete_gaussian_z2k.tex and changes its measured timing remark (the big-integer\n"
        "  rounding depends on the data's size): not done yet."
    )


if __name__ == "__main__":
    main()
