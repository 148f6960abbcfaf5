"""Flip one directed rounding in a copy of a certdp module.

``flipped(module, label, old, new)`` returns a fresh module object built from the source of
``module`` with the text ``old`` replaced by ``new`` on the one line tagged ``# label: LABEL``
(or on the line ``offset`` lines below it, for a statement continued there; the text must
occur there exactly once). The copy is executed in the same package, so its
imports resolve to the real certdp; the real module is not touched (the copy is registered in ``sys.modules``
under a fresh name, as dataclasses need).
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import sys
import types

_COPIES = itertools.count()


def flipped(module_name: str, label: str, old: str, new: str, offset: int = 0) -> types.ModuleType:
    module = importlib.import_module(module_name)
    lines = inspect.getsource(module).splitlines(keepends=True)
    tagged = [i for i, line in enumerate(lines) if line.rstrip().endswith(f"# label: {label}")]
    assert len(tagged) == 1, f"{module_name}: label {label} tags {len(tagged)} lines"
    where = tagged[0] + offset  # a statement may continue below its label
    line = lines[where]
    assert line.count(old) == 1, f"{module_name}:{label}: {old!r} occurs {line.count(old)} times"
    lines[where] = line.replace(old, new)
    name = f"{module_name}__flipped{next(_COPIES)}"
    copy = types.ModuleType(name, module.__doc__)
    copy.__package__ = module.__package__
    copy.__file__ = module.__file__
    sys.modules[name] = copy  # dataclasses look their module up there
    exec(compile("".join(lines), f"{module.__file__} (flipped {label})", "exec"), copy.__dict__)
    return copy
