"""SMT models of ``make_np_sum`` and ``make_np_clamp`` and their bounded theorems.

Every function below takes two IEEE formats: ``T``, the format of the data, and ``W``, the
format the code computes in (``float64`` in the code).  With ``W = f64`` the models are the
code's own computations, which ``tests/prove/test_numpy_models.py`` checks bit for bit on
random arrays; the bounded proofs instantiate them with ``T = W`` a reduced-precision format
(``f8``: 4 exponent and 4 significand bits), where the proofs' rounding arguments are the
same with that format's unit roundoff and subnormal spacing, and every map and threshold is
the code's own function evaluated for that format (``threshold_bounds``,
``rounding_allowance``, ``known_size_bound`` with ``W``).

* :func:`estimates`: every value ``RowNormTest.estimate`` can return for one row, one per
  summation tree of ``np.einsum`` (whose order the proof does not assume) and, for ``p = 2``,
  per choice of fused multiply-adds.  Obligation: the float decision of ``classify`` is
  sound -- an accepted row is within the ball and a rejected one is not, in exact arithmetic.
* :func:`column_sum`: ``column_sum`` for at most ``STRANDS`` rows (one chunk, one row per
  strand: the reduction copies each row and the strands are folded pairwise).  Obligation:
  for all datasets ``x, x'`` of the domain of ``n`` rows at symmetric distance ``<= d_in``,
  ``||column_sum(x) - column_sum(x')||_p <= map(d_in)`` exactly, and the sums are finite.
* :func:`clamp_row`: the row function ``g`` of ``make_np_clamp`` (NaN and infinity
  replacement, the exact test, the directions, the candidates at each margin, the fallback to
  the origin).  Obligations: every row of ``T`` values (any bits) is mapped into the ball
  exactly; and the transformation is elementwise, so neighbours map to neighbours
  (:func:`certdp.contracts.smt.elementwise_cases`).

Exact values are compared as integers: a finite value of a format is an integer multiple of
its smallest subnormal ``2^e``, so ``v / 2^e`` is a bit-vector integer, and sums of squares of
such integers are exact.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import (
    FORMATS,
    edit_scripts,
    elementwise_cases,
    float_exact,
    float_sort,
    permute,
)
from certdp.contracts.smt_code import Scope

__all__ = [
    "MODELLED",
    "obligations",
    "estimates",
    "thresholds",
    "column_sum",
    "clamp_row",
    "within_exact",
]

_RNE = z3.RNE()
_FORMAT = "f8"


# -- formats ------------------------------------------------------------------------------


def _bias(fmt: str) -> int:
    return (1 << (FORMATS[fmt][0] - 1)) - 1


def _tiny_exponent(fmt: str) -> int:
    """Exponent of the smallest positive subnormal of ``fmt``."""
    return 2 - _bias(fmt) - FORMATS[fmt][1]


def _magnitude_bits(fmt: str) -> int:
    """Bits of ``|v| / 2^tiny`` for every finite ``v`` of ``fmt``."""
    return _bias(fmt) + 1 - _tiny_exponent(fmt)


def _largest(fmt: str) -> Fraction:
    t = FORMATS[fmt][1]
    return (2 - Fraction(1, 1 << (t - 1))) * Fraction(2) ** _bias(fmt)


def _value(value, fmt: str):
    """The exact rational ``value`` (which must be a value of ``fmt``) as a z3 float."""
    value = Fraction(value)
    number = z3.simplify(
        z3.fpRealToFP(_RNE, z3.RealVal(f"{value.numerator}/{value.denominator}"), float_sort(fmt))
    )
    if float_exact(number) != value:
        raise ValueError(f"{value} is not a value of {fmt}")
    return number


def _rounded(value: Fraction, fmt: str, mode):
    return z3.simplify(
        z3.fpRealToFP(mode, z3.RealVal(f"{value.numerator}/{value.denominator}"), float_sort(fmt))
    )


def _convert(x, fmt: str):
    """``x`` rounded to nearest into ``fmt`` (exact when ``fmt`` is at least as wide)."""
    sort = float_sort(fmt)
    return x if x.sort() == sort else z3.fpToFP(_RNE, x, sort)


def _scaled(x, fmt: str, bits: int):
    """The finite ``fmt`` value ``x`` as the signed ``bits``-wide integer ``x / 2^tiny``, read
    from its IEEE bits: a subnormal is ``fraction * 2^tiny``, a normal value
    ``(2^(t-1) + fraction) * 2^tiny * 2^(biased exponent - 1)``."""
    e, t = FORMATS[fmt]
    raw = z3.fpToIEEEBV(x)
    sign = z3.Extract(e + t - 1, e + t - 1, raw)
    biased = z3.ZeroExt(bits - e, z3.Extract(e + t - 2, t - 1, raw))
    fraction = z3.ZeroExt(bits - (t - 1), z3.Extract(t - 2, 0, raw))
    hidden = z3.BitVecVal(1 << (t - 1), bits)
    one = z3.BitVecVal(1, bits)
    normal = (fraction | hidden) << (biased - one)
    magnitude = z3.If(biased == z3.BitVecVal(0, bits), fraction, normal)
    return z3.If(sign == z3.BitVecVal(1, 1), -magnitude, magnitude)


def within_exact(row, origin, radius, p: int, fmt: str):
    """``row`` is finite and ``||row - origin||_p <= radius`` in exact arithmetic; ``row`` and
    ``origin`` are z3 floats of ``fmt`` (``origin`` finite), ``radius`` a value of ``fmt``."""
    k = len(row)
    offset_bits = _magnitude_bits(fmt) + 2
    if p == 1:
        bits = offset_bits + k.bit_length() + 1
        total = z3.BitVecVal(0, bits)
        for r, o in zip(row, origin):
            d = z3.SignExt(
                bits - offset_bits, _scaled(r, fmt, offset_bits) - _scaled(o, fmt, offset_bits)
            )
            total = total + z3.If(d < 0, -d, d)
        limit = Fraction(radius) / Fraction(2) ** _tiny_exponent(fmt)
    else:
        bits = 2 * offset_bits + k.bit_length() + 1
        total = z3.BitVecVal(0, bits)
        for r, o in zip(row, origin):
            d = z3.SignExt(
                bits - offset_bits, _scaled(r, fmt, offset_bits) - _scaled(o, fmt, offset_bits)
            )
            total = total + d * d
        limit = Fraction(radius) ** 2 / Fraction(2) ** (2 * _tiny_exponent(fmt))
    assert limit.denominator == 1
    finite = [z3.Not(z3.Or(z3.fpIsNaN(r), z3.fpIsInf(r))) for r in row]
    return z3.And(*finite, total <= z3.BitVecVal(int(limit), bits))


# -- RowNormTest.estimate / classify --------------------------------------------------------


def _splits(leaves: tuple):
    """The unordered splits of ``leaves`` into two non-empty parts (the first keeps leaf 0)."""
    first, rest = leaves[0], leaves[1:]
    for mask in range(1 << len(rest)):
        left = (first, *(leaf for i, leaf in enumerate(rest) if mask >> i & 1))
        right = tuple(leaf for i, leaf in enumerate(rest) if not mask >> i & 1)
        if right:
            yield left, right


def _tree_values(leaves: tuple, p: int, offsets, W: str) -> list:
    """Every value of a binary tree of additions over ``leaves`` (term indices), with, for
    ``p = 2``, every choice of fusing a leaf's product into the addition above it."""
    if len(leaves) == 1:
        d = offsets[leaves[0]]
        return [z3.fpAbs(d) if p == 1 else z3.fpMul(_RNE, d, d)]
    values = []
    for left, right in _splits(leaves):
        for a in _tree_values(left, p, offsets, W):
            for b in _tree_values(right, p, offsets, W):
                values.append(z3.fpAdd(_RNE, a, b))
        if p == 2:
            for leaf, other in ((left, right), (right, left)):
                if len(leaf) == 1:
                    d = offsets[leaf[0]]
                    for b in _tree_values(other, p, offsets, W):
                        values.append(z3.fpFMA(_RNE, d, d, b))
    return values


