"""The parts of a package-relative path string, split as ``PurePosixPath`` splits it.

For a *plain* key, a string of the class ``str`` itself whose ``/``-separated components are
all non-empty and none is ``.``, :func:`plain_parts` gives ``PurePosixPath(key).parts`` as
``tuple(key.split("/"))``, and :func:`suffix_and_stem` gives a name's ``suffix`` and ``stem``
as ``PurePath`` computes them (Python 3.11-3.13); for any other key :func:`plain_parts` answers
``None`` and the caller parses it with ``pathlib``.  The argument is in ``gate.tex``
(path parts without pathlib).
"""

from __future__ import annotations

__all__ = ["plain_parts", "suffix_and_stem"]


# proof: begin path-parts
def plain_parts(key) -> tuple[str, ...] | None:
    """``PurePosixPath(key).parts`` when ``key`` is a plain key (of the class ``str`` itself,
    every ``/``-separated component non-empty and not ``.``); ``None`` otherwise."""
    if type(key) is not str:  # label: plain-exact
        return None
    parts = key.split("/")  # label: plain-split
    if "" in parts or "." in parts:  # label: plain-only
        return None
    return tuple(parts)


def suffix_and_stem(name: str) -> tuple[str, str]:
    """``(suffix, stem)`` of a path whose name is ``name``, as ``PurePath`` computes them: the
    text from the last ``.`` on and the text before it when that ``.`` is neither the first
    nor the last character, else ``""`` and ``name``."""
    i = name.rfind(".")
    if 0 < i < len(name) - 1:  # label: suffix-dot
        return name[i:], name[:i]
    return "", name


# proof: end path-parts
