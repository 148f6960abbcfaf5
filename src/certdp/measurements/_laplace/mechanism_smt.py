"""Bounded SMT obligations shared by the Laplace and Gaussian measurements: the finite, exact
parts of their privacy theorems (see ``smt_model.py`` in ``_laplace`` and ``_gaussian``).

* :func:`map_model` is the privacy map as the code computes it (the exact distance
  ``d_in + relaxation``, the exact quotient by ``scale``, or ``D^2 / (2 scale^2)``, rounded
  up once by ``inf_cast``), in IEEE floating-point theory, parametric in the input and target
  formats.  ``tests/prove/test_mechanism_models.py`` checks it bit for bit against the code's
  map (target ``f64``) and against ``inf_cast(q, "f32")`` (target ``f32``).
* :func:`rounding_up` proves the code's rounding step (``_round`` with ``direction="up"``:
  ``divmod`` then one increment when the remainder is non-zero) never returns less than the
  exact quotient, for every positive rational and every quantum: with ``divmod`` stated by its
  defining relation, this covers every ``f32``/``f64`` ``d_in``, ``scale``, ``k`` and size.
* :func:`laplace_llr` / :func:`l1_composition`: the log-likelihood bound of the discrete
  Laplace noise and the sum of the per-coordinate discretization bounds.
"""

from __future__ import annotations

import z3

__all__ = [
    "map_model",
    "map_circuit",
    "rounding_up",
    "laplace_llr",
    "l1_composition",
    "int64_fast_path",
    "REDUCED",
]

#: The reduced-precision IEEE format in which the solver decides the map's division circuit:
#: 4 exponent bits and 4 significand bits (smallest subnormal 2^-9, largest finite 240).
REDUCED = (4, 4)


def _finite(x):
    return z3.Not(z3.Or(z3.fpIsInf(x), z3.fpIsNaN(x)))


def map_model(distance, scale, target, *, gaussian=False, rounding=None):
    """The code's map on exact inputs given as z3 floats of one sort that holds them (and the
    products below) exactly: ``0`` if ``distance == 0``, ``+inf`` if ``scale == 0``, else the
    quotient ``distance / scale`` (Laplace) or ``distance^2 / (2 scale^2)`` (Gaussian) rounded
    toward ``+inf`` once into ``target`` (``+inf`` past its range).  ``rounding`` replaces
    the upward rounding (a deliberately wrong map, for the tests)."""
    rm = z3.RTP() if rounding is None else rounding
    exact = z3.RNE()  # every product below is exact in the working sort
    sort = distance.sort()
    if gaussian:
        numerator = z3.fpMul(exact, distance, distance)
        two = z3.FPVal(2.0, sort)
        denominator = z3.fpMul(exact, two, z3.fpMul(exact, scale, scale))
    else:
        numerator, denominator = distance, scale
    # rounding up into the working sort and then into the target (whose values it contains)
    # is rounding up once: directed roundings onto nested grids compose
    quotient = z3.fpToFP(rm, z3.fpDiv(rm, numerator, denominator), target)
    zero, infinity = z3.FPVal(0.0, target), z3.fpPlusInfinity(target)
    return z3.If(z3.fpIsZero(distance), zero, z3.If(z3.fpIsZero(scale), infinity, quotient))


