"""The certdp source files a module imports, read statically and transitively.

``imported_files`` parses a module with :mod:`ast` (every ``import`` and ``from ... import``
statement, at any depth, including those inside functions), each file read by the gate's
reader of regular files (:func:`certdp.audit.regular_file.read_regular`: a FIFO or a symbolic
link there raises instead of blocking or being followed), and follows, within the package,
each imported module, the ``__init__.py`` of every package on its dotted path, and a submodule
named in ``from package import name``.  Nothing is imported or executed.  The SMT models'
fingerprints (the vetting ledger's ``model:`` keys and the ``certdp prove`` cache key) cover
these files, so an edit of a shared model helper changes them.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path

from certdp.audit.regular_file import read_regular

__all__ = ["imported_files", "syntax_digest"]


# proof: begin imported
def _dotted(node: ast.AST, module_parts: list[str], is_package: bool) -> list[list[str]]:
    """The absolute dotted names (as part lists) that ``node`` imports."""
    if isinstance(node, ast.Import):
        return [alias.name.split(".") for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = module_parts if is_package else module_parts[:-1]
        base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
        stem = base + (node.module.split(".") if node.module else [])
    else:
        stem = node.module.split(".") if node.module else []
    return [stem] + [stem + [alias.name] for alias in node.names if alias.name != "*"]


def _files_of(parts: list[str], package: Path) -> list[Path]:
    """The files that importing ``parts`` (``certdp.…``) runs: each package's ``__init__.py``
    on the way, and the module's own file."""
    if not parts or parts[0] != package.name:
        return []
    found = []
    folder = package
    for index, part in enumerate(parts):
        if index:
            folder = folder / part
        init = folder / "__init__.py"
        if init.is_file():
            found.append(init)
            continue
        module = folder.with_suffix(".py")
        if index and module.is_file():
            found.append(module)
        break
    return found


@functools.lru_cache(maxsize=1024)
def _imports(source: bytes, parts: tuple, is_package: bool) -> tuple:
    """The dotted names a module's source imports (cached by its bytes: parsing is the cost)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ()
    return tuple(
        tuple(dotted)
        for node in ast.walk(tree)
        for dotted in _dotted(node, list(parts), is_package)
    )


@functools.lru_cache(maxsize=1024)
def syntax_digest(source: bytes) -> str:
    """SHA-256 of the syntax tree of a module's source (``ast.dump``: comments and formatting
    do not count, every statement, name and docstring does), or of its bytes when it does not
    parse."""
    try:
        text = ast.dump(ast.parse(source))
    except (SyntaxError, ValueError):
        return "bytes:" + hashlib.sha256(source).hexdigest()
    return hashlib.sha256(text.encode()).hexdigest()


def imported_files(path: Path, package: Path) -> list[Path]:
    """``path`` and every file of ``package`` it imports, transitively, sorted; a file that does
    not parse is kept but not followed.  Each file is read by
    :func:`~certdp.audit.regular_file.read_regular`, so a file to read that is not a regular
    file (a symbolic link, FIFO, ...) raises its ``NotRegularFile`` (an ``OSError``)."""
    package = package.resolve()
    seen: set[Path] = set()
    todo = [path.resolve()]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        relative = current.relative_to(package.parent).with_suffix("")
        parts = list(relative.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        source = read_regular(current)  # label: read-module
        for dotted in _imports(source, tuple(parts), is_package):
            todo.extend(f for f in _files_of(list(dotted), package) if f not in seen)
    return sorted(seen)


# proof: end imported
