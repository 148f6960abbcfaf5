"""The float rounding term of ``make_sum``, which its contract's bound leaves out.

``make_sum``'s contract states the bound without the rounding term of the float sums (that term is
non-negative, so every valid map lies above the bound as stated).  Its map on float data is the
map of the Pairwise float sum it builds, which adds twice the rounding error of one sum.  This
module writes that bound from the float sums' own contract expressions and, at every build,
checks it against ``make_sum``'s real map on float domains: if the map ever fell below it, the
page would state something false, so the build warns instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import sympy

__all__ = ["ROUNDING_NOTES", "RoundingNote", "make_sum_float_bound", "check_make_sum_float_bound"]


def _float_sums():
    return importlib.import_module("certdp.transformations._summation.float_sum_contracts")


def _size_limit() -> int:
    return importlib.import_module("certdp.transformations.sum.make_sum").DEFAULT_SIZE_LIMIT


def make_sum_float_bound() -> sympy.Expr:
    """``make_sum``'s bound on float records, rounding term included (``S = Pairwise<T>``)."""
    sums = _float_sums()
    sized = sympy.Symbol("sized")
    pairwise = {sums.ALGORITHM: 1}
    return sympy.Piecewise(
        (sums.SIZED_BOUND.subs(pairwise), sympy.Eq(sized, 1)),
        (sums.UNSIZED_BOUND.subs(pairwise), True),
    )


def pairwise_error():
    """The rounding error of one Pairwise sum, as a named part of the rendered bound."""
    from certdp_bounds import Part

    error = _float_sums().ERROR.subs(_float_sums().ALGORITHM, 1)
    return Part(
        sympy.Symbol("err_pairwise"),
        r"\operatorname{err}_{\mathrm{Pairwise}}(n)",
        error,
        "a bound on the rounding error of one pairwise floating-point sum of :math:`n` records"
        " in :math:`[L, U]` (<pdf:transformations/_summation/float_summation.pdf> proves it):"
        " in a balanced tree of additions"
        " each record goes through about :math:`\\log_2 n` additions, each of which may round."
        "  It appears twice: the sums of both inputs may be off, in opposite directions",
    )


#: Float domains on which the stated bound is checked against ``make_sum``'s map.
CHECKED = [
    ((0.0, 10.0), 1000, "f64"),
    ((-10.0, 10.0), None, "f64"),
    ((-3.5, 100.0), 7, "f32"),
    ((1.0, 2.0), None, "f32"),
]


def check_make_sum_float_bound() -> list[str]:
    """Problems found: ``make_sum``'s map below the stated bound on a checked float domain."""
    from certdp.core.features import disable_features, enable_features, feature_enabled

    # the check concerns the map's value, not the vetting: an outdated make_sum is checked too
    had_contrib = feature_enabled("contrib")
    enable_features("contrib")
    try:
        return _problems()
    finally:
        if not had_contrib:
            disable_features("contrib")


def _problems() -> list[str]:
    import certdp.prelude as dp
    from certdp.contracts.contract import D_IN, at_least

    sums = _float_sums()
    bound = make_sum_float_bound()
    sized = sympy.Symbol("sized")
    problems = []
    for bounds, size, T in CHECKED:
        space = (
            dp.vector_domain(dp.atom_domain(bounds=bounds, T=T), size=size),
            dp.symmetric_distance(),
        )
        summed = dp.t.make_sum(*space)
        values = {
            sums.LOWER: sympy.Rational(Fraction(bounds[0])),
            sums.UPPER: sympy.Rational(Fraction(bounds[1])),
            sums.SIZE: size if size is not None else _size_limit(),
            sums.MANTISSA_BITS: 52 if T == "f64" else 23,
            sized: int(size is not None),
        }
        for d_in in range(4):
            stated = bound.subs(values).subs(D_IN, d_in)
            if not at_least(summed.map(d_in), stated):
                problems.append(
                    f"make_sum on {T} bounds {bounds}, size {size}: map({d_in}) ="
                    f" {summed.map(d_in)!r} is below the bound the page states ({stated})"
                )
    return problems


def _make_sum_note(render) -> str:
    """reST for make_sum's page; ``render`` renders a bound as in the rest of the page."""
    size_limit = _size_limit()
    exponent = size_limit.bit_length() - 1
    limit = f"2^{{{exponent}}}" if size_limit == 1 << exponent else str(size_limit)
    return render(
        make_sum_float_bound(),
        named=(pairwise_error(),),
        intro=(
            "**Floating-point records: the rounding term.**  The bound above, as the contract"
            " states it, leaves out the rounding of floating-point addition (a non-negative"
            " term, so the bound stays valid).  On float records ``make_sum`` builds a"
            " ``Pairwise<T>`` float sum, and the map it returns is that sum's, which adds"
            " twice the rounding error of one sum:"
        ),
        after=(
            f"Here :math:`n` is the known size, or :math:`{limit}` when the size is unknown:"
            f" ``make_sum`` then first cuts a dataset down to at most :math:`{limit}` records"
            " (a simple random sample).  At every build of this page, ``make_sum``'s map is"
            " checked to be at least this bound on float domains of both types, sized and"
            " unsized."
        ),
    )


@dataclass(frozen=True)
class RoundingNote:
    """An extra section of a constructor's page.

    ``needed(contract)``: does the note still apply (once the contract states the rounding term
    itself, it is left out)?  ``write(render)``: its reST.  ``check()``: the problems found
    when what it states is compared with the constructor's real map.
    """

    needed: Callable
    write: Callable
    check: Callable


ROUNDING_NOTES = {
    "make_sum": RoundingNote(
        needed=lambda contract: not any(s.name == "k" for s in contract.bound.free_symbols),
        write=_make_sum_note,
        check=check_make_sum_float_bound,
    ),
}