def estimates(row, origin, p: int, W: str) -> list:
    """Every value ``RowNormTest.estimate`` may return for ``row`` (z3 floats of the data
    format) with ``origin`` (z3 floats of ``W``, or ``None`` for the origin 0): the entries are
    converted to ``W`` exactly, the offsets computed with one rounding, and the terms summed in
    any tree (``np.einsum``'s order is not assumed)."""
    converted = [_convert(r, W) for r in row]
    if origin is None:
        offsets = converted
    else:
        offsets = [z3.fpSub(_RNE, r, o) for r, o in zip(converted, origin)]
    return _tree_values(tuple(range(len(row))), p, offsets, W)


def thresholds(radius, p: int, k: int, W: str):
    """``RowNormTest.thresholds`` for the format ``W``: the code's exact bounds
    (``threshold_bounds``) rounded down, resp. up, into ``W`` (``-1`` for a negative lower
    bound, ``+inf`` beyond the range)."""
    from certdp.numpy._support.row_norm_test import threshold_bounds

    accept, reject = threshold_bounds(Fraction(radius) ** p, p, k, W)
    accept_below = _value(-1, W) if accept < 0 else _rounded(accept, W, z3.RTN())
    return accept_below, _rounded(reject, W, z3.RTP())


def classify(estimate, accept_below, reject_above):
    """``(accepted, rejected)`` of ``classify`` for one estimate."""
    accepted = z3.fpLEQ(estimate, accept_below)
    finite = z3.Not(z3.Or(z3.fpIsNaN(estimate), z3.fpIsInf(estimate)))
    return accepted, z3.And(finite, z3.fpGT(estimate, reject_above))


