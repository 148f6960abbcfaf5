"""The SMT vocabulary shared by the bounded proofs (``certdp prove``) and the models beside the
constructors: carrier types as z3 sorts, Rust's integer additions, the neighbour relations as
symbolic edit scripts, and the exact comparison of two outputs with a map value.

Guarantee of the encodings (each is exact, not an approximation):

* :func:`edit_scripts` lists, for each dataset length, every script of at most ``d`` single-
  record insertions or deletions at any positions: applied to a symbolic ``x`` they reach
  exactly the datasets at insert-delete distance ``<= d`` from ``x``.  With :func:`permute` after
  them, exactly the datasets at symmetric distance ``<= d`` (the symmetric distance of
  multisets counts insertions and deletions only).
* :func:`within_int` and :func:`within_float` decide ``|a - b| <= bound`` exactly: integers are
  widened by two bits before subtracting, and for floats the difference is rounded toward
  ``+inf``, which is at most a float ``bound`` exactly when the exact difference is.
"""

from __future__ import annotations

from fractions import Fraction

import z3

__all__ = [
    "FORMATS",
    "solver_version",
    "int_sort_bits",
    "int_value",
    "int_bounds",
    "saturating_add",
    "wrapping_add",
    "add_overflows",
    "float_sort",
    "float_value",
    "float_of",
    "float_exact",
    "float_round_up",
    "edit_scripts",
    "apply_script",
    "permute",
    "elementwise_cases",
    "within_int",
    "within_float",
    "real_value",
    "concrete",
]

#: IEEE formats by name: (exponent bits, significand bits including the hidden bit).
FORMATS = {"f64": (11, 53), "f32": (8, 24), "f16": (5, 11), "f8": (4, 4), "f6": (3, 3)}

_POSITION_BITS = 8


def solver_version() -> str:
    import bitwuzla

    return f"z3 {z3.get_version_string()}, bitwuzla {bitwuzla.version()}"


# -- integers as bit-vectors -------------------------------------------------------------


def int_sort_bits(T) -> int:
    return T.bits


def int_value(value: int, bits: int) -> z3.BitVecNumRef:
    """``value`` (a Python int of the type) as a ``bits``-wide bit-vector (two's complement)."""
    return z3.BitVecVal(value % (1 << bits), bits)


def int_bounds(element, T, lower: int, upper: int):
    """``lower <= element <= upper`` in ``T``'s order (signed or unsigned)."""
    lo, hi = int_value(lower, T.bits), int_value(upper, T.bits)
    if T.is_signed:
        return z3.And(lo <= element, element <= hi)
    return z3.And(z3.ULE(lo, element), z3.ULE(element, hi))


def add_overflows(a, b, signed: bool):
    """Does ``a + b`` leave the range of the type (Rust's ``checked_add`` returns ``None``)?"""
    if signed:
        return z3.Not(z3.And(z3.BVAddNoOverflow(a, b, True), z3.BVAddNoUnderflow(a, b)))
    return z3.Not(z3.BVAddNoOverflow(a, b, False))


def wrapping_add(a, b):
    """Rust's ``wrapping_add`` (and ``+`` in a release build): addition modulo ``2**bits``."""
    return a + b


def saturating_add(a, b, signed: bool):
    """Rust's ``saturating_add``: the exact sum (one bit wider) clamped to the type's range."""
    bits = a.size()
    widen = z3.SignExt if signed else z3.ZeroExt
    exact = widen(1, a) + widen(1, b)
    if signed:
        high = z3.BitVecVal((1 << (bits - 1)) - 1, bits + 1)
        low = z3.BitVecVal(-(1 << (bits - 1)), bits + 1)
        clamped = z3.If(exact > high, high, z3.If(exact < low, low, exact))
    else:
        high = z3.BitVecVal((1 << bits) - 1, bits + 1)
        clamped = z3.If(z3.UGT(exact, high), high, exact)
    return z3.Extract(bits - 1, 0, clamped)


def within_int(a, b, bound: int, signed: bool):
    """``|a - b| <= bound`` for two values of a ``bits``-wide type, exactly."""
    bits = a.size()
    widen = z3.SignExt if signed else z3.ZeroExt
    wide_a, wide_b = widen(2, a), widen(2, b)
    difference = wide_a - wide_b
    limit = z3.BitVecVal(bound, bits + 2)
    return z3.And(difference <= limit, -difference <= limit)


# -- floats ------------------------------------------------------------------------------


def float_sort(name: str) -> z3.FPSortRef:
    return z3.FPSort(*FORMATS[name])


def float_value(value: float, sort) -> z3.FPNumRef:
    """``value`` (exactly a value of ``sort``) as a z3 float; ``-0.0`` keeps its sign."""
    return z3.FPVal(float(value), sort)


def float_of(expression) -> float:
    """A closed z3 float term as a Python float (exact for formats within f64)."""
    number = z3.simplify(expression)
    if not z3.is_fp_value(number):
        raise TypeError(f"not a float numeral: {expression}")
    if number.isNaN():
        return float("nan")
    if number.isZero():
        return -0.0 if number.isNegative() else 0.0
    return (
        float(float_exact(number))
        if not number.isInf()
        else (float("-inf") if number.isNegative() else float("inf"))
    )


