"""``make_resize``: a dataset of unknown size made into one of exactly ``size`` records.

A short dataset is padded with ``constant``; a long one keeps ``size`` of its records, chosen
uniformly at random when the input metric ignores order (the first ``size`` otherwise).  When
the output metric counts order but the input metric does not, the padded records are shuffled
too, so that the output order carries no trace of the input order.  Shuffles are exact
Fisher--Yates shuffles from the OS CSPRNG.

Guarantee: ``d_in -> 2 * d_in`` (checked in u32) is a valid stability map between the
symmetric and insert-delete distances in any combination, in the sense of coupled stability
(the outputs on ``d_in``-close inputs can be coupled to be ``2 * d_in``-close).
"""

from __future__ import annotations

import os
import struct
import sys

import numpy as np

from certdp.contracts import certified
from certdp.core.domains import carrier_constant, vector_domain
from certdp.core.errors import FailedFunctionError, MakeTransformationError, shown, type_mismatch
from certdp.core.metrics import (
    InsertDeleteDistance,
    SymmetricDistance,
    insert_delete_distance,
    symmetric_distance,
)
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.numeric import checked_mul
from certdp.samplers.shuffle import shuffled
from certdp.transformations._dataset import dataset_input

__all__ = ["make_resize", "then_resize", "resized"]

# proof: begin output-metric
_OUTPUT_METRICS = {
    "SymmetricDistance": symmetric_distance,
    "InsertDeleteDistance": insert_delete_distance,
}  # label: metric-names


def _output_metric(MO):
    """The dataset metric named by ``MO``: OpenDP's type name, or the metric (or its class)."""
    if isinstance(MO, (SymmetricDistance, InsertDeleteDistance)):
        return MO
    if MO is SymmetricDistance or MO is InsertDeleteDistance:  # label: metric-class
        return MO()
    if type(MO) is str and MO.strip() in _OUTPUT_METRICS:
        return _OUTPUT_METRICS[MO.strip()]()
    raise MakeTransformationError(
        "must be 'SymmetricDistance' or 'InsertDeleteDistance', got a value of type "
        f"{type(MO).__name__}",
        parameter="MO",
    )


def record_capacity() -> int:
    """The most records a list on this machine can hold: each takes a pointer, so no more than
    the physical memory divided by the pointer size (Python's own limit where the memory is
    unknown)."""
    pointer = struct.calcsize("P")
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")  # label: memory
    except (AttributeError, ValueError, OSError):
        memory = sys.maxsize
    return min(memory, sys.maxsize) // pointer  # label: capacity


# proof: end output-metric


# proof: begin constructor
@certified
def make_resize(input_domain, input_metric, size, constant, MO="SymmetricDistance"):
    """Pad with ``constant`` or subsample to exactly ``size`` records; stability
    ``d_in -> 2 * d_in`` (coupled)."""
    element_domain = dataset_input(input_domain, input_metric)  # label: dataset-input
    output_metric = _output_metric(MO)  # label: output-metric
    if type(size) is not int:
        raise type_mismatch(MakeTransformationError)(  # label: size-integer
            f"must be an integer, got a {type(size).__name__}", parameter="size"
        )
    if size < 1:  # label: size-positive
        raise MakeTransformationError(f"must be at least 1, got {shown(size)}", parameter="size")
    capacity = record_capacity()
    if size > capacity:  # label: size-capacity
        raise MakeTransformationError(
            f"must be at most {capacity}, the most records this machine's memory can hold "
            f"({struct.calcsize('P')} bytes of pointer each), got {shown(size)}",
            parameter="size",
        )
    converted = carrier_constant(constant, element_domain.T)  # label: constant-convert
    if converted is None or not element_domain.member(converted):  # label: constant-member
        error = (
            type_mismatch(MakeTransformationError) if converted is None else MakeTransformationError
        )
        raise error(
            f"{shown(constant)} is not a member of the element domain {element_domain}",
            parameter="constant",
        )
    constant = converted
    input_ordered = isinstance(input_metric, InsertDeleteDistance)
    output_ordered = isinstance(output_metric, InsertDeleteDistance)
    shuffle_padded = output_ordered and not input_ordered  # label: shuffle-padded
    shuffle_truncated = not input_ordered  # label: shuffle-truncated

    def function(data):
        return resized(data, size, constant, shuffle_padded, shuffle_truncated)  # label: function

    def stability_map(d_in):
        return checked_mul(2, d_in, "u32")  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=vector_domain(element_domain, size=size),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=output_metric,
        stability_map=stability_map,
    )


# proof: end constructor


# proof: begin resize-records
def resized(data, size, constant, shuffle_padded, shuffle_truncated) -> list:
    """``data`` padded with ``constant`` up to ``size`` records (then shuffled if
    ``shuffle_padded``), or its first ``size`` records (after a shuffle if ``shuffle_truncated``)."""
    records = data.tolist() if isinstance(data, np.ndarray) else list(data)  # label: records
    if len(records) <= size:
        try:
            padded = records + [constant] * (size - len(records))  # label: pad
        except MemoryError:
            raise FailedFunctionError(  # label: pad-memory
                f"padding to {shown(size)} records needs more memory than is free", parameter="size"
            ) from None
        return shuffled(padded) if shuffle_padded else padded  # label: pad-shuffle
    if shuffle_truncated:
        records = shuffled(records)  # label: truncate-shuffle
    return records[:size]  # label: truncate


# proof: end resize-records


then_resize = partial_constructor(make_resize)
