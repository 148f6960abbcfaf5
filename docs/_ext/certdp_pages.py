"""Sphinx extension: generate the reference pages from the source tree at every build.

Before Sphinx reads the sources it writes ``docs/reference/`` (never committed): the prelude's
API, the contracts API, one page per namespace (``dp.t``, ``dp.m``, ``dp.numpy``, ``dp.c``) and one page
per certified constructor, and the index of every proof PDF with each constructor's vetting
status (from ``certdp.audit.status``).  Nothing here lists a constructor by hand: they are the
ones :func:`certdp.registry.certified_constructors` finds, and what a page says about one is read
from its docstring, its contract (the bound is rendered by ``certdp_bounds``, every symbol
explained) and its proof's build product.

A constructor whose proof PDF is missing, a missing definitions PDF, or a bound with a symbol
nobody explains is a warning (so a ``-W`` build fails).  After an HTML build every PDF is copied into the site under ``proofs/``.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from certdp_api import autodoc_options
from certdp_bounds import render_bound
from certdp_proofs import (
    DEFINITIONS_PDF,
    PACKAGE,
    PROOFS_BUILD,
    ROOT,
    Proof,
    all_pdfs,
    copy_into_site,
    proof_of,
    site_path,
    source_file,
)
from certdp_rounding import ROUNDING_NOTES
from certdp_rst import escape, first_paragraph, heading, link, table
from certdp_status import status_line
from sphinx.util import logging

import certdp.prelude
from certdp.contracts import contract_of
from certdp.registry import certified_constructors

__all__ = ["REFERENCE", "Namespace", "NAMESPACES", "generate", "setup"]

logger = logging.getLogger(__name__)

#: The generated folder, relative to the docs source folder.
REFERENCE = "reference"


@dataclass(frozen=True)
class Namespace:
    """One namespace of the prelude: its attribute, its module and the folder of its pages."""

    attribute: str
    title: str

    @property
    def module(self) -> ModuleType:
        return getattr(certdp.prelude, self.attribute)

    @property
    def folder(self) -> str:
        return self.module.__name__.rpartition(".")[2]

    @property
    def docname(self) -> str:
        return f"{REFERENCE}/{self.folder}"


NAMESPACES = [
    Namespace("t", "Transformations"),
    Namespace("m", "Measurements"),
    Namespace("numpy", "Numpy constructors"),
    Namespace("c", "Combinators"),
]

#: Section titles of the prelude page, in order, by defining module (others follow, titled by
#: the module's name).
PRELUDE_SECTIONS = {
    "certdp.core.domains": "Domains",
    "certdp.core.option_domain": "Option domains",
    "certdp.core.bitvector_domain": "Bit-vector domains",
    "certdp.core.metrics": "Metrics",
    "certdp.core.map_domain": "Map domains",
    "certdp.core.partition_metrics": "Metrics of aggregates with many parts",
    "certdp.core.change_metrics": "Metrics that count changes",
    "certdp.core.measures": "Measures",
    "certdp.core.renyi_divergence": "The Rényi divergence (a measure nothing spends)",
    "certdp.core.transformation": "Transformations and measurements",
    "certdp.core.partial": "Partial constructors",
    "certdp.core.types": "Carrier types",
    "certdp.core.features": "Features",
    "certdp.contracts.runtime": "Contract switches",
    "certdp.core.errors": "Errors",
}


def _warn(message: str, location: str | None = None) -> None:
    logger.warning(message, type="certdp", subtype="reference", location=location)


def _up(docname: str) -> str:
    """The relative URL prefix from page ``docname`` to the site root."""
    return "../" * docname.count("/")


def _repo_path(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _namespace_of(constructor) -> Namespace:
    for namespace in NAMESPACES:
        if constructor.__module__.startswith(namespace.module.__name__ + "."):
            return namespace
    raise ValueError(f"{constructor.__name__} belongs to no namespace of the prelude")


def _constructor_docname(constructor) -> str:
    return f"{_namespace_of(constructor).docname}/{constructor.__name__}"


def _constructor_ref(constructor) -> str:
    """A link to the constructor's page from a page directly in ``reference/``."""
    relative = _constructor_docname(constructor)[len(REFERENCE) + 1 :]
    return f":doc:`{constructor.__name__} <{relative}>`"


