"""Contract of ``make_count_by``: the theorem of make_count_by.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = (d_in, d_in, d_in)``,
checked component by component (the map's value is a triple).
"""

from dataclasses import dataclass

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_DOMAIN_VECTOR_OF_ATOMS,
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    optional_sizes,
)
from certdp.contracts.contract import (
    D_IN,
    ContractError,
    Precondition,
    StabilityViolation,
    TransformationContract,
    as_rational,
    at_least,
)
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import DPError
from certdp.core.types import NUMERIC_TYPES, carrier

from .make_count_by import make_count_by

ELEMENTS = [
    atom_domain(bounds=(0, 3), T="i32"),
    atom_domain(T="u8"),
    atom_domain(T="bool"),
    atom_domain(T="String"),
]


@st.composite
def arguments(draw):
    return {
        "input_domain": vector_domain(
            draw(st.sampled_from(ELEMENTS)), size=draw(optional_sizes(6))
        ),
        "input_metric": draw(dataset_metrics()),
        "TV": draw(st.sampled_from(NUMERIC_TYPES)),
    }


def _numeric_value_type(a) -> bool:
    try:
        return carrier(a.TV).is_numeric
    except DPError:
        return False


@dataclass
class TripleTransformationContract(TransformationContract):
    """A transformation contract whose map value is a triple ``(l0, l1, linf)``, each component
    bounded below by ``bound`` (the same closed form for the three)."""

    #: The components of the map value: (LaTeX name, meaning) for the documentation page.
    components = (
        ("l_0", "the bound on the number of keys whose count changes"),
        ("l_1", "the bound on the sum over the keys of the change of the count"),
        (r"l_\infty", "the bound on the largest change of one key's count"),
    )

    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        bound = self.exact_bound(arguments, built, d_in)
        if not isinstance(d_out, tuple) or len(d_out) != 3:
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r} is not a triple", condition="stability-map"
            )
        for component in d_out:
            if not at_least(component, bound):
                raise ContractError(
                    f"{self.name}: map({d_in}) = {d_out!r} has a component below the proof's "
                    f"bound {bound}",
                    condition="stability-map",
                )

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        outputs = built(x), built(x_prime)
        for output in outputs:
            if not built.output_domain.member(output):
                raise ContractError(
                    f"{self.name}: output {output!r} is not in {built.output_domain}",
                    condition="output-domain",
                )
        metric = built.output_metric
        observed = metric.distance(*outputs)
        if not metric.close(*outputs, stated):
            raise StabilityViolation(
                x=x, x_prime=x_prime, d_in=d_in, d_out_observed=observed, d_out_stated=stated
            )
        ratios = [float(as_rational(o) / as_rational(s)) for o, s in zip(observed, stated) if s]
        return max(ratios, default=0.0)


CONTRACT = TripleTransformationContract(
    constructor=make_count_by,
    preconditions=[
        INPUT_DOMAIN_VECTOR_OF_ATOMS,
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "input-elements-hashable",
            lambda a: not a.input_domain.element_domain.T.is_float,
            "the elements of input_domain must be of an integer type, bool or String",
            parameter="input_domain",
        ),
        Precondition(
            "value-type-numeric",
            _numeric_value_type,
            "TV must name a numeric carrier type (i8 ... u128, usize, f32, f64)",
            parameter="TV",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
    d_in=lambda built: st.integers(0, 6),
)