def _row_test_obligation(constructor: str, fmt: str, p: int, k: int, radius) -> Obligation:
    sort = float_sort(fmt)

    def violation():
        row = [z3.FP(f"r{j}", sort) for j in range(k)]
        origin = [z3.FP(f"o{j}", sort) for j in range(k)]
        origin_finite = [z3.Not(z3.Or(z3.fpIsNaN(o), z3.fpIsInf(o))) for o in origin]
        within = within_exact(row, origin, radius, p, fmt)
        accept_below, reject_above = thresholds(radius, p, k, fmt)
        cases = []
        for index, estimate in enumerate(estimates(row, origin, p, fmt)):
            accepted, rejected = classify(estimate, accept_below, reject_above)
            for wrong, what in ((z3.And(accepted, z3.Not(within)), "accepted outside"),
                                (z3.And(rejected, within), "rejected inside")):  # fmt: skip
                cases.append((
                    z3.And(*origin_finite, wrong),
                    lambda m, what=what, index=index: {
                        "error": what, "tree": index,
                        "row": [str(m.eval(r)) for r in row],
                        "origin": [str(m.eval(o)) for o in origin],
                    },
                ))  # fmt: skip
        return cases

    return Obligation(
        constructor=constructor,
        claim=(
            f"row-norm test (RowNormTest.classify, the lemma the domain's membership rests on): "
            f"{fmt} p={p} width={k} R={radius}: for every row (any bits, NaN/inf included) and "
            f"every finite origin, under every einsum summation tree"
            f"{' and fused multiply-add choice' if p == 2 else ''}, an accepted row is within "
            f"the ball and a rejected one is not (exact arithmetic); thresholds = the code's "
            f"threshold_bounds for {fmt}"
        ),
        format=fmt, size=k, violation=violation,
    )  # fmt: skip


# -- column_sum ---------------------------------------------------------------------------