def _partial_of(constructor):
    """``then_<name>`` beside ``make_<name>`` in its namespace, if there is one."""
    name = "then_" + constructor.__name__.removeprefix("make_")
    return getattr(_namespace_of(constructor).module, name, None)


def _autodoc(qualified_name: str, obj) -> str:
    if isinstance(obj, str):  # a type name such as dp.i32: the string OpenDP code passes as T
        return f".. py:data:: {qualified_name}\n   :value: {obj!r}\n"
    if not inspect.isclass(obj) and not callable(obj):  # a value such as dp.Vec (Vec[...] names)
        doc = (inspect.getdoc(obj) or "").split("\n\n")[0].replace("\n", " ")
        return f".. py:data:: {qualified_name}\n\n   {doc}\n"
    if inspect.isclass(obj):
        options = [":members:", *autodoc_options(obj), ":show-inheritance:"]
        return f".. autoclass:: {qualified_name}\n" + "".join(f"   {o}\n" for o in options)
    return f".. autofunction:: {qualified_name}\n"


def _proof_link(proof: Proof, docname: str, text: str | None = None) -> str:
    if not proof.exists:
        return "*missing*"
    return link(text or proof.pdf.name, _up(docname) + site_path(proof.pdf))


# -- one constructor ------------------------------------------------------------------------------
def constructor_page(constructor) -> str:
    """The page of one certified constructor."""
    name = constructor.__name__
    namespace = _namespace_of(constructor)
    docname = _constructor_docname(constructor)
    contract = contract_of(constructor)
    proof = proof_of(constructor)
    partial = _partial_of(constructor)
    module = namespace.module.__name__

    if proof.source is None:
        _warn(f"{name} has no proof source (.tex) beside its code", docname)
    elif not proof.exists:
        _warn(f"{name}: proof PDF {_repo_path(proof.pdf)} is missing: run `make proofs`", docname)
    try:
        audit = status_line(name)
    except Exception as error:  # the audit tool exists but failed: say so, loudly
        _warn(f"{name}: the audit status could not be read: {error!r}", docname)
        audit = "*unavailable*"

    names = f"``dp.{namespace.attribute}.{name}``"
    if partial is not None:
        names += f", ``dp.{namespace.attribute}.{partial.__name__}``"
    proof_field = _proof_link(proof, docname)
    if proof.source is not None:
        proof_field += f" (from ``{_repo_path(proof.source)}``)"
    map_kind = {
        "measurement": "privacy map",
        "odometer": "privacy loss reported",
        "function": "privacy cost (postprocessing)",
    }.get(contract.kind, "stability map")

    parts = [
        f".. _constructor-{name}:\n",
        heading(name),
        f":Names: {names}",
        f":Kind: {contract.kind}",
        f":Proof: {proof_field}",
        f":Audit: {audit}",
        f":Code: ``{_repo_path(source_file(constructor))}``",
        "",
        heading("What it computes", 1),
        _autodoc(f"{module}.{name}", constructor),
    ]
    if partial is not None:
        parts.append(_autodoc(f"{module}.{partial.__name__}", partial))
    parts += [
        heading("Preconditions", 1),
        f"Read from its contract (in ``{constructor.__certdp_contract_module__}``);"
        " the proof states each under the same id.  With ``dp.enable_contracts()`` every call"
        " checks them and refuses a violation with a ``ContractError`` naming the id.\n",
        _preconditions_table(contract) if contract.preconditions else "None.\n",
        heading(map_kind.capitalize(), 1),
        _bound_section(contract, constructor.__certdp_contract_module__, map_kind, name, docname),
        heading("Machine check", 1),
        _machine_check_section(name),
        heading("Trusted base", 1),
        _trusted_base_section(name),
    ]
    return "\n".join(parts)


#: One build reads one source tree: every page's closure shares one index of the proven
#: ranges, and each constructor's closure is computed once (for its two sections).
_CLOSURES: dict = {}


def _closure_of(folder):
    from certdp.audit.closure import ProofIndex, closure

    if "index" not in _CLOSURES:
        _CLOSURES["index"] = ProofIndex(folder.package)
    if folder.name not in _CLOSURES:
        _CLOSURES[folder.name] = closure(folder, _CLOSURES["index"])
    return _CLOSURES[folder.name]


