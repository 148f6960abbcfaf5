"""Flip one directed rounding in a copy of a certdp module.

``flipped(module, label, old, new)`` returns a fresh module object built from the source of
``module`` with the text ``old`` replaced by ``new`` on the one line tagged ``# label: LABEL``
(the text must occur there exactly once). The copy is executed in the same package, so its
imports resolve to the real certdp; the real module is not touched.
"""

from __future__ import annotations

import importlib
import inspect
import types


def flipped(module_name: str, label: str, old: str, new: str) -> types.ModuleType:
    module = importlib.import_module(module_name)
    lines = inspect.getsource(module).splitlines(keepends=True)
    tagged = [i for i, line in enumerate(lines) if line.rstrip().endswith(f"# label: {label}")]
    assert len(tagged) == 1, f"{module_name}: label {label} tags {len(tagged)} lines"
    line = lines[tagged[0]]
    assert line.count(old) == 1, f"{module_name}:{label}: {old!r} occurs {line.count(old)} times"
    lines[tagged[0]] = line.replace(old, new)
    copy = types.ModuleType(f"{module_name}__flipped", module.__doc__)
    copy.__package__ = module.__package__
    copy.__file__ = module.__file__
    exec(compile("".join(lines), f"{module.__file__} (flipped {label})", "exec"), copy.__dict__)
    return copy
