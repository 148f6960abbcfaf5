"""Contract of ``make_resize``: the theorem of make_resize.tex, executable.

Preconditions (ids as in the proof) and the coupled stability bound ``d_out = 2 d_in``.  The
function is random, so a pair of outputs is not enough: the contract computes both exact output
distributions (running the real function once for every permutation the shuffle can draw,
each of probability ``1 / k!`` by the Fisher--Yates lemma) and checks that a ``map(d_in)``-close
coupling of them exists.
"""

from __future__ import annotations

import importlib
import itertools
import math
from contextlib import contextmanager
from fractions import Fraction

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_DOMAIN_VECTOR_OF_ATOMS,
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    optional_sizes,
)
from certdp.contracts.contract import D_IN, Precondition
from certdp.contracts.coupling import CoupledContract
from certdp.contracts.neighbours import members
from certdp.core.domains import atom_domain, carrier_constant, vector_domain
from certdp.core.metrics import record_key

from .make_resize import _output_metric, make_resize, record_capacity

_module = importlib.import_module(__package__ + ".make_resize")

ELEMENTS = [
    atom_domain(bounds=(0, 3), T="i32"),
    atom_domain(T="f64"),
    atom_domain(T="String"),
    atom_domain(T="bool"),
]


@st.composite
def arguments(draw):
    element = draw(st.sampled_from(ELEMENTS))
    return {
        "input_domain": vector_domain(element, size=draw(optional_sizes(4))),
        "input_metric": draw(dataset_metrics()),
        "size": draw(st.integers(1, 3)),
        "constant": draw(members(element)),
        "MO": draw(st.sampled_from(["SymmetricDistance", "InsertDeleteDistance"])),
    }


@contextmanager
def _shuffle_replaced(replacement):
    original = _module.shuffled
    _module.shuffled = replacement
    try:
        yield
    finally:
        _module.shuffled = original


def outcomes(built, data) -> list[tuple[list, Fraction]]:
    """The exact output distribution of a built resize on ``data``: one outcome per output
    sequence (records compared as records), with its probability."""
    lengths = []

    def probe(records):
        lengths.append(len(records))
        return list(records)

    with _shuffle_replaced(probe):
        first = built.function(data)
    if not lengths:
        return [(first, Fraction(1))]
    assert len(lengths) == 1, "the function shuffles at most once"
    found: dict[tuple, list] = {}
    count = math.factorial(lengths[0])
    for permutation in itertools.permutations(range(lengths[0])):
        with _shuffle_replaced(lambda records, p=permutation: [records[i] for i in p]):
            output = built.function(data)
        key = tuple(record_key(record) for record in output)
        found.setdefault(key, [output, 0])[1] += 1
    return [(output, Fraction(times, count)) for output, times in found.values()]


def _valid_output_metric(a) -> bool:
    return _output_metric(a.MO) is not None


def _size_positive(a) -> bool:
    return type(a.size) is int and 1 <= a.size <= record_capacity()


def _constant_member(a) -> bool:
    element = a.input_domain.element_domain
    converted = carrier_constant(a.constant, element.T)
    return converted is not None and element.member(converted)


CONTRACT = CoupledContract(
    constructor=make_resize,
    preconditions=[
        INPUT_DOMAIN_VECTOR_OF_ATOMS,
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "output-metric-symmetric-or-insert-delete",
            _valid_output_metric,
            "MO must be 'SymmetricDistance' or 'InsertDeleteDistance'",
            parameter="MO",
        ),
        Precondition(
            "size-positive",
            _size_positive,
            "size must be a positive integer, at most the records memory can hold",
            parameter="size",
        ),
        Precondition(
            "constant-in-element-domain",
            _constant_member,
            "constant (rounded to f32 if a float given for f32) must be a member of the input "
            "domain's element domain",
            parameter="constant",
        ),
    ],
    bound=2 * D_IN,
    arguments=arguments,
    datasets_max_size=4,
    outcomes=outcomes,
)