def _machine_check_section(name: str) -> str:
    """What ``certdp prove`` proved about the constructor (bounded SMT), from its cache."""
    from certdp.audit.checks import check_machine
    from certdp.audit.discovery import discover
    from certdp.prove import scope

    (folder,) = [c for c in discover() if c.name == name]
    check = check_machine(folder, _closure_of(folder))
    declared = scope(name)
    if declared is None:
        covered = "No SMT model of this constructor.\n"
    else:
        covered = "What the check covers (the model's ``SCOPE``):\n\n" + "".join(
            f"* {escape(sentence)}\n" for sentence in declared.sentences()
        )
    return (
        "``certdp prove`` asks SMT solvers (z3; Bitwuzla for some IEEE lemmas) for a "
        "counterexample to the constructor's theorem at bounded instances, with the map value "
        "taken from the real constructor.  "
        f"Status: **{check.status}**.\n\n{covered}\n``{check.detail.split('. Scope: ')[0]}``\n"
    )


def _trusted_base_section(name: str) -> str:
    """The definitions behind the proven code that no proof document covers (the audit's)."""
    from certdp.audit.discovery import discover

    (folder,) = [c for c in discover() if c.name == name]
    definitions = _closure_of(folder)
    trusted: dict[str, list[str]] = {}
    for definition in definitions:
        if definition.trusted:
            module, _, short = definition.name.rpartition(".")
            trusted.setdefault(module, []).append(short)
    intro = (
        f"The proven code of ``{name}`` uses {len(definitions)} certdp definitions, followed "
        "through imports and calls (``certdp.audit.closure``); a change to any of them makes "
        "the constructor *outdated* in ``certdp audit``.  "
    )
    if not trusted:
        return intro + "Every one of them is proven by a proof or lemma document.\n"
    count = sum(len(names) for names in trusted.values())
    rows = "\n".join(
        f"* ``{module}``: " + ", ".join(f"``{short}``" for short in names)
        for module, names in sorted(trusted.items())
    )
    return (
        intro + f"{count} of them lie outside every proven range: they are its *trusted base* "
        "(``trusted_base`` in ``certdp audit --json``), trusted rather than proven.\n\n"
        + rows
        + "\n"
    )


def _preconditions_table(contract) -> str:
    rows = [
        [
            f"``{precondition.id}``",
            f"``{precondition.parameter}``" if precondition.parameter else "",
            escape(precondition.message),
        ]
        for precondition in contract.preconditions
    ]
    return table(["Id", "Parameter", "Condition"], rows)


def _render(
    bound,
    named=(),
    intro: str = "",
    after: str = "",
    docname: str = REFERENCE,
    explained: set | None = None,
    meanings: dict | None = None,
    components: tuple = (),
) -> str:
    """A bound as reST: the formula, each named part on its own line, and a table explaining
    every symbol not already in ``explained`` (which is updated).  ``components``: the
    ``(LaTeX name, meaning)`` of each part of a map value that is a tuple, each bounded below by
    ``bound``."""
    rendered = render_bound(bound, named=named, meanings=meanings)
    if rendered.unexplained:
        _warn(
            f"the bound uses symbols nobody explains: {', '.join(rendered.unexplained)}; add"
            " them to SYMBOLS in docs/_ext/certdp_bounds.py, or to a SYMBOL_MEANINGS dict"
            " ({name: text}) in the contract module",
            docname,
        )
    parts = [intro + "\n"] if intro else []
    if components:
        names = ", ".join(c for c, _ in components)
        each = r",\quad ".join(f"{c} \\ge {rendered.latex}" for c, _ in components)
        parts.append(f".. math::\n\n   \\operatorname{{map}}(d_{{in}}) = ({names}),\\quad {each}\n")
    else:
        parts.append(f".. math::\n\n   \\operatorname{{map}}(d_{{in}}) \\ge {rendered.latex}\n")
    for name, definition, text in rendered.parts:
        parts.append(f"where :math:`{name}` is {_pdf_links(text, docname)}:\n")
        parts.append(f".. math::\n\n   {name} = {definition}\n")
    if after:
        parts.append(after + "\n")
    explained = set() if explained is None else explained
    rows = [[f":math:`{c}`", text] for c, text in components]
    rows += [[f":math:`{s}`", text] for s, text in rendered.symbols if s not in explained]
    explained.update(symbol for symbol, _ in rendered.symbols)
    if rows:
        parts.append(table(["Symbol", "Meaning"], rows))
    return "\n".join(parts)


