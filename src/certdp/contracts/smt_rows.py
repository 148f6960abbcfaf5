"""Bounded SMT obligations of the row-wise frame steps, bound to the real constructors.

An obligation builds the real constructor and calls its own map at ``d_in`` (which must return
``d_in``).  It then runs the constructor's own function on a generated probe set of records
(:mod:`certdp.contracts.frame_probes`): each record alone must give exactly one output row (at
most one for a filter), and on every probe multiset (all records, reversed, doubled, adjacent
pairs, strided triples, the empty dataset) the output must be, as a multiset of rows, the
single-record outputs of its members: on the probes, the function is the row map of its own
single-record restriction.  On one fixed input its rows must equal a fixed table (the outputs
the tests compare with OpenDP 0.16).  Only then does z3 check the row-map lemma for a FREE row
function ``g`` (:func:`certdp.contracts.smt.elementwise_cases`): neighbours at symmetric
distance ``<= d_in`` of length ``<= SIZE`` have row-map images reached by the same edits.

What this does not check: that the code is a row map on inputs outside the probes (the
proof's lemmas argue it for every input).
"""

from __future__ import annotations

import z3

from certdp.core.errors import DPError
from certdp.core.metrics import SymmetricDistance

from .obligation import Obligation
from .smt import elementwise_cases

__all__ = [
    "row_map_obligation", "row_map_mismatch", "probe_multisets", "SIZE", "BOUND", "ABSTRACTION",
    "ASSUMED",
]  # fmt: skip

SIZE = 3

#: What the obligations check of the real code (the models' SCOPE).
BOUND = (
    "the real constructor is built and its own map is called at d_in (it must return d_in); its "
    "own function is run on the generated probe records of contracts/frame_probes.py (hostile "
    "strings, every value class the cast and compare code distinguishes, the value 'q'), each "
    "record alone (exactly one output row; at most one for a filter) and on the probe multisets "
    "of contracts/smt_rows.py (empty, all, reversed, doubled, adjacent pairs, strided triples), "
    "whose output must be, as a multiset of rows, the single-record outputs of its members; on "
    "one fixed input its rows must equal a fixed table (certdp's outputs, which the tests "
    "compare with OpenDP 0.16)"
)
#: What z3 checks, and of what.
ABSTRACTION = (
    "z3 checks the row-map lemma for a free row function g (no fact about g assumed): two "
    "datasets of length <= 3 at symmetric distance <= d_in have row-map images reached by the "
    "same edits, so within d_in; this is a check of the lemma, not of the code",
)
#: What rests on the hand proof.
ASSUMED = (
    "that the code's function is the row map of its single-record restriction on every input, "
    "not only on the probes (the proof's lemmas argue it; the probes test it), and that it "
    "never raises on the probe schema outside the probes",
)


def probe_multisets(records: list) -> list[list]:
    """The multisets of probe records the function is run on (as lists, in the order given):
    the empty dataset, all records, all reversed, all twice, every adjacent pair and every
    strided triple (with repeats)."""
    n = len(records)
    groups = [[], list(records), list(reversed(records)), list(records) + list(records)]
    groups += [[records[i], records[(i + 1) % n]] for i in range(n)]
    groups += [[records[i], records[(i + n // 3) % n], records[i]] for i in range(n)]
    return groups


def row_map_mismatch(built, records, dataset, rows, option=False):
    """None when, on the probes, the function of ``built`` is the row map of its single-record
    restriction (one row per record, at most one with ``option``); else a description of the
    first mismatch.  ``dataset`` turns a list of records into an input, ``rows`` an output into
    a list of rows."""
    sizes = (0, 1) if option else (1,)
    images = []
    for record in records:
        try:
            image = rows(built(dataset([record])))
        except DPError as error:
            return {"record": record, "raised": str(error)}
        if len(image) not in sizes:
            return {"record": record, "rows of the record alone": image}
        images.append(image)
    image_of = {id(record): image for record, image in zip(records, images)}
    same = SymmetricDistance()
    for group in probe_multisets(records):
        try:
            together = rows(built(dataset(group)))
        except DPError as error:
            return {"multiset": group, "raised": str(error)}
        one_by_one = [row for record in group for row in image_of[id(record)]]
        if same.distance(together, one_by_one) != 0:
            return {"multiset": group, "code": together, "row map": one_by_one}
    return None


def row_map_obligation(
    name, claim, build, d_in, records, dataset, rows, table, expected, option=False
):
    """The obligation of ``name`` at ``d_in``: ``build()`` makes the real transformation;
    ``records`` are the probe records, ``dataset`` makes an input of a list of records, ``rows``
    reads an output as a list of rows; on the input ``table`` the rows must be ``expected``.
    With ``option``, the row function may drop a record (its image is ``None``, as a filter's
    is), and the rows compare after the dropped ones are removed."""
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
        mismatch = row_map_mismatch(built, records, dataset, rows, option)
        if mismatch is not None:
            return [(z3.BoolVal(True), lambda m: mismatch)]
        fixed = rows(built(table))
        if fixed != expected:
            return [(z3.BoolVal(True), lambda m: {"code": fixed, "table": expected})]
        return elementwise_cases(
            g, lambda label: z3.String(label), lambda r: z3.BoolVal(True),
            lambda out: z3.BoolVal(True), SIZE, d_in, "symmetric",
        )  # fmt: skip

    groups = len(probe_multisets(records))
    return Obligation(
        constructor=name,
        claim=f"{claim} symmetric d_in={d_in}: code a row map on {len(records)} probe records "
        f"and {groups} multisets; free-g row-map lemma len<={SIZE}",
        format="String", size=SIZE, violation=violation,
    )  # fmt: skip
