"""SMT models of the summation kernels, and the bounded stability theorems of every sum.

The models are z3 terms built the way OpenDP's Rust computes: folds of ``saturating_add``, of
``checked_add`` (with the overflow flag), the pairwise tree, the sequential fold from ``-0.0``.
Integers are modelled twice, as bit-vectors (two's complement, each width) and in exact integer
arithmetic on the range of each width (``exact_*``: Rust's definitions of the saturating and
checked additions); the theorems are stated in the exact form, which linear arithmetic decides
in milliseconds where bit-blasting 128-bit saturating folds does not finish.  Floats are IEEE
``FPSort`` terms.  ``tests/prove/test_summation_model.py`` evaluates each model on random concrete data
and asserts it equals the output of the code in ``integer_summation.py`` /
``float_summation.py`` bit for bit, so a model cannot drift from the code it stands for.

The theorem of a sum, instantiated: for every dataset ``x`` of at most ``N`` records (exactly
``size`` for the sized sums) in the bounds, and every ``x'`` of the same kind at distance at most
``d_in``, ``|f(x) - f(x')| <= map(d_in)``, where ``map`` is the real constructor's map at those
parameters (called, not re-derived), and a checked sum never overflows.

How the neighbour relation is encoded (exactly, see :mod:`certdp.contracts.smt`):

* insert-delete distance: ``x'`` is ``x`` after at most ``d_in`` insertions or deletions at
  symbolic positions (every pair at distance ``<= d_in`` is reachable so, and no other);
* symmetric distance: the same, followed by a symbolic permutation of ``x'``.  For the integer
  sums the permutation is left out, because their models are proven order-invariant first:
  obligation ``fold == symmetric form`` shows that on every in-domain dataset of length
  ``<= N`` the fold equals a function of exact sums of the records
  (:func:`canonical_model`), and a sum of integers does not depend on the order of its terms.
  So ``f(pi(x')) = f(x')``; then it is enough to edit at the end of the dataset (any record can
  be moved there first), and the stability obligations use the symmetric form.  The float sums
  are order-dependent (rounding), and keep the symbolic permutation.

Every dataset length and every edit script is its own case (a separate solver call), so no
record is padded and each case is small.

Float sums are proved two ways.  Directly and bit-precisely in a small IEEE format (``f8``),
where the proofs, parametric in the precision ``p`` of ``T``, give the map by the proof's
formula at that precision (ideal term plus twice the error bound of ``float_summation.tex``
with ``k = p - 1`` stored bits), rounded up once; and in ``f32`` and ``f64`` compositionally,
with the real constructors' maps: a bit-precise lemma on one IEEE addition (Bitwuzla), and the
sum theorem on the code's own fold with each addition abstracted by that lemma (z3, exact
rational arithmetic); see the section "float sums in f32 and f64, compositionally".
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import (
    FORMATS,
    add_overflows,
    apply_script,
    edit_scripts,
    float_round_up,
    float_sort,
    float_value,
    permute,
    real_value,
    saturating_add,
    within_float,
)
from certdp.contracts.smt_code import Scope
from certdp.core.errors import DPError
from certdp.core.types import INTEGER_TYPES, carrier
from certdp.numeric import inf_log2

__all__ = [
    "checked_fold",
    "saturating_fold",
    "split_fold",
    "sequential_fold",
    "pairwise_tree",
    "reduced_precision_map",
    "obligations",
]


# -- models of the kernels ---------------------------------------------------------------


def checked_fold(terms: list, bits: int, signed: bool):
    """Rust's ``try_fold(0, checked_add)``: ``(wrapping sum, did any addition overflow?)``.

    A release build's ``iter().sum()`` returns the wrapping sum; when the flag is false it
    equals the exact sum (the checked sum's constructor must make the flag impossible)."""
    total, overflowed = z3.BitVecVal(0, bits), z3.BoolVal(False)
    for term in terms:
        overflowed = z3.Or(overflowed, add_overflows(total, term, signed))
        total = total + term
    return total, overflowed


def saturating_fold(terms: list, bits: int, signed: bool):
    """Rust's ``fold(0, saturating_add)`` in order."""
    total = z3.BitVecVal(0, bits)
    for term in terms:
        total = saturating_add(total, term, signed)
    return total


def split_fold(terms: list, bits: int, signed: bool):
    """OpenDP's split sum: saturating folds of the negative and of the positive records, then
    their saturating sum (for unsigned types, only the positive fold)."""
    zero = z3.BitVecVal(0, bits)
    if not signed:
        return saturating_fold(terms, bits, signed)
    negatives = saturating_fold([z3.If(t < 0, t, zero) for t in terms], bits, signed)
    positives = saturating_fold([z3.If(t > 0, t, zero) for t in terms], bits, signed)
    return saturating_add(negatives, positives, signed)


# The integer kernels again, in exact integer arithmetic (z3 ``Int``, linear arithmetic) on
# the range ``[T.min, T.max]`` of the type.  Rust defines ``saturating_add`` as the exact sum
# clamped to the range, and ``checked_add`` as ``None`` exactly when the exact sum leaves it, so
# these are the same functions as the bit-vector folds above on every value of ``T`` (a
# ``bits``-wide word and an integer of the range are the same value); the tests evaluate both
# against the code.  The solver decides the theorems far faster in this form: bit-blasting the
# comparisons of 128-bit saturating folds does not finish in minutes, linear arithmetic takes
# milliseconds.


def exact_clamp(value, T):
    """``value`` (an integer term) clamped to ``[T.min, T.max]``."""
    high, low = z3.IntVal(T.max), z3.IntVal(T.min)
    return z3.If(value > high, high, z3.If(value < low, low, value))


def exact_inside(value, T, lower=None, upper=None):
    """``lower <= value <= upper`` (default: the range of ``T``)."""
    lower = T.min if lower is None else lower
    upper = T.max if upper is None else upper
    return z3.And(z3.IntVal(lower) <= value, value <= z3.IntVal(upper))


def exact_saturating_add(a, b, T):
    """Rust's ``saturating_add`` on ``T``: the exact sum clamped to the range."""
    return exact_clamp(a + b, T)


def exact_checked_fold(terms: list, T):
    """Rust's ``try_fold(0, checked_add)``: ``(exact sum, did any partial sum leave the range?)``
    (when the flag is false the exact sum is what the code returns; the checked sums'
    constructors must make the flag impossible)."""
    total, overflowed = z3.IntVal(0), z3.BoolVal(False)
    for term in terms:
        total = total + term
        overflowed = z3.Or(overflowed, z3.Not(exact_inside(total, T)))
    return total, overflowed


def exact_saturating_fold(terms: list, T):
    """Rust's ``fold(0, saturating_add)`` in order."""
    total = z3.IntVal(0)
    for term in terms:
        total = exact_saturating_add(total, term, T)
    return total


def exact_split_fold(terms: list, T):
    """OpenDP's split sum: saturating folds of the negative and of the positive records, then
    their saturating sum (for unsigned types, only the positive fold)."""
    if not T.is_signed:
        return exact_saturating_fold(terms, T)
    zero = z3.IntVal(0)
    negatives = exact_saturating_fold([z3.If(t < 0, t, zero) for t in terms], T)
    positives = exact_saturating_fold([z3.If(t > 0, t, zero) for t in terms], T)
    return exact_saturating_add(negatives, positives, T)


def exact_within(a, b, bound: int):
    """``|a - b| <= bound`` for integer terms."""
    limit = z3.IntVal(bound)
    return z3.And(a - b <= limit, b - a <= limit)


def _clamp_finite(value, sort):
    largest = z3.fpMaxValue(sort) if hasattr(z3, "fpMaxValue") else _max_value(sort)
    return z3.If(z3.fpGT(value, largest), largest, z3.If(z3.fpLT(value, -largest), -largest, value))


def _max_value(sort):
    ebits, sbits = sort.ebits(), sort.sbits()
    biased = (1 << ebits) - 2
    raw = (biased << (sbits - 1)) | ((1 << (sbits - 1)) - 1)
    return z3.fpBVToFP(z3.BitVecVal(raw, ebits + sbits), sort)


class IEEEArithmetic:
    """The code's own arithmetic on ``sort``: IEEE addition rounding to nearest (ties to even)
    and the clamp of the saturating sums to ``[-MAX, MAX]``."""

    def __init__(self, sort):
        self.sort = sort

    def zero(self, negative: bool):
        return z3.fpMinusZero(self.sort) if negative else z3.fpPlusZero(self.sort)

    def add(self, a, b):
        return z3.fpAdd(z3.RNE(), a, b)

    def clamp(self, value):
        return _clamp_finite(value, self.sort)


def sequential_fold(terms: list, sort, saturate: bool = False, arithmetic=None):
    """``((s + v_0) + v_1) + ...`` rounding to nearest (ties to even); ``s = -0.0`` (Rust's
    ``Iterator::sum``), or ``s = +0.0`` with every addition clamped to ``[-MAX, MAX]``
    (OpenDP's saturating fold).  ``arithmetic`` (default: IEEE on ``sort``) does the additions."""
    ops = arithmetic or IEEEArithmetic(sort)
    total = ops.zero(negative=not saturate)
    for term in terms:
        total = ops.add(total, term)
        if saturate:
            total = ops.clamp(total)
    return total


def pairwise_tree(terms: list, sort, saturate: bool = False, arithmetic=None):
    """``sum(v) = sum(v[:m]) + sum(v[m:])``, ``m = len(v) // 2``; one record is itself, none is
    ``+0.0``; with ``saturate`` every addition is clamped to ``[-MAX, MAX]``."""
    ops = arithmetic or IEEEArithmetic(sort)
    if not terms:
        return ops.zero(negative=False)
    if len(terms) == 1:
        return terms[0]
    half = len(terms) // 2
    total = ops.add(
        pairwise_tree(terms[:half], sort, saturate, ops),
        pairwise_tree(terms[half:], sort, saturate, ops),
    )
    return ops.clamp(total) if saturate else total


# -- the theorems --------------------------------------------------------------------------

_SIZE = 4  # N for the integer sums


def _sum_obligation(
    name, built, model, element_of, inside, within, decode_record, size, N, d_in, metric,
    order_invariant, claim, fmt, bound,
):  # fmt: skip
    """The violation formulas (one per dataset length and edit script) of
    ``|f(x) - f(x')| <= bound`` for neighbours at distance ``<= d_in``."""
    at_end = metric == "symmetric" and order_invariant

    def violation():
        cases = []
        permuted = metric == "symmetric" and not order_invariant
        for length, script in edit_scripts(N, d_in, size, at_end, insert_at_end=permuted):
            x = [element_of(f"x{k}") for k in range(length)]
            x_prime, inserted = apply_script(x, script, element_of)
            constraints = [inside(r) for r in x + inserted]
            if permuted and len(x_prime) > 1:
                x_prime, more = permute(x_prime, len(x_prime), len(x_prime), "p")
                constraints += more
            # a model returns (output, failed?) and may add assumptions (its lemma instances)
            (out, fail, *assumed), (out_prime, fail_prime, *assumed_prime) = (
                model(x),
                model(x_prime),
            )
            constraints += assumed + assumed_prime
            bad = z3.Or(fail, fail_prime, z3.Not(within(out, out_prime, bound)))
            cases.append((z3.And(*constraints, bad), _decoder(x, x_prime, out, out_prime)))
        return cases

    def _decoder(x, x_prime, out, out_prime):
        def decode(m):
            value = lambda e: m.eval(e, model_completion=True)  # noqa: E731
            return {
                "x": [decode_record(value(r)) for r in x],
                "x_prime": [decode_record(value(r)) for r in x_prime],
                "d_in": d_in,
                "map": str(bound),
                "f(x)": str(value(out)),
                "f(x')": str(value(out_prime)),
            }

        return decode

    def confirm(example):
        if built is None:
            return "no constructor at this precision"
        try:
            fx, fxp = built(example["x"]), built(example["x_prime"])
        except DPError as error:
            return f"the code raises {type(error).__name__}: {error}"
        gap = abs(Fraction(fx) - Fraction(fxp))
        stated = built.map(d_in)
        verdict = "violates" if gap > Fraction(stated) else "does not violate"
        return f"code: f(x)={fx!r}, f(x')={fxp!r}, |diff|={float(gap)!r} {verdict} map {stated!r}"

    return Obligation(
        constructor=name, claim=claim, format=fmt, size=N, violation=violation, confirm=confirm,
        tags={"d_in": d_in},
    )  # fmt: skip


def _int_kernel(kind: str, T):
    """The fold of ``kind`` in exact integer arithmetic on ``T``'s range: ``terms -> (output,
    did a checked addition overflow?)``."""
    no = z3.BoolVal(False)
    if kind == "checked":
        return lambda terms: exact_checked_fold(terms, T)
    if kind == "split":
        return lambda terms: (exact_split_fold(terms, T), no)
    return lambda terms: (exact_saturating_fold(terms, T), no)


#: Integer sum constructors: (module, sized?, metric, kernel).
INTEGER_SUMS = {
    "make_sized_bounded_int_checked_sum": (True, "symmetric", "checked"),
    "make_sized_bounded_int_monotonic_sum": (True, "symmetric", "monotonic"),
    "make_sized_bounded_int_split_sum": (True, "symmetric", "split"),
    "make_sized_bounded_int_ordered_sum": (True, "insert_delete", "ordered"),
    "make_bounded_int_monotonic_sum": (False, "symmetric", "monotonic"),
    "make_bounded_int_split_sum": (False, "symmetric", "split"),
    "make_bounded_int_ordered_sum": (False, "insert_delete", "ordered"),
}


def integer_bound_cases(T) -> list[tuple[int, int]]:
    """Bounds per type: small of both signs, extreme (saturation, refusals), one sign."""
    if T.is_signed:
        return [(-3, 5), (-T.max, T.max), (0, T.max)]
    return [(0, 5), (0, T.max)]


def constructor(name: str):
    import importlib

    folder = name.removeprefix("make_")
    module = importlib.import_module(f"certdp.transformations.{folder}")
    return getattr(module, name)


def _int_distances(sized: bool, metric: str) -> tuple[int, ...]:
    """The ``d_in`` proved: the least distance of distinct neighbours (2 for sized datasets: one
    record changed; 1 otherwise).  Larger ``d_in`` follow by the triangle inequality because
    the maps are ``d_in`` (or ``d_in // 2``) times a constant."""
    return (2,) if sized else (1,)


def int_sum_instances(name: str, T, map_shift: int = 0, d_values=None):
    """The obligations of an integer sum for type ``T`` (``map_shift`` adds to the map: a
    deliberately wrong map for the tests)."""
    sized, metric, kind = INTEGER_SUMS[name]
    make = constructor(name)
    # under the symmetric distance, the symmetric form (equal to the fold: ``canonical``)
    model = canonical_model(kind, T) if metric == "symmetric" else _int_kernel(kind, T)
    result = []
    for lower, upper in integer_bound_cases(T):
        try:
            built = make(_SIZE, (lower, upper), T.name) if sized else make((lower, upper), T.name)
        except DPError:
            continue  # refused by the constructor: no theorem to prove at these bounds
        for d_in in d_values or _int_distances(sized, metric):
            try:
                bound = built.map(d_in) + map_shift
            except DPError:
                continue  # the map refuses this d_in (its product overflows T)
            if bound < 0:
                continue
            claim = f"{T.name} bounds=({lower}, {upper}) d_in={d_in}" + (
                f" size={_SIZE}" if sized else f" len<={_SIZE}"
            )
            result.append(
                _sum_obligation(
                    name,
                    built,
                    model,
                    element_of=z3.Int,
                    inside=lambda s, lo=lower, hi=upper: exact_inside(s, T, lo, hi),
                    within=exact_within,
                    decode_record=lambda v: v.as_long(),
                    size=_SIZE if sized else None,
                    N=_SIZE,
                    d_in=d_in,
                    metric=metric,
                    order_invariant=True,
                    claim=claim,
                    fmt=T.name,
                    bound=bound,
                )  # fmt: skip
            )
    return result


def canonical_model(kind: str, T):
    """A symmetric form of the kernel ``kind``: a function of exact sums of the records, which
    do not depend on the order of the records.  Obligation ``canonical`` proves it equal to the
    fold model on the domain, so the fold is order-invariant there."""

    def total(terms):
        return sum(terms, z3.IntVal(0))

    def checked(terms):
        exact = total(terms)
        return exact, z3.Not(exact_inside(exact, T)) if terms else z3.BoolVal(False)

    def monotonic(terms):
        return exact_clamp(total(terms), T), z3.BoolVal(False)

    def split(terms):
        if not T.is_signed:
            return monotonic(terms)
        zero = z3.IntVal(0)
        negatives = exact_clamp(total([z3.If(t < 0, t, zero) for t in terms]), T)
        positives = exact_clamp(total([z3.If(t > 0, t, zero) for t in terms]), T)
        return exact_saturating_add(negatives, positives, T), z3.BoolVal(False)

    return {"checked": checked, "monotonic": monotonic, "split": split}[kind]


def canonical_obligation(name: str, T, bounds):
    """On every in-domain dataset of length ``<= N``, the fold model equals the symmetric
    canonical form (and, for the checked sum, no partial sum overflows exactly when the total
    does not): the symmetric-distance encoding relies on this order-invariance."""
    _, metric, kind = INTEGER_SUMS[name]
    model, canonical = _int_kernel(kind, T), canonical_model(kind, T)
    lower, upper = bounds
    slots = [z3.Int(f"x{k}") for k in range(_SIZE)]

    def decode(m):
        return {"x": [m.eval(s, True).as_long() for s in slots]}

    def violation():
        cases = []
        for n in range(1, _SIZE + 1):
            (a, fa), (b, fb) = model(slots[:n]), canonical(slots[:n])
            inside = z3.And(*[exact_inside(s, T, lower, upper) for s in slots[:n]])
            cases.append((z3.And(inside, z3.Or(fa != fb, z3.And(z3.Not(fa), a != b))), decode))
        return cases

    return Obligation(
        constructor=name,
        claim=f"{T.name} bounds=({lower}, {upper}) fold == symmetric form len<={_SIZE}",
        format=T.name,
        size=_SIZE,
        violation=violation,
    )


def integer_obligations(names=None) -> list[Obligation]:
    result = []
    for name in INTEGER_SUMS:
        if names is not None and name not in names:
            continue
        for type_name in INTEGER_TYPES:
            T = carrier(type_name)
            instances = int_sum_instances(name, T)
            result += instances
            if INTEGER_SUMS[name][1] == "symmetric":
                seen = []
                for lower, upper in integer_bound_cases(T):
                    try:
                        constructor(name)(
                            *((_SIZE,) if INTEGER_SUMS[name][0] else ()), (lower, upper), T.name
                        )
                    except DPError:
                        continue
                    if (lower, upper) not in seen:
                        seen.append((lower, upper))
                        result.append(canonical_obligation(name, T, (lower, upper)))
    return result


# -- float sums --------------------------------------------------------------------------

FLOAT_SUMS = {
    "make_sized_bounded_float_checked_sum": (True, "symmetric", False),
    "make_bounded_float_checked_sum": (False, "symmetric", False),
    "make_sized_bounded_float_ordered_sum": (True, "insert_delete", True),
    "make_bounded_float_ordered_sum": (False, "insert_delete", True),
}


def _log2_upper(n: int) -> Fraction:
    """A bound ``>= log2(n)`` for an int ``n >= 1``, with no host elementary function: exact at
    powers of two, else ``certdp.numeric.inf_log2`` (the least f64 ``>= log2(n)``, proven in
    numeric/elementary.tex) while ``n`` is an f64, else the bit length of ``n``."""
    if n & (n - 1) == 0:
        return Fraction(n.bit_length() - 1)
    if n < 1 << 53:
        return Fraction(inf_log2(n))
    return Fraction(n.bit_length())


def relaxation_formula(algorithm: str, n: int, magnitude: Fraction, stored_bits: int) -> Fraction:
    """Twice the error bound of float_summation.tex for ``n`` records of magnitude at most
    ``magnitude`` with ``stored_bits`` explicitly stored significand bits, exactly."""
    two_to_k = Fraction(1 << stored_bits)
    if algorithm == "Sequential":
        error = Fraction(n * n) / two_to_k * magnitude
    else:
        u = _log2_upper(n) / two_to_k if n > 0 else Fraction(0)
        error = u / (1 - u) * n * magnitude
    return 2 * error


def reduced_precision_map(name, algorithm, fmt, size, bounds, d_in, relaxation=True) -> Fraction:
    """The map of the float sum ``name`` in the format ``fmt``, by the proof's formula."""
    sized, _, _ = FLOAT_SUMS[name]
    lower, upper = (Fraction(b) for b in bounds)
    magnitude = max(abs(lower), upper)
    if sized:
        ideal = (d_in // 2) * (upper - lower)
    else:
        ideal = d_in * max(upper - lower, magnitude)
    stored = FORMATS[fmt][1] - 1
    return ideal + (relaxation_formula(algorithm, size, magnitude, stored) if relaxation else 0)


def _real_float_sum(name, algorithm, fmt, N, bounds):
    """The real constructor ``name`` at these parameters (``f32``/``f64``), and its strategy."""
    from certdp.transformations._summation.float_summation import parse_summation

    lower, upper = bounds
    built = constructor(name)(N, (_as(fmt, lower), _as(fmt, upper)), S=f"{algorithm}<{fmt}>")
    return built, parse_summation(f"{algorithm}<{fmt}>")


def _stated_map(built, summation, N, bounds, d_in, relaxation: bool) -> Fraction:
    """The constructor's map at ``d_in``, exactly; with ``relaxation=False`` less its relaxation
    term (a deliberately wrong map, for the tests)."""
    from certdp.transformations._summation.float_summation import sum_relaxation

    stated = Fraction(built.map(d_in))
    if not relaxation:
        stated -= Fraction(sum_relaxation(summation, N, *bounds))
    return stated


def float_sum_instance(name, algorithm, fmt, N, bounds, d_in, relaxation=True):
    """One obligation of a float sum: in ``f32``/``f64`` the real constructor's map (and
    ``relaxation=False`` drops its relaxation term: a deliberately wrong map); in a reduced
    format, the formula's map."""
    sized, metric, saturate = FLOAT_SUMS[name]
    sort = float_sort(fmt)
    lower, upper = bounds
    built = None
    if fmt in ("f32", "f64"):
        built, summation = _real_float_sum(name, algorithm, fmt, N, bounds)
        bound = float_round_up(_stated_map(built, summation, N, bounds, d_in, relaxation), sort)
    else:
        bound = float_round_up(
            reduced_precision_map(name, algorithm, fmt, N, bounds, d_in, relaxation), sort
        )
    kernel = sequential_fold if algorithm == "Sequential" else pairwise_tree

    def model(terms):
        total = kernel(terms, sort, saturate)
        return total, z3.BoolVal(False) if saturate else z3.Or(z3.fpIsInf(total), z3.fpIsNaN(total))

    lo, hi = float_value(lower, sort), float_value(upper, sort)
    claim = (
        f"{algorithm}<{fmt}> bounds=({lower}, {upper}) d_in={d_in}"
        + (f" size={N}" if sized else f" len<={N}")
        + ("" if relaxation else " WITHOUT relaxation")
    )
    return _sum_obligation(
        name, built, model,
        element_of=lambda label: z3.FP(label, sort),
        inside=lambda s: z3.And(z3.fpLEQ(lo, s), z3.fpLEQ(s, hi)),
        within=within_float,
        decode_record=_decode_float,
        size=N if sized else None, N=N, d_in=d_in, metric=metric, order_invariant=False,
        claim=claim, fmt=fmt, bound=bound,
    )  # fmt: skip


def _as(fmt, value):
    import numpy as np

    return np.float32(value) if fmt == "f32" else float(value)


def _decode_float(value):
    from certdp.contracts.smt import float_of

    return float_of(value)


# -- float sums in f32 and f64, compositionally --------------------------------------------
#
# Bit-blasting a pair of f32 sums of three records (six records, four additions, a symbolic
# permutation) does not finish (see ``FLOAT_CASES``).  The theorem is proved in two machine-checked
# steps instead:
#
# 1. ``float_addition`` (bit-precise, every pair of finite values of the format, Bitwuzla): one
#    IEEE addition rounding to nearest, when ``|a + b| <= MAX``, gives a finite ``r`` with
#    ``|r - (a + b)| <= ADDITION_ERROR * |r|``.
# 2. the sum theorem (z3, exact rational arithmetic): the code's own fold or tree (the functions
#    above, with :class:`RoundedReals` as their arithmetic) in which each addition returns an
#    unknown real ``r`` constrained only by step 1, on records that are any reals in the bounds.
#    Every execution of the code is one of these (its records are reals in the bounds, and each
#    of its additions satisfies step 1), so when no neighbouring pair of such abstract executions
#    is farther apart than the constructor's map, none of the code's is.  An abstract execution
#    whose exact partial sum leaves ``[-MAX, MAX]`` counts as a violation, so the bounds proved
#    are ones where nothing overflows or saturates (saturation is proved in ``f8``, directly).
#
# A satisfiable case of step 2 is reported as a counterexample of the abstraction; ``confirm``
# runs the code on the records rounded to the format, and says whether the code violates.


def addition_error(fmt: str) -> Fraction:
    """The relative error ``2^-p (1 + 2^-20)`` of one addition in ``fmt`` (precision ``p``) that
    ``float_addition`` proves: ``2^-p`` is the unit roundoff, and ``1 + 2^-20`` a safety margin
    (the lemma holds without it; a larger constant only weakens what the sums may assume)."""
    return Fraction(1, 1 << FORMATS[fmt][1]) * (1 + Fraction(1, 1 << 20))


def largest(fmt: str) -> Fraction:
    """``MAX``, the largest finite value of ``fmt``, exactly."""
    ebits, sbits = FORMATS[fmt]
    emax = (1 << (ebits - 1)) - 1
    return (2 - Fraction(1, 1 << (sbits - 1))) * Fraction(2) ** emax


#: The format in which an addition of ``fmt`` is enclosed: wide enough in exponent for every
#: value of ``fmt``, and in precision for the margin of :func:`addition_error`.
_ENCLOSING = {"f32": "f64", "f64": "f128"}


def addition_obligation(fmt: str) -> Obligation:
    """Step 1 in ``fmt``: no finite ``a``, ``b`` with ``|a + b| <= MAX`` whose sum rounded to
    nearest is infinite or farther than ``addition_error(fmt) * |r|`` from ``a + b``.

    The exact sum is enclosed: ``lo`` and ``hi`` are ``a + b`` rounded down and up in the wider
    format (both exact conversions of ``a`` and ``b``), so ``lo <= a + b <= hi``; the formula
    asks, among the pairs whose enclosure meets ``[-MAX, MAX]`` (all pairs with
    ``|a + b| <= MAX``, and a few more), for an infinite ``r``, or ``r - lo`` or ``hi - r``
    (rounded up) above the bound (rounded down).  Unsatisfiable means the lemma holds for every
    pair."""
    sort = float_sort(fmt)
    wide = z3.FPSort(15, 113) if _ENCLOSING[fmt] == "f128" else float_sort(_ENCLOSING[fmt])
    a, b = z3.FP("a", sort), z3.FP("b", sort)
    finite = lambda v: z3.Not(z3.Or(z3.fpIsInf(v), z3.fpIsNaN(v)))  # noqa: E731
    r = z3.fpAdd(z3.RNE(), a, b)
    A, B, R = (z3.fpToFP(z3.RNE(), v, wide) for v in (a, b, r))
    lo, hi = z3.fpAdd(z3.RTN(), A, B), z3.fpAdd(z3.RTP(), A, B)
    error = addition_error(fmt)
    u = z3.simplify(z3.fpRealToFP(z3.RTN(), real_value(error), wide))
    bound = z3.fpMul(z3.RTN(), u, z3.fpAbs(R))
    MAX = z3.simplify(z3.fpRealToFP(z3.RNE(), real_value(largest(fmt)), wide))
    violation = z3.And(
        finite(a), finite(b), z3.fpLEQ(lo, MAX), z3.fpGEQ(hi, -MAX),
        z3.Or(
            z3.Not(finite(r)),
            z3.fpGT(z3.fpSub(z3.RTP(), R, lo), bound),
            z3.fpGT(z3.fpSub(z3.RTP(), hi, R), bound),
        ),
    )  # fmt: skip

    def decode(model):
        return {"a": model.get("a"), "b": model.get("b")}

    return Obligation(
        constructor="float_addition",
        claim=f"{fmt}: |a + b| <= MAX => |fl(a + b) - (a + b)| <= {error} |fl(a + b)|,"
        f" every finite a, b",
        format=fmt, size=2, violation=lambda: [(violation, decode)], solver="bitwuzla",
    )  # fmt: skip


class RoundedReals:
    """Step 2's arithmetic: records and partial sums are reals; each addition is a fresh real
    ``r`` with the lemma of step 1 as an assumption, and a flag when its exact sum leaves
    ``[-MAX, MAX]`` (where the lemma says nothing).  One instance per dataset's sum."""

    def __init__(self, fmt: str, prefix: str):
        self.prefix = prefix
        self.error, self.max = addition_error(fmt), largest(fmt)
        self.assumptions, self.overflows = [], []

    def zero(self, negative: bool):
        return z3.RealVal(0)

    def add(self, a, b):
        r = z3.Real(f"{self.prefix}r{len(self.assumptions)}")
        exact = a + b
        limit, u = real_value(self.max), real_value(self.error)
        magnitude = z3.If(r >= 0, r, -r)
        within_max = z3.And(-limit <= exact, exact <= limit)
        self.assumptions.append(
            z3.Implies(within_max, z3.And(r - exact <= u * magnitude, exact - r <= u * magnitude))
        )
        self.overflows.append(z3.Not(within_max))
        return r

    def clamp(self, value):
        limit = real_value(self.max)
        return z3.If(value > limit, limit, z3.If(value < -limit, -limit, value))


def _real_records(fmt, bounds):
    """Records of the abstraction: ``(inside, decode)``, any real in ``bounds``, and a model's
    value as the nearest value of ``fmt`` (what ``confirm`` runs the code on)."""
    lo, hi = (real_value(Fraction(b)) for b in bounds)

    def inside(v):
        return z3.And(lo <= v, v <= hi)

    def decode(v):
        return _as(fmt, float(Fraction(v.as_fraction())))

    return inside, decode


def _within_real(a, b, bound):
    return z3.And(a - b <= bound, b - a <= bound)


def float_sum_composition(name, algorithm, fmt, N, bounds, d_in, relaxation=True):
    """Step 2 for one instance: the real constructor's map at ``fmt`` (``relaxation=False``
    drops its relaxation term: a deliberately wrong map)."""
    sized, metric, saturate = FLOAT_SUMS[name]
    built, summation = _real_float_sum(name, algorithm, fmt, N, bounds)
    stated = _stated_map(built, summation, N, bounds, d_in, relaxation)
    kernel = sequential_fold if algorithm == "Sequential" else pairwise_tree
    calls = itertools.count()

    def model(terms):
        ops = RoundedReals(fmt, f"s{next(calls)}_")
        total = kernel(terms, None, saturate, ops)
        return total, z3.Or(False, *ops.overflows), z3.And(True, *ops.assumptions)

    inside, decode_record = _real_records(fmt, bounds)
    claim = (
        f"{algorithm}<{fmt}> bounds={bounds} d_in={d_in}"
        + (f" size={N}" if sized else f" len<={N}")
        + " (composed from float_addition)"
        + ("" if relaxation else " WITHOUT relaxation")
    )
    obligation = _sum_obligation(
        name, built, model,
        element_of=z3.Real, inside=inside, within=_within_real, decode_record=decode_record,
        size=N if sized else None, N=N, d_in=d_in, metric=metric, order_invariant=False,
        claim=claim, fmt=fmt, bound=real_value(stated),
    )  # fmt: skip
    obligation.tags["stated"] = str(stated)
    return obligation


def float_sum_by_lemmas(name, algorithm, fmt, N, bounds, d_values, relaxation=True):
    """The theorem at larger ``N``, split as the proof splits it: Lemma "error" (every dataset
    of the lengths the sum takes, abstract additions as above: ``|f(x) - sum(x)| <= E`` with
    ``E`` the code's own ``sum_error``, and no partial sum leaving ``[-MAX, MAX]``) and the ideal
    part (every neighbouring pair of real datasets: ``|sum(x) - sum(x')| <= map(d_in) - 2E``,
    with the real constructor's map).  Both unsatisfiable give, by the triangle inequality,
    ``|f(x) - f(x')| <= map(d_in)`` for every neighbouring pair the code can meet.  No pair of
    sums is abstracted together, so no symbolic permutation is needed: the exact sum does not
    depend on the order of its terms, and the error lemma holds for every order.
    ``d_values`` are the distances checked (one ``d_in`` or several: the error lemma does not
    depend on it, and for floats a larger ``d_in`` does not follow from a smaller one, since
    the relaxation term does not scale with it).  (``relaxation=False`` drops the map's
    relaxation term: a deliberately wrong map.)"""
    from certdp.transformations._summation.float_summation import sum_error

    sized, metric, saturate = FLOAT_SUMS[name]
    built, summation = _real_float_sum(name, algorithm, fmt, N, bounds)
    d_values = (d_values,) if isinstance(d_values, int) else tuple(d_values)
    stated = {d: _stated_map(built, summation, N, bounds, d, relaxation) for d in d_values}
    error = Fraction(sum_error(summation, N, *bounds))
    kernel = sequential_fold if algorithm == "Sequential" else pairwise_tree
    inside, decode_record = _real_records(fmt, bounds)

    def error_cases():
        cases = []
        for n in [N] if sized else range(1, N + 1):
            x = [z3.Real(f"x{k}") for k in range(n)]
            ops = RoundedReals(fmt, "s_")
            out, exact = kernel(x, None, saturate, ops), sum(x, z3.RealVal(0))
            limit = real_value(error)
            far = z3.Or(*ops.overflows, out - exact > limit, exact - out > limit)
            formula = z3.And(*[inside(v) for v in x], *ops.assumptions, far)

            def decode(m, x=x, out=out):
                def value(e):
                    return m.eval(e, model_completion=True)

                return {
                    "lemma": "error",
                    "x": [decode_record(value(v)) for v in x],
                    "E": str(error),
                    "f(x)": str(value(out)),
                }

            cases.append((formula, decode))
        return cases

    ideal = {
        d_in: _sum_obligation(
            name,
            built,
            lambda terms: (sum(terms, z3.RealVal(0)), z3.BoolVal(False)),
            element_of=z3.Real,
            inside=inside,
            within=_within_real,
            decode_record=decode_record,
            size=N if sized else None,
            N=N,
            d_in=d_in,
            metric=metric,
            order_invariant=True,
            claim="",
            fmt=fmt,
            bound=real_value(stated[d_in] - 2 * error),
        )  # fmt: skip
        for d_in in d_values
    }

    def confirm(example):
        if "x_prime" in example:
            return ideal[example["d_in"]].confirm(example)
        try:
            got = Fraction(built(example["x"]))
        except DPError as failure:
            return f"the code raises {type(failure).__name__}: {failure}"
        gap = abs(got - sum(Fraction(float(v)) for v in example["x"]))
        verdict = "exceeds" if gap > error else "is within"
        return f"code: f(x)={float(got)!r}, |f(x) - sum| = {float(gap)!r} {verdict} E"

    claim = (
        f"{algorithm}<{fmt}> bounds={bounds} d_in={','.join(map(str, d_values))}"
        + (f" size={N}" if sized else f" len<={N}")
        + " (Lemma error + ideal part, composed from float_addition)"
        + ("" if relaxation else " WITHOUT relaxation")
    )
    return Obligation(
        constructor=name, claim=claim, format=fmt, size=N,
        violation=lambda: error_cases() + [c for d in d_values for c in ideal[d].violation()],
        confirm=confirm,
        tags={"d_in": d_values, "E": str(error), "stated": {d: str(v) for d, v in stated.items()}},
    )  # fmt: skip


#: (format, N, bounds) of the split instances (:func:`float_sum_by_lemmas`).
SPLIT_CASES = [
    ("f32", 8, (-1.0, 1.0)),
    ("f64", 8, (0.0, 100.0)),
]


#: (format, N, bounds) of the compositional instances (:func:`float_sum_composition`).
#: Measured (two cores, one solver each): all eight sums at f32 N = 3 in 5 s, f32 N = 4 in 23 s,
#: f64 N = 3 in 7 s, f64 N = 4 in 56 s.  Not in the budget: N = 6 (the symbolic permutations of
#: six records; the first instance undecided after 5 minutes) and f64 N = 4 on (-1, 1) (the
#: first instance undecided after 90 s).
COMPOSED_CASES = [
    ("f32", 3, (-1.0, 1.0)),
    ("f32", 4, (0.0, 100.0)),
    ("f64", 3, (-1.0, 1.0)),
    ("f64", 4, (0.0, 100.0)),
]


#: (format, N, bounds) per direct float instance, in reduced-precision IEEE formats (``f8`` is
#: FP(4, 4): 3 stored significand bits, largest finite value 240), where rounding happens at
#: almost every addition and the ordered sums saturate.  Not in the budget of `make prove`
#: (measured on two cores shared with other work, load 6-8): f32 directly at N = 3 (the sized
#: ordered Sequential sum: the first 4 cases each undecided after 60 s, with z3 and with
#: Bitwuzla: f32 is proved compositionally, ``COMPOSED_CASES``), f8 at N = 6 (ordered Sequential
#: and Pairwise, undecided after 150 s each), f8 at N = 5 (one ordered Sequential instance
#: proved in 66 s: eight such instances do not fit).
FLOAT_CASES = [
    ("f8", 4, (-1.0, 1.0)),
    ("f8", 4, (0.0, 100.0)),
]


def float_obligations(names=None) -> list[Obligation]:
    result = []
    for name, (sized, _, saturate) in FLOAT_SUMS.items():
        if names is not None and name not in names:
            continue
        for algorithm in ("Sequential", "Pairwise"):
            for fmt, N, bounds in FLOAT_CASES:
                if not saturate and bounds[1] >= 100.0:
                    continue  # a checked sum refuses bounds that can overflow
                for d_in in (2,) if sized else (1,):
                    result.append(float_sum_instance(name, algorithm, fmt, N, bounds, d_in))
            for fmt, N, bounds in COMPOSED_CASES:
                d_in = 2 if sized else 1
                result.append(float_sum_composition(name, algorithm, fmt, N, bounds, d_in))
            for fmt, N, bounds in SPLIT_CASES:
                d_values = (2, 4) if sized else (1, 2, 3)
                result.append(float_sum_by_lemmas(name, algorithm, fmt, N, bounds, d_values))
    return result


def obligations(names=None) -> list[Obligation]:
    lemma = [] if names is not None and "float_addition" not in names else [
        addition_obligation(fmt) for fmt in sorted({fmt for fmt, _, _ in COMPOSED_CASES + SPLIT_CASES})
    ]  # fmt: skip
    return integer_obligations(names) + float_obligations(names) + lemma


def _files(name: str, lemma: str) -> list[str]:
    folder = name.removeprefix("make_")
    return [
        f"transformations/{folder}/{name}.py",
        f"transformations/_summation/{lemma}",
        "numeric/integers.py",
        "numeric/floats.py",
    ]


#: Per constructor, the code its model stands for (part of the fingerprint of its result).
MODELLED = {
    **{name: _files(name, "integer_summation.py") for name in INTEGER_SUMS},
    **{name: _files(name, "float_summation.py") for name in FLOAT_SUMS},
    "float_addition": [],  # a property of IEEE addition itself: no certdp code
}

#: The float sums' compositional instances rest on the addition lemma.
REQUIRES = {name: ["float_addition"] for name in FLOAT_SUMS}


def _sum_scope(name: str) -> Scope:
    if name in INTEGER_SUMS:
        return Scope(
            formats=INTEGER_TYPES,
            sizes=(_SIZE,),
            bound_to_code=f"the real {name} is built at each type and bounds, and its own map is "
            "called at each d_in",
            abstractions=("none: the folds are Rust's saturating and checked additions in exact "
                          "integer arithmetic on each type's range (the same functions as the "
                          "bit-vector folds, tested against the code)",),
        )  # fmt: skip
    return Scope(
        formats=("f32", "f64", "f8"),
        sizes=tuple(sorted({n for _, n, _ in FLOAT_CASES + COMPOSED_CASES + SPLIT_CASES})),
        bound_to_code=f"in f32 and f64 the real {name} is built and its own map called at "
        "each d_in; in f8 (no constructor exists) the map is the proof's formula at that "
        "precision",
        bit_precise=("the IEEE addition lemma float_addition (required), every pair of finite "
                     "f32/f64 values",),
        reduced_formats=(f"the whole sum in the reduced format f8 = FP(4, 4) at N = "
                         f"{sorted({n for _, n, _ in FLOAT_CASES})}, every f8 dataset within the "
                         f"bounds {', '.join(str(b) for _, _, b in FLOAT_CASES)} (its map by the proof's formula, not the code's: no constructor "
                         "exists in f8)",),
        abstractions=("the f32/f64 sums on the code's own fold with each addition a real within "
                      "the lemma's relative error (records any reals in the bounds)",),
    )  # fmt: skip


SCOPE = {
    **{name: _sum_scope(name) for name in (*INTEGER_SUMS, *FLOAT_SUMS)},
    "float_addition": Scope(
        formats=("f32", "f64"),
        bound_to_code="a property of IEEE addition itself (no certdp code)",
        bit_precise=("every pair of finite values of the format, Bitwuzla",),
    ),
}
