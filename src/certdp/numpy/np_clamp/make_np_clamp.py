"""``make_np_clamp``: scale every row of a 2-D array into a p-norm ball.

Guarantee (``make_np_clamp.tex``): for an ``array2_domain`` of f32 or f64 entries under the
symmetric or the insert-delete distance, the output is a member of
``array2_domain(norm=norm, p=p, origin=origin, nan=False, ...)`` -- every output row ``z``
satisfies ``||z - origin||_p <= norm`` exactly -- and the map ``d_in -> d_in`` is valid.

Each row is handled alone: NaN entries are replaced by the origin's entry and infinite ones
by the largest finite value of their sign; a row then within the ball is kept as it is, and
any other row is moved along the line towards the origin to a point of the ball, at relative
distance ``margin`` inside the sphere.  The floating-point candidate is verified exactly
(``RowNormTest``); a row whose candidate fails is retried with a doubled margin, and a margin
of 1 gives the origin itself.
"""

from __future__ import annotations

import math

import numpy as np

from certdp.contracts import certified
from certdp.core.errors import MakeDomainError, MakeTransformationError, shown, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.metrics import InsertDeleteDistance, Metric, SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.numpy._support.error_bounds import unit_roundoff
from certdp.numpy.array2_domain import array2_domain
from certdp.numpy.array2_domain.array2_domain import is_array2_domain

__all__ = ["make_np_clamp", "then_np_clamp"]

# proof: begin helpers
_DTYPE = {"f64": np.float64, "f32": np.float32}  # label: dtypes


def _first_margin(T: str, num_columns: int) -> float:
    """A relative shrink that rounding seldom undoes: a few units in the last place per column."""
    return float((num_columns + 4) * unit_roundoff(T))  # label: first-margin


def _directions(rows: np.ndarray, origin: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit-ish offsets ``e`` (largest entry of magnitude 1) and their p-norms, per row.

    Only entrywise operations, exact reductions (``all``, ``max``) and a left-to-right
    accumulation along each row are used, so the values of a row do not depend on the other
    rows (numpy may choose the order of a summing reduction from the shape of the array).
    """
    with np.errstate(all="ignore"):
        offsets = rows - origin
        overflowed = ~np.isfinite(offsets).all(axis=1)
        # halving cannot overflow, and rows that overflowed have entries far from subnormal
        offsets[overflowed] = rows[overflowed] * 0.5 - origin * 0.5  # label: halve
        largest = np.abs(offsets).max(axis=1, keepdims=True)  # label: largest
        units = offsets / largest
        terms = np.abs(units) if p == 1 else units * units
        # accumulate adds left to right by definition (each partial sum is an output)
        norms = np.add.accumulate(terms, axis=1)[:, -1]  # label: norms-in-order
        if p == 2:
            norms = np.sqrt(norms)
    return units, norms


# proof: end helpers


# proof: begin constructor
@certified
def make_np_clamp(input_domain, input_metric, norm, p, origin=None) -> Transformation:
    """Scale each row whose ``p``-norm around ``origin`` exceeds ``norm`` onto the ball."""
    if not is_array2_domain(input_domain) or not input_domain.T.is_float:
        raise MakeTransformationError(  # label: domain-check
            f"must be an array2_domain of f32 or f64 entries, got {input_domain}",
            parameter="input_domain",
        )
    if not type_is(input_metric, SymmetricDistance, InsertDeleteDistance):
        error = (
            MakeTransformationError
            if isinstance(input_metric, Metric)
            else type_mismatch(MakeTransformationError)
        )
        raise error(  # label: metric-check
            f"must be symmetric_distance() or insert_delete_distance(), got {input_metric}",
            parameter="input_metric",
        )
    # @certified made norm exact: a number is a Python int or float by exact type, nothing else
    if not type_is(norm, int, float):  # label: norm-type
        raise MakeTransformationError(f"must be a number, got {shown(norm)}", parameter="norm")
    # an integer is finite (one beyond f64 is refused with the output domain below)
    positive = norm > 0 and (type_is(norm, int) or math.isfinite(norm))
    if not positive:  # label: norm-check
        raise MakeTransformationError(
            f"must be positive and finite, got {shown(norm)}", parameter="norm"
        )
    T = input_domain.T.name
    try:
        output_domain = array2_domain(  # label: output-domain
            norm=norm, p=p, origin=origin, size=input_domain.size,
            num_columns=input_domain.num_columns, nan=False, T=T,
        )  # fmt: skip
    except MakeDomainError as error:
        rule = str(error).removeprefix(f"{error.parameter}: ")
        raise MakeTransformationError(rule, parameter=error.parameter) from None
    if output_domain.num_columns != input_domain.num_columns:  # label: columns-check
        raise MakeTransformationError(
            f"input_domain must have num_columns={output_domain.num_columns}, the length of "
            f"origin, got {input_domain.num_columns}",
            parameter="input_domain",
        )
    center = output_domain.origin
    if center.astype(_DTYPE[T]).astype(center.dtype).tobytes() != center.tobytes():
        raise MakeTransformationError(  # label: origin-representable
            f"every entry must be a value of {T}", parameter="origin"
        )
    dtype, test = _DTYPE[T], output_domain.row_test
    largest = np.finfo(dtype).max

    def function(x):
        k = x.shape[1]
        center_row = output_domain.origin_vector(k)
        rows = np.where(np.isnan(x), center_row.astype(dtype), x)  # label: replace-nan
        rows = np.clip(rows, -largest, largest)  # label: replace-inf
        outside = np.flatnonzero(~test.within(rows))  # label: inside-kept
        if outside.size == 0:
            return rows
        wide = rows[outside].astype(np.float64)
        units, norms = _directions(wide, center_row, p)
        margin = _first_margin(T, k)
        while outside.size:
            if margin >= 1:
                rows[outside] = center_row.astype(dtype)  # label: fallback-origin
                break
            with np.errstate(all="ignore"):  # an overflow or underflow is caught by the test
                scale = (output_domain.norm * (1 - margin) / norms)[:, None]
                candidates = (center_row + units * scale).astype(dtype)  # label: candidates
            verified = test.within(candidates)  # label: verify-candidates
            rows[outside[verified]] = candidates[verified]  # label: accept-candidates
            outside, units, norms = outside[~verified], units[~verified], norms[~verified]
            margin = min(1.0, 2 * margin)
        return rows

    return Transformation(
        input_domain, output_domain, function, input_metric,
        input_metric, lambda d_in: d_in,  # label: stability-map
    )  # fmt: skip


# proof: end constructor


then_np_clamp = partial_constructor(make_np_clamp)
