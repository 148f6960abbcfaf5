"""Regenerate ``opendp_reference.json``: OpenDP 0.16's make_gaussian and the zCDP/approx-DP
combinators on a grid of cases.

Run with an interpreter that has OpenDP 0.16 installed (certdp never imports it)::

    python3 -m venv /tmp/odp-g && /tmp/odp-g/bin/pip install opendp==0.16.0
    /tmp/odp-g/bin/python tests/gaussian/generate_opendp_reference.py

Each case records the arguments and what OpenDP did: map values (``float.hex`` for
exactness), the error variant, or -- for ``scale = 0``, where the release is deterministic
-- the released value.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import opendp.prelude as dp

dp.enable_features("contrib")

OUTPUT = Path(__file__).with_name("opendp_reference.json")
K_MIN = {"f64": -1074, "f32": -149}
DELTAS = [1e-3, 1e-6, 1e-9, 1e-12, 0.5]
EPSILONS = [0.0, 0.01, 0.5, 1.0, 2.4190931768671953, 5.0, 20.0]


def encode(value):
    if isinstance(value, float):
        return {"float": value.hex(), "repr": repr(value)}
    if isinstance(value, (list, tuple)):
        return [encode(item) for item in value]
    return value


def _variant(error) -> str:
    match = re.search(r"([A-Za-z]+)\(\"", str(error))
    return match.group(1) if match else type(error).__name__


def space(shape, T, size):
    atom = dp.atom_domain(T=T, nan=False) if T.startswith("f") else dp.atom_domain(T=T)
    if shape == "atom":
        return atom, dp.absolute_distance(T=T)
    return dp.vector_domain(atom, size=size), dp.l2_distance(T=T)


def run(case):
    shape, T, size, scale, k = (case[key] for key in ("shape", "T", "size", "scale", "k"))
    record = {key: value for key, value in case.items() if key != "d_ins"}
    record["scale"] = encode(scale)
    try:
        measurement = dp.m.make_gaussian(*space(shape, T, size), scale, k=k)
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


def cases():
    float_scales = [0.0, 0.1, 0.5, 1.0, 2.0, 3.0, 1e-3, 123.456, 1e300]
    float_ks = [None, "min", "min+1", -100, -10, 0, 5]
    d_ins = {"f64": [0.0, 0.5, 1.0, 2.0, 1e-300, 1e300], "f32": [0.0, 0.5, 1.0, 2.0]}
    for T, shape, size, scale, k in itertools.product(
        ["f64", "f32"], ["atom", "vector"], [None, 3, 10], float_scales, float_ks
    ):
        if shape == "atom" and size is not None:
            continue
        if T == "f32" and scale == 1e300:
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
    yield {"shape": "atom", "T": "f64", "size": None, "scale": 1.0, "k": -1075, "d_ins": [1.0]}
    yield {"shape": "vector", "T": "f64", "size": None, "scale": 1.0, "k": -10, "d_ins": [1.0]}
    yield {"shape": "atom", "T": "i32", "size": None, "scale": 1.0, "k": 3, "d_ins": [1]}
    for T, k, value in [
        ("f64", None, 1.5),
        ("f64", -10, 0.3),
        ("f64", 2, 6.0),
        ("f64", 0, -0.5),
        ("f32", -3, 0.1875),
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
        "release_input": [-0.25, 0.3],
    }
    for T, value in [("i32", 7), ("i32", -2147483648)]:
        yield {
            "shape": "atom",
            "T": T,
            "size": None,
            "scale": 0.0,
            "k": None,
            "d_ins": [0],
            "release_input": value,
        }


def conversions():
    """zCDP -> approximate DP of Gaussians, and pure DP -> zCDP of Laplaces."""
    records = []
    for T, scale, d_in in itertools.product(["f64", "i32"], [0.5, 1.0, 2.0, 10.0], [1, 2]):
        d_in = float(d_in) if T == "f64" else d_in
        gaussian = dp.m.make_gaussian(*space("vector", T, None), scale)
        profile = dp.c.make_zCDP_to_approxDP(gaussian)
        curve = profile.map(d_in)
        record = {
            "T": T,
            "scale": encode(scale),
            "d_in": encode(d_in),
            "rho": encode(gaussian.map(d_in)),
            "deltas": [encode(curve.delta(e)) for e in EPSILONS],
            "epsilons": [encode(curve.epsilon(d)) for d in DELTAS],
            "fixed": [encode(dp.c.make_fix_delta(profile, d).map(d_in)) for d in DELTAS],
        }
        records.append(record)
    pure = []
    for scale, d_in in itertools.product([0.5, 1.0, 3.0, 0.1], [1.0, 2.0, 0.3]):
        laplace = dp.m.make_laplace(*space("atom", "f64", None), scale)
        pure.append(
            {
                "scale": encode(scale),
                "d_in": encode(d_in),
                "rho": encode(dp.c.make_pureDP_to_zCDP(laplace).map(d_in)),
            }
        )
    return records, pure


def compositions():
    """make_composition of Gaussians (zCDP) and of Laplaces (pure DP)."""
    records = []
    for measure, scales in [
        ("zCDP", [1.0, 2.0, 3.0]),
        ("pure", [1.0, 0.3, 7.0]),
        ("zCDP", [0.7, 0.1]),
        ("pure", [0.1, 0.1, 0.1]),
    ]:
        make = dp.m.make_gaussian if measure == "zCDP" else dp.m.make_laplace
        parts = [make(*space("atom", "f64", None), s) for s in scales]
        composed = dp.c.make_composition(parts)
        records.append(
            {
                "measure": measure,
                "scales": [encode(s) for s in scales],
                "maps": [[encode(d), encode(composed.map(d))] for d in [0.5, 1.0, 3.0]],
                "release_input": encode(1.0),
            }
        )
    return records


def make_search_chain(name, parameter):
    """The chains searched by the tests; the same definitions are rebuilt in certdp."""
    atom = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    vector = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
    if name == "laplace-scale":
        return dp.m.make_laplace(*atom, parameter)
    if name == "gaussian-scale-zcdp":
        return dp.m.make_gaussian(*vector, parameter)
    if name == "gaussian-scale-approx":
        return dp.c.make_fix_delta(
            dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*vector, parameter)), 1e-6
        )
    if name == "integer-gaussian-scale":
        return dp.m.make_gaussian(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), parameter)
    raise ValueError(name)


SEARCHES = [
    ("laplace-scale", 0.1, 1.0),
    ("laplace-scale", 1, 0.3),
    ("gaussian-scale-zcdp", 1.0, 0.125),
    ("gaussian-scale-zcdp", 3.0, 0.01),
    ("gaussian-scale-approx", 1.0, (1.0, 1e-6)),
    ("gaussian-scale-approx", 2.0, (0.5, 1e-6)),
    ("integer-gaussian-scale", 1, 0.1),
]


def searches():
    records = []
    for name, d_in, d_out in SEARCHES:
        found = dp.binary_search_param(
            lambda parameter, name=name: make_search_chain(name, parameter), d_in, d_out
        )
        records.append(
            {"chain": name, "d_in": encode(d_in), "d_out": encode(d_out), "found": encode(found)}
        )
    return records


#: ``space >> then_sum() >> then_gaussian(scale)`` over these bounded domains.
CHAINS = [
    ((0.0, 10.0), 4, 1.0),
    ((0.0, 10.0), None, 3.0),
    ((-5.0, 5.0), 100, 0.5),
    ((0, 10), None, 2.0),
    ((-3, 7), 5, 1.0),
]


def chains():
    records = []
    for bounds, size, scale in CHAINS:
        space = dp.vector_domain(dp.atom_domain(bounds=bounds), size=size), dp.symmetric_distance()
        measurement = space >> dp.t.then_sum() >> dp.m.then_gaussian(scale)
        records.append(
            {
                "bounds": encode(list(bounds)),
                "size": size,
                "scale": encode(scale),
                "maps": [[d, encode(measurement.map(d))] for d in [0, 1, 2, 5]],
            }
        )
    return records


def main():
    conversion, pure = conversions()
    OUTPUT.write_text(
        json.dumps(
            {
                "opendp": dp.__version__ if hasattr(dp, "__version__") else "0.16.0",
                "cases": [run(case) for case in cases()],
                "conversions": conversion,
                "pure_to_zcdp": pure,
                "compositions": compositions(),
                "searches": searches(),
                "chains": chains(),
            },
            indent=None,
            separators=(",", ":"),
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
