"""Generate ``opendp_float_reference.json``: OpenDP 0.16's float sums on a grid.

Run with the interpreter that has OpenDP 0.16 installed::

    /tmp/odp/bin/python tests/sums/generate_opendp_float_reference.py

For every float sum constructor, every strategy (Sequential/Pairwise x f32/f64), a grid of
sizes and bounds (ordinary, asymmetric, tiny, huge, and the bounds around each overflow
boundary) it records whether construction succeeds, the map at ``d_in = 0..4`` (as
``float.hex``, or the error), and the sum of a few deterministic datasets.  certdp's tests
compare against this table bit for bit, without OpenDP.
"""

from __future__ import annotations

import importlib.metadata
import json
import math
import sys
from pathlib import Path

import numpy as np

OUTPUT = Path(__file__).with_name("opendp_float_reference.json")
CONSTRUCTORS = [
    "make_bounded_float_checked_sum",
    "make_sized_bounded_float_checked_sum",
    "make_bounded_float_ordered_sum",
    "make_sized_bounded_float_ordered_sum",
]
STRATEGIES = ["Sequential<f64>", "Pairwise<f64>", "Sequential<f32>", "Pairwise<f32>"]
SIZES = [0, 1, 2, 3, 10, 100, 1000, 12345, 2**20]
D_INS = [0, 1, 2, 3, 4]


def f32(value: float) -> float:
    return float(np.float32(value))


def ordinary_bounds(T: str) -> list[tuple[float, float]]:
    cast = f32 if T == "f32" else float
    largest = float(np.finfo(np.float32 if T == "f32" else np.float64).max)
    pairs = [
        (-10.0, 10.0),
        (-10.0, 0.0),
        (0.0, 10.0),
        (-1.0, 5.0),
        (-2.5, 7.25),
        (3.0, 3.0),
        (0.0, 0.0),
        (cast(0.1), cast(0.7)),
        (-cast(1e-30), cast(1e-20)),
        (cast(2.0**-140), cast(2.0**-130)),  # subnormal in f32, tiny in f64
        (-cast(1e30), cast(1e25)),
        (cast(-largest / 4), cast(largest / 8)),
        (-largest, largest),
    ]
    if T == "f64":
        pairs += [(-1e-300, 1e-300), (5e-324, 1e-320), (-1e300, 1e290), (1e307, 1e308)]
    return pairs


def boundary_bounds(T: str, size: int) -> list[tuple[float, float]]:
    """Bounds of magnitude near every threshold of the overflow predicates for ``size``."""
    dtype = np.float32 if T == "f32" else np.float64
    finfo = np.finfo(dtype)
    k = 23 if T == "f32" else 52
    emax = 127 if T == "f32" else 1023
    largest = float(finfo.max)
    n = max(size, 1)
    centres = [
        2.0 ** (emax - k - 1),  # Sequential: ulp(MAX) / 2
        2.0 ** (emax - k) / n,  # Pairwise: ulp(MAX) / n
        largest / n,  # the product test
        2.0 ** min(math.floor(math.log2(largest / n)), emax),
        2.0 ** (emax - 1),
    ]
    magnitudes = set()
    for centre in centres:
        value = dtype(centre)
        if not np.isfinite(value):
            continue
        with np.errstate(over="ignore"):
            down, up = np.nextafter(value, dtype(0)), np.nextafter(value, dtype(np.inf))
        for candidate in (down, value, up):
            if np.isfinite(candidate) and candidate > 0:
                magnitudes.add(float(candidate))
    pairs = []
    for magnitude in sorted(magnitudes):
        pairs += [(0.0, magnitude), (-magnitude, 0.0), (-magnitude, magnitude)]
    return pairs


def dataset(bounds, length: int, T: str) -> list[float]:
    """A deterministic dataset within bounds: the bounds themselves every 5th and 7th record,
    the rest spread over the interval by an inline LCG (no PRNG state).  The tests rebuild
    the same data from ``(bounds, length, T)``."""
    lower, upper = bounds
    cast = f32 if T == "f32" else float
    state = 12345 + length
    values = []
    for index in range(length):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        fraction = (state >> 11) / 2**53
        if index % 5 == 0:
            value = upper
        elif index % 7 == 0:
            value = lower
        else:
            value = min(max(cast(lower + (upper - lower) * fraction), lower), upper)
        values.append(value)
    return values


def dataset_lengths(constructor: str, size: int, bounds) -> list[int]:
    """The dataset lengths whose sums are recorded (a sized sum takes exactly ``size``)."""
    if "sized" in constructor:
        common = bounds in ((-10.0, 10.0), (-2.5, 7.25))
        return [size] if size <= 100 or (size <= 12345 and common) else []
    # OpenDP's checked sum samples at random beyond size_limit: not reproducible
    return [length for length in (0, 1, 3, 17) if length <= size or "ordered" in constructor]


def describe_error(error: Exception) -> str:
    variant = getattr(error, "variant", type(error).__name__)
    message = getattr(error, "message", str(error)) or ""
    return f"{variant}: {message.splitlines()[0] if message else ''}"[:200]


def run(dp, constructor: str, S: str, size: int, bounds) -> dict:
    T = S[-4:-1]
    entry = {"constructor": constructor, "S": S, "size": size, "bounds": [b.hex() for b in bounds]}
    typed_bounds = tuple(np.float32(b) for b in bounds) if T == "f32" else bounds
    try:
        built = getattr(dp.t, constructor)(size, typed_bounds, S=S)
    except Exception as error:  # noqa: BLE001 - recording OpenDP's refusal
        entry["refused"] = describe_error(error)
        return entry
    maps = {}
    for d_in in D_INS:
        try:
            maps[str(d_in)] = float(built.map(d_in)).hex()
        except Exception as error:  # noqa: BLE001
            maps[str(d_in)] = "error: " + describe_error(error)
    entry["maps"] = maps
    sums = []
    for length in dataset_lengths(constructor, size, bounds):
        data = dataset(bounds, length, T)
        try:
            sums.append([length, float(built(data)).hex()])
        except Exception as error:  # noqa: BLE001
            sums.append([length, "error: " + describe_error(error)])
    entry["sums"] = sums
    return entry


def main() -> None:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    entries = []
    for constructor in CONSTRUCTORS:
        for S in STRATEGIES:
            T = S[-4:-1]
            for size in SIZES:
                seen = set()
                for bounds in ordinary_bounds(T) + boundary_bounds(T, size):
                    if bounds in seen:
                        continue
                    seen.add(bounds)
                    entries.append(run(dp, constructor, S, size, bounds))
    document = {
        "generator": "tests/sums/generate_opendp_float_reference.py",
        "opendp_version": importlib.metadata.version("opendp"),
        "entries": entries,
    }
    OUTPUT.write_text(json.dumps(document, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(entries)} entries to {OUTPUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
