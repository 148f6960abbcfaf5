"""Benchmark the outward-rounded exponential and logarithms (numeric/elementary) and the zCDP ->
approximate-DP curve built on them (cdp_delta), beside OpenDP 0.16's curve when it can be
imported (certdp never imports it otherwise).

Run: ``python benchmarks/bench_elementary.py``.  Times are the best of ``REPEATS`` passes over
``CALLS`` calls, in microseconds per call.  Target: cdp_delta no slower than OpenDP's curve.
"""

from __future__ import annotations

import time

import _timing

from certdp.combinators._conversion import cdp_delta
from certdp.numeric import inf_exp, inf_ln_1p, inf_log2

CALLS = 200
REPEATS = 5
EPSILONS = [1.0 + i * 1e-3 for i in range(CALLS)]


def per_call(function, arguments) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        for argument in arguments:
            function(argument)
        best = min(best, (time.perf_counter() - start) / len(arguments))
    return best * 1e6


def opendp_curve():
    odp = _timing.opendp()
    if odp is None:
        return None
    odp.enable_features("honest-but-curious")
    measurement = odp.m.make_user_measurement(
        odp.atom_domain(T=float, nan=False),
        odp.absolute_distance(T=float),
        odp.zero_concentrated_divergence(),
        lambda x: x,
        lambda d_in: 0.5,
    )
    return odp.c.make_zCDP_to_approxDP(measurement).map(1.0)


def main() -> None:
    rows = [
        ("inf_exp(0.5)", per_call(inf_exp, [0.5] * CALLS)),
        ("inf_exp(-700)", per_call(inf_exp, [-700.0] * CALLS)),
        ("inf_exp(2.7e-82)", per_call(inf_exp, [2.703422818511513e-82] * CALLS)),
        ("inf_ln_1p(-0.3)", per_call(inf_ln_1p, [-0.3] * CALLS)),
        ("inf_ln_1p(-1e-300)", per_call(inf_ln_1p, [-1e-300] * CALLS)),
        ("inf_log2(0.1)", per_call(inf_log2, [0.1] * CALLS)),
        ("cdp_delta(0.5, eps)", per_call(lambda e: cdp_delta(0.5, e), EPSILONS)),
    ]
    curve = opendp_curve()
    opendp = per_call(curve.delta, EPSILONS) if curve is not None else None
    print(f"{'operation':<24} {'certdp us':>10} {'OpenDP us':>10}")
    for name, micro in rows:
        other = f"{opendp:10.1f}" if name.startswith("cdp_delta") and opendp else f"{'':>10}"
        print(f"{name:<24} {micro:10.1f} {other}")
    _timing.target(
        "cdp_delta per epsilon",
        rows[-1][1],
        opendp,
        1.0,
        "outward-rounded Python floats against OpenDP's Rust",
    )


if __name__ == "__main__":
    main()
