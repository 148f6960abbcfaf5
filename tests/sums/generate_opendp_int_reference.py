"""Write tests/sums/opendp_int_reference.json: what OpenDP 0.16 does with integer sums.

Run with a Python that has ``opendp==0.16`` installed (certdp is not imported)::

    /tmp/odp/bin/python tests/sums/generate_opendp_int_reference.py

For every integer sum constructor and for ``make_sum`` under both dataset metrics, over a
grid of carrier types, bounds, sizes, ``d_in`` and fixed datasets (many of them saturating),
the table records whether construction succeeds (or the error variant and message), every
map value (or error variant) and every function output.  The tests compare certdp with it.

OpenDP 0.16's foreign-function layer instantiates these constructors only for i32, i64, u32,
u64 and usize (i8, i16, u8 and u16 raise a "No match for concrete type" error, recorded under
``ffi_types``), so the grid uses those five types; narrower types are checked in the tests
against a direct model of Rust's saturating folds.
"""

from __future__ import annotations

import json
import os
import sys
from functools import partial
from pathlib import Path

# OpenDP captures a Rust backtrace for every error unless told not to (0.1 s each).
os.environ["RUST_BACKTRACE"] = "0"
os.environ["RUST_LIB_BACKTRACE"] = "0"

import opendp  # noqa: E402
import opendp.prelude as dp  # noqa: E402

dp.enable_features("contrib")

OUTPUT = Path(__file__).with_name("opendp_int_reference.json")
TYPES = ["i32", "i64", "u32", "u64", "usize"]
ALL_INTEGER_TYPES = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize"]
D_INS = [0, 1, 2, 3, 4, 5, 7, 10, 1000, 2**31 - 1, 2**31, 2**32 - 1]
SIZES = [0, 1, 3, 7, 1234]
MAX_SIZE_WITH_DATA = 7

UNSIZED = [
    "make_bounded_int_monotonic_sum",
    "make_bounded_int_ordered_sum",
    "make_bounded_int_split_sum",
]
SIZED = [
    "make_sized_bounded_int_checked_sum",
    "make_sized_bounded_int_monotonic_sum",
    "make_sized_bounded_int_ordered_sum",
    "make_sized_bounded_int_split_sum",
]
METRICS = {"symmetric": dp.symmetric_distance, "insert_delete": dp.insert_delete_distance}


