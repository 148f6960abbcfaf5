"""A contract's bound as a reader should see it: formula, named parts, and every symbol explained.

The bound is the contract's exact ``sympy`` expression; this module only changes how it is
printed, never what it says:

* differences read ``U - L`` (positive terms first), ``2^{-k}`` becomes a fraction, ``log(n) /
  log(2)`` prints as ``log_2 n`` and ``max`` lists ``|L|`` before ``U``;
* a case split over a symbol with named values (the summation ``algorithm``; whether the size is
  ``sized``/``known``; whether records are ``float``) names the case in words;
* a 0/1 indicator used as a factor (``known`` in ``make_np_sum``) becomes a case split;
* a case split inside the bound (the rounding error of a float sum) is given a name and shown
  on its own line below the bound.

Every symbol of the bound must be explained, in :data:`SYMBOLS` or in a ``SYMBOL_MEANINGS``
dict (``{symbol name: reST}``) of the constructor's contract module; an unexplained one is a
warning (so a ``-W`` build fails rather than show a formula nobody can read).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy
from sympy.printing.latex import LatexPrinter

from certdp.contracts.contract import D_IN

__all__ = ["SYMBOLS", "Meaning", "Part", "RenderedBound", "render_bound", "BoundPrinter"]


@dataclass(frozen=True)
class Meaning:
    """What a symbol of a bound stands for, and (for a case variable) the names of its values."""

    text: str
    values: dict = field(default_factory=dict)
    indicator: bool = False
    #: How the list of symbols shows it (LaTeX); ``""``: not listed (its cases are in words).
    shown_as: str | None = None


#: Every symbol a contract's bound may use, by name.  Text is reST.
SYMBOLS = {
    "d_in": Meaning(
        "the input distance: how far apart two inputs may be under the input metric (for"
        " datasets under the symmetric distance, the number of records added or removed; for"
        " numbers under an absolute or :math:`L_p` distance, how far the values may move)"
    ),
    "L": Meaning("the lower bound of every record (from the domain's or the argument's bounds)"),
    "U": Meaning("the upper bound of every record"),
    "n": Meaning(
        "the number of records summed: the known ``size``, or for a dataset of unknown size the"
        " ``size_limit`` it is cut down to"
    ),
    "k": Meaning(
        "the number of explicitly stored significand bits of the float type (52 for ``f64``, 23"
        " for ``f32``): :math:`2^{-k}` is the gap between 1 and the next float"
    ),
    "algorithm": Meaning(
        "the ``S`` argument: the summation algorithm (``Sequential``, ``Pairwise`` or"
        " ``Exact``) and the float type (``f32`` or ``f64``) the sum computes in",
        values={
            0: r"S = \mathrm{Sequential}",
            1: r"S = \mathrm{Pairwise}",
            2: r"S = \mathrm{Exact}",
        },
        shown_as="S",
    ),
    "sized": Meaning(
        "whether the domain has a known size",
        values={1: r"\text{known size}", 0: r"\text{unknown size}"},
        shown_as="",
    ),
    "float": Meaning(
        "whether the records are floats",
        values={1: r"\text{floats}", 0: r"\text{integers}"},
        shown_as="",
    ),
    "scale": Meaning("the ``scale`` argument: the noise's scale parameter"),
    "relaxation": Meaning(
        "the rounding allowance of the noise grid: :math:`2^{k} - 2^{k_{\\min}}` for floats,"
        " with :math:`k` the ``k`` argument (:math:`k_{\\min}` when it is ``None``).  The noise"
        " is added on the grid :math:`2^{k}\\mathbb{Z}`; each input is first rounded to it,"
        " which can widen a distance by this much.  :math:`k_{\\min}` is the exponent of the"
        " smallest subnormal of the type, on whose grid every float already lies.  0 for"
        " integers"
    ),
    "size": Meaning(
        "the number of coordinates noise is added to: 1 for a single value, the vector's known"
        " size for a vector (0 when the size is unknown, which the constructor allows only"
        " when the relaxation is 0)"
    ),
    "R": Meaning(
        "the ``norm`` of the domain: every row :math:`r` has :math:`\\|r - O\\|_p \\le R`"
    ),
    "S1": Meaning(
        "the largest change one added or removed row can make: :math:`\\max(R + \\|O\\|_p, 2R)`"
        " (:math:`O` is the domain's ``origin``); :math:`R + \\|O\\|_p` under"
        " ``idealized-numerics``"
    ),
    "rho": Meaning(
        "for ``make_np_sum``, the rounding allowance: a bound on the :math:`L_p` norm of the"
        " rounding error of the column sums of the rows summed (0 under"
        " ``idealized-numerics``); for ``make_zCDP_to_approxDP``, the zero-concentrated"
        " divergence :math:`\\rho` the inner measurement's map gives at :math:`d_{in}` (under"
        " ``Approximate(ZeroConcentratedDivergence)``, the first item of its pair; the map"
        " returns the profile beside the pair's :math:`\\delta`, unchanged)"
    ),
    "known": Meaning(
        "whether the domain has a known size",
        values={1: r"\text{known size}", 0: r"\text{unknown size}"},
        indicator=True,
        shown_as="",
    ),
    "mult": Meaning(
        "1; under ``idealized-numerics``, :math:`1 - 2^{-16}` (that map is OpenDP's float"
        " evaluation of the real-arithmetic bound, checked only to this relative tolerance)"
    ),
    "c": Meaning(":math:`1/n` rounded to the nearest float: the factor the mean multiplies by"),
    "rounding": Meaning(
        "one unit in the last place of the largest mean possible, :math:`c \\max(|nL|, nU)`"
        " rounded up: a bound on the rounding of the final product"
    ),
    "sum_i map_i(d_in)": Meaning(
        "the sum of the composed measurements' maps at :math:`d_{in}`, computed exactly",
        shown_as=r"\sum_i \operatorname{map}_i(d_{in})",
    ),
    "sum_i d_mids_i": Meaning(
        "the sum of the per-query budgets ``d_mids`` (coordinate-wise for"
        " :math:`(\\varepsilon, \\delta)` pairs), computed exactly; the map gives it for every"
        " :math:`d_{in}` up to the ``d_in`` the compositor was built with, and refuses a larger one",
        shown_as=r"\sum_i \mathrm{d\_mids}_i",
    ),
    "epsilon": Meaning(
        "the :math:`\\varepsilon` of the guarantee: for ``make_pureDP_to_zCDP`` the inner"
        " measurement's map at :math:`d_{in}`; for ``make_zCDP_to_approxDP`` any"
        " :math:`\\varepsilon \\ge 0` at which the profile is read; for ``make_fix_delta`` the"
        " :math:`\\varepsilon` the profile gives at ``delta`` (under"
        " ``Approximate(SmoothedMaxDivergence)``, at ``delta`` minus the pair's"
        " :math:`\\delta` rounded down)"
    ),
    "delta": Meaning(
        "the ``delta`` argument: the :math:`\\delta` at which the profile is read; under"
        " ``Approximate(SmoothedMaxDivergence)`` the total, of which the inner pair's"
        " :math:`\\delta` is a part (the map refuses a ``delta`` that does not exceed it)"
    ),
    "d": Meaning(
        "the inner measurement's map at :math:`d_{in}`: for ``make_approximate``, its"
        " :math:`\\varepsilon` (max-divergence) or :math:`\\rho` (zero-concentrated divergence),"
        " stated with :math:`\\delta = 0`"
    ),
    "epsilon0": Meaning(
        "the :math:`\\varepsilon` of the pair the inner measurement's map gives at :math:`d_{in}`",
        shown_as=r"\varepsilon_0",
    ),
    "delta0": Meaning(
        "the :math:`\\delta` of the pair the inner measurement's map gives at :math:`d_{in}`",
        shown_as=r"\delta_0",
    ),
    "e": Meaning("the :math:`\\varepsilon \\ge 0` at which the privacy profile is read"),
    "map_1(map_0(d_in))": Meaning(
        "the outer part's map applied to the inner part's map at :math:`d_{in}` (the chain's"
        " map, computed by the two parts' own maps)",
        shown_as=r"\operatorname{map}_1(\operatorname{map}_0(d_{in}))",
    ),
    "map_0(d_in)": Meaning(
        "the inner measurement's map at :math:`d_{in}`: postprocessing keeps it",
        shown_as=r"\operatorname{map}_0(d_{in})",
    ),
    "alpha": Meaning(
        "a Rényi order :math:`\\alpha > 1`; every order gives a valid bound and the map"
        " searches for a small one"
    ),
}


class Log2(sympy.Function):
    """``log(x) / log(2)``, printed as ``\\log_2 x``."""

    def _latex(self, printer, exp=None):
        argument = self.args[0]
        if argument.is_Symbol:
            shown = rf"\log_2 {printer._print(argument)}"
        else:
            shown = rf"\log_2\left({printer._print(argument)}\right)"
        # sympy passes the exponent of a power of a Log2 here
        return shown if exp is None else rf"\left({shown}\right)^{{{exp}}}"


def _log2(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite every ``log(x)`` (x not 2) as ``Log2(x) * log(2)``: ``log(x)/log(2)`` cancels."""
    return expr.replace(
        lambda e: isinstance(e, sympy.log) and e.args[0] != 2,
        lambda e: Log2(e.args[0]) * sympy.log(2),
    )