def float_exact(number) -> Fraction:
    """The exact value of a finite z3 float numeral (``-0.0`` gives 0)."""
    ebits, sbits = number.ebits(), number.sbits()
    raw = z3.simplify(z3.fpToIEEEBV(number)).as_long()
    fraction = raw & ((1 << (sbits - 1)) - 1)
    biased = (raw >> (sbits - 1)) & ((1 << ebits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if biased == 0:
        value = Fraction(fraction, 1 << (sbits - 1)) * Fraction(2) ** (1 - bias)
    else:
        value = Fraction((1 << (sbits - 1)) + fraction, 1 << (sbits - 1)) * Fraction(2) ** (
            biased - bias
        )
    return -value if raw >> (ebits + sbits - 1) else value


def real_value(value: Fraction) -> z3.RatNumRef:
    """The exact rational ``value`` as a z3 real."""
    value = Fraction(value)
    return z3.RealVal(f"{value.numerator}/{value.denominator}")


def float_round_up(value: Fraction, sort) -> z3.FPNumRef:
    """The least value of ``sort`` at or above the exact rational ``value`` (``+inf`` past it)."""
    return z3.simplify(z3.fpRealToFP(z3.RTP(), real_value(value), sort))


def within_float(a, b, bound):
    """``|a - b| <= bound`` exactly, for floats ``a, b`` and a float ``bound`` of one sort.

    Rounding toward ``+inf`` is monotone and fixes ``bound``, so the rounded-up difference is
    at most ``bound`` exactly when the exact difference is; a NaN difference (``inf - inf``)
    is never within."""
    return z3.And(
        z3.fpLEQ(z3.fpSub(z3.RTP(), a, b), bound), z3.fpLEQ(z3.fpSub(z3.RTP(), b, a), bound)
    )


# -- datasets of bounded length and their neighbours ---------------------------------------


def _position(value: int):
    return z3.BitVecVal(value, _POSITION_BITS)


def edit_scripts(N: int, d_in: int, size, at_end: bool, insert_at_end: bool = False):
    """Every ``(length, script)`` with ``length <= N`` (``== size`` if sized) and a script of at
    most ``d_in`` single-record edits ``("delete", i)`` / ``("insert", i)`` keeping every length in
    ``[0, N]`` (and ending at ``size`` if sized).  Deletions come first: any edit script can be
    reordered so, reaching the same dataset.  With ``at_end`` the edits touch only the last
    position (enough for order-invariant models); with ``insert_at_end`` only the insertions do
    (enough when a symbolic permutation follows: it moves the inserted records anywhere)."""
    cases = []

    def extend(start, length, script, deleting):
        final_ok = size is None or length == size
        if final_ok and script:
            cases.append((start, tuple(script)))
        if len(script) == d_in:
            return
        if deleting and length > 0:
            for i in [length - 1] if at_end else range(length):
                extend(start, length - 1, script + [("delete", i)], True)
        if length < N:
            for i in [length] if at_end or insert_at_end else range(length + 1):
                extend(start, length + 1, script + [("insert", i)], False)

    for start in range(N + 1) if size is None else [size]:
        extend(start, start, [], True)
    return cases


def apply_script(records: list, script, fresh):
    """The records after the script; ``fresh(label)`` makes each inserted record."""
    records, inserted = list(records), []
    for step, (kind, i) in enumerate(script):
        if kind == "delete":
            del records[i]
        else:
            record = fresh(f"new{step}")
            inserted.append(record)
            records.insert(i, record)
    return records, inserted


def permute(slots: list, capacity: int, length, prefix: str):
    """The first ``length`` (symbolic, ``<= capacity``) records of ``slots`` in any order:
    returns ``(permuted, constraints)``."""
    picks = [z3.BitVec(f"{prefix}perm{j}", _POSITION_BITS) for j in range(capacity)]
    constraints = [
        z3.Implies(z3.ULT(_position(j), length), z3.ULT(p, length)) for j, p in enumerate(picks)
    ]
    for j in range(capacity):
        for i in range(j):
            both = z3.And(z3.ULT(_position(i), length), z3.ULT(_position(j), length))
            constraints.append(z3.Implies(both, picks[i] != picks[j]))
    permuted = []
    for p in picks:
        chosen = slots[capacity - 1]
        for k in range(capacity - 2, -1, -1):
            chosen = z3.If(p == k, slots[k], chosen)
        permuted.append(chosen)
    return permuted, constraints


def elementwise_cases(record_model, element_of, inside, output_inside, N, d_in, metric, size=None):
    """Violation cases of an elementwise transformation ``f(x) = [g(r) for r in x]``:

    * some record of the input domain has ``g(r)`` outside the output element domain;
    * for each dataset length and edit script of at most ``d_in`` edits (the neighbours at
      distance ``<= d_in``, see :func:`edit_scripts`), ``f(x')`` differs from the same script
      applied to ``f(x)`` with the inserted records mapped by ``g``.  When no case is
      satisfiable, ``f(x')`` is reached from ``f(x)`` by the same ``<= d_in`` edits (and the
      same permutation, under the symmetric distance), so the outputs are ``d_in``-close.

    Records compare with SMT equality (``=``: bit for bit on floats, ``-0.0 != +0.0``)."""
    r = element_of("r")
    cases = [(z3.And(inside(r), z3.Not(output_inside(record_model(r)))), lambda m: {"r": m[r]})]
    for length, script in edit_scripts(N, d_in, size, at_end=False):
        x = [element_of(f"x{k}") for k in range(length)]
        x_prime, inserted = apply_script(x, script, element_of)
        image = [record_model(v) for v in x]
        mapped = iter([record_model(v) for v in inserted])
        image_prime, _ = apply_script(image, script, lambda label, it=mapped: next(it))
        differs = z3.Or(*[record_model(a) != b for a, b in zip(x_prime, image_prime)])
        constraints = [inside(v) for v in x + inserted]
        cases.append(
            (z3.And(*constraints, differs), lambda m, x=x, xp=x_prime: {"x": x, "x_prime": xp})
        )
    return cases


def concrete(expression):
    """Evaluate a closed z3 term to a numeral (the models are evaluated on concrete data by the
    tests that tie them to the code)."""
    return z3.simplify(expression)
