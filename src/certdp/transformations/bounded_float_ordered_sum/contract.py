"""Contract of ``make_bounded_float_ordered_sum``: the theorem of make_bounded_float_ordered_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound (with the exact relaxation:
``log2`` as a sympy logarithm).
"""

from hypothesis import strategies as st

from certdp.transformations._summation.float_sum_contracts import float_sum_contract

from .make_bounded_float_ordered_sum import make_bounded_float_ordered_sum

CONTRACT = float_sum_contract(make_bounded_float_ordered_sum, sized=False, sizes=st.integers(0, 14))
