"""Contract of ``make_drop_null``: the theorem of make_drop_null.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.  The arguments
drawn cover float atom domains (NaN the null) and option domains (None the null); the contract
is the one shared with the other null test (_dataset/nullable_contract.py).
"""

from certdp.transformations._dataset.nullable_contract import nullable_contract

from .make_drop_null import make_drop_null

CONTRACT = nullable_contract(make_drop_null)
