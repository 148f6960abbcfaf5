"""SMT model of ``make_split_lines`` and its bounded theorem.

The symmetric distance reads a text as the dataset of its lines (core/metrics.tex), so on the
lines the function is the identity: the model represents each text by its lines (z3 strings
without a line feed) and checks, for every edit script of at most ``d_in`` line insertions and
deletions on up to ``_SIZE`` lines, that the outputs are reached by the same edits.  What binds
the model to the code: every obligation calls the real map at ``d_in`` and runs the real function
on probe texts, requiring that it returns exactly the lines the texts were built from (with
``"\\n"`` and ``"\\r\\n"`` endings, with and without a final line ending after a non-empty
last line).
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases
from certdp.contracts.smt_code import Scope

__all__ = ["obligations", "MODELLED", "SCOPE", "PROBES"]

_SIZE = 3

#: Line lists that the real function must get back from the texts joining them.
PROBES = (["a", "b"], [""], ["", ""], [" a ", "b\rc"], ["x" * 1000], ["\u2028", "\x85", "\x00"])


def _instance(d_in: int):
    from .make_split_lines import make_split_lines

    built = make_split_lines()
    stated = built.map(d_in)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        for lines in PROBES:
            for ending in ("\n", "\r\n"):
                # a final line needs no ending unless it is empty (then it is no line)
                texts = ["".join(line + ending for line in lines)]
                texts += [ending.join(lines)] if lines[-1] else []
                for text in texts:
                    if built(text) != lines:
                        return [(z3.BoolVal(True), lambda m, t=text: {"text": t})]
        no_line_feed = lambda r: z3.Not(z3.Contains(r, z3.StringVal("\n")))  # noqa: E731
        return elementwise_cases(
            lambda r: r, lambda label: z3.String(label), no_line_feed,
            lambda out: no_line_feed(out), _SIZE, d_in, "symmetric",
        )  # fmt: skip

    return Obligation(
        constructor="make_split_lines",
        claim=f"symmetric d_in={d_in} lines<={_SIZE}",
        format="String", size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_split_lines" not in names:
        return []
    return [_instance(d_in) for d_in in (1, 2)]


MODELLED = {
    "make_split_lines": [
        "transformations/split_lines/make_split_lines.py",
        "core/metrics.py",
    ]
}

SCOPE = {
    "make_split_lines": Scope(
        formats=("String",),
        sizes=(_SIZE,),
        bound_to_code="the real make_split_lines is built, its own map is called at d_in, and its "
        "own function is run on probe texts and must return the lines they were joined from",
        abstractions=("a text is represented by its lines (the definition of the symmetric "
                      "distance on texts), on which the function is the identity",),
        assumed=("that text_lines returns the lines of every text (Lemma [lines] of "
                 "core/metrics.tex; checked here on the probes and by the tests against OpenDP)",),
        instances="d_in 1 and 2",
    )
}  # fmt: skip