def map_circuit(constructor: str, gaussian: bool = False, rounding=None, label: str = ""):
    """Obligation: for every finite ``d_in >= 0`` and ``scale >= 0`` of the reduced format
    (relaxation 0), the map model's value is ``+inf`` or ``>=`` the exact ``beta``."""
    from certdp.contracts.obligation import Obligation

    ebits, sbits = REDUCED
    small = z3.FPSort(ebits, sbits)
    work = z3.FPSort(ebits + 3, 2 * sbits + 4 if gaussian else sbits + 1)
    wide = z3.FPSort(ebits + 4, 4 * sbits + 4)

    def violation():
        d, b = z3.FP("d_in", small), z3.FP("scale", small)
        value = map_model(
            z3.fpToFP(z3.RNE(), d, work), z3.fpToFP(z3.RNE(), b, work), small,
            gaussian=gaussian, rounding=rounding,
        )  # fmt: skip

        def widen(x):
            return z3.fpToFP(z3.RNE(), x, wide)

        if gaussian:  # value * 2 b^2 >= d^2, exactly in the wide sort
            left = z3.fpMul(z3.RNE(), widen(value), z3.fpMul(z3.RNE(), widen(b), widen(b)))
            left = z3.fpMul(z3.RNE(), z3.FPVal(2.0, wide), left)
            right = z3.fpMul(z3.RNE(), widen(d), widen(d))
        else:
            left, right = z3.fpMul(z3.RNE(), widen(value), widen(b)), widen(d)
        below = z3.And(
            z3.Not(z3.fpIsZero(d)), z3.Not(z3.fpIsZero(b)), z3.Not(z3.fpIsInf(value)),
            z3.fpLT(left, right),
        )  # fmt: skip
        inside = z3.And(_finite(d), _finite(b), z3.fpGEQ(d, z3.FPVal(0.0, small)),
                        z3.fpGEQ(b, z3.FPVal(0.0, small)))  # fmt: skip
        zero_wrong = z3.And(z3.fpIsZero(d), z3.Not(z3.fpIsZero(value)))
        return z3.And(inside, z3.Or(below, zero_wrong)), lambda m: {
            "d_in": str(m.eval(d)), "scale": str(m.eval(b)), "map": str(m.eval(value)),
        }  # fmt: skip

    what = "d_in^2/(2 scale^2)" if gaussian else "d_in/scale"
    return Obligation(
        constructor=constructor,
        claim=f"part 1 (map arithmetic, division circuit){label}: every finite d_in, scale >= 0 "
        f"of the reduced IEEE format e{ebits}p{sbits} (relaxation 0): the map's one upward "
        f"rounding of {what} into e{ebits}p{sbits} is +inf or >= the exact value",
        format=f"e{ebits}p{sbits}", size=1, violation=violation,
    )  # fmt: skip


def rounding_up(constructor: str, what: str):
    """Obligation: the code's rounding of a positive rational ``q = N / B`` with quantum
    ``2^qe`` (``_round``, direction up: ``m, rem = divmod(N 2^-qe, B)`` for ``qe < 0``, else
    ``divmod(N, B 2^qe)``; ``r = m + (rem != 0)``) gives ``r 2^qe >= q``.  ``N, B >= 1`` and
    ``U = 2^|qe| >= 1`` range over all integers: a superset of every exact map quotient of
    every f32/f64 ``d_in``, ``scale``, ``k`` and size, and of every quantum."""
    from certdp.contracts.obligation import Obligation

    def violation():
        N, B, U, m, rem = z3.Ints("N B U m rem")
        r = z3.If(rem == 0, m, m + 1)
        positive = z3.And(N >= 1, B >= 1, U >= 1, rem >= 0)
        fine = z3.And(positive, N * U == m * B + rem, rem < B, r * B < N * U)
        coarse = z3.And(positive, N == m * B * U + rem, rem < B * U, r * U * B < N)

        def decode(model):
            return {v: str(model.eval(z)) for v, z in zip("NBUmr", (N, B, U, m, rem))}

        return [(fine, decode), (coarse, decode)]

    return Obligation(
        constructor=constructor,
        claim=f"part 1 (map arithmetic, every f32/f64 d_in, scale, k, size): {what} rounded "
        "up by inf_cast's divmod-and-increment is >= the exact value, for every positive "
        "rational and every quantum 2^qe (divmod by its defining relation; overflow is +inf)",
        format="rational", size=1, violation=violation,
    )  # fmt: skip


def _abs(v):
    return z3.If(v >= 0, v, -v)


def laplace_llr(constructor: str, size: int):
    """Obligation: for all integers ``z_i, a_i, a'_i`` (unbounded), ``sum_i |z_i - a'_i| -
    |z_i - a_i| <= sum_i |a_i - a'_i|``; and, for reals ``2^k > 0``, ``scale > 0``, ``S >= 0``
    with ``2^k S <= delta + R``, ``(2^k / scale) S <= (delta + R) / scale``."""
    from certdp.contracts.obligation import Obligation

    def violation():
        z = [z3.Int(f"z{i}") for i in range(size)]
        a = [z3.Int(f"a{i}") for i in range(size)]
        a2 = [z3.Int(f"b{i}") for i in range(size)]
        ratio = sum(_abs(z[i] - a2[i]) - _abs(z[i] - a[i]) for i in range(size))
        shift = sum(_abs(a[i] - a2[i]) for i in range(size))
        unit, scale, S, total = z3.Reals("unit scale S total")
        scaled = z3.And(unit > 0, scale > 0, S >= 0, total >= 0, unit * S <= total,
                        (unit / scale) * S > total / scale)  # fmt: skip
        return [
            (ratio > shift, lambda m: {"z": [str(m.eval(v)) for v in z]}),
            (scaled, lambda m: {"S": str(m.eval(S)), "scale": str(m.eval(scale))}),
        ]

    return Obligation(
        constructor=constructor,
        claim=f"part 3 (log-likelihood of the discrete Laplace noise), length {size}, every "
        "integer z, a, a' (unbounded): sum |z-a'| - |z-a| <= sum |a-a'|, and "
        "(2^k/scale) sum |a-a'| <= (delta + R)/scale when 2^k sum |a-a'| <= delta + R",
        format="integer", size=size, violation=violation,
    )  # fmt: skip