def column_sum(rows: list, W: str, T: str) -> list:
    """``column_sum`` of at most ``STRANDS`` rows (lists of z3 floats of ``T``) as ``T`` values:
    each row lands in its own strand, the strands are folded pairwise (``partial[:, 0::2] +
    partial[:, 1::2]``, unused strands holding ``+0``), and the ``W`` result is rounded to
    ``T``."""
    from certdp.numpy._support.column_sum import STRANDS

    if len(rows) > STRANDS:
        raise ValueError("the model covers one chunk of at most STRANDS rows")
    k = len(rows[0]) if rows else 0
    zero = z3.FPVal(0.0, float_sort(W))
    sums = []
    for j in range(k):
        slots = [_convert(row[j], W) for row in rows] + [None] * (STRANDS - len(rows))
        while len(slots) > 1:
            slots = [_add(slots[2 * v], slots[2 * v + 1]) for v in range(len(slots) // 2)]
        total = zero if slots[0] is None else slots[0]
        sums.append(_convert(total, T))
    return sums


def _add(a, b):
    """``a + b`` in IEEE arithmetic, ``None`` standing for the padding ``+0``."""
    if a is None and b is None:
        return None
    if a is None or b is None:
        x = a if b is None else b
        return z3.If(z3.fpIsZero(x), z3.FPVal(0.0, x.sort()), x)  # x + 0: -0 becomes +0
    return z3.fpAdd(_RNE, a, b)


def _distance_within(s, s_prime, bound, p: int, fmt: str):
    """``||s - s'||_p <= bound`` exactly, for finite vectors of ``fmt`` and a ``fmt`` value."""
    k = len(s)
    bits = 2 * (_magnitude_bits(fmt) + 2) + k.bit_length() + 1
    scale = Fraction(2) ** -_tiny_exponent(fmt)
    total = z3.BitVecVal(0, bits)
    for a, b in zip(s, s_prime):
        width = _magnitude_bits(fmt) + 2
        d = z3.SignExt(bits - width, _scaled(a, fmt, width) - _scaled(b, fmt, width))
        total = total + (z3.If(d < 0, -d, d) if p == 1 else d * d)
    limit = Fraction(bound) * scale if p == 1 else (Fraction(bound) * scale) ** 2
    assert limit.denominator == 1
    return z3.ULE(total, z3.BitVecVal(int(limit), bits))


def _sum_instance(fmt: str, p: int, k: int, n: int, radius, origin: list, d_in: int):
    import numpy as np

    from certdp.numpy.np_sum.make_np_sum import (
        known_size_bound,
        origin_norm_upper,
        rounding_allowance,
    )

    from .column_sum import depth
    from .error_bounds import gamma

    radius = Fraction(radius)
    origin_values = [Fraction(o) for o in origin]
    reach = radius + origin_norm_upper(np.array([float(o) for o in origin_values]), p)
    rho = rounding_allowance(n, reach, fmt, k, W=fmt)
    largest = max((abs(o) for o in origin_values), default=Fraction(0))
    if (1 + gamma(depth(n), fmt)) * n * (radius + largest) > _largest(fmt):
        raise ValueError("the constructor's overflow check refuses these parameters")
    exact_bound = known_size_bound(d_in, radius, rho)
    bound = _rounded(exact_bound, fmt, z3.RTP())  # inf_cast to the format
    sort = float_sort(fmt)
    origin_z3 = [_value(o, fmt) for o in origin_values]

    def row_of(label):
        return [z3.FP(f"{label}_{j}", sort) for j in range(k)]

    def violation():
        cases = []
        scripts = [(n, ())] + edit_scripts(n, d_in, n, at_end=False, insert_at_end=True)
        for length, script in scripts:
            x = [row_of(f"x{i}") for i in range(length)]
            edited, inserted = [list(r) for r in x], []
            for step, (kind, i) in enumerate(script):
                if kind == "delete":
                    del edited[i]
                else:
                    fresh = row_of(f"new{step}")
                    inserted.append(fresh)
                    edited.insert(i, fresh)
            # one symbolic permutation of the rows (the same picks for every column)
            columns, constraints = [], []
            for j in range(k):
                permuted, constraints = permute([r[j] for r in edited], n, z3.BitVecVal(n, 8), "p")
                columns.append(permuted)
            x_prime = [[columns[j][i] for j in range(k)] for i in range(n)]
            domain = [within_exact(r, origin_z3, radius, p, fmt) for r in x + inserted]
            s, s_prime = column_sum(x, fmt, fmt), column_sum(x_prime, fmt, fmt)
            finite = [z3.Not(z3.Or(z3.fpIsNaN(v), z3.fpIsInf(v))) for v in s + s_prime]
            far = z3.Not(_distance_within(s, s_prime, float_exact(bound), p, fmt))
            cases.append((
                z3.And(*constraints, *domain, z3.Or(z3.Not(z3.And(*finite)), far)),
                lambda m, x=x, xp=x_prime: {
                    "x": [[str(m.eval(v)) for v in r] for r in x],
                    "x_prime": [[str(m.eval(v)) for v in r] for r in xp],
                    "map": str(bound),
                },
            ))  # fmt: skip
        return cases

    return Obligation(
        constructor="make_np_sum",
        claim=(
            f"column sums (known size): {fmt} data summed in {fmt}, p={p}, {k} columns, "
            f"n={n} rows in the ball R={radius} around origin {[str(o) for o in origin]}, "
            f"d_in={d_in}: for all x, x' in the domain at symmetric distance <= d_in (any "
            f"deletions/insertions and any order of x'), the column sums are finite and "
            f"||sum(x) - sum(x')||_{p} <= map = inf_cast(known_size_bound(d_in, R, "
            f"rounding_allowance(n, reach, {fmt}, k, W={fmt}))) = {float_exact(bound)}"
        ),
        format=fmt, size=n, violation=violation,
    )  # fmt: skip


# -- make_np_clamp's row function -----------------------------------------------------------


def clamp_row(row, origin, radius, p: int, W: str, T: str):
    """``make_np_clamp``'s image of one row (z3 floats of ``T``; ``origin`` exact values of
    ``T``, ``radius`` a value of ``W``): the row itself when, after NaN and infinity
    replacement, it is within the ball; else the first candidate (in the order of margins)
    that is; else the origin."""
    from certdp.numpy.np_clamp.make_np_clamp import _first_margin

    k = len(row)
    w_sort = float_sort(W)
    center = [_value(o, T) for o in origin]
    center_w = [_value(o, W) for o in origin]
    largest = _value(_largest(T), T)
    rows = []
    for r, c in zip(row, center):
        r = z3.If(z3.fpIsNaN(r), c, r)  # replace-nan
        r = z3.If(z3.fpGT(r, largest), largest, z3.If(z3.fpLT(r, -largest), -largest, r))
        rows.append(r)
    inside = within_exact(rows, center, radius, p, T)

    # _directions, in W
    wide = [_convert(r, W) for r in rows]
    offsets = [z3.fpSub(_RNE, r, c) for r, c in zip(wide, center_w)]
    overflowed = z3.Or(*[z3.Or(z3.fpIsInf(d), z3.fpIsNaN(d)) for d in offsets])
    half = z3.FPVal(0.5, w_sort)
    halves = [
        z3.fpSub(_RNE, z3.fpMul(_RNE, r, half), z3.fpMul(_RNE, c, half))
        for r, c in zip(wide, center_w)
    ]
    offsets = [z3.If(overflowed, h, d) for h, d in zip(halves, offsets)]
    magnitudes = [z3.fpAbs(d) for d in offsets]
    largest_offset = magnitudes[0]
    for m in magnitudes[1:]:
        largest_offset = z3.If(z3.fpGT(m, largest_offset), m, largest_offset)
    units = [z3.fpDiv(_RNE, d, largest_offset) for d in offsets]
    terms = [z3.fpAbs(u) if p == 1 else z3.fpMul(_RNE, u, u) for u in units]
    norm = terms[0]
    for term in terms[1:]:
        norm = z3.fpAdd(_RNE, norm, term)
    if p == 2:
        norm = z3.fpSqrt(_RNE, norm)

    radius_w = _value(radius, W)
    one = z3.FPVal(1.0, w_sort)
    margin = Fraction(_first_margin(T, k))  # the code's first margin, exactly
    candidates = []
    while margin < 1:
        m = _value(margin, W)
        scale = z3.fpDiv(_RNE, z3.fpMul(_RNE, radius_w, z3.fpSub(_RNE, one, m)), norm)
        candidate = [
            _convert(z3.fpAdd(_RNE, c, z3.fpMul(_RNE, u, scale)), T)
            for c, u in zip(center_w, units)
        ]
        candidates.append(candidate)
        margin = min(Fraction(1), 2 * margin)
    result = center
    for candidate in reversed(candidates):
        ok = within_exact(candidate, center, radius, p, T)
        result = [z3.If(ok, a, b) for a, b in zip(candidate, result)]
    return [z3.If(inside, a, b) for a, b in zip(rows, result)]


def _np_clamp_map(k: int, radius, p: int, origin: list, metric: str):
    """The real ``make_np_clamp``'s own map at ``d_in = 1``, built over f64 rows of ``k``
    columns with the instance's radius, ``p`` and origin (the map does not depend on the
    carrier type, so the f64 constructor states what the reduced-format instance checks)."""
    from certdp.core.metrics import insert_delete_distance, symmetric_distance
    from certdp.numpy.array2_domain import array2_domain
    from certdp.numpy.np_clamp import make_np_clamp

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    built = make_np_clamp(
        array2_domain(T="f64", num_columns=k),
        space_metric,
        float(Fraction(radius)),
        p,
        origin=[float(Fraction(o)) for o in origin],
    )
    return built.map(1)


def _clamp_instance(fmt: str, p: int, k: int, radius, origin: list, metric: str, size: int):
    sort = float_sort(fmt)
    width = FORMATS[fmt][0] + FORMATS[fmt][1]
    origin_z3 = [_value(o, fmt) for o in origin]

    def split(bits):
        return [
            z3.fpBVToFP(z3.Extract(width * (k - j) - 1, width * (k - j - 1), bits), sort)
            for j in range(k)
        ]

    def record_model(bits):
        image = clamp_row(split(bits), origin, radius, p, fmt, fmt)
        bits = [z3.fpToIEEEBV(v) for v in image]
        return z3.Concat(*bits) if k > 1 else bits[0]

    stated = _np_clamp_map(k, radius, p, origin, metric)

    def violation():
        if stated != 1:  # the code's map at d_in = 1 must be 1 for this theorem to apply
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": 1})]
        return elementwise_cases(
            record_model,
            lambda label: z3.BitVec(label, width * k),
            lambda bits: z3.BoolVal(True),
            lambda bits: within_exact(split(bits), origin_z3, radius, p, fmt),
            size, 1, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_np_clamp",
        claim=(
            f"row clamping: {fmt} data computed in {fmt}, p={p}, {k} columns, R={radius}, "
            f"origin {[str(o) for o in origin]}, {metric}, d_in=1, len<={size}: every row "
            f"(any bits: NaN, infinities) is mapped to a finite row within the ball exactly "
            f"(output domain), and the image of every neighbour at distance <= 1 is reached "
            f"by the same edit (map d_in -> d_in); margins = the code's _first_margin({fmt})"
        ),
        format=fmt, size=size, violation=violation,
    )  # fmt: skip


# -- obligations --------------------------------------------------------------------------

#: Row-norm test instances ``(format, p, width, radii)``: zero, the smallest subnormal or a
#: subnormal, a value between powers of two, and the largest finite value (thresholds beyond
#: the range).  Width 3 and p = 2 at width 2 run in f6 (3 exponent, 3 significand bits): the
#: number of summation trees and fused choices grows quickly and f8 takes minutes there.
_ROW_TESTS = [
    ("f8", 1, 1, ["0", "3/128", "3/2", "240"]),
    ("f8", 1, 2, ["0", "3/128", "3/2", "240"]),
    ("f6", 1, 3, ["3/2"]),
    ("f8", 2, 1, ["0", "3/128", "3/2", "240"]),
    ("f6", 2, 2, ["3/2", "14"]),
]
#: Column-sum instances ``(p, origin, row counts)`` in f8 with R = 3/2 and d_in = 1, 2.
_SUMS = [
    (1, ["-3/4"], (1, 2, 3)),
    (2, ["-3/4"], (1, 2)),
    (1, ["1/4", "-1"], (1, 2)),
]
#: Row-clamping instances ``(p, origin, radius, metrics, dataset length)`` in f8.
_CLAMPS = [
    (p, ["0"], radius, ("symmetric", "insert_delete"), 2)
    for p in (1, 2)
    for radius in ("3/2", "1/64")
] + [(1, ["1/4", "-1"], "3/2", ("symmetric",), 1)]


def obligations(names=None) -> list[Obligation]:
    wanted = set(MODELLED) if names is None else set(names) & set(MODELLED)
    result = []
    if "make_np_sum" in wanted:
        for fmt, p, k, radii in _ROW_TESTS:
            for radius in radii:
                result.append(_row_test_obligation("make_np_sum", fmt, p, k, radius))
        for p, origin, counts in _SUMS:
            for n in counts:
                for d_in in (1, 2):
                    result.append(_sum_instance(_FORMAT, p, len(origin), n, "3/2", origin, d_in))
    if "make_np_clamp" in wanted:
        for p, origin, radius, metrics, size in _CLAMPS:
            for metric in metrics:
                result.append(
                    _clamp_instance(_FORMAT, p, len(origin), radius, origin, metric, size)
                )
    return result


MODELLED = {
    "make_np_sum": [
        "numpy/np_sum/make_np_sum.py",
        "numpy/_support/column_sum.py",
        "numpy/_support/row_norm_test.py",
        "numpy/_support/error_bounds.py",
    ],
    "make_np_clamp": [
        "numpy/np_clamp/make_np_clamp.py",
        "numpy/_support/row_norm_test.py",
        "numpy/_support/error_bounds.py",
    ],
}

SCOPE = {
    name: Scope(
        formats=("f8", "f6"),
        sizes=(1, 2, 3),
        bound_to_code="the code's own map and threshold functions are evaluated for the "
        "reduced format; the row and sum functions are models tested against the code in f64",
        reduced_formats=(
            "the whole theorem, bit-precisely, only in the reduced formats f8 = "
            "FP(4, 4) and f6 = FP(3, 3); the code computes in f64",
        ),
    )  # fmt: skip
    for name in ("make_np_sum", "make_np_clamp")
}
