"""Contract of ``make_laplace``: the theorem of make_laplace.tex, executable.

One precondition (the input domain is an atom domain or a vector of atoms of a
numeric type); the bound and the divergence are those of the constructor it
dispatches to, ``(d_in + size * relaxation) / scale`` with ``relaxation = 0``
for integers.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, Precondition
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.measurements._laplace.contract_support import (
    LAPLACE_BOUND,
    laplace_divergence,
    laplace_parameters,
)
from certdp.measurements._laplace.laplace_contracts import laplace_arguments

from .make_laplace import make_laplace


def _numeric_atoms(domain) -> bool:
    atom = domain.element_domain if isinstance(domain, VectorDomain) else domain
    return isinstance(atom, AtomDomain) and atom.T.is_numeric


def arguments():
    return st.one_of(
        *(
            laplace_arguments(vector=vector, floating=floating)
            for floating in (True, False)
            for vector in (False, True)
        )
    )


CONTRACT = MeasurementContract(
    constructor=make_laplace,
    preconditions=[
        Precondition(
            "input-domain-numeric-atoms",
            lambda a: _numeric_atoms(a.input_domain),
            "input_domain must be atom_domain(T=...) or vector_domain(atom_domain(T=...)) of a "
            "numeric type",
            parameter="input_domain",
        ),
    ],
    bound=LAPLACE_BOUND,
    parameters=laplace_parameters,
    arguments=arguments,
    divergence=laplace_divergence,
)
