"""Contract of ``make_ordered_random``: the theorem of make_ordered_random.tex, executable.

Preconditions (ids as in the proof) and the coupled stability bound ``d_in``.  The function is
random: the contract computes both exact output distributions (the real function run once for
every permutation the shuffle can draw, each of probability ``1 / m!`` by the Fisher--Yates
lemma) and checks that a ``map(d_in)``-close coupling of them exists.
"""

from __future__ import annotations

import importlib
import itertools
import math
from contextlib import contextmanager
from fractions import Fraction

from hypothesis import strategies as st

from certdp.contracts.common import optional_sizes
from certdp.contracts.contract import D_IN, Precondition
from certdp.contracts.coupling import CoupledContract
from certdp.core.change_metrics import ChangeOneDistance, change_one_distance
from certdp.core.domains import VectorDomain, atom_domain, vector_domain
from certdp.core.exact_type import type_is
from certdp.core.metrics import SymmetricDistance, record_key, symmetric_distance

from .make_ordered_random import make_ordered_random

_module = importlib.import_module(__package__ + ".make_ordered_random")


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "f64", "String", "bool"]))
    return {
        "input_domain": vector_domain(atom_domain(T=T), size=draw(optional_sizes(4))),
        "input_metric": draw(st.sampled_from([symmetric_distance(), change_one_distance()])),
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
    """The exact output distribution of a built ordered_random on ``data``: one outcome per
    output sequence (records compared as records), with its probability."""
    lengths = []

    def probe(records):
        lengths.append(len(records))
        return list(records)

    with _shuffle_replaced(probe):
        built.function(data)
    assert len(lengths) == 1, "the function shuffles exactly once"
    found: dict[tuple, list] = {}
    count = math.factorial(lengths[0])
    for permutation in itertools.permutations(range(lengths[0])):
        with _shuffle_replaced(lambda records, p=permutation: [records[i] for i in p]):
            output = built.function(data)
        key = tuple(record_key(record) for record in output)
        found.setdefault(key, [output, 0])[1] += 1
    return [(output, Fraction(times, count)) for output, times in found.values()]


CONTRACT = CoupledContract(
    constructor=make_ordered_random,
    preconditions=[
        Precondition(
            "vector",
            lambda a: type(a.input_domain) is VectorDomain,
            "input_domain must be a vector_domain",
            parameter="input_domain",
        ),
        Precondition(
            "metric-pair",
            lambda a: type_is(a.input_metric, SymmetricDistance, ChangeOneDistance),
            "input_metric must be symmetric_distance() or change_one_distance()",
            parameter="input_metric",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
    datasets_max_size=4,
    outcomes=outcomes,
)
