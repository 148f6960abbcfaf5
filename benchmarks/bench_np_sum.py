"""Benchmark: ``make_np_sum`` on a 10**6 x 10 array beside a bare ``arr.sum(axis=0)``.

Prints one row per configuration: the best and median wall time of ``--repeats`` runs, and
the ratio of the best time to the best time of ``arr.sum(axis=0)`` on an array of the same
dtype.  Contracts
are off (the default).  ``invoke`` includes the exact membership check of the input domain
(the row-norm test) and the proven column sum; the two are also timed alone.

    python benchmarks/bench_np_sum.py [--rows N] [--columns K] [--repeats R]
"""

from __future__ import annotations

import _timing
import numpy as np

import certdp.prelude as dp
from certdp.numpy._support.column_sum import column_sum


def main() -> None:
    n, k, repeats = _timing.array_options(__doc__, 10**6, 10, 15)
    dp.enable_features("contrib")  # the gate refuses a proof change until it is re-vetted

    rng = np.random.default_rng(0)
    data = rng.standard_normal((n, k))  # row norms ~ sqrt(k): well inside norm 100
    origin = np.linspace(-3.0, 3.0, k)
    shifted = data + origin
    data32 = data.astype(np.float32)

    def sum_of(domain):
        return dp.numpy.make_np_sum(domain, dp.symmetric_distance())

    # (name, function, the bare sum it is compared with)
    cases = [
        ("bare arr.sum(axis=0), f64", lambda: data.sum(axis=0), "f64"),
        ("bare arr.sum(axis=0), f32", lambda: data32.sum(axis=0), "f32"),
        ("column_sum alone, f64", lambda: column_sum(data, np.float64), "f64"),
    ]
    configurations = [
        ("p=2, origin 0, unknown size", dict(norm=100.0, p=2, num_columns=k), data),
        ("p=2, origin 0, known size", dict(norm=100.0, p=2, num_columns=k, size=n), data),
        ("p=1, origin 0, unknown size", dict(norm=100.0, p=1, num_columns=k), data),
        ("p=2, vector origin", dict(norm=100.0, p=2, origin=origin), shifted),
        ("p=1, vector origin", dict(norm=100.0, p=1, origin=origin), shifted),
        ("p=2, origin 0, f32", dict(norm=100.0, p=2, num_columns=k, T="f32"), data32),
    ]
    for name, kwargs, array in configurations:
        domain = dp.numpy.array2_domain(**kwargs)
        transformation = sum_of(domain)
        assert domain.member(array)
        T = domain.T.name
        cases.append((f"membership, {name}", lambda d=domain, a=array: d.member(a), T))
        cases.append((f"invoke, {name}", lambda t=transformation, a=array: t(a), T))

    print(f"make_np_sum on a {n} x {k} array ({repeats} runs each, contracts off)")
    print(_timing.load())
    print("target: none set by an issue (informational: the ratio to the bare NumPy sum)")
    print(f"{'case':<46} {'best ms':>9} {'median ms':>10} {'best / bare':>12}")
    bare = {}
    for name, function, T in cases:
        function()  # warm up
        best, median = _timing.best_and_median(function, repeats)
        bare.setdefault(T, best)
        print(f"{name:<46} {best * 1e3:>9.2f} {median * 1e3:>10.2f} {best / bare[T]:>12.3f}")


if __name__ == "__main__":
    main()
