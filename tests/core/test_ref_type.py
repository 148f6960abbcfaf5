"""ref-type counterexamples for branch typefix (core/exact_type, core/conversion bulk path).

Each test asserts the CORRECT behaviour and fails on typefix (4b099aa..1a3d262).
Threat: in-process code that runs between two reads of a list (a gc callback here, a thread in
general) and swaps an item. types_are reads values[0] twice (types-are-first, then
first = type(values[0])), so an item checked as int can be a hostile int subclass when `first` is
taken; every other item then only has to be `first`.
Run: cd /work/wt/ref-type && PYTHONPATH=$PWD/src /work/main/.venv/bin/python -m pytest \
     /work/brief/s12/ref-type-tests.py -q -p no:cacheprovider
"""

import gc
import sys

import pytest

from certdp.core.conversion import exact_argument
from certdp.core.errors import DPError
from certdp.core.exact_type import types_are


def hostile(base):
    """A subclass of base whose metaclass makes it ==/hash like base (typeid.md)."""

    class Meta(type(base)):
        def __eq__(cls, other):
            return other is base

        def __hash__(cls):
            return hash(base)

    return Meta("H" + base.__name__, (base,), {})


HostileInt = hostile(int)


class _Pad:
    """A fresh GC-tracked allocation (no freelist), used to shift when gen-0 collections fire."""


def _with_gc_callback(callback, threshold, run):
    old = gc.get_threshold()
    gc.callbacks.append(callback)
    gc.set_threshold(threshold)
    try:
        return run()
    finally:
        gc.set_threshold(*old)
        gc.callbacks.remove(callback)


def test_types_are_double_read_of_first_item():
    """Lemma [exact type] says types_are(xs, int) is true iff every item READ has class int.
    A gc callback replaces xs[0] by a HostileInt after type_is read the int and before
    `first = type(values[0])`: the answer is True although the list ends [H, H, H] and no read
    of xs[0] after the check returned an int. (Fix: read values[0] once.)"""
    h = HostileInt(1)
    values = [1, h, h]
    fired = []

    def callback(phase, info):
        if phase == "start" and not fired:
            fired.append(1)
            values[0] = h

    answer = _with_gc_callback(callback, 1, lambda: types_are(values, int))
    assert fired, "no collection happened during the call (environment changed)"
    # correct: either refuse (some item read was a HostileInt) or every item is an int now
    assert answer is False or all(type(v) is int for v in values)


def test_exact_argument_bulk_path_returns_hostile_ints():
    """conversion.tex (arg-snapshot .. arg-bulk): "Every later step reads only items, so the
    result is that of v's items at that one moment" and the bulk result is what the per-item
    path returns. The snapshot `items` is an ordinary list reachable by introspection
    (frame f_locals read, no local is written); a gc callback swaps items[0] inside
    types_are(items, int) and exact_argument returns [HostileInt]*3 unchanged, where every
    per-item call refuses a HostileInt with a typed DPError. (Fix: snapshot into a tuple,
    which nobody can mutate, and read values[0] once in types_are.)"""
    h = HostileInt(7)
    results = []
    for threshold in (1, 2, 3):
        for pad in range(7):
            user_list = [1, h, h]
            state = {"hit": False}
            keep = []

            def callback(phase, info, user_list=user_list, state=state, keep=keep, pad=pad):
                if phase == "stop":
                    keep.clear()
                    keep.extend(_Pad() for _ in range(pad))
                    return
                if state["hit"]:
                    return
                frame = sys._getframe(1)
                while frame is not None:
                    if frame.f_code.co_name == "types_are":
                        local = frame.f_locals
                        items, kinds = local.get("values"), local.get("types")
                        if (
                            type(items) is list
                            and items is not user_list
                            and len(kinds) == 1
                            and kinds[0] is int
                            and type(items[0]) is int
                            and 144 < frame.f_lasti < 186  # inside type_is(values[0], ...)
                        ):
                            items[0] = h
                            state["hit"] = True
                        break
                    frame = frame.f_back

            def run(user_list=user_list):
                try:
                    return exact_argument(user_list, "p", DPError)
                except DPError:
                    return None

            out = _with_gc_callback(callback, threshold, run)
            if out is not None:
                results.append((threshold, pad, [type(v).__name__ for v in out]))
    hostile_out = [r for r in results if any(name != "int" for name in r[2])]
    assert hostile_out == [], f"exact_argument returned hostile ints: {hostile_out}"


@pytest.mark.parametrize("n", [3, 50])
def test_types_are_first_reread_any_length(n):
    """Same double read with a longer list: one int head, n-1 HostileInt tail."""
    h = HostileInt(1)
    values = [1] + [h] * (n - 1)
    fired = []

    def callback(phase, info):
        if phase == "start" and not fired:
            fired.append(1)
            values[0] = h

    answer = _with_gc_callback(callback, 1, lambda: types_are(values, int))
    assert fired
    assert answer is False or all(type(v) is int for v in values)
