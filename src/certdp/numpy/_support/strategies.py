"""Hypothesis strategies for members of ``array2_domain`` and for neighbouring arrays.

Rows of a bounded domain are drawn on the sphere ``||r - O||_p = R`` (exactly, when the
axis points ``O +- R e_j`` are values of ``T``), just inside it, or anywhere in the ball;
every drawn row is checked exactly and moved towards the origin one unit in the last place
at a time until it is inside.  Importing this module registers the neighbour strategy with
:func:`certdp.contracts.neighbours.neighbours`.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from certdp.contracts.neighbours import register_neighbours
from certdp.core.metrics import InsertDeleteDistance
from certdp.numpy.array2_domain import NPArray2Domain

__all__ = ["rows", "arrays", "array_pairs"]

_WIDTH = {"f32": 32, "f64": 64}
_NUDGES = 64


def _toward(row: np.ndarray, target: np.ndarray) -> np.ndarray:
    return np.nextafter(row, target)


@st.composite
def _ball_row(draw, domain: NPArray2Domain, k: int) -> np.ndarray:
    dtype, radius, p = domain.dtype, domain.norm, domain.p
    center = domain.origin_vector(k)
    center_T = center.astype(dtype)
    kind = draw(st.sampled_from(["axis", "sphere", "sphere", "inside", "origin"]))
    if kind == "origin" or radius == 0 or k == 0:
        row = center_T.copy()
    else:
        if kind == "axis":
            direction = np.zeros(k)
            direction[draw(st.integers(0, k - 1))] = draw(st.sampled_from([-1.0, 1.0]))
        else:
            direction = np.array([draw(st.floats(-1, 1, allow_subnormal=False)) for _ in range(k)])
            if not direction.any():
                direction[0] = 1.0
            direction /= np.abs(direction).max()  # no underflow in the norm below
        length = np.abs(direction).sum() if p == 1 else np.sqrt((direction * direction).sum())
        fraction = 1.0 if kind != "inside" else draw(st.floats(0, 1))
        with np.errstate(over="ignore", invalid="ignore"):
            row = (center + direction * (radius * fraction / length)).astype(dtype)
    test = domain.row_test
    for _ in range(_NUDGES):
        if np.all(np.isfinite(row)) and test.exact(row):
            return row
        row = _toward(row, center_T)
    assume(False)


def _free_row(domain: NPArray2Domain, k: int) -> st.SearchStrategy:
    T = domain.T
    if T.is_float:
        entries = st.floats(allow_nan=domain.nan, allow_infinity=True, width=_WIDTH[T.name])
        special = st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e30, -1e30])
        entries = st.one_of(special, entries)
    elif T.name == "bool":
        entries = st.booleans()
    else:
        entries = st.integers(int(T.min), int(T.max))
    return st.lists(entries, min_size=k, max_size=k).map(lambda r: np.array(r, dtype=domain.dtype))


def rows(domain: NPArray2Domain, k: int) -> st.SearchStrategy:
    """Rows of ``k`` entries that may appear in a member of ``domain``."""
    if domain.norm is not None:
        return _ball_row(domain, k)
    return _free_row(domain, k)


def _stack(domain: NPArray2Domain, k: int, row_list) -> np.ndarray:
    if not row_list:
        return np.zeros((0, k), dtype=domain.dtype)
    return np.stack(row_list).astype(domain.dtype)


@st.composite
def arrays(draw, domain: NPArray2Domain, max_size: int = 12, k: int | None = None) -> np.ndarray:
    """Members of ``domain``."""
    if k is None:
        k = domain.num_columns if domain.num_columns is not None else draw(st.integers(0, 3))
    n = domain.size if domain.size is not None else draw(st.integers(0, max_size))
    return _stack(domain, k, [draw(rows(domain, k)) for _ in range(n)])


@st.composite
def array_pairs(draw, domain: NPArray2Domain, metric, d_in: int, max_size: int = 12):
    """Pairs of members of ``domain`` at most ``d_in`` row insertions and deletions apart
    (reordered too, unless ``metric`` is the insert-delete distance)."""
    k = domain.num_columns if domain.num_columns is not None else draw(st.integers(0, 3))
    new_row = rows(domain, k)
    x = [
        draw(new_row)
        for _ in range(domain.size if domain.size is not None else draw(st.integers(0, max_size)))
    ]
    x_prime = list(x)
    if domain.size is not None:
        # keeping the size, each change is one deletion and one insertion
        for _ in range(draw(st.integers(0, min(d_in // 2, len(x))))):
            del x_prime[draw(st.integers(0, len(x_prime) - 1))]
            x_prime.insert(draw(st.integers(0, len(x_prime))), draw(new_row))
    else:
        removals = draw(st.integers(0, min(d_in, len(x))))
        for _ in range(removals):
            del x_prime[draw(st.integers(0, len(x_prime) - 1))]
        for _ in range(draw(st.integers(0, d_in - removals))):
            x_prime.insert(draw(st.integers(0, len(x_prime))), draw(new_row))
    if not isinstance(metric, InsertDeleteDistance):
        x_prime = draw(st.permutations(x_prime))
    return _stack(domain, k, x), _stack(domain, k, list(x_prime))


register_neighbours(NPArray2Domain, array_pairs)
