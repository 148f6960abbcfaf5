"""Time to first result, beside OpenDP 0.16: import, first construction, a snippet workload.

Run: ``python benchmarks/bench_startup.py [--repeats R]`` (``make bench``).  Every number is a
median over ``R`` fresh interpreters (byte code cached, as a user's install has it).  OpenDP is timed when it can be imported, or through the interpreter named by
``OPENDP_PYTHON``; certdp never imports it.

* import: ``import <library>.prelude as dp``, timed inside the fresh process;
* first construction: in a fresh process, after the import and after building the spaces and
  inner measurements the call needs, the one constructor call, for each of the 29 constructors
  (OpenDP's constructor of the same name, where it has one);
* workload: one fresh process running the import and the snippets of :data:`SNIPPETS`, short
  programs in the style of OpenDP's documentation (build, ``map``, release), each written once
  for both libraries.

certdp's first construction includes its vetting gate, which compares the proof files of the
constructor with the vetting ledger; the table says whether each constructor was up to date
(the cheap check) when measured, since an outdated or never-vetted one is compared the slow way.

Targets (issue 18): import <= 1.2x OpenDP's, first construction <= 20 ms each, workload <= 1.5x
OpenDP's.  The last lines say, for each, "met" or "missed by X (reason)": the reasons named
are an outdated constructor (the gate's slow path), a machine busier than its cores (wall time
then includes waiting), and the CPU time (``process_time``), which each table prints beside
the wall time.  The two libraries' runs alternate (interleaved repeats), and the load average
is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

#: Spaces and inner objects, built before the timed call (same text for both libraries).
SETUP = """
ints = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
floats = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
bounded = dp.vector_domain(dp.atom_domain(bounds=(0, 10))), dp.symmetric_distance()
fbounded = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0), nan=False)), dp.symmetric_distance()
sized = (
    dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0), nan=False), size=100),
    dp.symmetric_distance(),
)
iatom = dp.atom_domain(T="i32"), dp.absolute_distance(T="i32")
fatom = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
ivec = dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32")
fvec = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
rows = dp.numpy.array2_domain(T=float, num_columns=3), dp.symmetric_distance()
clamped_rows = dp.numpy.array2_domain(norm=1.0, p=2, num_columns=3), dp.symmetric_distance()
"""

#: Inner measurements of the combinators (built before the timed call).
INNER = {
    "make_composition": "inner = [dp.m.make_laplace(*fatom, 1.0), dp.m.make_laplace(*fatom, 2.0)]",
    "make_fix_delta": "inner = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*fatom, 1.0))",
    "make_pureDP_to_zCDP": "inner = dp.m.make_laplace(*fatom, 1.0)",
    "make_zCDP_to_approxDP": "inner = dp.m.make_gaussian(*fatom, 1.0)",
}

#: The timed call of each constructor.
FIRST_CALLS = {
    "make_bounded_float_checked_sum": "dp.t.make_bounded_float_checked_sum(100, (0.0, 10.0))",
    "make_bounded_float_ordered_sum": "dp.t.make_bounded_float_ordered_sum(100, (0.0, 10.0))",
    "make_bounded_int_monotonic_sum": "dp.t.make_bounded_int_monotonic_sum((0, 10))",
    "make_bounded_int_ordered_sum": "dp.t.make_bounded_int_ordered_sum((-10, 10))",
    "make_bounded_int_split_sum": "dp.t.make_bounded_int_split_sum((-10, 10))",
    "make_clamp": "dp.t.make_clamp(*ints, (0, 10))",
    "make_count": "dp.t.make_count(*ints)",
    "make_is_equal": "dp.t.make_is_equal(*ints, 3)",
    "make_mean": "dp.t.make_mean(*sized)",
    "make_resize": "dp.t.make_resize(*fbounded, size=100, constant=0.0)",
    "make_sized_bounded_float_checked_sum": (
        "dp.t.make_sized_bounded_float_checked_sum(100, (0.0, 10.0))"
    ),
    "make_sized_bounded_float_ordered_sum": (
        "dp.t.make_sized_bounded_float_ordered_sum(100, (0.0, 10.0))"
    ),
    "make_sized_bounded_int_checked_sum": "dp.t.make_sized_bounded_int_checked_sum(100, (0, 10))",
    "make_sized_bounded_int_monotonic_sum": (
        "dp.t.make_sized_bounded_int_monotonic_sum(100, (0, 10))"
    ),
    "make_sized_bounded_int_ordered_sum": (
        "dp.t.make_sized_bounded_int_ordered_sum(100, (-10, 10))"
    ),
    "make_sized_bounded_int_split_sum": "dp.t.make_sized_bounded_int_split_sum(100, (-10, 10))",
    "make_sum": "dp.t.make_sum(*bounded)",
    "make_float_laplace_cks20": "dp.m.make_float_laplace_cks20(*fatom, 1.0)",
    "make_gaussian": "dp.m.make_gaussian(*fatom, 1.0)",
    "make_integer_laplace": "dp.m.make_integer_laplace(*iatom, 1.0)",
    "make_laplace": "dp.m.make_laplace(*fatom, 1.0)",
    "make_vector_float_laplace_cks20": "dp.m.make_vector_float_laplace_cks20(*fvec, 1.0)",
    "make_vector_integer_laplace": "dp.m.make_vector_integer_laplace(*ivec, 1.0)",
    "make_np_clamp": "dp.numpy.make_np_clamp(*rows, norm=1.0, p=2)",
    "make_np_sum": "dp.numpy.make_np_sum(*clamped_rows)",
    "make_composition": "dp.c.make_composition(inner)",
    "make_fix_delta": "dp.c.make_fix_delta(inner, 1e-7)",
    "make_pureDP_to_zCDP": "dp.c.make_pureDP_to_zCDP(inner)",
    "make_zCDP_to_approxDP": "dp.c.make_zCDP_to_approxDP(inner)",
}

#: Short programs in the style of OpenDP's documentation, the same text for both libraries.
SNIPPETS = [
    # counting
    "m = ints >> dp.t.then_count() >> dp.m.then_laplace(1.0); m.map(1); m([1, 2, 3] * 30)",
    "m = ints >> dp.t.then_count() >> dp.m.then_gaussian(1.0); m.map(1); m(list(range(100)))",
    "t = dp.t.make_count(*floats); t.map(1); t([1.0, 2.0])",
    "t = dp.t.make_count(*ints, TO='i64'); t.map(3); t([0] * 500)",
    # is_equal
    "t = ints >> dp.t.then_is_equal(3); t([1, 3, 3]); t.map(1)",
    "t = ints >> dp.t.then_is_equal(3) >> dp.t.then_count(); t([3] * 50); t.map(2)",
    # clamp and sums
    "m = ints >> dp.t.then_clamp((0, 10)) >> dp.t.then_sum() >> dp.m.then_laplace(10.0); m.map(1); m(list(range(50)))",
    "m = floats >> dp.t.then_clamp((0.0, 10.0)) >> dp.t.then_sum() >> dp.m.then_laplace(10.0); m.map(1); m([0.5] * 100)",
    "t = bounded >> dp.t.then_sum(); t.map(1); t([1, 2, 3, 10])",
    "t = fbounded >> dp.t.then_sum(); t.map(2); t([1.5, 2.5, 9.0])",
    "t = dp.t.make_bounded_int_monotonic_sum((0, 10)); t.map(1); t([1, 2, 3])",
    "t = dp.t.make_bounded_int_ordered_sum((-5, 5)); t.map(1); t([1, -2, 3])",
    "t = dp.t.make_bounded_int_split_sum((-5, 5)); t.map(1); t([1, -2, 3])",
    "t = dp.t.make_bounded_float_checked_sum(100, (0.0, 1.0)); t.map(1); t([0.25] * 10)",
    "t = dp.t.make_bounded_float_ordered_sum(100, (0.0, 1.0)); t.map(1); t([0.25] * 10)",
    "t = dp.t.make_sized_bounded_int_checked_sum(10, (0, 10)); t.map(2); t(list(range(10)))",
    "t = dp.t.make_sized_bounded_int_monotonic_sum(10, (0, 10)); t.map(2); t(list(range(10)))",
    "t = dp.t.make_sized_bounded_int_ordered_sum(10, (-10, 10)); t.map(2); t(list(range(10)))",
    "t = dp.t.make_sized_bounded_int_split_sum(10, (-10, 10)); t.map(2); t(list(range(10)))",
    "t = dp.t.make_sized_bounded_float_checked_sum(10, (0.0, 1.0)); t.map(2); t([0.5] * 10)",
    "t = dp.t.make_sized_bounded_float_ordered_sum(10, (0.0, 1.0)); t.map(2); t([0.5] * 10)",
    # resize and mean
    "t = fbounded >> dp.t.then_resize(size=100, constant=5.0); t.map(1); t([1.0] * 80)",
    "t = fbounded >> dp.t.then_resize(size=10, constant=5.0) >> dp.t.then_mean(); t.map(2); t([1.0, 2.0])",
    "m = fbounded >> dp.t.then_resize(size=100, constant=5.0) >> dp.t.then_mean() >> dp.m.then_laplace(0.5); m.map(1); m([1.0] * 120)",
    "t = sized >> dp.t.then_mean(); t.map(2); t([2.0] * 100)",
    "m = sized >> dp.t.then_mean() >> dp.m.then_gaussian(0.1); m.map(1); m([3.0] * 100)",
    "t = bounded >> dp.t.then_resize(size=20, constant=0); t.map(1); t([1] * 25)",
    # Laplace
    "m = dp.m.make_laplace(*fatom, 1.0); m.map(1.0); m(0.0)",
    "m = dp.m.make_laplace(*iatom, 2.0); m.map(1); m(5)",
    "m = dp.m.make_laplace(*fvec, 1.0); m.map(1.0); m([1.0] * 100)",
    "m = dp.m.make_laplace(*ivec, 1.0); m.map(1); m(list(range(100)))",
    "m = dp.m.make_laplace(*fatom, 1.0, k=-10); m.map(0.5); m(3.5)",
    "m = dp.m.make_laplace(*fatom, 0.5, k=-40); m.map(1.0); m(2.0)",
    "m = dp.m.make_laplace(*iatom, 10.0); m.map(3); m(2)",
    "m = fvec >> dp.m.then_laplace(2.0); m.map(1.0); m([2.0] * 50)",
    "m = ivec >> dp.m.then_laplace(2.0); m.map(1); m([2] * 50)",
    "m = fatom >> dp.m.then_laplace(3.0); m.check(1.0, 1.0); m(1.0)",
    # Gaussian
    "m = dp.m.make_gaussian(*fatom, 1.0); m.map(1.0); m(0.0)",
    "m = dp.m.make_gaussian(*iatom, 1.0); m.map(1); m(0)",
    "m = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float), 1.0); m.map(1.0); m([0.0] * 100)",
    "m = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T='i32')), dp.l2_distance(T='i32'), 2.0); m.map(1); m([1] * 100)",
    # combinators
    "m = dp.c.make_composition([dp.m.make_laplace(*fatom, 1.0)] * 3); m.map(1.0); m(1.0)",
    "m = dp.c.make_pureDP_to_zCDP(dp.m.make_laplace(*fatom, 1.0)); m.map(1.0); m(1.0)",
    "m = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*fatom, 1.0)); m.map(1.0).epsilon(1e-6); m(1.0)",
    "m = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*fatom, 1.0)), 1e-6); m.map(1.0); m(1.0)",
    "m = dp.c.make_composition([dp.m.make_gaussian(*fatom, 1.0), dp.m.make_gaussian(*fatom, 2.0)]); m.map(1.0); m(0.5)",
    "m = dp.c.make_zCDP_to_approxDP(dp.c.make_composition([dp.m.make_gaussian(*fatom, 1.0)] * 2)); m.map(1.0).delta(1.0)",
    # numpy (OpenDP 0.16 has no public make_np_sum)
    "import numpy as np; t = dp.numpy.make_np_clamp(*rows, norm=1.0, p=2); t.map(1); t(np.ones((100, 3)))",
    # spaces and errors
    "t = ints >> dp.t.then_clamp((0, 10)); t.map(3); t([-5, 5, 50])",
    "m = bounded >> dp.t.then_sum() >> dp.m.then_laplace(1.0); m.map(1); m([1, 2, 3])",
    "m = ints >> dp.t.then_count() >> dp.m.then_laplace(1.0); m.check(1, 1.0); m.check(2, 1.0)",
    "import numpy as np; t = rows >> dp.numpy.then_np_clamp(norm=2.0, p=1); t.map(2); t(np.zeros((10, 3)))",
    "m = dp.m.make_gaussian(*fatom, 3.0, k=-20); m.map(2.0); m(1.0)",
]

PROGRAM = """
import json, os, sys, time
library, task, repeats_text = sys.argv[1], sys.argv[2], sys.argv[3]
start, cpu = time.perf_counter(), time.process_time()
if library == "certdp":
    import certdp.prelude as dp
