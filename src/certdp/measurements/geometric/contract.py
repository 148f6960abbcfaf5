"""Contract of ``make_geometric``: the theorem of make_geometric.tex, executable.

The bound is make_laplace's on integers, ``d_in / scale`` (``0`` at ``d_in = 0``, ``+inf`` at
``scale = 0 < d_in``). At test time the pair's divergence is the exact max-divergence of the
discrete Laplace release on the clamped inputs (``laplace_divergence`` of the Laplace
contracts): the output clamp only merges outcomes, so the release's own divergence is at most
it, and a map at least it is at least the release's.
"""

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, MeasurementContract, Precondition, as_rational
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.exact_type import type_is
from certdp.core.measure_argument import measure_requested
from certdp.core.measures import MaxDivergence
from certdp.measurements._laplace.contract_support import SCALE, laplace_divergence
from certdp.measurements._laplace.laplace_contracts import laplace_arguments

from .make_geometric import make_geometric

BOUND = sympy.Piecewise(
    (0, sympy.Eq(D_IN, 0)),
    (sympy.oo, sympy.Eq(SCALE, 0)),
    (D_IN / SCALE, True),
)


def _atom(domain):
    return domain.element_domain if isinstance(domain, VectorDomain) else domain


def _with_bounds(kwargs):
    kwargs = {key: value for key, value in kwargs.items() if key != "k"}
    T = _atom(kwargs["input_domain"]).T
    low, high = max(T.min, -3), min(T.max, 12)
    return st.one_of(
        st.just({**kwargs, "bounds": None}),
        st.tuples(st.integers(low, high), st.integers(low, high)).map(
            lambda pair: {**kwargs, "bounds": (min(pair), max(pair))}
        ),
    )


def arguments():
    return st.one_of(
        laplace_arguments(vector=False, floating=False),
        laplace_arguments(vector=True, floating=False),
    ).flatmap(_with_bounds)


def _divergence(built, kwargs, x, x_prime):
    bounds = kwargs.get("bounds")
    if bounds is not None:
        lower, upper = bounds

        def clamp(value):
            return min(max(value, lower), upper)

        vector = isinstance(kwargs["input_domain"], VectorDomain)
        x, x_prime = (
            ([clamp(v) for v in data] if vector else clamp(data)) for data in (x, x_prime)
        )
    return laplace_divergence(built, kwargs, x, x_prime)


def _bounds_ok(a) -> bool:
    if a.bounds is None:
        return True
    T = _atom(a.input_domain).T
    return (
        type_is(a.bounds, tuple, list)
        and len(a.bounds) == 2
        and all(type(v) is int and T.min <= v <= T.max for v in a.bounds)
        and a.bounds[0] <= a.bounds[1]
    )


CONTRACT = MeasurementContract(
    constructor=make_geometric,
    preconditions=[
        Precondition(
            "output-measure-max-divergence",
            lambda a: measure_requested(a.MO, MaxDivergence(), "MaxDivergence"),
            "MO must be MaxDivergence",
            parameter="MO",
        ),
        Precondition(
            "input-domain-integer",
            lambda a: (
                type(_atom(a.input_domain)) is AtomDomain and _atom(a.input_domain).T.is_integer
            ),
            "input_domain must be atom_domain(T=<integer type>) or a vector_domain of one",
            parameter="input_domain",
        ),
        Precondition(
            "bounds-integers-ordered",
            _bounds_ok,
            "bounds must be None or (lower, upper), integers of T with lower <= upper",
            parameter="bounds",
        ),
    ],
    bound=BOUND,
    parameters=lambda arguments, built: {SCALE: as_rational(arguments.scale)},
    arguments=arguments,
    divergence=_divergence,
)
