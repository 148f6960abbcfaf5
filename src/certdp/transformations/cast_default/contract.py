"""Contract of ``make_cast_default``: the theorem of make_cast_default.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``; the contract is
the one shared by the casts (_cast/cast_contract.py).
"""

from certdp.transformations._cast.cast_contract import cast_contract

from .make_cast_default import make_cast_default

CONTRACT = cast_contract(make_cast_default)
