"""Regenerate ``opendp_reference.json``: OpenDP 0.16's ``make_laplace`` on a grid of cases.

Run with an interpreter that has OpenDP 0.16 installed (certdp never imports it)::

    /tmp/odp/bin/python tests/laplace/generate_opendp_reference.py

Each case records the arguments and what OpenDP did: the map value (``float.hex``
for exactness), the error variant, or -- for ``scale = 0``, where the release is
deterministic -- the released value.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import struct
from pathlib import Path

import opendp.prelude as dp

dp.enable_features("contrib")

OUTPUT = Path(__file__).with_name("opendp_reference.json")
K_MIN = {"f64": -1074, "f32": -149}


def encode(value):
    if isinstance(value, float):
        return {"float": value.hex(), "repr": repr(value)}
    if isinstance(value, list):
        return [encode(item) for item in value]
    return value


def space(shape, T, size, bounds=None, D=None):
    """The domain and metric of a case; ``D`` is the distance type (``T`` when ``None``)."""
    D = D or T
    if T.startswith("f"):
        atom = dp.atom_domain(T=T, nan=False)
    else:
        atom = dp.atom_domain(T=T) if bounds is None else dp.atom_domain(bounds=bounds)
    if shape == "atom":
        return atom, dp.absolute_distance(T=D)
    return dp.vector_domain(atom, size=size), dp.l1_distance(T=D)


def run(case):
    shape, T, size, scale, k = (case[key] for key in ("shape", "T", "size", "scale", "k"))
    record = dict(case)
    record["scale"] = encode(scale)
    record.pop("d_ins", None)
    try:
        measurement = dp.m.make_laplace(*space(shape, T, size, D=case.get("D")), scale, k=k)
    except Exception as error:  # noqa: BLE001 -- recording what OpenDP refuses
        record["construct_error"] = _variant(error)
        return record
    record["maps"] = []
    for d_in in case["d_ins"]:
        entry = {"d_in": encode(d_in)}
        try:
            entry["map"] = encode(measurement.map(d_in))
        except Exception as error:  # noqa: BLE001
            entry["map_error"] = _variant(error)
        record["maps"].append(entry)
    if "release_input" in case:
        record["release"] = encode(measurement(case["release_input"]))
        record["release_input"] = encode(case["release_input"])
    return record


def _variant(error) -> str:
    match = re.search(r"([A-Za-z]+)\(\"", str(error))
    return match.group(1) if match else type(error).__name__


def f32(value: float) -> float:
    """The f32 value nearest to ``value``, as a Python float."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def cases():
    float_scales = [0.0, 0.1, 0.5, 1.0, 3.0, 1e-3, 123.456, 5e-324, 1e300]
    float_ks = [None, "min", "min+1", -100, -10, 0, 5]
    d_ins = {
        "f64": [0.0, 0.5, 1.0, 2.0, 1e-300, 1e300],
        "f32": [0.0, 0.5, 1.0, 2.0, f32(1e-30), f32(1e30)],
    }
    for T, shape, size, scale, k in itertools.product(
        ["f64", "f32"], ["atom", "vector"], [None, 3], float_scales, float_ks
    ):
        if shape == "atom" and size is not None:
            continue
        if T == "f32" and scale in (5e-324, 1e300):
            continue
        k_value = {"min": K_MIN[T], "min+1": K_MIN[T] + 1}.get(k, k)
        yield {
            "shape": shape,
            "T": T,
            "size": size,
            "scale": scale,
            "k": k_value,
            "d_ins": d_ins[T],
        }
    for T, shape, size, scale in itertools.product(
        ["i32", "i64", "u32"], ["atom", "vector"], [None, 4], [0.0, 0.5, 1.0, 2.0, 3.0, 1e-3]
    ):
        if shape == "atom" and size is not None:
            continue
        yield {
            "shape": shape,
            "T": T,
            "size": size,
            "scale": scale,
            "k": None,
            "d_ins": [0, 1, 3, 1000],
        }
    # integer data under a float distance type (OpenDP's make_laplace accepts i32 data with an
    # f64 distance); fractional d_in included, to record that OpenDP does not floor them
    fractional_d_ins = {
        "f64": [0.0, 0.5, 1.0, 1.5, 2.5, 3.0, 0.1, 1e300, 5e-324, 1.7976931348623157e308],
        "f32": [0.0, 0.5, 1.0, 1.5, 2.5, f32(0.1), f32(1e30), f32(1e-30)],
    }
    for T, D, shape, size, scale in itertools.product(
        ["i32", "i64", "u32"],
        ["f64", "f32"],
        ["atom", "vector"],
        [None, 4],
        [0.0, 0.5, 1.0, 3.0, 1e-3],
    ):
        if shape == "atom" and size is not None:
            continue
        yield {
            "shape": shape,
            "T": T,
            "D": D,
            "size": size,
            "scale": scale,
            "k": None,
            "d_ins": fractional_d_ins[D],
        }
    yield {"shape": "atom", "T": "i32", "D": "f64", "size": None, "scale": 1.0, "k": 3,
           "d_ins": [1.0]}  # fmt: skip
    yield {"shape": "atom", "T": "i32", "D": "f64", "size": None, "scale": 1.0, "k": None,
           "d_ins": [-1.0, math.nan, math.inf]}  # fmt: skip
    # refused arguments
    bad_d_ins = [1.0, -1.0, math.nan, math.inf]
    for scale in [-1.0, math.nan, math.inf]:
        yield {
            "shape": "atom",
            "T": "f64",
            "size": None,
            "scale": scale,
            "k": None,
            "d_ins": bad_d_ins,
        }
    yield {"shape": "atom", "T": "f64", "size": None, "scale": 1.0, "k": None, "d_ins": bad_d_ins}
    yield {"shape": "atom", "T": "f64", "size": None, "scale": 1.0, "k": -1075, "d_ins": bad_d_ins}
    yield {"shape": "atom", "T": "f32", "size": None, "scale": 1.0, "k": -150, "d_ins": bad_d_ins}
    yield {"shape": "vector", "T": "f64", "size": None, "scale": 1.0, "k": -10, "d_ins": bad_d_ins}
    yield {"shape": "atom", "T": "i32", "size": None, "scale": 1.0, "k": 3, "d_ins": [1]}
    # deterministic releases (scale 0): the grid rounding itself
    for T, k, value in [
        ("f64", None, 1.5),
        ("f64", None, -0.0),
        ("f64", -10, 0.3),
        ("f64", -10, -0.3),
        ("f64", 2, 2.0),
        ("f64", 2, -2.0),
        ("f64", 2, 6.0),
        ("f64", 0, 0.5),
        ("f64", 0, -0.5),
        ("f64", 1000, 2.0**1000 * 1.4),
        ("f64", 1000, 2.0**1000 * 1.5),
        ("f64", None, math.inf),
        ("f64", None, -math.inf),
        ("f32", None, math.inf),
        ("f32", -3, 0.1875),
        ("f32", -3, 0.0625),
    ]:
        yield {
            "shape": "atom",
            "T": T,
            "size": None,
            "scale": 0.0,
            "k": k,
            "d_ins": [0.0],
            "release_input": value,
        }
    yield {
        "shape": "vector",
        "T": "f64",
        "size": 2,
        "scale": 0.0,
        "k": -10,
        "d_ins": [0.0],
        "release_input": [-0.0, 0.3],
    }
    yield {
        "shape": "atom",
        "T": "i32",
        "D": "f64",
        "size": None,
        "scale": 0.0,
        "k": None,
        "d_ins": [0.0],
        "release_input": 123,
    }
    for T, value in [("i32", 7), ("i32", -2147483648), ("u32", 4294967295)]:
        yield {
            "shape": "atom",
            "T": T,
            "size": None,
            "scale": 0.0,
            "k": None,
            "d_ins": [0],
            "release_input": value,
        }


