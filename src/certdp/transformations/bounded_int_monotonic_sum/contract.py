"""Contract of ``make_bounded_int_monotonic_sum``: the theorem of make_bounded_int_monotonic_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound
``d_in * max(|L|, U)``.
"""

from certdp.contracts.contract import TransformationContract
from certdp.transformations._summation.integer_sum_contracts import (
    UNSIZED_BOUND,
    bound_parameters,
    integer_sum_arguments,
    preconditions,
    representable_distances,
)

from .make_bounded_int_monotonic_sum import make_bounded_int_monotonic_sum

PRECONDITIONS = preconditions(
    "T-integer", "bounds-of-T", "bounds-share-sign", "bounds-ordered", "magnitude-representable"
)

CONTRACT = TransformationContract(
    constructor=make_bounded_int_monotonic_sum,
    preconditions=PRECONDITIONS,
    bound=UNSIZED_BOUND,
    parameters=bound_parameters,
    arguments=lambda: integer_sum_arguments(sized=False, conditions=PRECONDITIONS),
    d_in=representable_distances(sized=False),
)