def l1_composition(constructor: str, size: int, relaxation_mismatch):
    """Obligation: the per-coordinate discretization bounds ``g_i <= u_i + r0`` (lemma
    ``discretization``) sum to ``sum g_i <= delta + R`` whenever ``sum u_i <= delta``, for every
    ``r0 >= 0`` and ``R = size r0``; ``relaxation_mismatch(size)`` returns ``None`` when the
    code's relaxation (read from built measurements) is ``size r0``, else a witness."""
    from certdp.contracts.obligation import Obligation

    def violation():
        found = relaxation_mismatch(size)
        if found is not None:
            return z3.BoolVal(True), lambda m: {"relaxation": found}
        g = [z3.Real(f"g{i}") for i in range(size)]
        u = [z3.Real(f"u{i}") for i in range(size)]
        delta, r = z3.Reals("delta r")
        hyp = [z3.And(u[i] >= 0, g[i] >= 0, g[i] <= u[i] + r) for i in range(size)]
        gap = z3.And(r >= 0, delta >= sum(u), *hyp, sum(g) > delta + size * r)
        return gap, lambda m: {"g": [str(m.eval(v)) for v in g]}

    return Obligation(
        constructor=constructor,
        claim=f"part 2 (discretization, L1), vectors of length {size}: the per-coordinate bounds "
        "2^k|a_i - a'_i| <= |x_i - x'_i| + r0 sum to 2^k ||a - a'||_1 <= d_in + R, every r0 >= 0, "
        "R = size r0 = the code's relaxation (read from built f32/f64 measurements at sampled k)",
        format="real", size=size, violation=violation,
    )  # fmt: skip


def int64_fast_path(constructor: str):
    """Obligation: for every integer type of at most 32 bits, every ``x`` of it and every
    int64 ``z`` with ``|z| < 2^62``, the int64 sum ``x + z`` does not overflow and clipping it
    to the type's range equals the exact ``clamp(x + z)`` (the function's fast path is the
    exact one)."""
    from certdp.contracts.obligation import Obligation
    from certdp.core.types import INTEGER_TYPES, carrier

    def violation():
        cases = []
        for name in INTEGER_TYPES:
            T = carrier(name)
            if T.bits > 32:
                continue
            x, z = z3.BitVec("x", T.bits), z3.BitVec("z", 64)
            wide_x = (z3.SignExt if T.is_signed else z3.ZeroExt)(64 - T.bits, x)
            small = z3.And(z > -(1 << 62), z < (1 << 62))
            overflow = z3.Not(z3.And(z3.BVAddNoOverflow(wide_x, z, True),
                                     z3.BVAddNoUnderflow(wide_x, z)))  # fmt: skip
            s64 = wide_x + z
            lo, hi = z3.BitVecVal(T.min, 64), z3.BitVecVal(T.max, 64)
            clipped = z3.If(s64 < lo, lo, z3.If(s64 > hi, hi, s64))
            exact = z3.SignExt(2, wide_x) + z3.SignExt(2, z)
            lo2, hi2 = z3.BitVecVal(T.min, 66), z3.BitVecVal(T.max, 66)
            clamped = z3.If(exact < lo2, lo2, z3.If(exact > hi2, hi2, exact))
            differs = z3.SignExt(2, clipped) != clamped
            cases.append((z3.And(small, z3.Or(overflow, differs)),
                          lambda m, x=x, z=z, t=name: {"T": t, "x": str(m.eval(x)),
                                                       "z": str(m.eval(z))}))  # fmt: skip
        return cases

    return Obligation(
        constructor=constructor,
        claim="part 2 (the release as a function of x + Z): for every integer type of <= 32 "
        "bits, every x and every int64 z with |z| < 2^62, the int64 sum does not overflow "
        "and its clip equals the exact clamp(x + z)",
        format="i64", size=1, violation=violation,
    )  # fmt: skip
