"""Preconditions shared by the contracts of the ``array2_domain`` constructors: the input is a
2-D array domain, compared by the symmetric distance (one record = one row)."""

from __future__ import annotations

from ...contracts.contract import Precondition
from ...core.exact_type import type_is
from ...core.metrics import SymmetricDistance
from ..array2_domain.array2_domain import is_array2_domain

__all__ = ["INPUT_DOMAIN_ARRAY2", "INPUT_METRIC_SYMMETRIC"]

INPUT_DOMAIN_ARRAY2 = Precondition(
    "input-domain-array2",
    lambda a: is_array2_domain(a.input_domain),
    "input_domain must be an array2_domain",
    parameter="input_domain",
)

INPUT_METRIC_SYMMETRIC = Precondition(
    "input-metric-symmetric",
    lambda a: type_is(a.input_metric, SymmetricDistance),
    "input_metric must be symmetric_distance()",
    parameter="input_metric",
)
