"""Benchmark the Gaussian mechanism (zCDP): a vector of 10^5 elements (f64 and i32) and one
f64 scalar, beside OpenDP 0.16 when it is installed (the shared code is
``_noise_release.py``).

Run: ``python benchmarks/bench_gaussian.py`` (``make bench``).
"""

from __future__ import annotations

import _noise_release

#: Why a scalar release is not faster (profiled in session 12: ~70 % of one release is the
#: split sampler's draw and ~20 % split_to_floats' vector rounding, NumPy calls on arrays of
#: one element; argument admission and the environment probe ~10 %).  Rounding one split
#: draw through split_to_integers and grid_point_to_float (the same law) would save some of
#: it, but is a new case of the proof of discrete_gaussian_z2k.tex: not done yet.
WHY_SCALAR = "the vectorised split sampler's per-call NumPy work dominates one draw"

if __name__ == "__main__":
    _noise_release.run("make_gaussian", "l2_distance", WHY_SCALAR)