_PDF_MENTION = re.compile(r"<pdf:([^>]+)>")


def _pdf_links(text: str, docname: str) -> str:
    """``<pdf:path>`` (a PDF under ``build/proofs``) as a link to it from ``docname``."""

    def replace(match: re.Match) -> str:
        pdf = PROOFS_BUILD / match.group(1)
        if not pdf.is_file():
            _warn(f"{_repo_path(pdf)} is missing: run `make proofs`", docname)
            return f"``{pdf.name}``"
        return link(pdf.name, _up(docname) + site_path(pdf))

    return _PDF_MENTION.sub(replace, text)


def _bound_section(contract, contract_module: str, map_kind: str, name: str, docname: str) -> str:
    if contract.kind == "odometer":
        return _render(
            contract.bound,
            intro=(
                "An odometer has no privacy map: read :math:`\\operatorname{map}(d_{in})` below"
                " as its queryable's ``privacy_loss(d_in)``, which is never less than the exact sum of the answered measurements'"
                " maps at :math:`d_{in}`; the privacy claim is that of a filter built on it"
                " (``make_privacy_filter``).  The contract checks the reported value, exactly,"
                " after every answer."
            ),
            docname=docname,
            explained=set(),
            meanings=getattr(importlib.import_module(contract_module), "SYMBOL_MEANINGS", None),
        )
    if contract.kind == "function":
        return _render(
            contract.bound,
            intro=(
                "A postprocessor returns a ``Function``, which has no map: it reads only a"
                " released value, so a measurement followed by it keeps its own privacy map and"
                " the Function adds the privacy loss below.  Its theorem is a postcondition on"
                " each output, which the contract checks on real outputs (``verify``) and the"
                " SMT model checks at the instances its scope lists."
            ),
            docname=docname,
            explained=set(),
            meanings=None,
        )
    if contract.kind == "measurement":
        claim = "inputs at most :math:`d_{in}` apart give output distributions whose divergence is"
    else:
        claim = "inputs at most :math:`d_{in}` apart give outputs whose distance is"
    intro = (
        f"The proof shows that {claim} at most the bound below, so the {map_kind} may return it"
        " or anything larger.  With contracts enabled, every value the map returns is checked,"
        " exactly, to be at least this bound; the contract takes the value of each symbol from"
        " the arguments."
    )
    explained: set = set()
    meanings = getattr(importlib.import_module(contract_module), "SYMBOL_MEANINGS", None)
    render = functools.partial(_render, docname=docname, explained=explained, meanings=meanings)
    components = getattr(contract, "components", ())
    if components:
        intro += (
            f"  The map returns a tuple of {len(components)} components, compared component by"
            " component: each one is bounded below by the bound, separately."
        )
    section = render(contract.bound, intro=intro, components=components)
    note = ROUNDING_NOTES.get(name)
    if note is not None and note.needed(contract):
        for problem in note.check():
            _warn(problem, docname)
        section += "\n" + note.write(render)
    return section


# -- namespaces -----------------------------------------------------------------------------------
def namespace_page(namespace: Namespace, constructors: list) -> str:
    """The group page of a namespace: its constructors, then any other member it exports."""
    module = namespace.module
    mine = [c for c in constructors if _namespace_of(c) is namespace]
    covered = {c.__name__ for c in mine} | {
        partial.__name__ for partial in map(_partial_of, mine) if partial is not None
    }
    rows = [
        [
            f":doc:`{c.__name__} <{namespace.folder}/{c.__name__}>`",
            first_paragraph(c),
            _proof_link(proof_of(c), namespace.docname, "PDF"),
        ]
        for c in mine
    ]
    title = f"{namespace.title}: ``dp.{namespace.attribute}``"
    parts = [
        heading(title),
        f".. automodule:: {module.__name__}\n",
        heading("Constructors", 1),
    ]
    if rows:
        parts += [
            table(["Constructor", "What it computes", "Proof"], rows),
            ".. toctree::\n   :hidden:\n\n"
            + "".join(f"   {namespace.folder}/{c.__name__}\n" for c in mine),
        ]
    else:
        parts.append("None yet.\n")
    others = [name for name in module.__all__ if name not in covered]
    if others:
        parts.append(heading("Other members", 1))
        parts += [_autodoc(f"{module.__name__}.{name}", getattr(module, name)) for name in others]
    return "\n".join(parts)


