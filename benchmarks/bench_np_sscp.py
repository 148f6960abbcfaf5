"""Benchmark: ``make_np_sscp`` beside a bare ``x.T @ x`` (and OpenDP 0.16's, if installed).

certdp sums the products row after row in one fixed order (``sscp_matrix``), with NumPy
elementwise operations on blocks of rows; ``x.T @ x`` lets BLAS choose its order.  Prints one
row per case: the best and median wall time of ``--repeats`` runs and the ratio of the best
time to that of the bare ``x.T @ x`` of the same dtype.  Contracts are off (the default);
``invoke`` includes the input domain's membership check.

    python benchmarks/bench_np_sscp.py [--rows N] [--columns K] [--repeats R]
"""

from __future__ import annotations

import _timing
import numpy as np

import certdp.prelude as dp
from certdp.numpy.sscp_domain import sscp_matrix


def opendp_case(data, T: str):
    """OpenDP 0.16's make_np_sscp on the same data, or None when OpenDP is not installed."""
    try:
        import opendp.prelude as odp
        from opendp.extras.numpy._make_np_sscp import make_np_sscp
    except ImportError:
        return None
    odp.enable_features("contrib", "idealized-numerics")
    domain = odp.numpy.array2_domain(num_columns=data.shape[1], nan=False, T=T)
    built = make_np_sscp(domain, odp.symmetric_distance())
    return lambda: built(data)


def main() -> None:
    n, k, repeats = _timing.array_options(__doc__, 10**5, 10, 7)
    dp.enable_features("contrib")  # in case the proof is not vetted in this checkout

    rng = np.random.default_rng(0)
    rows = {"f64": rng.standard_normal((n, k))}
    rows["f32"] = rows["f64"].astype(np.float32)
    print(f"{n} rows x {k} columns, best / median of {repeats} runs; {_timing.load()}")
    print(f"{'case':<42} {'best s':>10} {'median s':>10} {'x bare':>8}")
    for T, data in rows.items():
        bare, _ = _timing.best_and_median(lambda data=data: data.T @ data, repeats)
        domain = dp.numpy.array2_domain(num_columns=k, nan=False, T=T)
        built = dp.numpy.make_np_sscp(domain, dp.symmetric_distance())
        cases = [
            (f"bare x.T @ x, {T}", lambda data=data: data.T @ data),
            (f"sscp_matrix alone, {T}", lambda data=data: sscp_matrix(data)),
            (f"certdp make_np_sscp invoke, {T}", lambda data=data, built=built: built(data)),
        ]
        theirs = opendp_case(data, T)
        if theirs is not None:
            cases.append((f"OpenDP 0.16 make_np_sscp invoke, {T}", theirs))
        bests = []
        for name, function in cases:
            best, median = _timing.best_and_median(function, repeats)
            bests.append(best)
            print(f"{name:<42} {best:>10.4f} {median:>10.4f} {best / bare:>8.1f}")
        _timing.target(
            f"make_np_sscp invoke, {T}",
            bests[2],
            bests[3] if theirs is not None else None,
            1.0,
            "a fixed summation order, row block after row block; OpenDP (idealized-numerics) calls BLAS",
        )


if __name__ == "__main__":
    main()