class BoundPrinter(LatexPrinter):
    """sympy's LaTeX printer, with the readability changes of the module docstring."""

    def __init__(self, names: dict):
        super().__init__({"mul_symbol": "dot", "symbol_names": names})

    def _as_ordered_terms(self, expr, order=None):
        terms = super()._as_ordered_terms(expr, order=order)
        return sorted(terms, key=lambda term: (term.could_extract_minus_sign(), not term.has(D_IN)))

    def _print_Mul(self, expr):
        numerator, denominator = sympy.fraction(expr, exact=False)
        if denominator != 1 and numerator != expr:
            return rf"\frac{{{self._print(numerator)}}}{{{self._print(denominator)}}}"
        return super()._print_Mul(expr)

    def _print_Pow(self, expr):
        base, exponent = expr.args
        if not exponent.is_number and exponent.could_extract_minus_sign():
            return rf"\frac{{1}}{{{self._print(sympy.Pow(base, -exponent, evaluate=False))}}}"
        return super()._print_Pow(expr)

    def _print_Max(self, expr, exp=None):
        def rank(argument):
            if isinstance(argument, sympy.Abs):
                return 0
            return 1 if argument.is_Symbol else 2

        ordered = sorted(expr.args, key=rank)
        shown = r"\max\left(" + ", ".join(self._print(a) for a in ordered) + r"\right)"
        # sympy passes the exponent of a power of a Max here (e.g. (Max(...) / n)^2)
        return shown if exp is None else rf"\left({shown}\right)^{{{exp}}}"

    def _print_Piecewise(self, expr):
        branches = []
        excluded: dict = {}  # case variable -> the values the branches above have taken
        for value, condition in expr.args:
            case = _case(condition)
            if condition is sympy.true:
                words = [_remaining(symbol, values) for symbol, values in excluded.items()]
                label = ", ".join(words) if words and None not in words else r"\text{otherwise}"
            elif case is None:
                label = self._print(condition)
            else:
                symbol, number, word = case
                others = [_remaining(o, values) for o, values in excluded.items() if o != symbol]
                label = ", ".join([word, *(w for w in others if w is not None)])
                excluded.setdefault(symbol, set()).add(number)
            branches.append(rf"\displaystyle {self._print(value)} & {label}")
        return r"\begin{cases} " + r" \\[1ex] ".join(branches) + r" \end{cases}"


