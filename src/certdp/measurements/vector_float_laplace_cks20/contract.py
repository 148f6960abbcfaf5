"""Contract of ``make_vector_float_laplace_cks20``: the theorem of its .tex, executable.

Preconditions (ids as in the proof) and the privacy bound
``(d_in + size * (2^k - 2^k_min)) / scale``; the divergence is computed exactly
from the discrete Laplace pmf (see ``_laplace/contract_support``).
"""

from certdp.measurements._laplace.laplace_contracts import laplace_contract

from .make_vector_float_laplace_cks20 import make_vector_float_laplace_cks20

CONTRACT = laplace_contract(make_vector_float_laplace_cks20, vector=True, floating=True)
