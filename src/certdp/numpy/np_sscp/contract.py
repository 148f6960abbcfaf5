"""Contract of ``make_np_sscp``: the theorem of make_np_sscp.tex, executable.

Bound: ``d_out = d_in``.  The output metric is the symmetric distance read in record space (two
matrices are ``d``-close when they come from ``d``-close datasets), so a pair is checked through
the datasets it came from, the witnesses the proof uses: the outputs must be members of the
output domain, equal to ``sscp_matrix`` of their datasets, and the datasets ``map(d_in)``-close.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from certdp.contracts.common import optional_sizes
from certdp.contracts.contract import (
    D_IN,
    Precondition,
    StabilityViolation,
    TransformationContract,
    as_rational,
)
from certdp.core.errors import ContractError
from certdp.core.metrics import symmetric_distance
from certdp.numpy._support import strategies  # noqa: F401  (registers the array neighbours)
from certdp.numpy._support.preconditions import INPUT_DOMAIN_ARRAY2, INPUT_METRIC_SYMMETRIC
from certdp.numpy.array2_domain import array2_domain
from certdp.numpy.array2_domain.array2_domain import is_array2_domain
from certdp.numpy.sscp_domain.sscp_domain import MAX_FEATURES, sscp_matrix

from .make_np_sscp import make_np_sscp

BOUND = D_IN


def _array2(a) -> bool:
    return is_array2_domain(a.input_domain)


PRECONDITIONS = [
    INPUT_DOMAIN_ARRAY2,
    INPUT_METRIC_SYMMETRIC,
    Precondition(
        "input-domain-float",
        lambda a: _array2(a) and a.input_domain.T.is_float,
        "input_domain must hold f32 or f64 entries",
        parameter="input_domain",
    ),
    Precondition(
        "input-domain-no-nan",
        lambda a: _array2(a) and not a.input_domain.nan,
        "input_domain must exclude NaN (nan=False)",
        parameter="input_domain",
    ),
    Precondition(
        "input-domain-columns-known",
        lambda a: (
            _array2(a)
            and a.input_domain.num_columns is not None
            and a.input_domain.num_columns <= MAX_FEATURES
        ),
        "input_domain must have a known number of columns, at most MAX_FEATURES (2^28)",
        parameter="input_domain",
    ),
    Precondition(
        "input-domain-origin-zero",
        lambda a: (
            _array2(a) and (a.input_domain.origin is None or not np.any(a.input_domain.origin != 0))
        ),
        "input_domain's norm ball must be centred at 0",
        parameter="input_domain",
    ),
]


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    size = draw(optional_sizes(6))
    columns = draw(st.integers(0, 3))
    if draw(st.booleans()):
        norm = draw(st.sampled_from([0.0, 1.0, 3.5, 1e150, 1e300]))
        p = draw(st.sampled_from([1, 2]))
        domain = array2_domain(norm=norm, p=p, size=size, num_columns=columns, T=T)
    else:
        domain = array2_domain(size=size, num_columns=columns, nan=False, T=T)
    return {"input_domain": domain, "input_metric": symmetric_distance()}


@dataclass
class RecordSpaceContract(TransformationContract):
    """A transformation whose output metric is read in record space: a pair of outputs is
    checked through the pair of datasets it was computed from (the proof's witnesses)."""

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        for data in (x, x_prime):
            output = built(data)
            if not built.output_domain.member(output):
                raise ContractError(
                    f"{self.name}: output {output!r} is not in {built.output_domain}",
                    condition="output-domain",
                )
            if not np.array_equal(output, sscp_matrix(data), equal_nan=True):
                raise ContractError(
                    f"{self.name}: the output is not sscp_matrix of its dataset",
                    condition="record-space",
                )
        witnessed = built.input_metric.distance(x, x_prime)
        if not built.input_metric.close(x, x_prime, stated):
            raise StabilityViolation(
                x=x, x_prime=x_prime, d_in=d_in, d_out_observed=witnessed, d_out_stated=stated
            )
        return float(as_rational(witnessed) / as_rational(stated)) if stated else 0.0


CONTRACT = RecordSpaceContract(
    constructor=make_np_sscp,
    preconditions=PRECONDITIONS,
    bound=BOUND,
    arguments=arguments,
)
