"""``debias_randomized_response_bitvec``: unbiased per-bit counts from randomized answers.

Guarantee (make_randomized_response_bitvec.tex, section "Debiasing"): for ``N >= 1`` answers of
one length (``bytes``; bit ``i`` is bit ``i mod 8`` of byte ``i div 8``, least significant
first, as in OpenDP) and ``f`` a float in ``(0, 1)``, returns for every bit position the f64
nearest ``(Y_i - N f / 2) / (1 - f)``, ``Y_i`` the number of answers with bit ``i`` set: an
unbiased estimate of how many inputs had bit ``i`` set.  Post-processing; no privacy claim.
The estimate is exact, then rounded once; OpenDP's, computed in floats, may differ by a few ulps
(three answers ``b"\\x01"``, ``f = 0.7``: certdp 6.499999999999999, OpenDP 0.16 6.5).
``f = 1`` (answers without signal; OpenDP returns infinities) is refused.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.core.errors import FailedFunctionError, shown
from certdp.core.exact_type import type_is
from certdp.numeric.floats import round_rational

__all__ = ["debias_randomized_response_bitvec"]


# proof: begin debias
def debias_randomized_response_bitvec(answers, f) -> list[float]:
    """Estimated number of inputs with each bit set, from ``answers`` released with ``f``."""
    if type(f) is not float or not 0.0 < f < 1.0:  # label: debias-f
        raise FailedFunctionError(
            f"must be a float in (0, 1) to debias, got {shown(f)}", parameter="f"
        )
    if not type_is(answers, list, tuple) or not answers:  # label: debias-nonempty
        raise FailedFunctionError("must be a non-empty list of answers", parameter="answers")
    if any(type(answer) is not bytes for answer in answers):  # label: debias-bytes
        raise FailedFunctionError("must all be bytes", parameter="answers")
    length = len(answers[0])
    if any(len(answer) != length for answer in answers):  # label: debias-length
        raise FailedFunctionError("must all have the same length", parameter="answers")
    counts = [0] * (8 * length)
    for answer in answers:
        for byte_index, byte in enumerate(answer):
            for bit in range(8):
                counts[8 * byte_index + bit] += (byte >> bit) & 1  # label: debias-count
    rate = Fraction(f)
    shift, scale = len(answers) * rate / 2, 1 - rate
    return [round_rational((y - shift) / scale, "f64") for y in counts]  # label: debias-estimate


# proof: end debias
