"""``make_np_sum``: the column sums of a 2-D array whose rows are bounded in p-norm.

Guarantee (``make_np_sum.tex``): for an ``array2_domain`` of f32 or f64 rows with
``||r - O||_p <= R``, no NaN and known ``num_columns``, under the symmetric distance, the
column sums are ``d_out``-close in the L_p distance with ``d_out = map(d_in)``:

* known size ``n``:   ``floor(d_in / 2) * 2 R + 2 rho(n)``;
* unknown size:       ``d_in * max(R + ||O||_p, 2 R) + 2 rho(N)``, where datasets of more than
  ``N = SIZE_LIMIT`` rows are first cut down to ``N`` rows (``RowSelection``);

``rho(n)`` bounds the L_p norm of the rounding error of the summation that ``function`` runs
(``_support/column_sum.py``) on ``n`` rows.  Every map value is rounded upward.

With ``dp.enable_features("idealized-numerics")`` the map is OpenDP 0.16's, computed as OpenDP
computes it (``d_in * (R + ||O||_p)``, resp. ``d_in // 2 * 2 * R``, in numpy floats): it ignores
rounding, and its proof assumes exact arithmetic.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from certdp.contracts import certified
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import FailedMapError, MakeTransformationError, shown
from certdp.core.exact_type import type_is
from certdp.core.features import feature_enabled
from certdp.core.metrics import SymmetricDistance, l1_distance, l2_distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.numeric import inf_cast, inf_sqrt
from certdp.numpy._support.column_sum import column_sum, depth
from certdp.numpy._support.error_bounds import gamma, subnormal_half_spacing, unit_roundoff
from certdp.numpy._support.row_selection import RowSelection
from certdp.numpy.array2_domain import NPArray2Domain
from certdp.numpy.array2_domain.array2_domain import is_array2_domain

__all__ = ["make_np_sum", "then_np_sum", "SIZE_LIMIT", "origin_norm_upper", "rounding_allowance"]

# proof: begin helpers
#: Rows a dataset of unknown size keeps at most before it is summed (OpenDP's float sums' limit).
SIZE_LIMIT = 1 << 20  # label: size-limit

_MAX = {
    "f64": Fraction(np.finfo(np.float64).max.item()),
    "f32": Fraction(np.finfo(np.float32).max.item()),
}  # label: largest-finite
_DTYPE = {"f64": np.float64, "f32": np.float32}  # label: dtypes


def origin_norm_upper(origin: np.ndarray, p: int) -> Fraction:
    """An upper bound of ``||origin||_p`` (exact for ``p = 1``, rounded up for ``p = 2``)."""
    values = [Fraction(v) for v in np.atleast_1d(origin).tolist()]
    if p == 1:
        return sum((abs(v) for v in values), Fraction(0))  # label: norm1
    largest = max((abs(v) for v in values), default=Fraction(0))
    if largest == 0:
        return Fraction(0)
    # a power of two near the largest entry: the scaled squares cannot overflow
    scale = Fraction(2) ** (largest.numerator.bit_length() - largest.denominator.bit_length())
    scaled = sum(((v / scale) ** 2 for v in values), Fraction(0))
    squares = inf_cast(scaled, "f64")  # label: norm2-squares
    return Fraction(inf_sqrt(squares, "f64")) * scale  # label: norm2


def rounding_allowance(
    rows: int, reach: Fraction, T: str, num_columns: int, W: str = "f64"
) -> Fraction:
    """``rho``: bounds ``||column_sum(x) - sum(x)||_p`` for ``rows`` rows of p-norm at most
    ``reach``, summed in the format ``W`` and rounded to ``T``."""
    g = gamma(depth(rows), W)
    if T == W:
        return g * rows * reach  # label: rho-f64
    # the data are summed in W, then rounded once to T
    relative = g + unit_roundoff(T) * (1 + g)
    return relative * rows * reach + num_columns * subnormal_half_spacing(T)  # label: rho-f32


def known_size_bound(d_in: int, radius: Fraction, rho: Fraction) -> Fraction:
    """The exact map value for a known size: ``floor(d_in / 2) * 2 R + 2 rho``."""
    return (d_in // 2) * 2 * radius + 2 * rho  # label: bound-known


def unknown_size_bound(d_in: int, per_record: Fraction, rho: Fraction) -> Fraction:
    """The exact map value for an unknown size: ``d_in * per_record + 2 rho``."""
    return d_in * per_record + 2 * rho  # label: bound-unknown


# proof: end helpers


# proof: begin constructor
@certified
def make_np_sum(input_domain, input_metric) -> Transformation:
    """Sum the rows of a 2-D array into a vector; see the module docstring for the map."""
    if not is_array2_domain(input_domain):  # label: domain-check
        raise MakeTransformationError(
            f"must be an array2_domain, got {shown(input_domain)}", parameter="input_domain"
        )
    if not type_is(input_metric, SymmetricDistance):  # label: metric-check
        raise MakeTransformationError(
            f"must be symmetric_distance(), got {shown(input_metric)}", parameter="input_metric"
        )
    if input_domain.norm is None:  # label: norm-check
        raise MakeTransformationError(
            "must bound the row norm (array2_domain(norm=..., p=...)); see make_np_clamp",
            parameter="input_domain",
        )
    if input_domain.p not in (1, 2):  # label: p-check
        raise MakeTransformationError(
            f"p must be 1 or 2, got {input_domain.p}", parameter="input_domain"
        )
    if input_domain.nan:  # label: nan-check
        raise MakeTransformationError("must not allow NaN (nan=False)", parameter="input_domain")
    if not input_domain.T.is_float:  # label: float-check
        raise MakeTransformationError(
            f"entries must be f32 or f64, not {input_domain.T}", parameter="input_domain"
        )
    if input_domain.num_columns is None:  # label: columns-check
        raise MakeTransformationError(
            "must know num_columns: arrays of different widths have sums at infinite distance",
            parameter="input_domain",
        )
    T, p, size, k = input_domain.T.name, input_domain.p, input_domain.size, input_domain.num_columns
    dtype = _DTYPE[T]
    output_metric = l1_distance(T) if p == 1 else l2_distance(T)  # label: output-metric
    output_domain = vector_domain(atom_domain(T=T, nan=False))  # label: output-domain

    if feature_enabled("idealized-numerics"):  # label: idealized
        built = Transformation(
            input_domain, output_domain, lambda x: column_sum(x, dtype), input_metric,
            output_metric, _opendp_map(input_domain),
        )  # fmt: skip
        built.idealized, built.size_limit = True, None
        return built

    radius = Fraction(input_domain.norm)
    reach = radius + origin_norm_upper(input_domain.origin, p)  # label: reach
    rows = SIZE_LIMIT if size is None else size  # label: rows
    g = gamma(depth(rows), "f64")
    largest = max(
        (abs(Fraction(v)) for v in np.atleast_1d(input_domain.origin).tolist()), default=0
    )
    if (1 + g) * rows * (radius + largest) > _MAX[T]:  # label: overflow-check
        raise MakeTransformationError(
            f"a sum of {rows} rows within norm {input_domain.norm} of the origin could overflow {T}",
            parameter="input_domain",
        )
    rho = rounding_allowance(rows, reach, T, k)  # label: rho

    if size is None:
        per_record = max(reach, 2 * radius)  # label: per-record
        selection, limit = RowSelection(k), rows

        def function(x):
            return column_sum(selection.select(x, limit), dtype)  # label: function-unknown

        def stability_map(d_in):
            return inf_cast(unknown_size_bound(d_in, per_record, rho), T)  # label: map-unknown

    else:

        def function(x):
            return column_sum(x, dtype)  # label: function-known

        def stability_map(d_in):
            return inf_cast(known_size_bound(d_in, radius, rho), T)  # label: map-known

    built = Transformation(
        input_domain, output_domain, function, input_metric, output_metric, stability_map
    )
    built.idealized, built.size_limit = False, None if size is not None else rows
    return built


# proof: end constructor


# proof: begin opendp-map
def _opendp_map(domain: NPArray2Domain):
    """OpenDP 0.16's map for ``domain``, evaluated with the same numpy operations."""
    norm = domain.norm
    to_T = float if domain.T.name == "f64" else (lambda v: float(np.float32(v)))
    if domain.size is None:
        origin_norm = np.linalg.norm(np.atleast_1d(domain.origin), ord=domain.p)
        total = norm + origin_norm  # label: opendp-total

        def stability_map(d_in):
            try:
                return to_T(d_in * total)  # label: opendp-unknown
            except OverflowError as error:
                raise FailedMapError(
                    f"{shown(d_in)} * {shown(total)} overflows: {error}", parameter="d_in"
                ) from None

    else:

        def stability_map(d_in):
            return to_T(d_in // 2 * 2 * norm)  # label: opendp-known

    return stability_map


# proof: end opendp-map


then_np_sum = partial_constructor(make_np_sum)
