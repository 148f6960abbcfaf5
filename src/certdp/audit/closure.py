"""The closure of certdp definitions a constructor's proven code depends on.

Starting from the named ranges its proof lists (``\\provesCode`` / ``\\certdpcode``), the
closure collects every certdp definition -- module-level function, class or constant -- that
those ranges use, and then everything those definitions use, transitively.  Names are resolved
statically from the syntax tree: a name is looked up among the enclosing function's local
names, then the module's own definitions and imports (``import a.b as c``, ``from .x import
y``, also inside function bodies); an attribute of a module (``errors.DPError``) resolves to
the module's definition; re-exports (``certdp.numeric.inf_add`` imported in
``certdp/numeric/__init__.py`` from ``.floats``) are followed to the defining module.  The
search stops at modules outside ``certdp`` (the standard library, numpy, mpmath, ...).

What static resolution cannot see: attribute calls on values (``ty.min``, ``built.map(...)``)
are covered only through the classes the closure names (a class is included with its whole
body), and names built at run time (``getattr``, ``importlib``) are not followed.  Type
annotations are skipped: they are not evaluated (``from __future__ import annotations``).

For every definition the closure records its dotted name, file, line span, a fingerprint (the
sha256 of ``ast.dump`` without positions, so formatting and comments do not count) and the
proof documents whose proven ranges contain it.  A definition that no document proves belongs
to the constructor's *trusted base*.  Documents are every ``.tex`` with ``\\documentclass``
under ``src/certdp`` (constructor proofs and lemma documents alike).
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .discovery import ConstructorFolder, ProofText
from .regular_file import NotRegularFile, read_regular_text
from .sources import parse_markers, read_markers

__all__ = ["Definition", "ProofIndex", "closure", "trusted_base", "uncited_documents"]

PACKAGE = "certdp"


@dataclass(frozen=True)
class Definition:
    """One module-level definition in a constructor's closure."""

    name: str  # dotted: certdp.numeric.floats.inf_add
    file: str  # relative to the package (numeric/floats.py)
    first: int  # first line (decorators included)
    last: int
    fingerprint: str  # sha256 of the position-free ast.dump
    #: proof documents (relative to the package) whose proven ranges contain it
    proven_by: tuple[str, ...] = ()

    @property
    def trusted(self) -> bool:
        """Not inside any proven range: part of the constructor's trusted base."""
        return not self.proven_by


@dataclass
class _Module:
    """One parsed certdp module: its definitions and the names its imports bind."""

    name: str
    path: Path
    is_package: bool
    tree: ast.Module
    #: the text ``tree`` was parsed from (its proof markers are read from the same text)
    text: str = ""
    definitions: dict[str, ast.stmt] = field(default_factory=dict)
    #: local name -> (module, attribute): ``(path, None)`` for ``import path``, ``(source,
    #: name)`` for ``from source import name``
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    #: the modules of its ``from source import *`` statements, in order
    star_sources: list[str] = field(default_factory=list)

    @property
    def package(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]


def _fingerprint(node: ast.AST) -> str:
    return hashlib.sha256(ast.dump(node, include_attributes=False).encode()).hexdigest()


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [decorator.lineno for decorator in decorators])