# -- the prelude ----------------------------------------------------------------------------------
def prelude_page() -> str:
    """The API of ``certdp.prelude``, grouped by the module each name comes from."""
    sections: dict[str, list[str]] = {}
    for name in certdp.prelude.__all__:
        obj = getattr(certdp.prelude, name)
        if isinstance(obj, ModuleType):
            continue
        if isinstance(obj, str):  # OpenDP's type names (dp.i32 == "i32"): listed by the module
            sections.setdefault("certdp.core.typenames", []).append(name)
            continue
        sections.setdefault(obj.__module__, []).append(name)
    namespaces = "\n".join(f"* ``dp.{n.attribute}``: :doc:`{n.folder}`" for n in NAMESPACES)
    parts = [
        heading("The prelude: ``import certdp.prelude as dp``"),
        ".. automodule:: certdp.prelude\n",
        heading("Namespaces", 1),
        namespaces + "\n",
    ]
    order = list(PRELUDE_SECTIONS)
    ranked = sorted(sections.items(), key=lambda item: _rank(order, item[0]))
    for module_name, names in ranked:
        module = importlib.import_module(module_name)
        title = PRELUDE_SECTIONS.get(module_name, module_name.rpartition(".")[2].capitalize())
        parts += [heading(title, 1), first_paragraph(module) + "\n"]
        parts += [
            _autodoc(f"certdp.prelude.{name}", getattr(certdp.prelude, name)) for name in names
        ]
    return "\n".join(parts)


def _rank(order: list[str], module_name: str) -> int:
    return order.index(module_name) if module_name in order else len(order)


def contracts_page() -> str:
    """The API of ``certdp.contracts`` beyond the switches the prelude already shows."""
    import certdp.contracts

    in_prelude = set(certdp.prelude.__all__)
    parts = [
        heading("Contracts: ``certdp.contracts``"),
        ".. automodule:: certdp.contracts\n",
        "See :doc:`/guide/contracts` for what a contract asserts and when.\n",
    ]
    parts += [
        _autodoc(f"certdp.contracts.{name}", getattr(certdp.contracts, name))
        for name in certdp.contracts.__all__
        if name not in in_prelude
    ]
    return "\n".join(parts)


