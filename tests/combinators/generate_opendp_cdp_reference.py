"""Regenerate ``opendp_cdp_reference.json``: OpenDP 0.16's zCDP -> approximate-DP profile,
``delta(epsilon)``, for a fixed ``rho``, on both sides of the edge where the bound's exponent
leaves the f64 range (issue 18: certdp returned 1.0 there, OpenDP 5e-324).

Run with an interpreter that has OpenDP 0.16 installed (certdp never imports it)::

    /work/main/.venv/bin/pip install opendp==0.16.0
    python tests/combinators/generate_opendp_cdp_reference.py

Each case records ``rho``, ``epsilon`` and OpenDP's ``delta`` (``float.hex``), or the error
variant when OpenDP refuses (an overflow of its intermediate values).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import opendp.prelude as dp

dp.enable_features("contrib", "honest-but-curious")

OUTPUT = Path(__file__).with_name("opendp_cdp_reference.json")

#: For each rho, floats around the edge where the exponent (a - 1)(a rho - epsilon) first leaves
#: the f64 range (found by bisection on certdp before the fix, where delta jumped to 1.0).
EDGES = {
    0.5: 1.8961503816218355e154,
    2.0: 3.792300763243671e154,
    1e-10: 2.6815615859885196e149,
    1e10: 2.68156158598852e159,
    1e-300: 26815.615859885198,
}


#: Inputs at which flipping one directed operation of cdp_delta changes its last bit without
#: going below the exact bound at its order (tests/rounding/test_directed_flips.py pins those
#: operations to OpenDP's value there).
FLIP_INPUTS = [
    (9.085078154510977e-34, 0.0),
    (5.1522677766576605e-254, 5.604612832792152e-127),
]


def epsilons(edge: float) -> list[float]:
    around = [edge]
    low = high = edge
    for _ in range(3):
        low, high = math.nextafter(low, 0.0), math.nextafter(high, math.inf)
        around += [low, high]
    decades = [edge * 10.0**k for k in range(-6, 7) if math.isfinite(edge * 10.0**k)]
    return sorted(set(around + decades + [1.0, 30.0, 1e100, 1e300, 1.7976931348623157e308]))


def profile(rho: float):
    measurement = dp.m.make_user_measurement(
        dp.atom_domain(T=float, nan=False),
        dp.absolute_distance(T=float),
        dp.zero_concentrated_divergence(),
        lambda x: x,
        lambda d_in: rho,
    )
    return dp.c.make_zCDP_to_approxDP(measurement).map(1.0)


def main() -> None:
    cases = []
    for rho, edge in EDGES.items():
        curve = profile(rho)
        for epsilon in epsilons(edge):
            case = {"rho": rho.hex(), "epsilon": epsilon.hex()}
            try:
                case["delta"] = curve.delta(epsilon).hex()
            except dp.OpenDPException as error:
                case["error"] = error.variant
            cases.append(case)
    for rho, epsilon in FLIP_INPUTS:
        cases.append(
            {"rho": rho.hex(), "epsilon": epsilon.hex(), "delta": profile(rho).delta(epsilon).hex()}
        )
    OUTPUT.write_text(json.dumps({"opendp": "0.16.0", "cases": cases}, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {OUTPUT}")


if __name__ == "__main__":
    main()