else:
    import opendp.prelude as dp
imported, imported_cpu = time.perf_counter() - start, time.process_time() - cpu
dp.enable_features("contrib")  # OpenDP needs it for most of these; certdp's gate still runs
result = {"import": imported, "import_cpu": imported_cpu}
if library == "certdp":
    # count the vetting gates a task runs and their CPU time (the reason a target is missed)
    import certdp.audit.gate as gate
    checked, gate_cpu = gate.vetting_status, [0.0]
    def timed_status(name):
        begun = time.process_time()
        try:
            return checked(name)
        finally:
            gate_cpu[0] += time.process_time() - begun
    gate.vetting_status = timed_status
    gated_before = set(gate._up_to_date)
if task.startswith("first:"):
    name = task[len("first:"):]
    exec(SETUP)
    exec(INNER.get(name, ""))
    start, cpu = time.perf_counter(), time.process_time()
    exec(FIRST_CALLS[name])
    result["first"] = time.perf_counter() - start
    result["first_cpu"] = time.process_time() - cpu
    if library == "certdp":
        from certdp.audit.status import vetting_status
        result["state"] = vetting_status(name).state
        result["gates"] = sorted(gate._up_to_date - gated_before)
        result["gate_cpu"] = gate_cpu[0]
elif task == "workload":
    start, cpu = time.perf_counter(), time.process_time()
    exec(SETUP)
    for snippet in SNIPPETS:
        exec(snippet)
    result["workload"] = time.perf_counter() - start + imported
    result["workload_cpu"] = time.process_time() - cpu + imported_cpu
    if library == "certdp":
        result["gates"] = sorted(gate._up_to_date - gated_before)
        result["gate_cpu"] = gate_cpu[0]
