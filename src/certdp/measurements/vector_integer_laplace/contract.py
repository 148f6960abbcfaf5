"""Contract of ``make_vector_integer_laplace``: the theorem of its .tex, executable.

Preconditions (ids as in the proof) and the privacy bound ``d_in / scale``; the
divergence is computed exactly from the discrete Laplace pmf (see
``_laplace/contract_support``).
"""

from certdp.measurements._laplace.laplace_contracts import laplace_contract

from .make_vector_integer_laplace import make_vector_integer_laplace

CONTRACT = laplace_contract(make_vector_integer_laplace, vector=True, floating=False)
