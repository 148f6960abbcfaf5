"""Contract of ``make_sized_bounded_float_ordered_sum``: the theorem of make_sized_bounded_float_ordered_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound (with the exact relaxation:
``log2`` as a sympy logarithm).
"""

from hypothesis import strategies as st

from certdp.transformations._summation.float_sum_contracts import float_sum_contract

from .make_sized_bounded_float_ordered_sum import make_sized_bounded_float_ordered_sum

CONTRACT = float_sum_contract(
    make_sized_bounded_float_ordered_sum, sized=True, sizes=st.integers(0, 8)
)
