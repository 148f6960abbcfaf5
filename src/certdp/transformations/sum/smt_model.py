"""Bounded check of ``make_sum``: its dispatch, and the sums it dispatches to.

``make_sum`` computes nothing itself: it picks a specialised sum (possibly behind the identity
read as 1-stable from the insert-delete to the symmetric distance, or behind a sort) and returns
that sum's map.  The model of the choice (:func:`expected_sum`) restates the rules of
make_sum.tex independently:

* integers: the sized checked sum if the size is known and ``size * max(|L|, |U|)`` fits the
  type; else under the insert-delete distance the ordered sum (sized or not); else the
  monotonic sum if the bounds share a sign, else the split sum (sized or not);
* floats: the Pairwise checked sum (sized, or unsized at ``2**20`` records) if it cannot
  overflow, else the Pairwise ordered sum; "cannot overflow" is the float summation lemma's
  ``can_float_sum_overflow`` (float_summation.tex), used here as that lemma states it.

Obligations:

* ``dispatch``: for every numeric type, sized (``n = 4``) or not, both metrics and the bounds of
  the summation model (every integer bound case of :mod:`..._summation.smt_model`; for floats
  small, large and overflowing bounds), ``make_sum`` returns a transformation whose map equals
  the expected specialised sum's map at ``d_in = 0 .. 6`` and whose function equals it (after
  the sort, where one is applied) on every dataset of length ``<= 4`` over a grid of in-bounds
  records: a finite set of cases, each decided by running the code (the formula of a case is
  ``True`` exactly when the code disagrees with the model of the choice).
* ``underlying``: the chosen sums' own bounded theorems (the summation model's obligations) at
  the cases where they are cheap: every integer sum chosen for ``i8`` and ``u8`` at those bounds,
  and the Pairwise float sums in the reduced format ``f8`` at ``n = 4``.  The other widths are
  the specialised sums' own machine checks.
"""

from __future__ import annotations

import itertools

import numpy as np
import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope
from certdp.core.errors import DPError
from certdp.core.types import INTEGER_TYPES, carrier

__all__ = ["expected_sum", "dispatch_instance", "obligations", "MODELLED"]

_SIZE = 4
_FLOAT_BOUNDS = [(-1.0, 1.0), (0.0, 100.0), (-1e300, 1e300), (-3.0e38, 3.0e38)]


def expected_sum(T, size, bounds, ordered: bool) -> tuple[str, tuple]:
    """``(constructor name, its arguments)`` the dispatch must pick."""
    lower, upper = bounds
    if T.is_integer:
        magnitude = max(abs(lower), abs(upper))
        if size is not None and size * magnitude <= T.max and -size * magnitude >= T.min:
            return "make_sized_bounded_int_checked_sum", (size, bounds, T.name)
        sized = "sized_" if size is not None else ""
        head = (size,) if size is not None else ()
        if ordered:
            kind = "ordered"
        elif lower >= 0 or upper <= 0:
            kind = "monotonic"
        else:
            kind = "split"
        return f"make_{sized}bounded_int_{kind}_sum", (*head, bounds, T.name)
    from certdp.transformations._summation.float_summation import can_float_sum_overflow

    S = f"Pairwise<{T.name}>"
    records = 1 << 20 if size is None else size
    kind = "ordered" if can_float_sum_overflow(records, bounds, S) else "checked"
    sized = "sized_" if size is not None else ""
    return f"make_{sized}bounded_float_{kind}_sum", (records, bounds)


def _constructor(name):
    import importlib

    return getattr(importlib.import_module(f"certdp.transformations.{name[5:]}"), name)


