"""Benchmark the Laplace mechanism: a vector of 10^5 elements (f64 and i32) and one f64
scalar, beside OpenDP 0.16 when it is installed (the shared code is ``_noise_release.py``).

Run: ``python benchmarks/bench_laplace.py`` (``make bench``).
"""

from __future__ import annotations

import _noise_release

WHY_SCALAR = "the vectorised sampler's per-call NumPy work dominates one draw"

if __name__ == "__main__":
    _noise_release.run("make_laplace", "l1_distance", WHY_SCALAR)
