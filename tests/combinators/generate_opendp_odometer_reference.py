"""Regenerate ``opendp_odometer_reference.json``: OpenDP 0.16's odometer and privacy filter on
fixed query sequences (Laplace under pure DP, Gaussian under zCDP, a fixed-delta Gaussian under
Approximate(MaxDivergence), a Gaussian under Approximate(ZeroConcentratedDivergence)).

Run with an interpreter that has OpenDP 0.16 installed (certdp never imports it)::

    python tests/combinators/generate_opendp_odometer_reference.py

Odometer cases record, after each answered query, ``privacy_loss(d_in)`` at several ``d_in``
(``float.hex``). Filter cases record the filter's map at ``d_in`` values up to its own, and for
each query in order whether OpenDP answered it and ``privacy_loss(d_in)`` afterwards; they stop
at the first refusal (OpenDP then refuses everything, certdp keeps answering queries that fit).
"""

from __future__ import annotations

import json
from pathlib import Path

import opendp.prelude as dp

dp.enable_features("contrib")

OUTPUT = Path(__file__).with_name("opendp_odometer_reference.json")
SPACE = (dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float))
D_INS = [0.0, 0.5, 1.0, 2.0, 3.0]


def query(kind, scale):
    if kind == "laplace":
        return dp.m.make_laplace(*SPACE, scale=scale)
    if kind == "gaussian":
        return dp.m.make_gaussian(*SPACE, scale=scale)
    if kind == "approxzcdp":  # a Gaussian under Approximate(zCDP): loss (rho, 0)
        return dp.c.make_approximate(dp.m.make_gaussian(*SPACE, scale=scale))
    zcdp = dp.m.make_gaussian(*SPACE, scale=scale)  # "fixed": Gaussian, delta 1e-6
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(zcdp), 1e-6)


MEASURES = {
    "laplace": dp.max_divergence(),
    "gaussian": dp.zero_concentrated_divergence(),
    "fixed": dp.approximate(dp.max_divergence()),
    "approxzcdp": dp.approximate(dp.zero_concentrated_divergence()),
}


def hexed(value):
    return [hexed(v) for v in value] if isinstance(value, tuple) else float(value).hex()


ODOMETER_CASES = [
    ("laplace", [3.0, 7.0, 0.5, 1e-3, 10.0, 3.0]),
    ("laplace", [0.1, 0.2, 0.3]),
    ("gaussian", [1.0, 2.0, 3.0, 0.7, 11.0]),
    ("fixed", [1.0, 2.0, 5.0]),
]

FILTER_CASES = [
    ("laplace", 1.0, 1.0, [3.0, 3.0, 3.0, 3.0]),
    ("laplace", 1.0, 1.0, [1.0, 1e300]),
    ("laplace", 2.0, 1.0, [4.0, 4.0, 8.0, 8.0, 0.5]),
    ("laplace", 0.5, 0.75, [1.0, 2.0, 4.0, 4.0]),
    ("gaussian", 1.0, 0.5, [2.0, 2.0, 2.0, 2.0]),
    ("gaussian", 1.0, 1.0, [1.0, 100.0]),
    ("fixed", 1.0, (3.0, 3e-6), [2.0, 2.0, 2.0, 2.0]),
    ("approxzcdp", 1.0, (0.5, 1e-6), [2.0, 2.0, 2.0, 2.0]),
    ("approxzcdp", 2.0, (1.0, 0.0), [3.0, 7.0, 1.5, 1.5]),
]


def main() -> None:
    odometers = []
    for kind, scales in ODOMETER_CASES:
        odometer = dp.c.make_fully_adaptive_composition(*SPACE, MEASURES[kind])
        queryable = odometer(0.0)
        steps = []
        for scale in scales:
            queryable(query(kind, scale))
            steps.append({str(d): hexed(queryable.privacy_loss(d)) for d in D_INS})
        odometers.append({"kind": kind, "scales": scales, "losses": steps})
    filters = []
    for kind, d_in, d_out, scales in FILTER_CASES:
        odometer = dp.c.make_fully_adaptive_composition(*SPACE, MEASURES[kind])
        meas = dp.c.make_privacy_filter(odometer, d_in=d_in, d_out=d_out)
        maps = {str(d): hexed(meas.map(d)) for d in D_INS if d <= d_in}
        queryable = meas(0.0)
        steps = []
        for scale in scales:
            try:
                queryable(query(kind, scale))
            except dp.OpenDPException as error:
                steps.append({"answered": False, "variant": error.variant})
                break
            steps.append({"answered": True, "loss": hexed(queryable.privacy_loss(d_in))})
        filters.append(
            {
                "kind": kind,
                "d_in": d_in,
                "d_out": list(d_out) if isinstance(d_out, tuple) else d_out,
                "scales": scales,
                "maps": maps,
                "steps": steps,
            }
        )
    OUTPUT.write_text(
        json.dumps({"opendp": dp.__version__, "odometers": odometers, "filters": filters}, indent=1)
        + "\n"
    )


if __name__ == "__main__":
    main()