def _absolute(module: _Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = module.package.split(".")
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _import_bindings(module: _Module, node: ast.stmt) -> dict[str, tuple[str, str | None]]:
    """Local name -> ``(module, attribute)`` bound by one import statement."""
    bound: dict[str, tuple[str, str | None]] = {}
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                bound[alias.asname] = (alias.name, None)
            else:  # `import a.b` binds `a`
                head = alias.name.split(".")[0]
                bound[head] = (head, None)
    elif isinstance(node, ast.ImportFrom):
        source = _absolute(module, node)
        for alias in node.names:
            if alias.name != "*":
                bound[alias.asname or alias.name] = (source, alias.name)
    return bound


def _star_exports(module: _Module) -> set[str] | None:
    """The names ``from module import *`` binds: its ``__all__`` when that is a list of string
    literals, its public names when it has none, and ``None`` (any name it resolves) when
    ``__all__`` is computed."""
    for node in _top_level(module.tree.body):
        if isinstance(node, ast.Assign) and "__all__" in _targets(node.targets[0]):
            value = node.value
            literal = isinstance(value, (ast.List, ast.Tuple)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
            )
            return {e.value for e in value.elts} if literal else None
    return {n for n in [*module.definitions, *module.imports] if not n.startswith("_")}


def _targets(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _targets(element)]
    return []


def _top_level(body: list[ast.stmt]):
    """Module-level statements, looking inside ``if``/``try`` blocks at module level."""
    for node in body:
        if isinstance(node, ast.If):
            yield from _top_level(node.body)
            yield from _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _top_level(block)
            for handler in node.handlers:
                yield from _top_level(handler.body)
        else:
            yield node


class _Modules:
    """The certdp modules of one source tree, parsed on demand."""

    def __init__(self, source: Path):
        self.source = source  # the folder holding the certdp package
        self._cache: dict[str, _Module | None] = {}
        # per definition node (kept alive by _cache, so its id is not reused): what it
        # refers to and its fingerprint, the same for every closure that reaches it
        self._references: dict[int, list] = {}
        self._fingerprints: dict[int, str] = {}

    def references(self, module: _Module, node: ast.AST) -> list:
        """:func:`_references` of one top-level definition node of ``module``, remembered."""
        if id(node) not in self._references:
            self._references[id(node)] = _references(self, module, [node])
        return self._references[id(node)]

    def fingerprint(self, node: ast.AST) -> str:
        if id(node) not in self._fingerprints:
            self._fingerprints[id(node)] = _fingerprint(node)
        return self._fingerprints[id(node)]

    def get(self, name: str) -> _Module | None:
        if name not in self._cache:
            self._cache[name] = self._load(name)
        return self._cache[name]

    def _load(self, name: str) -> _Module | None:
        if name != PACKAGE and not name.startswith(PACKAGE + "."):
            return None
        base = self.source.joinpath(*name.split("."))
        for path, is_package in ((base.with_suffix(".py"), False), (base / "__init__.py", True)):
            if path.is_file():
                text = read_regular_text(path)
                tree = ast.parse(text, filename=str(path))
                module = _Module(name, path, is_package, tree, text)
                for node in _top_level(tree.body):
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        module.definitions[node.name] = node
                    elif isinstance(node, ast.Assign):
                        for target in node.targets:
                            for target_name in _targets(target):
                                module.definitions[target_name] = node
                    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                        for target_name in _targets(node.target):
                            module.definitions.setdefault(target_name, node)
                    elif isinstance(node, (ast.Import, ast.ImportFrom)):
                        module.imports.update(_import_bindings(module, node))
                        if isinstance(node, ast.ImportFrom) and node.names[0].name == "*":
                            module.star_sources.append(_absolute(module, node))
                return module
        return None

    def attribute(self, module: _Module, name: str, seen: frozenset = frozenset()):
        """What ``module.name`` is, as Python's import system finds it: a definition of the
        module, what its import binds (re-exports are followed), or a submodule.
        ``("definition", (module, name))``, ``("module", module)`` or ``None``."""
        if name in module.definitions:
            return "definition", (module, name)
        key = (module.name, name)
        if name in module.imports and key not in seen:
            found = self.target(module.imports[name], seen | {key})
            if found is not None:
                return found
        for source in module.star_sources:  # `from source import *` binds what it exports
            origin = self.get(source)
            if origin is None or key in seen:
                continue
            exported = _star_exports(origin)
            if exported is None or name in exported:
                found = self.attribute(origin, name, seen | {key})
                if found is not None:
                    return found
        submodule = self.get(f"{module.name}.{name}")
        return ("module", submodule) if submodule is not None else None

    def target(self, target: tuple[str, str | None], seen: frozenset = frozenset()):
        """Resolve an import target ``(module path, attribute or None)``; ``None`` outside
        certdp."""
        path, name = target
        module = self.get(path)
        if module is None:
            return None
        if name is None:
            return "module", module
        return self.attribute(module, name, seen)


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def _function_locals(node: ast.AST) -> set[str]:
    """Names a function binds itself (parameters and assignments), not its nested scopes."""
    names: set[str] = set()
    arguments = node.args
    for argument in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
        names.add(argument.arg)
    for argument in (arguments.vararg, arguments.kwarg):
        if argument is not None:
            names.add(argument.arg)
    stack = list(node.body)
    while stack:
        child = stack.pop()
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(child.name)
            continue  # its body is its own scope
        if isinstance(child, ast.Lambda):
            continue
        if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
            names.add(child.id)
        elif isinstance(child, (ast.Global, ast.Nonlocal)):
            names.difference_update(child.names)
        stack.extend(ast.iter_child_nodes(child))
    return names


class _References(ast.NodeVisitor):
    """Dotted names (as lists) that a piece of code loads, minus local variables and
    annotations; also the names its function-local imports bind."""

    def __init__(self, module: _Module):
        self.module = module
        self.found: list[list[str]] = []
        self.scopes: list[set[str]] = []
        self.imports: dict[str, tuple[str, str | None]] = {}

    def _shadowed(self, name: str) -> bool:
        return any(name in scope for scope in self.scopes)

    def _function(self, node):
        for decorator in node.decorator_list:
            self.visit(decorator)
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d]:
            self.visit(default)
        self.scopes.append(_function_locals(node) - set(self.imports))
        for statement in node.body:
            self.visit(statement)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node):
        self.scopes.append({a.arg for a in node.args.posonlyargs + node.args.args})
        self.visit(node.body)
        self.scopes.pop()

    def visit_ClassDef(self, node):
        for expression in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(expression)
        for statement in node.body:
            self.visit(statement)

    def visit_arg(self, node):  # annotations of parameters are not evaluated
        return

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.visit(node.value)

    def visit_Import(self, node):
        self.imports.update(_import_bindings(self.module, node))

    visit_ImportFrom = visit_Import

    def visit_Attribute(self, node):
        parts = _dotted(node)
        if parts is not None and isinstance(node.ctx, ast.Load):
            self._found(parts)
        else:
            self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self._found([node.id])

    def _found(self, parts: list[str]):
        if not self._shadowed(parts[0]):
            self.found.append(parts)


