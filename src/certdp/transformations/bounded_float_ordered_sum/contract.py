"""Contract of ``make_bounded_float_ordered_sum``: the theorem of make_bounded_float_ordered_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound (with the exact relaxation:
``log2`` as a sympy logarithm).
"""

from hypothesis import strategies as st

from certdp.contracts.contract import TransformationContract
from certdp.core.errors import ArithmeticOverflowError
from certdp.transformations._summation.float_sum_contracts import (
    UNSIZED_BOUND,
    bound_parameters,
    float_sum_arguments,
    preconditions,
    representable_distances,
)

from .make_bounded_float_ordered_sum import make_bounded_float_ordered_sum

PRECONDITIONS = preconditions(
    "strategy-known",
    "bounds-finite-of-T",
    "bounds-ordered",
    "size-limit-non-negative",
)

CONTRACT = TransformationContract(
    constructor=make_bounded_float_ordered_sum,
    preconditions=PRECONDITIONS,
    bound=UNSIZED_BOUND,
    parameters=bound_parameters,
    arguments=lambda: float_sum_arguments(size_name="size_limit", sizes=st.integers(0, 14)),
    d_in=representable_distances,
    # overflow refusals (and refusals where no map is proven) are valid outcomes
    refusals=(ArithmeticOverflowError,),
)
