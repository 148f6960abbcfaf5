"""Contract of ``make_bounded_int_monotonic_sum``: the theorem of make_bounded_int_monotonic_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound ``d_in * max(|L|, U)``.
"""

from certdp.transformations._summation.integer_sum_contracts import integer_sum_contract

from .make_bounded_int_monotonic_sum import make_bounded_int_monotonic_sum

CONTRACT = integer_sum_contract(
    make_bounded_int_monotonic_sum,
    sized=False,
    conditions="T-integer bounds-of-T bounds-share-sign bounds-ordered magnitude-representable",
)