def _case(condition):
    """``(algorithm, 0, "S = Sequential")`` for ``Eq(algorithm, 0)``, else ``None``."""
    if not isinstance(condition, sympy.Eq):
        return None
    symbol, value = condition.args
    if not symbol.is_Symbol:
        symbol, value = value, symbol
    meaning = SYMBOLS.get(getattr(symbol, "name", None))
    if meaning is None or not value.is_Integer or int(value) not in meaning.values:
        return None
    return symbol, int(value), meaning.values[int(value)]


def _remaining(symbol, taken: set) -> str | None:
    """The name of the one value of ``symbol`` not in ``taken``, if exactly one is left."""
    left = [word for value, word in SYMBOLS[symbol.name].values.items() if value not in taken]
    return left[0] if len(left) == 1 else None


@dataclass
class Part:
    """A named part of a bound, shown on its own line."""

    symbol: sympy.Symbol
    latex_name: str
    expression: sympy.Expr
    text: str


def _known_parts() -> list[tuple[sympy.Expr, str, str, str]]:
    """Sub-expressions with a name of their own: (expression, symbol name, LaTeX, text)."""
    parts = []
    try:
        from certdp.transformations._summation.float_sum_contracts import ERROR
    except ImportError:  # the float sums moved: their error prints as a generic part
        return parts
    parts.append(
        (
            ERROR,
            "err",
            r"\operatorname{err}_S(n)",
            "a bound on the rounding error of one floating-point sum of :math:`n` records in"
            " :math:`[L, U]` by the algorithm ``S``"
            " (<pdf:transformations/_summation/float_summation.pdf> proves it): a"
            " sequential loop can accumulate one rounding per addition on partial sums up to"
            " :math:`n \\max(|L|, U)`; a pairwise tree only :math:`\\log_2 n` levels of them;"
            " a correctly rounded sum a single one.  It appears twice: the sums of both inputs"
            " may be off, in opposite directions",
        )
    )
    return parts


