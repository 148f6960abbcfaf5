"""Contract of ``make_randomized_response_bitvec``: the theorem of
make_randomized_response_bitvec.tex, executable.

The bits are flipped independently with probability ``q = f / 2``, so the output law is a
product and the max-divergence of a pair at Hamming distance ``h`` is exactly
``h |ln((1 - q) / q)|``, attained at the output equal to ``x`` (or ``oo`` when the lengths
differ).  Pairs are drawn by :func:`bitvector_pairs`, registered with the neighbour search.
"""

from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, MeasurementContract, Precondition, as_rational
from certdp.contracts.neighbours import register_neighbours
from certdp.core.bitvector_domain import BitVectorDomain, bitvector_domain
from certdp.core.change_metrics import DiscreteDistance, discrete_distance

from .make_randomized_response_bitvec import make_randomized_response_bitvec

F = sympy.Symbol("f", positive=True)
M = sympy.Symbol("max_weight", nonnegative=True, integer=True)

BOUND = sympy.Piecewise((0, D_IN < 1), (2 * M * sympy.log((2 - F) / F), True))


def _members(domain: BitVectorDomain) -> st.SearchStrategy:
    size = domain.size if domain.size is not None else 16
    top = size if domain.max_weight is None else min(domain.max_weight, size)

    def vector(positions):
        return sum(1 << p for p in positions).to_bytes(size // 8, "little")

    if size == 0:
        return st.just(b"")
    return st.lists(st.integers(0, size - 1), max_size=top, unique=True).map(vector)


def bitvector_pairs(domain, metric, d_in, max_size):
    """Two members of a bit-vector domain, often of the largest weight (the tightest pairs)."""
    return st.tuples(_members(domain), _members(domain))


register_neighbours(BitVectorDomain, bitvector_pairs)


def _divergence(built, kwargs, x, x_prime):
    if len(x) != len(x_prime):
        return sympy.oo, x
    distance = (int.from_bytes(x, "little") ^ int.from_bytes(x_prime, "little")).bit_count()
    q = Fraction(kwargs["f"]) / 2
    if distance == 0 or q == Fraction(1, 2):
        return sympy.Integer(0), x
    ratio = (1 - q) / q
    return distance * sympy.log(sympy.Rational(ratio.numerator, ratio.denominator)), x


def arguments():
    domains = st.builds(
        lambda weight, size: bitvector_domain(max_weight=weight, size=size),
        st.integers(0, 5),
        st.sampled_from([0, 8, 16, 24]),
    )
    fs = st.one_of(st.sampled_from([0.25, 0.5, 0.95, 1.0, 5e-324]), st.floats(0.0, 1.0))
    return st.fixed_dictionaries(
        {
            "input_domain": domains,
            "input_metric": st.just(discrete_distance()),
            "f": fs.filter(lambda f: f > 0),
            "constant_time": st.booleans(),
        }
    )


#: The symbols of BOUND, for the docs page.
SYMBOL_MEANINGS = {
    "f": "the probability ``f`` of replacing a bit by a fair coin (a bit flips with ``f / 2``)",
    "max_weight": "the ``max_weight`` of the input bit-vector domain (bits set, at most)",
}

CONTRACT = MeasurementContract(
    constructor=make_randomized_response_bitvec,
    preconditions=[
        Precondition(
            "input-domain-fixed-bitvector",
            lambda a: (
                type(a.input_domain) is BitVectorDomain
                and a.input_domain.max_weight is not None
                and a.input_domain.size is not None
            ),
            "input_domain must be a bitvector_domain with max_weight and size",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-discrete",
            lambda a: type(a.input_metric) is DiscreteDistance,
            "input_metric must be discrete_distance()",
            parameter="input_metric",
        ),
        Precondition(
            "f-in-range",
            lambda a: type(a.f) is float and 0.0 < a.f <= 1.0,
            "f must be a float in (0, 1]",
            parameter="f",
        ),
        Precondition(
            "constant-time-bool",
            lambda a: type(a.constant_time) is bool,
            "constant_time must be a bool",
            parameter="constant_time",
        ),
    ],
    bound=BOUND,
    parameters=lambda arguments, built: {
        F: as_rational(arguments.f),
        M: arguments.input_domain.max_weight,
    },
    arguments=arguments,
    d_in=lambda built: st.sampled_from([0, 1, 2, 0.5]),
    divergence=_divergence,
)
