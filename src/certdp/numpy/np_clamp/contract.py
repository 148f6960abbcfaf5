"""Contract of ``make_np_clamp``: the theorem of make_np_clamp.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in`` under the
symmetric or the insert-delete distance.  The contract engine also checks that every output
is a member of the output domain, i.e. that each row is within the norm, exactly.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    optional_sizes,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.numpy._support import strategies  # noqa: F401  (registers the array neighbours)
from certdp.numpy.array2_domain import array2_domain
from certdp.numpy.array2_domain.array2_domain import is_array2_domain

from .make_np_clamp import make_np_clamp

_DTYPE = {"f32": np.float32, "f64": np.float64}


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    k = draw(st.integers(1, 3))
    known_columns = draw(st.booleans())
    p = draw(st.sampled_from([1, 2]))
    origin = None
    if known_columns and draw(st.booleans()):
        scale = draw(st.sampled_from([1.0, 1e3, 1e6]))
        origin = np.array([draw(st.floats(-1, 1, width=32)) * scale for _ in range(k)])
        origin = origin.astype(_DTYPE[T]).astype(np.float64)
    if draw(st.booleans()):
        input_domain = array2_domain(
            T=T,
            num_columns=k if known_columns else None,
            size=draw(optional_sizes(5)),
            nan=draw(st.booleans()),
        )
    else:  # already bounded, e.g. clamped before
        input_domain = array2_domain(
            norm=draw(st.sampled_from([0.5, 4.0, 1e3])),
            p=draw(st.sampled_from([1, 2])),
            num_columns=k if known_columns else None,
            size=draw(optional_sizes(5)),
            T=T,
        )
    return {
        "input_domain": input_domain,
        "input_metric": draw(dataset_metrics()),
        "norm": draw(st.sampled_from([1e-3, 0.5, 1.0, 3.0, 1e4])),
        "p": p,
        "origin": origin,
    }


def _origin_valid(a) -> bool:
    T = a.input_domain.T.name
    domain = array2_domain(
        norm=a.norm, p=a.p, origin=a.origin, num_columns=a.input_domain.num_columns, nan=False, T=T
    )
    center = domain.origin
    return (
        domain.num_columns == a.input_domain.num_columns
        and center.astype(_DTYPE[T]).astype(center.dtype).tobytes() == center.tobytes()
    )


CONTRACT = TransformationContract(
    constructor=make_np_clamp,
    preconditions=[
        Precondition(
            "input-domain-array2-float",
            lambda a: is_array2_domain(a.input_domain) and a.input_domain.T.is_float,
            "input_domain must be an array2_domain of f32 or f64 entries",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "norm-positive-finite",
            lambda a: not isinstance(a.norm, bool) and math.isfinite(a.norm) and a.norm > 0,
            "norm must be a positive finite number",
            parameter="norm",
        ),
        Precondition(
            "p-one-or-two",
            lambda a: not isinstance(a.p, bool) and a.p in (1, 2),
            "p must be 1 or 2",
            parameter="p",
        ),
        Precondition(
            "origin-valid",
            _origin_valid,
            "origin must be 0, a scalar with known num_columns, or a vector of num_columns "
            "finite values of T",
            parameter="origin",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
