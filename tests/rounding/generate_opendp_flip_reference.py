"""Regenerate ``opendp_flip_reference.json``: OpenDP 0.16's make_mean map at the inputs where
flipping one of make_mean's directed operations (the bounds' sums, the largest output ``w``)
changes certdp's map without making it unsafe (test_directed_flips.py pins those directions
to OpenDP's value).

Run with an interpreter that has OpenDP 0.16 installed (certdp never imports it)::

    python tests/rounding/generate_opendp_flip_reference.py
"""

from __future__ import annotations

import json
from pathlib import Path

import opendp.prelude as dp

dp.enable_features("contrib")

OUTPUT = Path(__file__).with_name("opendp_flip_reference.json")
#: (lower, upper, size, d_in) of f64 means.
MEANS = [
    (0.0, 0.9999999999999999, 3, 2),
    (-0.9999999999999999, 0.0, 3, 2),
    (0.0, 1.0, 3, 2),
]


def main() -> None:
    means = []
    for lower, upper, size, d_in in MEANS:
        domain = dp.vector_domain(dp.atom_domain(bounds=(lower, upper)), size=size)
        value = dp.t.make_mean(domain, dp.symmetric_distance()).map(d_in)
        means.append(
            {"bounds": [lower.hex(), upper.hex()], "size": size, "d_in": d_in, "map": value.hex()}
        )
    OUTPUT.write_text(json.dumps({"opendp": "0.16.0", "means": means}, indent=1) + "\n")
    print(f"wrote {len(means)} means to {OUTPUT}")


if __name__ == "__main__":
    main()
