"""Contract of ``make_sized_bounded_int_checked_sum``: the theorem of make_sized_bounded_int_checked_sum.tex, executable.

Preconditions (ids as in the proof) and the stability bound
``floor(d_in / 2) * (U - L)``.
"""

from certdp.contracts.contract import TransformationContract
from certdp.transformations._summation.integer_sum_contracts import (
    SIZED_BOUND,
    bound_parameters,
    integer_sum_arguments,
    preconditions,
    representable_distances,
)

from .make_sized_bounded_int_checked_sum import make_sized_bounded_int_checked_sum

PRECONDITIONS = preconditions(
    "T-integer",
    "bounds-of-T",
    "size-non-negative",
    "sum-cannot-overflow",
    "range-representable",
    "bounds-ordered",
)

CONTRACT = TransformationContract(
    constructor=make_sized_bounded_int_checked_sum,
    preconditions=PRECONDITIONS,
    bound=SIZED_BOUND,
    parameters=bound_parameters,
    arguments=lambda: integer_sum_arguments(sized=True, conditions=PRECONDITIONS),
    d_in=representable_distances(sized=True),
)