def _references(
    modules: _Modules, module: _Module, nodes: list[ast.AST]
) -> list[tuple[_Module, str]]:
    """The certdp definitions that ``nodes`` (code of ``module``) refer to by name."""
    visitor = _References(module)
    # imports anywhere in the code bind before use in practice: collect them first
    for node in nodes:
        for child in ast.walk(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                visitor.imports.update(_import_bindings(module, child))
    for node in nodes:
        visitor.visit(node)
    definitions = []
    for parts in visitor.found:
        head, rest = parts[0], parts[1:]
        if head in visitor.imports:
            found = modules.target(visitor.imports[head])
        elif head in module.definitions:
            found = "definition", (module, head)
        elif head in module.imports:
            found = modules.target(module.imports[head])
        else:
            continue  # a builtin, or a name bound elsewhere (comprehension, class body)
        # follow attributes through modules: `errors.DPError`, `certdp.numeric.inf_add`
        while found is not None and found[0] == "module" and rest:
            found = modules.attribute(found[1], rest[0])
            rest = rest[1:]
        if found is not None and found[0] == "definition":
            definitions.append(found[1])
    return definitions


class ProofIndex:
    """Every proven range of every proof document under ``src/certdp``: for a file, the line
    spans and the documents that prove them.  Read once, when first needed: an index is a
    snapshot of the tree, to be made again after an edit (each audit run and each docs build
    makes its own)."""

    def __init__(self, package: Path):
        self.package = package

    @cached_property
    def modules(self) -> _Modules:
        """The modules of the tree holding ``package``, parsed once for every closure that
        shares this index (a closure of another tree parses its own)."""
        return _Modules(self.package.parent)

    @cached_property
    def documents(self) -> list[Path]:
        found = []
        for tex in sorted(self.package.rglob("*.tex")):
            try:
                text = read_regular_text(tex)  # a FIFO named *.tex is not waited on
            except NotRegularFile:
                continue  # a link, FIFO, ...: no document (what it would prove is unproven)
            if "\\documentclass" in text:
                found.append(tex)
        return found

    @cached_property
    def spans(self) -> dict[Path, list[tuple[int, int, str]]]:
        """Resolved file -> ``(first, last, document)`` of each proven range."""
        spans: dict[Path, list[tuple[int, int, str]]] = {}
        markers_of = {}
        for document in self.documents:
            relative_document = document.relative_to(self.package).as_posix()
            for file, range_name in ProofText(document).code_ranges:
                path = (document.parent / file).resolve()
                if path not in markers_of:
                    try:
                        markers_of[path] = read_markers(path)
                    except (OSError, ValueError):
                        markers_of[path] = None
                markers = markers_of[path]
                if markers is None or range_name not in markers.ranges:
                    continue  # a broken reference is the binding check's business
                span = markers.ranges[range_name]
                spans.setdefault(path, []).append((span.first, span.last, relative_document))
        return spans

    def proving(self, path: Path, first: int, last: int) -> tuple[str, ...]:
        """The documents with a proven range containing lines ``first..last`` of ``path``."""
        return tuple(
            sorted(
                {
                    document
                    for start, end, document in self.spans.get(path.resolve(), [])
                    if start <= first and last <= end
                }
            )
        )


def _roots(constructor: ConstructorFolder, modules: _Modules) -> list[tuple[_Module, list]]:
    """For each range the constructor's proof lists: its module and the top-level statements
    that overlap the range (clipped to the range when only part of one lies inside)."""
    proof = ProofText(constructor.proof)
    roots = []
    for file, range_name in proof.code_ranges:
        path = (constructor.proof.parent / file).resolve()
        relative = path.relative_to(constructor.package.parent.resolve()).with_suffix("")
        parts = list(relative.parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = modules.get(".".join(parts))
        if module is None:
            continue
        # the markers of the very text the module was parsed from: an index shared by several
        # closures is a snapshot of the tree, and code and markers come from one read
        span = parse_markers(module.text, path=str(path)).ranges[range_name]
        inside = []
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.stmt) or isinstance(node, ast.Module):
                continue
            if span.first <= _first_line(node) and node.end_lineno <= span.last:
                inside.append(node)
        # keep the outermost statements only
        outermost = [
            node
            for node in inside
            if not any(
                other is not node
                and _first_line(other) <= _first_line(node)
                and node.end_lineno <= other.end_lineno
                and (other.end_lineno - _first_line(other)) > (node.end_lineno - _first_line(node))
                for other in inside
            )
        ]
        roots.append((module, outermost))
    return roots


def _definition_of(module: _Module, node: ast.stmt) -> str | None:
    for name, defined in module.definitions.items():
        if defined is node:
            return name
    return None


def closure(constructor: ConstructorFolder, index: ProofIndex | None = None) -> list[Definition]:
    """Every certdp definition the proven ranges of ``constructor``'s proof use,
    transitively, sorted by dotted name (see the module docstring)."""
    root = constructor.package
    index = index or ProofIndex(root)
    # share the index's parsed modules only when they are read from this very folder (a link to
    # the package is another folder name: its modules would be found under other paths)
    modules = index.modules if index.modules.source == root.parent else _Modules(root.parent)
    pending: list[tuple[_Module, str]] = []
    for module, nodes in _roots(constructor, modules):
        for node in nodes:
            name = _definition_of(module, node)
            if name is not None:
                pending.append((module, name))
        pending.extend(_references(modules, module, nodes))

    found: dict[str, Definition] = {}
    while pending:
        module, name = pending.pop()
        dotted_name = f"{module.name}.{name}"
        if dotted_name in found:
            continue
        node = module.definitions[name]
        first, last = _first_line(node), node.end_lineno
        found[dotted_name] = Definition(
            name=dotted_name,
            file=module.path.resolve().relative_to(root.resolve()).as_posix(),
            first=first,
            last=last,
            fingerprint=modules.fingerprint(node),
            proven_by=index.proving(module.path, first, last),
        )
        pending.extend(modules.references(module, node))
    return [found[name] for name in sorted(found)]


def trusted_base(constructor: ConstructorFolder, index: ProofIndex | None = None) -> list[str]:
    """Dotted names of the definitions in the closure that no proof document covers."""
    return [definition.name for definition in closure(constructor, index) if definition.trusted]


def _cited(constructor: ConstructorFolder) -> set[str]:
    """The constructor's proof and the lemma documents it cites, transitively."""
    root = constructor.package.resolve()
    seen: set[Path] = set()
    pending = [constructor.proof.resolve()]
    while pending:
        document = pending.pop()
        if document in seen or not document.is_file():
            continue
        seen.add(document)
        pending.extend(ProofText(document).lemma_documents)
    return {document.relative_to(root).as_posix() for document in seen}


def uncited_documents(
    constructor: ConstructorFolder, index: ProofIndex | None = None
) -> dict[str, list[str]]:
    """Documents that prove part of the closure but that the constructor's proof does not
    cite (directly or through cited lemmas), each with the definitions it proves."""
    cited = _cited(constructor)
    uncited: dict[str, list[str]] = {}
    for definition in closure(constructor, index):
        if definition.proven_by and not set(definition.proven_by) & cited:
            for document in definition.proven_by:
                uncited.setdefault(document, []).append(definition.name)
    return uncited


def _main(argv: list[str] | None = None) -> int:
    """``python -m certdp.audit.closure [NAME...]``: each constructor's closure, trusted base
    and the proof documents it relies on without citing them."""
    import argparse

    from .discovery import discover

    parser = argparse.ArgumentParser(prog="python -m certdp.audit.closure")
    parser.add_argument("names", nargs="*", help="constructors (default: all)")
    parser.add_argument("--all", action="store_true", help="list every definition")
    arguments = parser.parse_args(argv)
    constructors = discover()
    if arguments.names:
        constructors = [c for c in constructors if c.name in arguments.names]
    if not constructors:
        parser.error("no such constructor")
    index = ProofIndex(constructors[0].package)
    for constructor in constructors:
        definitions = closure(constructor, index)
        trusted = [d for d in definitions if d.trusted]
        print(f"{constructor.name}: {len(definitions)} definitions, {len(trusted)} trusted")
        for definition in definitions if arguments.all else trusted:
            where = ", ".join(definition.proven_by) or "trusted"
            print(f"  {definition.name}  {definition.file}:{definition.first}  [{where}]")
        for document, names in uncited_documents(constructor, index).items():
            print(f"  proven but not cited: {document} ({len(names)} definitions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
