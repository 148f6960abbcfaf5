"""The parts of a package-relative path string, split as ``PurePosixPath`` splits it.

For a *plain* key, a string of the class ``str`` itself whose ``/``-separated components are
all non-empty and none is ``.``, :func:`plain_parts` gives ``PurePosixPath(key).parts`` as
``tuple(key.split("/"))``, and :func:`suffix_and_stem` gives the ``suffix`` and ``stem`` of a
name that neither starts nor ends with ``.``, on which every supported Python's ``PurePath``
agrees; for anything else they answer ``None`` and the caller parses the key with
``pathlib``.  The argument is in ``gate.tex`` (path parts without pathlib).
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


def suffix_and_stem(name: str) -> tuple[str, str] | None:
    """``(suffix, stem)`` of a path whose name is ``name`` (a string of the class ``str``
    itself), as ``PurePath`` computes them, when ``name`` neither starts nor ends with ``.``: the text from its last ``.`` on and the
    text before it, or ``""`` and ``name`` when it holds no ``.``; ``None`` for any other
    name (Python 3.14 changed ``suffix`` and ``stem`` for names starting or ending with
    ``.``)."""
    if name[:1] == "." or name[-1:] == ".":  # label: suffix-dots-outside
        return None
    i = name.rfind(".")
    if i != -1:  # label: suffix-dot
        return name[i:], name[:i]
    return "", name


# proof: end path-parts
