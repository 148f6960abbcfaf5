"""Randomized response on a fixed-length bit vector (OpenDP's make_randomized_response_bitvec)
and the debiasing of its answers."""

from .debias_randomized_response_bitvec import debias_randomized_response_bitvec
from .make_randomized_response_bitvec import (
    make_randomized_response_bitvec,
    then_randomized_response_bitvec,
)

__all__ = [
    "make_randomized_response_bitvec",
    "then_randomized_response_bitvec",
    "debias_randomized_response_bitvec",
]
