"""``make_quantiles_from_counts``: noisy counts over bins to the ``alpha``-quantiles.

Guarantee (make_quantiles_from_counts.tex): the constructor refuses, with a typed error naming the
rule, empty or not strictly increasing ``bin_edges``, ``alphas`` not strictly increasing or
outside ``[0, 1]`` (``-0.0`` included, as in OpenDP), NaN anywhere and an interpolation other
than ``linear`` or ``nearest``.  The Function takes counts of type ``TA`` numbering one fewer
than the edges (or one more: the two outer bins are dropped) and runs OpenDP 0.16's arithmetic
step for step: the running sum in ``TA`` (an integer overflow is refused, where OpenDP wraps),
each sum cast to ``F`` and divided by the last; for each ``alpha`` the index ``k`` that OpenDP's
binary search returns (the number of cdf values below ``alpha`` when the cdf is sorted); then
the nearer edge, or ``(1 - t) * e_k + t * e_{k+1}`` with ``t = (alpha - cdf_{k-1}) /
(cdf_k - cdf_{k-1})`` in ``F``, cast to ``TA`` (to an integer by truncation, NaN or out of range
refused).  Postprocessing: no privacy cost.
"""

from __future__ import annotations

import math

import numpy as np

from certdp.contracts import certified
from certdp.core.errors import FailedFunctionError, MakeTransformationError, shown, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.postprocess import Function
from certdp.core.types import _NUMPY_ALIASES, CarrierType
from certdp.transformations._postprocess.arguments import (
    FORMAT,
    MAX_LENGTH,
    float_vector,
    integer_vector,
    to_float,
    type_name,
)

__all__ = ["make_quantiles_from_counts"]

# proof: begin quantiles
#: The numeric dtypes a 1-d array of edges is read in (its dtype then names TA).
_NUMBER_TYPES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize", "f32", "f64")
#: The TA OpenDP 0.16 builds this Function for (its i8, i16, u8 and u16 have no match).
_TA_TYPES = ("i32", "i64", "u32", "u64", "usize", "f32", "f64")


def _count_below(x: list, target) -> int:
    """OpenDP's binary search: ``#{x_i < target}`` when ``x`` is sorted."""
    if not x:
        return 0
    lower, upper = 0, len(x)
    while upper - lower > 1:  # label: search
        middle = lower + (upper - lower) // 2
        if x[middle] < target:
            lower = middle
        else:
            upper = middle
    return upper if x[lower] < target else lower


def _indices(out: list, alphas: list, x: list, start: int, offset: int) -> None:
    """Write into ``out[offset:offset+len(alphas)]`` the count below each alpha, recursing on
    the halves as OpenDP does (same comparisons, so the same indices on any ``x``)."""
    if not alphas:
        return
    if len(alphas) == 1:
        out[offset] = start + _count_below(x, alphas[0])
        return
    middle = (len(alphas) + 1) // 2  # label: recurse
    below = _count_below(x, alphas[middle])
    out[offset + middle] = start + below
    _indices(out, alphas[:middle], x[:below], start, offset)
    _indices(out, alphas[middle + 1 :], x[below:], start + below, offset + middle + 1)


def _from_array(value, parameter: str):
    """A 1-d NumPy array of a numeric dtype as the list of its exact Python values and the
    name of its element type (OpenDP reads an array's dtype as its type); an array of another
    number of axes refused naming ``parameter``; anything else as it is, with ``None``."""
    if type(value) is np.ndarray and value.ndim != 1:  # label: array-axes
        raise MakeTransformationError(
            f"must be a 1-d array, got {value.ndim} axes", parameter=parameter
        )
    if type(value) is np.ndarray:
        name = _NUMPY_ALIASES.get(value.dtype.type)
        if name in _NUMBER_TYPES:  # label: array-dtype
            return value.tolist(), name
    return value, None


def _first_edge_type(first):
    """``i32`` for an ``int`` first edge, ``f64`` for a ``float`` (classes tested by identity),
    else ``None``."""
    return "i32" if type_is(first, int) else "f64" if type_is(first, float) else None


def _inferred_ta(bin_edges, edges_type):
    """TA as OpenDP infers it from ``bin_edges``: an array's dtype, else ``i32``/``f64`` from
    the first edge; edges that are no non-empty list, or name no TA in ``_TA_TYPES``, are
    refused naming ``bin_edges`` (TA was not given)."""
    if edges_type is None and (not type_is(bin_edges, list, tuple) or not bin_edges):
        raise MakeTransformationError(  # label: infer-edges
            f"must be a non-empty list (TA is inferred from it), got {shown(bin_edges)}",
            parameter="bin_edges",
        )
    TA = edges_type or _first_edge_type(bin_edges[0])
    if TA not in _TA_TYPES:  # label: infer-type
        raise type_mismatch(MakeTransformationError)(
            f"edges of type {TA or type(bin_edges[0]).__name__} name no TA this Function "
            f"takes (one of {', '.join(_TA_TYPES)}, as in OpenDP 0.16)",
            parameter="bin_edges",
        )
    return TA


def _edges(bin_edges, TA: str) -> list:
    """``bin_edges`` of type ``TA``: non-empty, no NaN, strictly increasing."""
    if not type_is(bin_edges, list, tuple) or not 0 < len(bin_edges) <= MAX_LENGTH:
        raise MakeTransformationError(  # label: edges-length
            f"must be a non-empty list, got {shown(bin_edges)}", parameter="bin_edges"
        )
    edges = [CarrierType(TA).exact(e) for e in bin_edges]
    if any(e is None or (type(e) is float and math.isnan(e)) for e in edges):  # label: edges-type
        raise type_mismatch(MakeTransformationError)(
            f"every edge must be a {TA} (not NaN)", parameter="bin_edges"
        )
    if TA in FORMAT:
        edges = [FORMAT[TA](e) for e in edges]
    if any(edges[i] >= edges[i + 1] for i in range(len(edges) - 1)):  # label: edges-increasing
        raise MakeTransformationError("must be strictly increasing", parameter="bin_edges")
    return edges


