"""SMT models of the finite, exact parts of the samplers, and their bounded proofs.

* ``bernoulli_ratio(source, n, d)`` (bernoulli.py): the loop, unrolled for ``L`` random bits, in
  bit-vector arithmetic.  Acceptance condition: whenever it returns after reading the bits
  ``b_1 ... b_t`` (``t <= L``), the answer is the same for every uniform real ``V`` whose binary
  digits begin so: ``True`` only if ``P + 2^-t <= n / d`` and ``False`` only if ``P >= n / d``,
  with ``P = 0.b_1 ... b_t``.  So the answer is ``[V < n / d]`` (up to the null event
  ``V = n / d``), and ``Pr[True] = n / d``.  Proved for every ``0 <= n <= d < 2^6`` and every
  string of ``L = 10`` bits.
* ``EntropySource.below(n)`` (uniform.py): the rejection width ``w = bit_length(n - 1)`` satisfies
  ``n <= 2^w`` and ``2^w < 2 n`` (each round accepts with probability above 1/2, and the accepted
  candidates are uniform on ``[0, n)``), for every ``1 <= n < 2^16``; and ``bits(m)`` keeps
  exactly ``m`` of the ``8 ceil(m / 8)`` bits it reads, for every ``0 <= m < 2^16``.

``tests/prove/test_sampler_models.py`` runs the code on a scripted bit source and asserts the
model returns the same answer after reading the same number of bits.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = ["bernoulli_ratio_model", "below_width_model", "obligations", "MODELLED"]

RATIO_BITS = 6  # n, d < 2^6
RANDOM_BITS = 10  # L: random bits followed
_WIDE = RATIO_BITS + RANDOM_BITS + 4


def bernoulli_ratio_model(n, d, bits: list):
    """``(decided, answer, steps)`` of the loop on the random ``bits`` (z3 1-bit vectors or
    Python ints), for ``_WIDE``-bit ``n`` and ``d``; ``steps`` counts the bits read."""
    zero, one = z3.BitVecVal(0, _WIDE), z3.BitVecVal(1, _WIDE)
    decided = z3.Or(z3.ULE(n, zero), z3.UGE(n, d))
    answer = z3.UGE(n, d)  # n <= 0: False (first); n >= d: True
    answer = z3.If(z3.ULE(n, zero), z3.BoolVal(False), answer)
    steps = zero
    remainder = n
    for bit in bits:
        bit = bit if z3.is_expr(bit) else z3.BitVecVal(bit, 1)
        doubled = remainder << 1
        digit_one = z3.UGE(doubled, d)
        after = z3.If(digit_one, doubled - d, doubled)
        # digit 1 and V's digit 0: True; digit 0 and V's digit 1: False; else go on
        stops = z3.If(digit_one, bit == 0, bit == 1)
        result = digit_one  # when it stops: True iff the digit of n/d is 1
        answer = z3.If(decided, answer, result)
        steps = z3.If(decided, steps, steps + one)
        decided = z3.Or(decided, stops)
        remainder = z3.If(decided, remainder, after)
    return decided, answer, steps


def _bernoulli() -> Obligation:
    def violation():
        cases = []
        for denominator in range(1, 1 << RATIO_BITS):  # a constant d keeps the products linear
            n, d = z3.BitVec("n", _WIDE), z3.BitVecVal(denominator, _WIDE)
            bits = [z3.BitVec(f"b{i}", 1) for i in range(RANDOM_BITS)]
            decided, answer, steps = bernoulli_ratio_model(n, d, bits)
            wrong = []
            for t in range(0, RANDOM_BITS + 1):
                prefix = z3.BitVecVal(0, _WIDE)
                for bit in bits[:t]:
                    prefix = (prefix << 1) | z3.ZeroExt(_WIDE - 1, bit)
                scaled_n = n << t  # n 2^t
                wrong_true = z3.And(answer, z3.UGT((prefix + 1) * d, scaled_n))
                wrong_false = z3.And(z3.Not(answer), z3.ULT(prefix * d, scaled_n))
                wrong.append(z3.And(steps == t, z3.Or(wrong_true, wrong_false)))
            cases.append(
                (
                    z3.And(z3.ULE(n, d), decided, z3.Or(*wrong)),
                    lambda m, n=n, d=denominator, bits=bits: {
                        "n": m.eval(n).as_long(), "d": d,
                        "bits": [m.eval(b, True).as_long() for b in bits],
                    },
                )
            )  # fmt: skip
        return cases

    return Obligation(
        constructor="bernoulli_ratio",
        claim=f"every 0 <= n <= d < 2^{RATIO_BITS}, every {RANDOM_BITS}-bit string: "
        "a decision is [V < n/d] for every V with the bits read",
        format=f"u{RATIO_BITS}", size=RANDOM_BITS, violation=violation,
    )  # fmt: skip


def below_width_model(n, bits: int = 17):
    """``bit_length(n - 1)`` for a ``bits``-wide ``n >= 1``, as a z3 bit-vector."""
    m = n - 1
    width = z3.BitVecVal(0, bits)
    for i in range(bits):
        width = z3.If(z3.Extract(i, i, m) == 1, z3.BitVecVal(i + 1, bits), width)
    return width


def _below() -> Obligation:
    def violation():
        n = z3.BitVec("n", 40)
        narrow = z3.Extract(16, 0, n)
        width = z3.ZeroExt(23, below_width_model(narrow))
        power = z3.BitVecVal(1, 40) << width
        inside = z3.And(z3.UGE(n, 1), z3.ULT(n, 1 << 16))
        fails = z3.Or(z3.ULT(power, n), z3.UGE(power, 2 * n))
        m = z3.BitVec("m", 40)
        count = (m + 7) >> 3  # bytes read
        dropped = (-m) & 7
        kept_wrong = z3.And(z3.ULT(m, 1 << 16), 8 * count - dropped != m)
        return [
            (z3.And(inside, fails), lambda model: {"n": model.eval(n).as_long()}),
            (kept_wrong, lambda model: {"m": model.eval(m).as_long()}),
        ]

    return Obligation(
        constructor="uniform_below",
        claim="every 1 <= n < 2^16: n <= 2^w < 2n for w = bit_length(n - 1); "
        "bits(m) keeps m of the 8 ceil(m/8) bits read, every m < 2^16",
        format="u16", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    result = []
    if names is None or "bernoulli_ratio" in names:
        result.append(_bernoulli())
    if names is None or "uniform_below" in names:
        result.append(_below())
    return result


MODELLED = {
    "bernoulli_ratio": ["samplers/bernoulli.py"],
    "uniform_below": ["samplers/uniform.py"],
}

SCOPE = {
    "bernoulli_ratio": Scope(
        formats=("bit-vectors",),
        bound_to_code="a model of the loop, tested against the code on scripted bits (no map)",
        bit_precise=("every 0 <= n <= d < 2^6 and every string of 10 random bits",),
    ),
    "uniform_below": Scope(
        formats=("bit-vectors",),
        bound_to_code="a model of the rejection width and bit extraction, tested against the "
        "code (no map)",
        bit_precise=("every 1 <= n < 2^16 and every 0 <= m < 2^16",),
    ),
}