def _datasets(T, bounds, size):
    lower, upper = bounds
    grid = sorted({lower, upper, (lower + upper) // 2 if T.is_integer else (lower + upper) / 2})
    lengths = [size] if size is not None else range(_SIZE + 1)
    for n in lengths:
        yield from (list(x) for x in itertools.product(grid, repeat=n))


def _disagreement(T, size, bounds, metric) -> str | None:
    """``None`` when make_sum agrees with the model of the choice, else what differs."""
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_sum import canonical_order, make_sum

    ordered = metric == "insert_delete"
    domain = vector_domain(atom_domain(bounds=bounds, T=T.name), size=size)
    space_metric = insert_delete_distance() if ordered else symmetric_distance()
    try:
        chosen = make_sum(domain, space_metric)
    except DPError as error:
        refused = error
    else:
        refused = None
    name, arguments = expected_sum(T, size, bounds, ordered)
    make = _constructor(name)
    try:
        expected = make(*arguments, S=f"Pairwise<{T.name}>") if T.is_float else make(*arguments)
    except DPError as error:
        return None if refused is not None else f"{name} refuses ({error}), make_sum does not"
    if refused is not None:
        return f"make_sum refuses ({refused}), {name} does not"
    for d_in in range(7):
        try:
            a = chosen.map(d_in)
        except DPError:
            a = "refused"
        try:
            b = expected.map(d_in)
        except DPError:
            b = "refused"
        if a != b or type(a) is not type(b):
            return f"map({d_in}): make_sum {a!r}, {name} {b!r}"
    sorts = T.is_float and not ordered and "ordered" in name
    for x in _datasets(T, bounds, size):
        a = chosen.function(x)
        b = expected.function(canonical_order(x) if sorts else x)
        if repr(a) != repr(b):
            return f"f({x}): make_sum {a!r}, {name} {b!r}"
    return None


def dispatch_instance(T, size, bounds, metric) -> Obligation:
    def violation():
        found = _disagreement(T, size, bounds, metric)
        return [(z3.BoolVal(found is not None), lambda m, found=found: {"differs": found})]

    name, _ = expected_sum(T, size, bounds, metric == "insert_delete")
    return Obligation(
        constructor="make_sum",
        claim=(
            f"dispatch {T.name} bounds={bounds} {'size=' + str(size) if size else 'unsized'} "
            f"{metric}: picks {name} (same map at d_in=0..6, same function on every dataset "
            f"of len<={_SIZE} over a grid of records)"
        ),
        format=T.name,
        size=_SIZE,
        violation=violation,
    )


def _cases():
    from certdp.transformations._summation.smt_model import integer_bound_cases

    for name in (*INTEGER_TYPES, "f32", "f64"):
        T = carrier(name)
        bounds_list = integer_bound_cases(T) if T.is_integer else _FLOAT_BOUNDS
        for bounds in bounds_list:
            if T.name == "f32":
                if abs(bounds[0]) > 3.5e38:
                    continue
                bounds = tuple(float(np.float32(b)) for b in bounds)
            for size in (_SIZE, None):
                for metric in ("symmetric", "insert_delete"):
                    yield T, size, bounds, metric


def _underlying() -> list[Obligation]:
    from certdp.transformations._summation import smt_model as sums

    result, seen = [], set()
    for T, size, bounds, metric in _cases():
        name, _ = expected_sum(T, size, bounds, metric == "insert_delete")
        if T.is_integer and T.name in ("i8", "u8"):
            for ob in sums.int_sum_instances(name, T):
                if ob.claim.startswith(f"{T.name} bounds={bounds}") and ob.key not in seen:
                    seen.add(ob.key)
                    result.append(_renamed(ob, name))
    for name in ("make_sized_bounded_float_checked_sum", "make_bounded_float_ordered_sum"):
        for fmt, N, bounds in sums.FLOAT_CASES:
            if "checked" in name and bounds[1] >= 100.0:
                continue
            d_in = 2 if name.startswith("make_sized") else 1
            result.append(
                _renamed(sums.float_sum_instance(name, "Pairwise", fmt, N, bounds, d_in), name)
            )
    return result


def _renamed(obligation: Obligation, name: str) -> Obligation:
    obligation.constructor = "make_sum"
    obligation.claim = f"underlying {name}: {obligation.claim}"
    return obligation


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_sum" not in names:
        return []
    return [dispatch_instance(*case) for case in _cases()] + _underlying()


MODELLED = {
    "make_sum": [
        "transformations/sum/make_sum.py",
        "transformations/_summation/smt_model.py",
        "transformations/_summation/integer_summation.py",
        "transformations/_summation/float_summation.py",
    ]
}

SCOPE = {
    "make_sum": Scope(
        formats=("integer types", "f32", "f64", "f8"),
        sizes=(_SIZE,),
        bound_to_code="make_sum is run at every type, size, metric and bounds case and compared "
        "with the expected specialised sum (its map at d_in = 0..6 and its function on a grid "
        "of datasets); the chosen sums' theorems call their real maps",
        bit_precise=("the dispatch, by running the code on a finite set of cases",),
        reduced_formats=("the Pairwise float sums chosen, at n = 4 in f8",),
    )
}  # fmt: skip
