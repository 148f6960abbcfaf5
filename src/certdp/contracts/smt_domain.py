"""The member claim of a constructor's own output domain, as a z3 formula.

Models use it so that the output-domain obligation reads the range from the real constructor
(``built.output_domain``: its carrier type, its bounds, its ``nan`` flag, an option around it)
rather than from a range written into the model.
"""

from __future__ import annotations

import z3

from certdp.contracts.smt import float_value

__all__ = ["member_claim"]


def _atom_claim(domain, out):
    T, bounds = domain.T, domain.bounds
    if T.is_float:
        claims = [] if domain.nan else [z3.Not(z3.fpIsNaN(out))]
        if bounds is not None:
            low, high = (float_value(float(b), out.sort()) for b in bounds)
            claims += [z3.fpLEQ(low, out), z3.fpLEQ(out, high)]
        return z3.And(claims) if claims else z3.BoolVal(True)
    if z3.is_bv(out):
        if out.size() != T.bits:
            return z3.BoolVal(False)
        if bounds is None:
            return z3.BoolVal(True)
        low, high = (z3.BitVecVal(int(b), T.bits) for b in bounds)
        le = (lambda a, b: a <= b) if T.is_signed else z3.ULE
        return z3.And(le(low, out), le(out, high))
    low, high = (T.min, T.max) if bounds is None else (max(T.min, bounds[0]), min(T.max, bounds[1]))
    return z3.And(int(low) <= out, out <= int(high))


def member_claim(domain, out, none=None):
    """z3 claim that ``out`` encodes a member of ``domain`` (an atom domain or an option of one).

    ``none`` is how the model writes ``None`` for an option domain (an Int code such as -1, or a
    predicate on ``out``); without it, an option domain's members are its element's members.
    """
    from certdp.core.option_domain import OptionDomain

    if isinstance(domain, OptionDomain):
        inner = _atom_claim(domain.element_domain, out)
        if none is None:
            return inner
        is_none = none(out) if callable(none) else out == none
        return z3.Or(is_none, inner)
    return _atom_claim(domain, out)