def _alphas(alphas, F: str) -> list:
    """``alphas`` in the format ``F``: strictly increasing, within ``[+0.0, 1]``, no NaN."""
    if not type_is(alphas, list, tuple) or len(alphas) > MAX_LENGTH:
        raise MakeTransformationError(  # label: alphas-type
            f"must be a list, got {shown(alphas)}", parameter="alphas"
        )
    values = []
    for a in alphas:
        if not type_is(a, float, np.float64, np.float32) or math.isnan(a):
            raise type_mismatch(MakeTransformationError)(  # label: alphas-float
                f"every alpha must be a float (not NaN), got {shown(a)}", parameter="alphas"
            )
        values.append(FORMAT[F](a))
    if any(values[i] >= values[i + 1] for i in range(len(values) - 1)):  # label: alphas-increasing
        raise MakeTransformationError("must be strictly increasing", parameter="alphas")
    if values and (np.signbit(values[0]) or values[-1] > 1):  # label: alphas-range
        raise MakeTransformationError(
            "must lie in [0, 1] (and -0.0 is refused, as in OpenDP)", parameter="alphas"
        )
    return values


def _cast(value, TA: str):
    """The ``F`` value ``value`` as ``TA``: rounded to the format, or truncated to an integer
    in range (NaN and out-of-range refused, as OpenDP refuses them)."""
    if TA in FORMAT:
        with np.errstate(over="ignore"):
            return float(FORMAT[TA](value))  # label: cast-float
    if math.isfinite(value):
        exact = CarrierType(TA).exact(int(value))  # label: cast-truncate
        if exact is not None:
            return exact
    raise FailedFunctionError(f"the quantile {value} is not a {TA}", parameter="arg")


@certified
def make_quantiles_from_counts(
    bin_edges, alphas, interpolation="linear", TA=None, F="float"
) -> Function:
    """The Function from counts over the bins ``bin_edges`` to the ``alphas``-quantiles."""
    bin_edges, edges_type = _from_array(bin_edges, "bin_edges")  # label: edges-array
    alphas, _ = _from_array(alphas, "alphas")  # label: alphas-array
    if TA is None:  # label: infer
        TA = _inferred_ta(bin_edges, edges_type)
    TA = type_name(TA, "TA", _TA_TYPES, MakeTransformationError)  # label: ta
    F = type_name(F, "F", ("f32", "f64"), MakeTransformationError)  # label: f
    if interpolation not in ("linear", "nearest"):  # label: interpolation
        raise MakeTransformationError(
            f"must be 'linear' or 'nearest', got {shown(interpolation)}",
            parameter="interpolation",
        )
    edges, levels, G = _edges(bin_edges, TA), _alphas(alphas, F), FORMAT[F]

    def quantiles(arg):
        if type_is(arg, list, tuple) and len(arg) == 0 and len(edges) == 1:  # label: empty
            return [_plain(edges[0])] * len(levels)
        read = float_vector if TA in FORMAT else integer_vector
        counts = read(arg, TA)  # label: q-input
        if abs(len(edges) - len(counts)) != 1:  # label: length
            raise FailedFunctionError(
                "there must be one more bin edge than counts (or one fewer, when the counts "
                f"include both outer bins): {len(edges)} edges, {len(counts)} counts",
                parameter="arg",
            )
        if len(counts) == len(edges) + 1:
            counts = counts[1:-1]  # label: trim
        if not counts:
            return [_plain(edges[0])] * len(levels)
        with np.errstate(all="ignore"):
            total, sums = (FORMAT[TA](0.0) if TA in FORMAT else 0), []
            for c in counts:
                total = total + c  # label: cumsum
                if TA not in FORMAT and CarrierType(TA).exact(total) is None:
                    raise FailedFunctionError(
                        f"the running sum of the counts overflows {TA}", parameter="arg"
                    )
                sums.append(G(total) if TA in FORMAT else to_float(total, F))
            cdf = [s / sums[-1] for s in sums]  # label: cdf
            index = [0] * len(levels)
            _indices(index, levels, cdf, 0, 0)
            out = []
            for k, alpha in zip(index, levels):
                if k >= len(cdf):  # label: index-range
                    raise FailedFunctionError(
                        f"alpha {float(alpha)} lies beyond the cdf", parameter="arg"
                    )
                left, right = (G(0.0) if k == 0 else cdf[k - 1]), cdf[k]
                if interpolation == "nearest":  # label: nearest
                    out.append(_plain(edges[k + int(alpha - left > right - alpha)]))
                    continue
                low, high = _in_format(edges[k], F), _in_format(edges[k + 1], F)
                t = (alpha - left) / (right - left)  # label: linear
                out.append(_cast((G(1.0) - t) * low + t * high, TA))
            return out

    return Function(quantiles, f"Vec<{TA}>")  # label: q-function


def _in_format(edge, F: str):
    """An edge (int, or float of a format) as a value of the format ``F``."""
    return to_float(edge, F) if type(edge) is int else FORMAT[F](edge)


def _plain(edge):
    """An edge as a Python int or float."""
    return edge if type(edge) is int else float(edge)


# proof: end quantiles
