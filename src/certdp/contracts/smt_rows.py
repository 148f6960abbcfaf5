"""Bounded SMT obligations of the row-wise frame steps, bound to the real constructors.

An obligation builds the real constructor, calls its own map at ``d_in`` (which must return
``d_in``), runs its own function on a probe input as a whole and record by record (the outputs'
rows must be the concatenation of the single-record outputs, and equal a fixed table), and then
asks z3 for neighbours at symmetric distance ``<= d_in`` whose row-map images are further apart
(:func:`certdp.contracts.smt.elementwise_cases`, for every row function ``g``, free).
"""

from __future__ import annotations

import z3

from .obligation import Obligation
from .smt import elementwise_cases

__all__ = ["row_map_obligation", "SIZE"]

SIZE = 3


def row_map_obligation(name, claim, build, d_in, whole, alone, rows, expected, option=False):
    """The obligation of ``name`` at ``d_in``: ``build()`` makes the real transformation;
    ``whole`` is the probe input, ``alone`` its single-record inputs, ``rows`` reads an output
    as a list of rows, and ``expected`` is the fixed table of rows.  With ``option``, the row
    function may drop a record (its image is ``None``, as a filter's is), and the rows compare
    after the dropped ones are removed."""
    record = z3.StringSort()
    if option:
        kept = z3.Datatype(f"Kept_{name}")
        kept.declare("dropped")
        kept.declare("row", ("value", z3.StringSort()))
        image = kept.create()
    else:
        image = z3.SeqSort(z3.StringSort())
    g = z3.Function(f"g_{name}_{d_in}", record, image)

    def violation():
        built = build()
        stated = built.map(d_in)
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        together = rows(built(whole))
        one_by_one = [row for single in alone for row in rows(built(single))]
        if not (together == one_by_one == expected):
            return [(z3.BoolVal(True), lambda m: {"code": together, "row map": expected})]
        return elementwise_cases(
            g, lambda label: z3.String(label), lambda r: z3.BoolVal(True),
            lambda out: z3.BoolVal(True), SIZE, d_in, "symmetric",
        )  # fmt: skip

    return Obligation(
        constructor=name, claim=f"{claim} symmetric d_in={d_in} len<={SIZE}",
        format="String", size=SIZE, violation=violation,
    )  # fmt: skip