def limits(T: str) -> tuple[int, int]:
    if T == "usize":
        T = "u64"
    bits = int(T[1:])
    if T.startswith("u"):
        return 0, 2**bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def grid_bounds(T: str) -> list[tuple[int, int]]:
    low, high = limits(T)
    if low == 0:
        candidates = [
            (0, 10),
            (1, 20),
            (0, 0),
            (0, 1),
            (0, high),
            (high // 2, high),
            (0, high // 2 + 1),
            (high - 1, high),
            (5, 2),
            (high, 0),
        ]
    else:
        candidates = [
            (0, 10),
            (-10, 10),
            (-5, 2),
            (-10, -1),
            (-10, 0),
            (1, 20),
            (0, 0),
            (-2, 4),
            (low, high),
            (low + 1, high),
            (-high, high),
            (0, high),
            (low, -1),
            (low, 0),
            (high // 2, high),
            (low // 2, high // 2),
            (low // 2 - 1, high // 2 + 1),
            (-(high // 3), high // 3),
            (5, 2),
            (high, low),
        ]
    return [bounds for bounds in candidates if low <= min(bounds) and max(bounds) <= high]


def grid_sizes(T: str, bounds: tuple[int, int]) -> list[int]:
    _, high = limits(T)
    magnitude = max(abs(bounds[0]), bounds[1])
    sizes = set(SIZES)
    if magnitude:
        # the edge of the overflow refusal: n * magnitude <= T.max < (n + 1) * magnitude
        edge = high // magnitude
        sizes.update(size for size in (edge, edge + 1) if size < 2**32)
    return sorted(sizes)


def datasets(bounds: tuple[int, int], size: int | None) -> list[list[int]]:
    lower, upper = bounds
    middle = lower + (upper - lower) // 2
    patterns = [
        [upper] * 3,
        [lower] * 3,
        [upper, upper, lower, lower, lower],
        [lower, lower, upper, upper, upper],
        [upper, lower, upper, lower, upper],
        [upper, upper, upper, lower, upper, lower, lower],
        [middle, lower, middle, upper, 0 if lower <= 0 <= upper else lower],
        [lower, upper],
        [],
    ]
    if size is None:
        return patterns
    if size > MAX_SIZE_WITH_DATA:
        return []
    shaped = []
    for pattern in patterns:
        if pattern:
            repeated = (pattern * (size // len(pattern) + 1))[:size]
            if repeated not in shaped:
                shaped.append(repeated)
    if size == 0:
        shaped.append([])
    return shaped


def error_of(exception: Exception) -> dict:
    variant = getattr(exception, "variant", None)
    message = getattr(exception, "message", None) or str(exception)
    if not variant:
        variant = "python:" + type(exception).__name__
    return {"error": variant, "message": message.strip().splitlines()[0][:300]}


def record(build, size_for_data) -> dict:
    try:
        transformation = build()
    except Exception as exception:  # OpenDP raises OpenDPException, ValueError or TypeError
        return {"construction": error_of(exception)}
    maps = []
    for d_in in D_INS:
        try:
            maps.append([d_in, transformation.map(d_in)])
        except Exception as exception:
            maps.append([d_in, error_of(exception)])
    outputs = []
    bounds = transformation.input_domain.element_domain.bounds
    for data in datasets(bounds, size_for_data):
        try:
            outputs.append([data, transformation(data)])
        except Exception as exception:
            outputs.append([data, error_of(exception)])
    return {"construction": "ok", "maps": maps, "outputs": outputs}


def ffi_types() -> dict:
    supported = {}
    for T in ALL_INTEGER_TYPES:
        try:
            dp.t.make_bounded_int_split_sum((0, 1), T=T)
            supported[T] = True
        except Exception:
            supported[T] = False
    return supported


def main() -> int:
    cases = []
    for T in TYPES:
        for bounds in grid_bounds(T):
            for name in UNSIZED:
                constructor = getattr(dp.t, name)
                entry = {"constructor": name, "args": {"bounds": list(bounds), "T": T}}
                entry.update(record(partial(constructor, bounds, T=T), None))
                cases.append(entry)
            for size in grid_sizes(T, bounds):
                for name in SIZED:
                    constructor = getattr(dp.t, name)
                    entry = {
                        "constructor": name,
                        "args": {"size": size, "bounds": list(bounds), "T": T},
                    }
                    entry.update(record(partial(constructor, size, bounds, T=T), size))
                    cases.append(entry)
            if bounds[0] > bounds[1]:
                continue  # the domain itself is refused before make_sum is reached
            # OpenDP's Python vector_domain takes the size as an i32
            for size in [None, *(n for n in grid_sizes(T, bounds) if n < 2**31)]:
                for metric_name, metric in METRICS.items():
                    domain = dp.vector_domain(dp.atom_domain(bounds=bounds, T=T), size=size)
                    entry = {
                        "constructor": "make_sum",
                        "args": {
                            "size": size,
                            "bounds": list(bounds),
                            "T": T,
                            "metric": metric_name,
                        },
                    }
                    entry.update(record(partial(dp.t.make_sum, domain, metric()), size))
                    cases.append(entry)
    table = {
        "generator": "tests/sums/generate_opendp_int_reference.py",
        "opendp_version": opendp.__version__ if hasattr(opendp, "__version__") else _version(),
        "ffi_types": ffi_types(),
        "d_ins": D_INS,
        "cases": cases,
    }
    OUTPUT.write_text(json.dumps(table, separators=(",", ":")) + "\n")
    print(f"wrote {len(cases)} cases to {OUTPUT}")
    return 0


def _version() -> str:
    from importlib.metadata import version

    return version("opendp")


if __name__ == "__main__":
    sys.exit(main())