def chains():
    """``space >> then_sum() >> then_laplace(scale, k)``: the map of the whole chain."""
    for T, bounds, size, scale, k in [
        ("f64", (0.0, 10.0), 4, 1.0, None),
        ("f64", (0.0, 10.0), 4, 1.0, -2),
        ("f64", (0.0, 10.0), None, 1.0, None),
        ("f64", (-5.0, 5.0), 100, 0.5, None),
        ("i32", (0, 10), None, 2.0, None),
        ("i32", (-3, 7), 5, 1.0, None),
    ]:
        space = dp.vector_domain(dp.atom_domain(bounds=bounds), size=size), dp.symmetric_distance()
        measurement = space >> dp.t.then_sum() >> dp.m.then_laplace(scale, k=k)
        d_ins = [0, 1, 2, 5]
        yield {
            "T": T,
            "bounds": list(bounds),
            "size": size,
            "scale": scale,
            "k": k,
            "maps": [{"d_in": d_in, "map": encode(measurement.map(d_in))} for d_in in d_ins],
        }


def main() -> None:
    records = [run(case) for case in cases()]
    lines = ",\n".join(json.dumps(record, separators=(",", ":")) for record in records)
    chain_lines = ",\n".join(json.dumps(record, separators=(",", ":")) for record in chains())
    OUTPUT.write_text(
        f'{{"opendp": "{dp.__version__}", "cases": [\n{lines}\n],\n"chains": [\n{chain_lines}\n]}}\n'
    )
    print(f"wrote {len(records)} cases to {OUTPUT}")


if __name__ == "__main__":
    main()