print(json.dumps(result))
"""


def _interpreter(library: str) -> str | None:
    if library == "certdp":
        return sys.executable
    probe = subprocess.run(
        [sys.executable, "-c", "import opendp"], capture_output=True, env=_environment()
    )
    if probe.returncode == 0:
        return sys.executable
    return os.environ.get("OPENDP_PYTHON")


def _environment() -> dict:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(SRC)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # `make` sets it; an install has byte code
    return environment


def run(library: str, task: str) -> dict:
    source = (
        f"SETUP = {SETUP!r}\nINNER = {INNER!r}\nFIRST_CALLS = {FIRST_CALLS!r}\n"
        f"SNIPPETS = {SNIPPETS!r}\n{PROGRAM}"
    )
    result = subprocess.run(
        [_interpreter(library), "-c", source, library, task, "1"],
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=600,
    )
    if result.returncode != 0:
        raise RuntimeError(f"{library} {task} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def interleaved(libraries: list[str], task: str, repeats: int) -> dict[str, list[dict]]:
    """``repeats`` fresh runs of ``task`` per library, alternating the libraries (so that a
    change of the machine's load during the run falls on both alike)."""
    runs: dict[str, list[dict]] = {lib: [] for lib in libraries}
    for _ in range(repeats):
        for lib in libraries:
            try:
                runs[lib].append(run(lib, task))
            except RuntimeError:
                if lib == "certdp":
                    raise
                runs[lib] = []  # OpenDP has no such constructor or refuses these arguments
                libraries = [x for x in libraries if x != lib]
    return runs


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def load() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load unknown"
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def verdict(label: str, value: float, target: float, unit: str, reasons: list[str]) -> str:
    """``met``, or ``missed by X (reason)`` for one target."""
    if value <= target:
        return f"  {label}: met ({value:.3g}{unit} <= {target:.3g}{unit})"
    because = "; ".join(reasons) or "no reason found: the time itself is over"
    return (
        f"  {label}: missed by {value / target:.2f}x ({value:.3g}{unit} > {target:.3g}{unit}; "
        f"{because})"
    )


def _busy() -> list[str]:
    one = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    cores = os.cpu_count() or 1
    if one > cores:
        return [f"the machine was busy ({load()}): wall time includes waiting for a core"]
    return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="fresh processes per number")
    parser.add_argument("--only", nargs="*", help="constructors to time (default: all 29)")
    options = parser.parse_args()
    repeats = options.repeats
    libraries = ["certdp"] + (["opendp"] if _interpreter("opendp") else [])
    print(
        f"bench_startup: median of {repeats} fresh processes per number, the libraries "
        f"interleaved ({', '.join(libraries)}); wall / CPU (process_time)"
    )
    print(f"  at start: {load()}")
    if "opendp" not in libraries:
        print("  (OpenDP not importable and OPENDP_PYTHON unset: certdp alone)")

    for lib in libraries:  # a warm-up run writes the byte code caches, as an install has them
        run(lib, "workload")
    runs = interleaved(libraries, "import", repeats)
    imports = {lib: (median(r, "import"), median(r, "import_cpu")) for lib, r in runs.items()}
    print("\nimport <library>.prelude (s, wall / CPU)")
    for lib, (wall, cpu) in imports.items():
        print(f"  {lib:8s} {wall:.4f} / {cpu:.4f}")

    names = options.only or list(FIRST_CALLS)
    print("\nfirst construction, fresh process (ms, wall / CPU)")
    print(f"  {'constructor':40s} {'certdp':>17s} {'opendp':>17s}  certdp vetting state")
    firsts, states, gated, gate_cpus = {}, {}, {}, {}
    for name in names:
        runs = interleaved(libraries, f"first:{name}", repeats)
        ours = runs["certdp"]
        firsts[name] = (median(ours, "first"), median(ours, "first_cpu"))
        states[name] = ours[0]["state"]
        gated[name], gate_cpus[name] = ours[0]["gates"], median(ours, "gate_cpu")
        theirs = runs.get("opendp") or []
        opendp = (
            f"{1000 * median(theirs, 'first'):8.2f} / {1000 * median(theirs, 'first_cpu'):6.2f}"
            if theirs
            else "n/a"
            if "opendp" in libraries
            else "-"
        )
        wall, cpu = firsts[name]
        print(f"  {name:40s} {1000 * wall:8.2f} / {1000 * cpu:6.2f} {opendp:>17s}  {states[name]}")

    print(f"\nworkload: import and {len(SNIPPETS)} snippets in one fresh process (s, wall / CPU)")
    runs = interleaved(libraries, "workload", repeats)
    workloads = {lib: (median(r, "workload"), median(r, "workload_cpu")) for lib, r in runs.items()}
    workload_gates = len(runs["certdp"][0]["gates"]), median(runs["certdp"], "gate_cpu")
    for lib, (wall, cpu) in workloads.items():
        print(f"  {lib:8s} {wall:.4f} / {cpu:.4f}")

    print(f"\ntargets (wall time; at end: {load()})")
    if "opendp" in libraries:
        ratio_cpu = imports["certdp"][1] / imports["opendp"][1]
        print(
            verdict("import <= 1.2x OpenDP", imports["certdp"][0], 1.2 * imports["opendp"][0],
                    " s", _busy() + [f"CPU-time ratio {ratio_cpu:.2f}x"])
        )  # fmt: skip
    worst = max(firsts, key=lambda name: firsts[name][0])
    gates = gated[worst]
    reasons = _busy() + [
        f"its CPU time {1000 * firsts[worst][1]:.1f} ms, of which {1000 * gate_cpus[worst]:.1f} ms "
        f"in {len(gates)} first vetting gate(s) ({', '.join(gates)}: each hashes its closure's "
        "files and checks them for shadowing files)"
    ]
    if states[worst] != "up to date":
        reasons.insert(0, f"{worst} is {states[worst]} here, so the gate took the full comparison")
    print(
        verdict(f"first construction <= 20 ms (slowest: {worst})", 1000 * firsts[worst][0], 20,
                " ms", reasons)
    )  # fmt: skip
    missed = [name for name, (wall, _) in firsts.items() if wall > 0.020]
    if missed:
        print(f"    over 20 ms: {', '.join(missed)}")
    if "opendp" in libraries:
        ratio_cpu = workloads["certdp"][1] / workloads["opendp"][1]
        print(
            verdict("workload <= 1.5x OpenDP", workloads["certdp"][0], 1.5 * workloads["opendp"][0],
                    " s", _busy() + [f"CPU-time ratio {ratio_cpu:.2f}x",
                                     f"{workload_gates[0]} first vetting gates took "
                                     f"{workload_gates[1]:.3f} s of certdp's "
                                     f"{workloads['certdp'][1]:.3f} s CPU"])
        )  # fmt: skip


if __name__ == "__main__":
    main()
