"""Search for a transformation whose output metric is read in record space (``make_np_sscp``).

Such a transformation returns a summary (the matrix ``X^T X``), and two summaries are
``d``-close when they are the function's values on datasets that are ``d``-close: the pair of
inputs is the witness, and the distance between the two outputs is not a function of the
outputs alone.  So the pair search of :mod:`.search` (which measures the outputs with the output
metric) does not apply.  What can be checked on the target's own function, pair by pair, is:

* that both outputs are members of the target's own output domain and of certdp's twin's
  (an output outside one is reported, as the pair search reports it);
* that the target's map is at least the input distance of the pair, the witnessed distance.

Besides the boundary pairs of :mod:`.pairs`, the search tries rows that stress a summary's
output domain: the largest finite value (whose square overflows), an infinite entry (where the
input domain admits one), and rows whose rounded products are known to give a matrix with a
negative eigenvalue (``[1/3, 2/3, 0.7]`` in f64, ``[0.5118216..., 0.9504637...]`` in f32), as they
are and halved (to fit a norm ball).
"""

from __future__ import annotations

import time

import numpy as np

from .grids import SEARCH_SIZE_LIMIT
from .pairs import boundary_pairs
from .search import Counterexample, SearchResult, _target_member, outside

__all__ = ["search_record_space"]

#: Boundary pairs tried per point at most.
PAIRS, QUICK_PAIRS = 400, 100


_ROUNDING_ROWS = ([1 / 3, 2 / 3, 0.7], [0.5118216276168823, 0.9504637122154236])


def stress_pairs(domain):
    """Arrays of one stress row repeated (the domain's size, or once) and the same with one row
    replaced by zeros (sized) or removed (unsized); only pairs of members of ``domain``."""
    width = getattr(domain, "num_columns", None)
    if width is None or width == 0:
        return
    dtype = domain.dtype
    largest = float(np.finfo(dtype).max) if dtype.kind == "f" else None
    rows = [] if largest is None else [[largest] * width, [np.inf] + [0.0] * (width - 1)]
    for row in _ROUNDING_ROWS:
        fitted = (list(row) + [0.0] * width)[:width]
        rows += [fitted, [v / 2 for v in fitted]]
    n = domain.size if domain.size is not None else 1
    for row in rows:
        with np.errstate(over="ignore"):
            r = np.array(row, dtype=np.float64).astype(dtype)
        x = np.array([r] * n, dtype=dtype).reshape(n, width)
        x_prime = x.copy()
        if domain.size is not None:
            if n:
                x_prime[-1] = 0
        else:
            x_prime = x[:0]
        if domain.member(x) and domain.member(x_prime):
            yield x, x_prime


def search_record_space(built, space, quick: bool, oracle=None) -> SearchResult:
    """Boundary pairs of ``space``; the first pair whose witnessed distance exceeds the
    target's map, else the first output outside an output domain (in ``found``)."""
    domain, in_metric = space
    result = SearchResult()
    start = time.perf_counter()
    budget = QUICK_PAIRS if quick else PAIRS
    pairs = list(stress_pairs(domain)) + list(boundary_pairs(domain, SEARCH_SIZE_LIMIT, quick))
    for x, x_prime in pairs:
        if result.pairs >= budget:
            break
        result.pairs += 1
        try:
            outputs = [built(x), built(x_prime)]
        except Exception:
            continue  # the target refuses the data: no output, no claim to test
        for z, y in zip((x, x_prime), outputs):
            where = outside(built, oracle, y)
            if where and result.escape is None and _target_member(built, z):
                result.escape = Counterexample(z, z, 0, "", repr(y), outside=where)
        d_in = in_metric.distance(x, x_prime)
        try:
            claimed = built.map(d_in)
        except Exception:
            continue  # the target refuses the distance: no claim to test
        if claimed < d_in and _target_member(built, x) and _target_member(built, x_prime):
            result.found = Counterexample(x, x_prime, d_in, claimed, d_in)
            break
    if result.found is None:
        result.found = result.escape
    result.seconds = time.perf_counter() - start
    return result
