"""Contract of ``make_bounded_float_checked_sum``: the theorem of make_bounded_float_checked_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound (with the exact relaxation:
``log2`` as a sympy logarithm).
"""

from hypothesis import strategies as st

from certdp.transformations._summation.float_sum_contracts import float_sum_contract

from .make_bounded_float_checked_sum import make_bounded_float_checked_sum

# size_limit >= 12 >= the longest dataset the search draws, so the function never samples a
# random subset here (the coupled truncation is tested on its own in tests/sums).
CONTRACT = float_sum_contract(
    make_bounded_float_checked_sum, sized=False, sizes=st.integers(12, 24)
)
