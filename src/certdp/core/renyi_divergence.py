"""The Rényi divergence as a privacy measure (OpenDP's ``renyi_divergence``), and nothing that
would spend it.

Guarantee (renyi_divergence.tex): :func:`renyi_divergence` returns the measure whose distance
is a curve ``alpha -> epsilon(alpha)`` bounding ``D_alpha(P || Q)`` for every order
``alpha > 1``; two curves are never compared (:meth:`RenyiDivergence.ordered` refuses, typed),
so no ``check`` can pass under it.  Measurements under it come only from the user
(``make_user_measurement``, not proven); ``make_composition`` composes them and
``make_fully_adaptive_composition`` builds an odometer over them (their own proofs); every other
certdp constructor that takes a measure refuses it with a typed error.
"""

from __future__ import annotations

from .errors import FailedMapError
from .measures import Measure

__all__ = ["RenyiDivergence", "renyi_divergence"]


# proof: begin renyi-divergence
class RenyiDivergence(Measure):
    """Rényi DP: a distance is a curve ``epsilon(alpha)`` with ``D_alpha(P || Q) <=
    epsilon(alpha)`` for every order ``alpha > 1`` (Mironov 2017)."""

    distance_type = "Function<f64, f64>"  # label: renyi-distance-type

    @staticmethod
    def ordered(d_a, d_b) -> bool:
        """Refused: two curves have no order certdp decides (OpenDP 0.16 has none either), so
        a ``check`` under this measure raises :class:`FailedMapError` instead of answering."""
        raise FailedMapError(  # label: renyi-unordered
            "Rényi divergence curves are not compared; no check is possible under RenyiDivergence",
            parameter="d_out",
        )


def renyi_divergence() -> RenyiDivergence:
    """The Rényi divergence (a curve ``alpha -> epsilon`` of Rényi DP)."""
    return RenyiDivergence()  # label: renyi-new


# proof: end renyi-divergence
