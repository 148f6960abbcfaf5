"""Preconditions and argument strategies that several constructor contracts state alike.

Each value here keeps the id, message and parameter its proofs cite, so a contract that uses it
states the same precondition it would state by hand.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

from certdp.contracts.contract import Precondition
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.metrics import (
    InsertDeleteDistance,
    SymmetricDistance,
    insert_delete_distance,
    symmetric_distance,
)
from certdp.core.transformation import Measurement

__all__ = [
    "INPUT_DOMAIN_VECTOR_OF_ATOMS",
    "INPUT_DOMAIN_BOUNDED",
    "INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE",
    "is_vector_of_atoms",
    "is_vector_of_numeric_atoms",
    "is_vector_of_float_atoms",
    "measurement_with_output_measure",
    "dataset_metrics",
    "optional_sizes",
    "ordered_pair",
]


def is_vector_of_atoms(a) -> bool:
    """Whether ``a.input_domain`` is a vector domain of atoms."""
    return isinstance(a.input_domain, VectorDomain) and isinstance(
        a.input_domain.element_domain, AtomDomain
    )


def is_vector_of_numeric_atoms(a) -> bool:
    """Whether ``a.input_domain`` is a vector domain of atoms of a numeric type."""
    return is_vector_of_atoms(a) and a.input_domain.element_domain.T.is_numeric


def is_vector_of_float_atoms(a) -> bool:
    """Whether ``a.input_domain`` is a vector domain of atoms of a float type."""
    return is_vector_of_atoms(a) and a.input_domain.element_domain.T.is_float


#: The input domain is ``vector_domain(atom_domain(T=...))``.
INPUT_DOMAIN_VECTOR_OF_ATOMS = Precondition(
    "input-domain-vector-of-atoms",
    is_vector_of_atoms,
    "input_domain must be vector_domain(atom_domain(T=...))",
    parameter="input_domain",
)

#: The elements of the input domain carry bounds.
INPUT_DOMAIN_BOUNDED = Precondition(
    "input-domain-bounded",
    lambda a: a.input_domain.element_domain.bounds is not None,
    "the elements of input_domain must be bounded",
    parameter="input_domain",
)

#: The input metric is the symmetric or the insert-delete distance between datasets.
INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE = Precondition(
    "input-metric-symmetric-or-insert-delete",
    lambda a: isinstance(a.input_metric, (SymmetricDistance, InsertDeleteDistance)),
    "input_metric must be symmetric_distance() or insert_delete_distance()",
    parameter="input_metric",
)


def measurement_with_output_measure(id: str, measure: type) -> Precondition:
    """The precondition ``id``: ``a.measurement`` is a measurement whose output measure is a
    ``measure``."""
    return Precondition(
        id,
        lambda a: (
            isinstance(a.measurement, Measurement)
            and isinstance(a.measurement.output_measure, measure)
        ),
        f"measurement must be a (valid) measurement with output measure {measure.__name__}",
        parameter="measurement",
    )


def dataset_metrics() -> st.SearchStrategy:
    """The symmetric or the insert-delete distance, fresh for each strategy."""
    return st.sampled_from([symmetric_distance(), insert_delete_distance()])


def optional_sizes(largest: int) -> st.SearchStrategy:
    """An unknown size (``None``) or a known size from 0 to ``largest``."""
    return st.one_of(st.none(), st.integers(0, largest))


def ordered_pair(a, b) -> tuple:
    """``(a, b)`` in increasing order, ``-0.0`` before ``0.0`` (hypothesis cannot draw floats
    from ``[0.0, -0.0]``)."""
    return tuple(sorted((a, b), key=lambda value: (value, math.copysign(1, value))))
