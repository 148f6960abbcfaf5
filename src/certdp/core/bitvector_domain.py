"""``bitvector_domain``: bit vectors of one fixed length, with at most ``max_weight`` ones.

Guarantee (bitvector_domain.tex): the members of ``bitvector_domain(max_weight, size)`` are the
``bytes`` objects of exactly ``size / 8`` bytes (``size`` bits, eight to a byte, as OpenDP packs
them) with at most ``max_weight`` bits set; ``admit`` returns the value itself.  The length is
part of the domain: two members always have the same length, so a mechanism's output length
reveals nothing (OpenDP 0.16's ``bitvector_domain`` has no length, its #2930).  ``size = None``
admits every length (then no randomized response is built on it); ``max_weight = None`` bounds
no weight.
"""

from __future__ import annotations

from .domains import Domain, refuse
from .errors import MakeDomainError, shown

__all__ = ["BitVectorDomain", "bitvector_domain"]


# proof: begin bitvector-domain
class BitVectorDomain(Domain):
    """``bytes`` of ``size`` bits (any length if ``None``) with at most ``max_weight`` ones."""

    def __init__(self, max_weight: int | None, size: int | None):
        self.max_weight = max_weight
        self.size = size

    def admit(self, value):
        if type(value) is not bytes:  # label: bitvector-type
            raise refuse(self, "type: a bit vector is a bytes object")
        if self.size is not None and 8 * len(value) != self.size:  # label: bitvector-size
            raise refuse(self, f"length: must hold exactly {self.size} bits")
        if self.max_weight is not None:
            weight = int.from_bytes(value, "little").bit_count()  # label: bitvector-weight
            if weight > self.max_weight:
                raise refuse(self, f"weight: at most {self.max_weight} bits may be set")
        return value  # label: bitvector-admit

    def _key(self) -> tuple:
        return (self.max_weight, self.size)

    def __repr__(self) -> str:
        return f"BitVectorDomain(max_weight={self.max_weight}, size={self.size})"


def bitvector_domain(max_weight=None, size=None) -> BitVectorDomain:
    """Bit vectors (``bytes``) of ``size`` bits, a multiple of 8, with at most ``max_weight``
    bits set; ``None`` leaves the length (the weight) unconstrained."""
    for name, value in (("max_weight", max_weight), ("size", size)):
        if value is not None and (type(value) is not int or value < 0):  # label: bitvector-int
            raise MakeDomainError(
                f"must be None or a non-negative integer, got {shown(value)}", parameter=name
            )
    if max_weight is not None and max_weight >= 2**32:  # label: bitvector-u32
        raise MakeDomainError(
            f"must fit in u32 (as in OpenDP), got {shown(max_weight)}", parameter="max_weight"
        )
    if size is not None and size % 8 != 0:  # label: bitvector-bytes
        raise MakeDomainError(
            f"must be a multiple of 8 (a bit vector is packed in whole bytes), got {size}",
            parameter="size",
        )
    return BitVectorDomain(max_weight, size)  # label: bitvector-domain


# proof: end bitvector-domain