# -- proofs ---------------------------------------------------------------------------------------
def proofs_page(constructors: list) -> str:
    """Every PDF under ``build/proofs``: the definitions, constructor proofs, other documents."""
    docname = f"{REFERENCE}/proofs"
    up = _up(docname)
    owners = {}
    for constructor in constructors:
        proof = proof_of(constructor)
        if proof.exists:
            owners.setdefault(proof.pdf, []).append(constructor)

    parts = [
        heading("Proofs"),
        "Each proof is a PDF compiled by ``make proofs`` from the ``.tex`` beside the code it"
        " proves; the code listings in it are the real source lines at the time of the build."
        " Every PDF the build produced is listed here.\n",
        heading("Definitions", 1),
    ]
    if DEFINITIONS_PDF.is_file():
        parts.append(
            f"{link('definitions.pdf', up + site_path(DEFINITIONS_PDF))}: the definitions"
            " (domains, metrics, stability, privacy, floating-point conventions) that every proof"
            " cites, from ``src/certdp/proofs/definitions.tex``.\n"
        )
    else:
        _warn(f"{_repo_path(DEFINITIONS_PDF)} is missing: run `make proofs`", docname)
        parts.append("*The definitions PDF has not been built.*\n")

    rows = []
    for pdf, owned in sorted(owners.items()):
        for constructor in owned:
            rows.append(_proof_row(constructor, link("PDF", up + site_path(pdf)), docname))
    unproven = [c for c in constructors if not proof_of(c).exists]
    rows += [_proof_row(c, "*missing*", docname) for c in unproven]
    parts.append(heading("Constructor proofs", 1))
    parts.append(
        "The vetting status is the audit's (``certdp audit``): **up to date** when a reviewer"
        " checked the proof against exactly the proven code and proof of today, **outdated**"
        " when either changed since, **never vetted** otherwise.  Only an up-to-date"
        ' constructor runs without ``dp.enable_features("contrib")``; what the check compares,'
        " and what it does not, is in :doc:`/guide/features`.\n"
    )
    header = ["Constructor", "Namespace", "Vetting status", "Proof"]
    parts.append(table(header, rows) if rows else "None built.\n")

    others = [pdf for pdf in all_pdfs() if pdf not in owners and pdf != DEFINITIONS_PDF]
    parts.append(heading("Lemmas and other documents", 1))
    if others:
        items = []
        for pdf in others:
            relative = pdf.relative_to(PROOFS_BUILD)
            stale = not (PACKAGE / relative.with_suffix(".tex")).is_file()
            note = " (its source is gone: a leftover of an earlier build)" if stale else ""
            items.append(f"* {link(relative.as_posix(), up + site_path(pdf))}{note}\n")
        parts.append(
            "Shared lemmas, each proven once and cited by the constructor proofs; the path is that"
            " of its source below ``src/certdp``.\n\n" + "".join(items)
        )
    else:
        parts.append("None.\n")
    return "\n".join(parts)


def _proof_row(constructor, proof: str, docname: str) -> list[str]:
    try:
        audit = status_line(constructor.__name__, brief=True)
    except Exception as error:  # the audit tool exists but failed: say so, loudly
        _warn(f"{constructor.__name__}: the audit status could not be read: {error!r}", docname)
        audit = "*unavailable*"
    return [
        _constructor_ref(constructor),
        f"``dp.{_namespace_of(constructor).attribute}``",
        audit,
        proof,
    ]


def index_page() -> str:
    entries = ["prelude", *(n.folder for n in NAMESPACES), "contracts", "proofs"]
    return (
        heading("Reference")
        + "\nGenerated at every build from the source tree: the API, one page per certified"
        " constructor (its docstring, contract and proof), and every proof PDF.\n\n"
        ".. toctree::\n   :maxdepth: 2\n\n" + "".join(f"   {entry}\n" for entry in entries)
    )


# -- writing --------------------------------------------------------------------------------------
def pages() -> dict[str, str]:
    """Every generated page, by path relative to ``reference/``."""
    constructors = certified_constructors()
    generated = {
        "index.rst": index_page(),
        "prelude.rst": prelude_page(),
        "contracts.rst": contracts_page(),
        "proofs.rst": proofs_page(constructors),
    }
    for namespace in NAMESPACES:
        generated[f"{namespace.folder}.rst"] = namespace_page(namespace, constructors)
    for constructor in constructors:
        path = _constructor_docname(constructor)[len(REFERENCE) + 1 :] + ".rst"
        try:
            generated[path] = constructor_page(constructor)
        except Exception as error:  # e.g. a contract being written: say so on the page, loudly
            name = constructor.__name__
            _warn(
                f"{name}: its page could not be generated: {error!r}",
                _constructor_docname(constructor),
            )
            generated[path] = (
                heading(name) + f"\n*This page could not be generated:* ``{error!r}``\n"
            )
    return generated


def generate(app) -> None:
    """Write ``reference/`` under the docs source folder; leave unchanged files untouched."""
    folder = Path(app.srcdir) / REFERENCE
    _CLOSURES.clear()  # a new build may read a changed tree
    generated = pages()
    for relative, text in generated.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    for stale in folder.rglob("*.rst"):
        if stale.relative_to(folder).as_posix() not in generated:
            stale.unlink()


def copy_pdfs(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        copied = copy_into_site(Path(app.outdir))
        logger.info("certdp: copied %d proof PDF(s) into the site", len(copied))


def setup(app):
    app.connect("builder-inited", generate)
    app.connect("build-finished", copy_pdfs)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
