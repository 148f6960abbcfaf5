"""Contract of ``make_impute_uniform_float``: the theorem of make_impute_uniform_float.tex,
executable.

Preconditions (ids as in the proof), and the coupled stability bound ``d_out = d_in``.  The
function is random, so the contract computes both exact output distributions (every sequence of
draws, run through the real function) and checks that a ``d_in``-close coupling exists.  To keep
the distributions small, the bounds drawn are a few subnormal steps apart (two to four cells of
the sampler); the proof covers every pair of finite bounds.
"""

import importlib
import itertools
from contextlib import contextmanager
from fractions import Fraction

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    is_vector_of_float_atoms,
    optional_sizes,
)
from certdp.contracts.contract import D_IN, Precondition
from certdp.contracts.coupling import CoupledContract
from certdp.core.domains import atom_domain, carrier_bound, vector_domain
from certdp.core.errors import DPError
from certdp.core.exact_type import type_is

from .make_impute_uniform_float import _FORMATS, make_impute_uniform_float

_module = importlib.import_module(__package__ + ".make_impute_uniform_float")


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    step = 2.0 ** _FORMATS[T][1]
    lower = draw(st.sampled_from([0.0, -step, 3 * step, -2 * step]))
    return {
        "input_domain": vector_domain(atom_domain(T=T), size=draw(optional_sizes(3))),
        "input_metric": draw(dataset_metrics()),
        "bounds": (lower, lower + draw(st.integers(1, 2)) * step),
    }


def _bounds_ok(a) -> bool:
    if not type_is(a.bounds, tuple, list) or len(a.bounds) != 2:
        return False
    T = a.input_domain.element_domain.T
    try:
        return carrier_bound("lower", a.bounds[0], T) < carrier_bound("upper", a.bounds[1], T)
    except DPError:
        return False


class _Planned:
    """An entropy source that answers ``below`` with planned values."""

    def __init__(self, plan):
        self.plan, self.sizes = list(plan), []

    def below(self, n):
        self.sizes.append(n)
        return self.plan.pop(0) if self.plan else 0


@contextmanager
def _source(source):
    original = _module.entropy_source
    _module.entropy_source = lambda: source
    try:
        yield
    finally:
        _module.entropy_source = original


def outcomes(built, data) -> list[tuple[list, Fraction]]:
    """The exact output distribution of a built imputation on ``data``: the function run on
    every sequence of draws, each with its probability."""
    probe = _Planned([])
    with _source(probe):
        built.function(data)
    if not probe.sizes:
        return [(built.function(data), Fraction(1))]
    cells = probe.sizes[0]
    found = []
    for plan in itertools.product(range(cells), repeat=len(probe.sizes)):
        with _source(_Planned(plan)):
            found.append((built.function(data), Fraction(1, cells ** len(plan))))
    return found


CONTRACT = CoupledContract(
    constructor=make_impute_uniform_float,
    preconditions=[
        Precondition(
            "input-domain-vector-of-float-atoms",
            is_vector_of_float_atoms,
            "input_domain must be vector_domain(atom_domain(T='f32' or 'f64', ...))",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "bounds-finite-ordered",
            _bounds_ok,
            "bounds must be a pair of finite values of the type (a Python float given for f32 "
            "rounded to nearest), lower < upper",
            parameter="bounds",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
    datasets_max_size=3,
    outcomes=outcomes,
)
