"""Contract of ``make_sized_bounded_int_monotonic_sum``: the theorem of make_sized_bounded_int_monotonic_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound ``floor(d_in / 2) * (U - L)``.
"""

from certdp.transformations._summation.integer_sum_contracts import integer_sum_contract

from .make_sized_bounded_int_monotonic_sum import make_sized_bounded_int_monotonic_sum

CONTRACT = integer_sum_contract(
    make_sized_bounded_int_monotonic_sum,
    sized=True,
    conditions=(
        "T-integer bounds-of-T size-non-negative "
        "bounds-share-sign range-representable bounds-ordered"
    ),
)
