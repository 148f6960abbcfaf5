"""What the odometer and filter tests share: the space, OpenDP's recorded reference values,
the measures by query kind, and the queries themselves."""

import json
from pathlib import Path

import certdp.prelude as dp

SPACE = (dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64"))
REFERENCE = json.loads(
    Path(__file__).with_name("opendp_odometer_reference.json").read_text(encoding="utf-8")
)
MEASURES = {
    "laplace": dp.max_divergence(),
    "gaussian": dp.zero_concentrated_divergence(),
    "fixed": dp.approximate(dp.max_divergence()),
    "approxzcdp": dp.approximate(dp.zero_concentrated_divergence()),
}


def query(kind, scale):
    if kind == "laplace":
        return dp.m.make_laplace(*SPACE, scale)
    if kind == "gaussian":
        return dp.m.make_gaussian(*SPACE, scale)
    if kind == "approxzcdp":
        return dp.c.make_approximate(dp.m.make_gaussian(*SPACE, scale))
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*SPACE, scale)), 1e-6)


def unhex(value):
    return tuple(unhex(v) for v in value) if isinstance(value, list) else float.fromhex(value)