@dataclass
class RenderedBound:
    """The LaTeX of a bound, its named parts and the meaning of each symbol."""

    latex: str
    parts: list[tuple[str, str, str]]  # (LaTeX name, LaTeX definition, text)
    symbols: list[tuple[str, str]]  # (LaTeX symbol, text)
    unexplained: list[str]


def _indicators_as_cases(expr: sympy.Expr) -> sympy.Expr:
    for symbol in sorted(expr.free_symbols, key=lambda s: s.name):
        meaning = SYMBOLS.get(symbol.name)
        if meaning is not None and meaning.indicator:
            expr = sympy.Piecewise(
                (expr.subs(symbol, 1), sympy.Eq(symbol, 1)), (expr.subs(symbol, 0), True)
            )
    return expr


def _word_symbols(symbols) -> dict:
    """``\\mathit{name}`` for every symbol sympy would print as a run of italic letters, and
    the :data:`SYMBOLS` ``shown_as`` of a symbol whose name is not an identifier (a formula)."""
    names = {
        symbol: rf"\mathit{{{symbol.name}}}"
        for symbol in symbols
        if len(symbol.name) > 1 and sympy.latex(symbol) == symbol.name
    }
    for symbol in symbols:
        meaning = SYMBOLS.get(symbol.name)
        if not symbol.name.isidentifier() and meaning is not None and meaning.shown_as:
            names[symbol] = meaning.shown_as
    return names


def render_bound(
    bound: sympy.Expr, named: tuple = (), meanings: dict | None = None
) -> RenderedBound:
    """Render ``bound``.  ``named``: parts it already uses as symbols (``Part`` values);
    ``meanings``: ``{symbol name: reST}`` for symbols :data:`SYMBOLS` does not explain (a
    contract module may define them as ``SYMBOL_MEANINGS``)."""
    expr = _indicators_as_cases(bound)
    names = _word_symbols(expr.free_symbols)

    parts: list[Part] = list(named)
    for part in parts:
        names[part.symbol] = part.latex_name
    known = _known_parts()
    for sub in list(sympy.preorder_traversal(expr)):
        if not isinstance(sub, sympy.Piecewise) or sub == expr:
            continue
        if any(part.expression == sub for part in parts):
            continue
        match = next((k for k in known if k[0] == sub), None)
        if match is not None:
            _, name, latex_name, text = match
        else:
            name = f"P{len(parts) + 1}"
            latex_name, text = f"P_{{{len(parts) + 1}}}", "a case split of the bound, shown apart"
        symbol = sympy.Symbol(name)
        names[symbol] = latex_name
        parts.append(Part(symbol, latex_name, sub, text))
    for part in parts:
        expr = expr.xreplace({part.expression: part.symbol}).subs(part.expression, part.symbol)
    parts = [part for part in parts if expr.has(part.symbol)]

    printer = BoundPrinter(names)
    latex = printer.doprint(_log2(expr))
    rendered_parts = [
        (part.latex_name, printer.doprint(_log2(part.expression)), part.text) for part in parts
    ]

    symbols, unexplained = [], []
    seen = set()
    everything = [expr, *(part.expression for part in parts)]
    ordered = [D_IN] + sorted(
        {s for e in everything for s in e.free_symbols} - {D_IN} - {p.symbol for p in parts},
        key=lambda s: s.name,
    )
    for symbol in ordered:
        if symbol.name in seen:
            continue
        seen.add(symbol.name)
        meaning = SYMBOLS.get(symbol.name)
        if meanings and symbol.name in meanings:
            meaning = Meaning(meanings[symbol.name])
        if meaning is None:
            unexplained.append(symbol.name)
            continue
        if meaning.shown_as == "":
            continue
        shown = meaning.shown_as or printer.doprint(symbol)
        symbols.append((shown, meaning.text))
    return RenderedBound(latex, rendered_parts, symbols, unexplained)
