"""Regenerate ``opendp_reference.json``: OpenDP 0.16's ``make_np_sum`` maps and domain reprs.

Run with a Python that has OpenDP 0.16 installed (certdp itself never imports opendp)::

    /tmp/odp/bin/python tests/numpy/generate_opendp_reference.py

Every case is an ``array2_domain`` (with ``nan=False`` and ``num_columns``, as certdp's
``make_np_sum`` requires) and the values of OpenDP's stability map at a few ``d_in``,
written with ``repr`` so that the floats round-trip exactly (``null`` where OpenDP raises).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import opendp.prelude as dp
from opendp.extras.numpy._make_np_sum import make_np_sum

D_INS = [0, 1, 2, 3, 7, 100, 12345]

ORIGINS = {
    "none": None,
    "zero-vector": ([0.0, 0.0, 0.0], "float64"),
    "seed-example": ([1.0, -2.0, 0.5], "float64"),
    "seed-example-f32": ([1.0, -2.0, 0.5], "float32"),
    "inexact": ([0.1, -0.7, 1.3], "float64"),
    "inexact-f32": ([0.1, -0.7, 1.3], "float32"),
    "large": ([1e6, -3e5, 7.0], "float64"),
}
NORMS = [1.0, 0.7, 3, 1e-3]


def _map_value(transformation, d_in):
    """``repr`` of the map's value, or ``None`` when OpenDP fails to evaluate it (it refuses a
    float32 result for an f64 metric, e.g. with a float32 origin and T=f64)."""
    try:
        return repr(float(transformation.map(d_in)))
    except dp.OpenDPException:
        return None


def main() -> None:
    dp.enable_features("contrib", "idealized-numerics")
    cases = []
    for (_name, origin), norm, p, size, T in itertools.product(
        ORIGINS.items(), NORMS, [1, 2], [None, 10], ["f32", "f64"]
    ):
        kwargs = {"norm": norm, "p": p, "size": size, "num_columns": 3, "nan": False, "T": T}
        if origin is not None:
            kwargs["origin"] = np.array(origin[0], dtype=origin[1])
        domain = dp.numpy.array2_domain(**kwargs)
        transformation = make_np_sum(domain, dp.symmetric_distance())
        cases.append(
            {
                "origin": None if origin is None else {"values": origin[0], "dtype": origin[1]},
                "norm": norm,
                "p": p,
                "size": size,
                "num_columns": 3,
                "T": T,
                "domain_repr": str(domain),
                "map": {str(d_in): _map_value(transformation, d_in) for d_in in D_INS},
            }
        )
    path = Path(__file__).with_name("opendp_reference.json")
    path.write_text(json.dumps({"opendp": "0.16", "cases": cases}, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
