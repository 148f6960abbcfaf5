"""Generate ``opendp_mean_reference.json``: OpenDP 0.16's ``make_mean`` on a grid.

Run with an interpreter that has OpenDP 0.16 installed (a scratch venv; certdp never imports
OpenDP)::

    python3 -m venv /tmp/odp-t && /tmp/odp-t/bin/pip install opendp==0.16.0 numpy
    /tmp/odp-t/bin/python tests/mean/generate_opendp_mean_reference.py

For f32 and f64, the symmetric and the insert-delete distance, a grid of sizes and bounds
(ordinary, asymmetric, tiny, subnormal, huge, degenerate), it records whether construction is
refused, the map at ``d_in = 0..4`` (as ``float.hex``, or the error) and the means of a few
deterministic datasets.  certdp's tests compare against this table bit for bit.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

import numpy as np

OUTPUT = Path(__file__).with_name("opendp_mean_reference.json")
TYPES = ["f64", "f32"]
METRICS = ["symmetric_distance", "insert_delete_distance"]
SIZES = [1, 2, 3, 7, 10, 100, 1000, 12345, 2**20, 2**24 + 1]
D_INS = [0, 1, 2, 3, 4]
#: sizes whose datasets are materialised (the larger ones only record maps)
DATASET_SIZES = {1, 2, 3, 7, 10, 100, 1000}


def f32(value: float) -> float:
    return float(np.float32(value))


def bounds_grid(T: str) -> list[tuple[float, float]]:
    cast = f32 if T == "f32" else float
    largest = float(np.finfo(np.float32 if T == "f32" else np.float64).max)
    pairs = [
        (0.0, 10.0),
        (-10.0, 10.0),
        (-10.0, 0.0),
        (-1.0, 5.0),
        (-2.5, 7.25),
        (3.0, 3.0),
        (0.0, 0.0),
        (0.0, 1.0),
        (cast(0.1), cast(0.7)),
        (-cast(1e-30), cast(1e-20)),
        (cast(2.0**-140), cast(2.0**-130)),
        (-cast(1e30), cast(1e25)),
        (cast(-largest / 4), cast(largest / 8)),
        (0.0, cast(largest / 2**30)),
        (-largest, largest),
    ]
    if T == "f64":
        pairs += [(-1e-300, 1e-300), (5e-324, 1e-320), (0.0, 1e300), (-1e300, 1e290)]
    return pairs


def dataset(bounds, length: int, T: str, variant: int) -> list[float]:
    """A deterministic dataset within bounds: all lower (variant 0), all upper (1), or the
    bounds every 5th and 7th record and the rest spread by an inline LCG (2).  The tests
    rebuild the same data from ``(bounds, length, T, variant)``."""
    lower, upper = bounds
    if variant == 0:
        return [lower] * length
    if variant == 1:
        return [upper] * length
    cast = f32 if T == "f32" else float
    state = 4242 + length
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


def describe_error(error: Exception) -> str:
    variant = getattr(error, "variant", type(error).__name__)
    message = getattr(error, "message", str(error)) or ""
    return f"{variant}: {message.strip().splitlines()[0] if message.strip() else ''}"[:200]


def run(dp, T: str, metric: str, size: int, bounds) -> dict:
    entry = {"T": T, "metric": metric, "size": size, "bounds": [b.hex() for b in bounds]}
    domain = dp.vector_domain(dp.atom_domain(bounds=bounds, T=T), size=size)
    try:
        built = dp.t.make_mean(domain, getattr(dp, metric)())
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
    means = []
    if size in DATASET_SIZES:
        for variant in (0, 1, 2):
            data = dataset(bounds, size, T, variant)
            try:
                means.append([variant, float(built(data)).hex()])
            except Exception as error:  # noqa: BLE001
                means.append([variant, "error: " + describe_error(error)])
    entry["means"] = means
    return entry


def main() -> None:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    entries = [
        run(dp, T, metric, size, bounds)
        for T in TYPES
        for metric in METRICS
        for size in SIZES
        for bounds in bounds_grid(T)
    ]
    document = {
        "generator": "tests/mean/generate_opendp_mean_reference.py",
        "opendp_version": importlib.metadata.version("opendp"),
        "entries": entries,
    }
    OUTPUT.write_text(json.dumps(document, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(entries)} entries to {OUTPUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
