"""SMT model of ``make_split_records`` and its bounded theorem.

The row function (``split_fields``: split at the separator, trim Unicode White_Space) is left
uninterpreted: ``g`` is a free z3 function from strings to sequences of strings, and the theorem
is checked for every such ``g``.  What binds the model to the code: every obligation builds the real
constructor, calls its own map at ``d_in``, and runs its own function on probe lines (hostile
ones included), requiring that the function is a row map (the output for a dataset is the outputs
for each line alone, in order) with certdp's fields on them (a fixed table: Rust's split then
trim, on the whole line).  OpenDP 0.16 gives the same fields on every probe but ``"a\x00b"``: its
C interface cuts a line at its first NUL, so it gives ``["a"]`` (``["", "a", ""]`` for the empty
separator) there.  The separator ``None`` stands for ``","``, as in OpenDP.

Theorem, instantiated per separator: neighbours at symmetric distance ``<= d_in`` (z3 strings, of
any content) map to outputs reached by the same edits, so ``d_out <= d_in``, the code's map
(:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases
from certdp.contracts.smt_code import Scope

__all__ = ["obligations", "MODELLED", "SCOPE", "PROBES"]

_SIZE = 3

#: Lines on which the real function must be a row map with certdp's fields (Rust's split then
#: trim on the whole line: U+001C is not white space, U+3000 is; no quoting; split("") cuts every
#: character).  These are OpenDP 0.16's fields except on "a\x00b", which OpenDP cuts at the NUL.
PROBES = ("a,b", " a , b ", "", ",", '"a,b",c', "\x1ca\x1c,\u3000", "a\x00b")
EXPECTED = {
    ",": (
        ["a", "b"],
        ["a", "b"],
        [""],
        ["", ""],
        ['"a', 'b"', "c"],
        ["\x1ca\x1c", ""],
        ["a\x00b"],
    ),
    "": (
        ["", "a", ",", "b", ""],
        ["", "", "a", "", ",", "", "b", "", ""],
        ["", ""],
        ["", ",", ""],
        ["", '"', "a", ",", "b", '"', ",", "c", ""],
        ["", "\x1c", "a", "\x1c", ",", "", ""],
        ["", "a", "\x00", "b", ""],
    ),
}


def _instance(separator: str | None, d_in: int):
    from certdp.core.metrics import symmetric_distance

    from .make_split_records import make_split_records

    built = make_split_records(separator)
    stated = built.map(d_in)
    fields = z3.SeqSort(z3.StringSort())
    g = z3.Function(f"g_{separator!r}", z3.StringSort(), fields)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        together = built(list(PROBES))
        alone = [built([line])[0] for line in PROBES]
        expected = list(EXPECTED["," if separator is None else separator])
        if not (together == alone == expected) or symmetric_distance().distance(
            built(list(PROBES) + [PROBES[0]]), together + [expected[0]]
        ):
            return [(z3.BoolVal(True), lambda m: {"code": together, "row map": expected})]
        return elementwise_cases(
            g, lambda label: z3.String(label), lambda r: z3.BoolVal(True),
            lambda out: z3.BoolVal(True), _SIZE, d_in, "symmetric",
        )  # fmt: skip

    return Obligation(
        constructor="make_split_records",
        claim=f"separator={separator!r} symmetric d_in={d_in} len<={_SIZE}",
        format="String", size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_split_records" not in names:
        return []
    return [_instance(separator, d_in) for separator in (",", "", None) for d_in in (1, 2)]


MODELLED = {
    "make_split_records": [
        "transformations/split_records/make_split_records.py",
        "transformations/_rowmap/rowmap.py",
    ]
}

SCOPE = {
    "make_split_records": Scope(
        formats=("String",),
        sizes=(_SIZE,),
        bound_to_code="the real make_split_records is built at each separator, its own map is "
        "called at d_in, and its own function is run on probe lines (hostile ones included) and "
        "must be the row map with certdp's fields (a fixed table, Rust's split then trim on the "
        "whole line; OpenDP 0.16's own fields differ on the NUL probe, which it cuts at the NUL)",
        free_functions=("the row function g (split and trim), any function of one line: the "
                        "theorem holds for every g",),
        assumed=("that split_fields depends on the line alone and never raises (Lemma [fields] "
                 "of the proof; the probes and the tests against OpenDP check it on examples)",),
        instances="separators ',', '' and None (for ','); d_in 1 and 2",
    )
}  # fmt: skip
