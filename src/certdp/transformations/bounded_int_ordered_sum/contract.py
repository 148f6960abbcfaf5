"""Contract of ``make_bounded_int_ordered_sum``: the theorem of make_bounded_int_ordered_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound ``d_in * max(|L|, U)``.
"""

from certdp.transformations._summation.integer_sum_contracts import integer_sum_contract

from .make_bounded_int_ordered_sum import make_bounded_int_ordered_sum

CONTRACT = integer_sum_contract(
    make_bounded_int_ordered_sum,
    sized=False,
    conditions="T-integer bounds-of-T bounds-ordered magnitude-representable",
)
