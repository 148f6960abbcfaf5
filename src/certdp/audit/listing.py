"""Generate the LaTeX fragments that show proven code in a proof.

Usage::

    python -m certdp.audit.listing PROOF.tex OUTDIR [--definitions-url URL]

A proof names the code it covers with ``\\provesCode{FILE}{RANGE}`` and shows it
with ``\\certdpcode{FILE}{RANGE}`` (``FILE`` relative to the folder of the
``.tex``; ``RANGE`` a named range, see :mod:`certdp.audit.sources`).  This step
runs before LaTeX (no ``--shell-escape``) and writes into ``OUTDIR``:

``certdp-code-N.tex``
    one ``lstlisting`` per shown range, numbered from the real first line of
    the range.  A trailing ``# label: NAME`` becomes ``\\label{code:NAME}`` (so
    ``\\ref{code:NAME}`` prints the real line number) followed by a small
    visible mark; marker lines are never shown.
``certdp-code.tex``
    the index that ``certdp.sty`` reads: for every named file and range, its
    path relative to the repository root, the short commit of the file's last
    change (or that it is uncommitted), its real line span and its fragment.
``certdp-code.d``
    a make rule making ``OUTDIR/certdp-code.stamp`` depend on the sources read,
    so that ``proofs/proofs.mk`` reruns this step when one of them changes.

Files are rewritten only when their content changes, so LaTeX and make see
unchanged timestamps after a no-op run.  Every error (a missing file, an
unknown range, a ``\\ref{code:NAME}`` or ``\\codeline{NAME}`` to no label,
malformed markers) stops
the step with a message naming the proof and exit status 1.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from certdp.audit.sources import NAME_PATTERN, SourceMarkerError, SourceMarkers, read_markers
from certdp.core.errors import DPError

__all__ = [
    "ListingError",
    "CodeRef",
    "INDEX_FILE",
    "DEP_FILE",
    "STAMP_FILE",
    "find_code_refs",
    "render_listing",
    "generate",
    "main",
]

INDEX_FILE = "certdp-code.tex"
DEP_FILE = "certdp-code.d"
STAMP_FILE = "certdp-code.stamp"

#: Escape delimiters of the listing (``escapeinside`` of the ``certdp`` listings style).
ESCAPE_OPEN, ESCAPE_CLOSE = "(*@", "@*)"

_FILE_PATTERN = r"[A-Za-z0-9_./-]+"
_ARGUMENT = r"\s*\{\s*(%s)\s*\}"
_CODE_MACRO = re.compile(
    r"\\(certdpcode|provesCode)" + _ARGUMENT % _FILE_PATTERN + _ARGUMENT % NAME_PATTERN
)
_ANY_CODE_MACRO = re.compile(r"\\(certdpcode|provesCode)(?![A-Za-z])")
_CODE_REF = re.compile(r"\\(?:[A-Za-z]*ref\*?\s*\{code:|codeline\s*\{)(" + NAME_PATTERN + r")\}")
_LABEL_COMMENT = re.compile(r"\s*#\s*label:\s*" + NAME_PATTERN + r"\s*$")
_TEX_COMMENT = re.compile(r"(?<!\\)%.*$", re.MULTILINE)

# Non-ASCII characters a listing may meet, as plain-ASCII LaTeX (pdflatex reads the
# listing byte by byte, so any other character is shown by its code point).
_UNICODE = {
    "\u2192": r"\(\rightarrow\)",
    "\u2190": r"\(\leftarrow\)",
    "\u21d2": r"\(\Rightarrow\)",
    "\u2264": r"\(\le\)",
    "\u2265": r"\(\ge\)",
    "\u2260": r"\(\ne\)",
    "\u2248": r"\(\approx\)",
    "\u00b1": r"\(\pm\)",
    "\u00d7": r"\(\times\)",
    "\u00b7": r"\(\cdot\)",
    "\u2212": r"\(-\)",
    "\u221e": r"\(\infty\)",
    "\u2208": r"\(\in\)",
    "\u221a": r"\(\surd\)",
    "\u2211": r"\(\sum\)",
    "\u2016": r"\(\Vert\)",
    "\u03b5": r"\(\varepsilon\)",
    "\u03b4": r"\(\delta\)",
    "\u03c1": r"\(\rho\)",
    "\u03bb": r"\(\lambda\)",
    "\u03bc": r"\(\mu\)",
    "\u03c3": r"\(\sigma\)",
    "\u2026": r"\dots{}",
    "\u2013": "--",
    "\u2014": "---",
    "\u2018": "`",
    "\u2019": "'",
    "\u201c": "``",
    "\u201d": "''",
}


class ListingError(DPError):
    """A proof names code that does not exist, or the code cannot be shown in a listing."""

    variant = "Listing"


@dataclass(frozen=True)
class CodeRef:
    """One ``\\certdpcode`` or ``\\provesCode`` of a proof."""

    macro: str
    file: str
    range: str


def _strip_tex_comments(tex: str) -> str:
    return _TEX_COMMENT.sub("", tex)


def find_code_refs(tex: str) -> list[CodeRef]:
    """Every ``\\certdpcode{FILE}{RANGE}`` and ``\\provesCode{FILE}{RANGE}``, in order.

    Commented-out uses are ignored; a use whose arguments cannot be read (a file name
    with characters outside ``[A-Za-z0-9_./-]``, a bad range name) raises ListingError.
    """
    tex = _strip_tex_comments(tex)
    refs = [CodeRef(m.group(1), m.group(2), m.group(3)) for m in _CODE_MACRO.finditer(tex)]
    if len(refs) != len(_ANY_CODE_MACRO.findall(tex)):
        for use in _ANY_CODE_MACRO.finditer(tex):
            if not _CODE_MACRO.match(tex, use.start()):
                snippet = tex[use.start() : use.start() + 60].split("\n")[0]
                raise ListingError(
                    f"cannot read the arguments of {snippet!r}: expected "
                    f"\\{use.group(1)}{{FILE}}{{RANGE}} with FILE made of [A-Za-z0-9_./-]"
                )
    return refs


def _latex_unicode(char: str) -> str:
    return _UNICODE.get(char, r"\texttt{<U+%04X>}" % ord(char))


def _listing_line(text: str, label: str | None) -> str:
    if label is not None:
        text = _LABEL_COMMENT.sub("", text)
    text = "".join(
        char if ord(char) < 128 else ESCAPE_OPEN + _latex_unicode(char) + ESCAPE_CLOSE
        for char in text.rstrip()
    )
    if label is not None:
        text += f"  {ESCAPE_OPEN}\\label{{code:{label}}}\\certdplabelmark{{{label}}}{ESCAPE_CLOSE}"
    return text


def render_listing(markers: SourceMarkers, range_name: str, origin: str = "") -> str:
    """The ``lstlisting`` showing range ``range_name`` with its real line numbers."""
    if range_name not in markers.ranges:
        known = ", ".join(sorted(markers.ranges)) or "none"
        raise ListingError(f"{markers.path} has no range {range_name!r} (ranges: {known})")
    labels = markers.labels_in(range_name)
    body = []
    for number, text in markers.range_lines(range_name):
        for forbidden in (ESCAPE_OPEN, ESCAPE_CLOSE, r"\end{lstlisting}"):
            if forbidden in text:
                raise ListingError(
                    f"{markers.path}:{number}: a listing cannot show a line containing {forbidden!r}"
                )
        body.append(_listing_line(text, labels.get(number)))
    first = markers.ranges[range_name].first
    return (
        f"% generated by certdp.audit.listing from {origin or markers.path}, "
        f"range {range_name}; do not edit\n"
        f"\\begin{{lstlisting}}[style=certdp,firstnumber={first}]\n"
        + "\n".join(body)
        + "\n\\end{lstlisting}\n"
    )


def _git(folder: Path, *args: str) -> str | None:
    try:
        result = subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def _repo_root(folder: Path) -> Path | None:
    top = _git(folder, "rev-parse", "--show-toplevel")
    if top:
        return Path(top).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists() or (candidate / "pyproject.toml").exists():
            return candidate
    # an installed package: paths are shown from the folder holding certdp/
    return Path(__file__).resolve().parents[2]


def _commit_of(path: Path) -> tuple[str, str]:
    """``(short commit, state)``; state is ``clean``, ``modified`` or ``uncommitted``."""
    folder = path.parent
    commit = _git(folder, "log", "-1", "--format=%h", "--", path.name)
    if not commit:
        return "", "uncommitted"
    changes = _git(folder, "status", "--porcelain", "--", path.name)
    return commit, ("modified" if changes else "clean")


def _write_if_changed(path: Path, text: str) -> bool:
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except FileNotFoundError:
        pass
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return True


def _make_path(path: str) -> str:
    return path.replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")


STATUS_FILE = "certdp-status.tex"


def _latex_text(text: str) -> str:
    special = {"\\": "\\textbackslash{}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}"}
    return "".join(special.get(char, "\\" + char if char in "&%$#_{}" else char) for char in text)


def status_line(proof: Path) -> str:
    """The vetting status this proof's first page prints (see certdp.audit.status)."""
    from .closure import closure
    from .discovery import discover, package_root
    from .ledger import Ledger
    from .status import status_of

    package = package_root()
    matches = [c for c in discover(package) if c.proof.resolve() == proof.resolve()]
    if not matches:
        return (
            "\\textbf{Vetting status:} a lemma document, vetted together with the "
            "constructor proofs that cite it.\n"
        )
    definitions = closure(matches[0])
    status = status_of(matches[0], Ledger(package), definitions=definitions)
    return (
        _vetting_line(status)
        + machine_check_paragraph(matches[0], definitions)
        + trusted_base_paragraph(definitions)
    )


def machine_check_paragraph(constructor, definitions) -> str:
    """What ``certdp prove`` established about the constructor, for its first page."""
    from .checks import check_machine

    try:
        check = check_machine(constructor, definitions)
    except Exception as error:  # noqa: BLE001 - the page says the check could not be read
        return f"\\par\\textbf{{Machine check:}} unavailable ({_latex_text(repr(error))}).\n"
    return (
        f"\\par{{\\small\\textbf{{Machine check (SMT, bounded):}} "
        f"{_latex_text(check.detail.rstrip('.'))}.\\par}}\n"
    )


def trusted_base_paragraph(definitions) -> str:
    """The trusted base of a constructor, grouped by module, for its proof's first page."""
    by_module: dict[str, list[str]] = {}
    for definition in definitions:
        if definition.trusted:
            module, _, name = definition.name.rpartition(".")
            by_module.setdefault(module, []).append(name)
    if not by_module:
        return "\\par\\textbf{Trusted base:} none: every definition the code uses is proven.\n"
    count = sum(len(names) for names in by_module.values())
    groups = "; ".join(
        f"\\texttt{{{_latex_text(module)}}}: {_latex_text(', '.join(names))}"
        for module, names in sorted(by_module.items())
    )
    return (
        f"\\par{{\\footnotesize\\raggedright\\textbf{{Trusted base}} ({count} definitions the "
        f"proven code uses that no proof document covers; see \\texttt{{certdp audit --json}}): "
        f"{groups}.\\par}}\n"
    )


def _vetting_line(status) -> str:
    from .ledger import UNCOMMITTED
    from .status import NEVER_VETTED, OUTDATED

    if status.state == OUTDATED:
        changed = ", ".join(status.changed_files)
        return (
            f"\\textbf{{\\color{{red}}Vetting status: outdated since "
            f"\\texttt{{{_latex_text(status.vetted_at)}}}}}"
            f" --- vetted by {_latex_text(status.reviewer)} on {status.date}; changed since: "
            f"\\texttt{{{_latex_text(changed)}}}. Until it is vetted again the constructor "
            "requires \\texttt{contrib}.\n"
        )
    if status.state == NEVER_VETTED:
        return (
            "\\textbf{\\color{red}Vetting status: never vetted} --- the constructor requires "
            "\\texttt{contrib} until a reviewer vets this proof.\n"
        )
    return (
        f"\\textbf{{Vetting status: up to date}} --- vetted by {_latex_text(status.reviewer)} "
        f"at {'commit ' if status.commit != UNCOMMITTED else ''}"
        f"\\texttt{{{_latex_text(status.vetted_at)}}} on {status.date}"
        + (f"; reviewed: {_latex_text(status.reviewed)}" if status.reviewed else "")
        + ".\n"
    )


def generate(
    proof: str | Path, outdir: str | Path, definitions_url: str | None = None
) -> list[Path]:
    """Write the fragments of ``proof`` into ``outdir``; return the files whose content changed."""
    proof = Path(proof)
    outdir_text = str(outdir).rstrip("/") or "/"
    outdir = Path(outdir_text)
    tex = proof.read_text(encoding="utf-8")
    refs = find_code_refs(tex)
    folder = proof.resolve().parent

    parsed: dict[str, SourceMarkers] = {}
    sources: dict[str, Path] = {}
    for ref in refs:
        if ref.file in parsed:
            continue
        source = (folder / ref.file).resolve()
        if not source.is_file():
            raise ListingError(f"\\{ref.macro}{{{ref.file}}}{{{ref.range}}}: no file {source}")
        parsed[ref.file] = read_markers(source)
        sources[ref.file] = source
    for ref in refs:
        if ref.range not in parsed[ref.file].ranges:
            known = ", ".join(sorted(parsed[ref.file].ranges)) or "none"
            raise ListingError(
                f"\\{ref.macro}{{{ref.file}}}{{{ref.range}}}: {ref.file} has no range "
                f"{ref.range!r} (ranges: {known})"
            )

    shown = list(dict.fromkeys((r.file, r.range) for r in refs if r.macro == "certdpcode"))
    known_labels = {
        name for file, range_name in shown for name in parsed[file].labels_in(range_name).values()
    }
    for name in _CODE_REF.findall(_strip_tex_comments(tex)):
        if name not in known_labels:
            raise ListingError(
                f"reference to code:{name}: no label {name!r} in the code shown by this proof "
                f"(labels: {', '.join(sorted(known_labels)) or 'none'})"
            )

    outdir.mkdir(parents=True, exist_ok=True)
    changed: list[Path] = []
    fragments: dict[tuple[str, str], str] = {}
    digest = hashlib.sha256()
    for index, (file, range_name) in enumerate(shown, start=1):
        fragment = f"certdp-code-{index}"
        text = render_listing(parsed[file], range_name, origin=file)
        digest.update(text.encode())
        if _write_if_changed(outdir / f"{fragment}.tex", text):
            changed.append(outdir / f"{fragment}.tex")
        fragments[(file, range_name)] = fragment

    root = _repo_root(folder)
    entries = []
    for file, range_name in dict.fromkeys((r.file, r.range) for r in refs):
        source = sources[file]
        try:
            shown_path = source.relative_to(root).as_posix() if root else source.as_posix()
        except ValueError:
            shown_path = source.as_posix()
        commit, state = _commit_of(source)
        span = parsed[file].ranges[range_name]
        entries.append(
            f"\\certdpDefineCode{{{file}}}{{{range_name}}}{{{shown_path}}}{{{commit}}}{{{state}}}"
            f"{{{span.first}}}{{{span.last}}}{{{fragments.get((file, range_name), '')}}}"
        )
    # The digest makes the index change whenever a listing does, so that the PDF
    # only needs to depend on the index.
    index_lines = [
        f"% generated by certdp.audit.listing for {proof.name}; do not edit",
        f"% listings digest {digest.hexdigest()[:16]}",
    ]
    if definitions_url:
        index_lines.append(f"\\certdpSetDefinitionsURL{{{definitions_url}}}")
    index_lines += entries
    if _write_if_changed(outdir / INDEX_FILE, "\n".join(index_lines) + "\n"):
        changed.append(outdir / INDEX_FILE)

    if _write_if_changed(outdir / STATUS_FILE, status_line(proof)):
        changed.append(outdir / STATUS_FILE)

    deps = sorted({str(path) for path in sources.values()})
    stamp = _make_path(f"{outdir_text}/{STAMP_FILE}")
    dep_text = "# generated by certdp.audit.listing; do not edit\n"
    dep_text += f"{stamp}: {' '.join(_make_path(d) for d in deps)}\n".replace(": \n", ":\n")
    dep_text += "".join(f"{_make_path(d)}:\n" for d in deps)
    if _write_if_changed(outdir / DEP_FILE, dep_text):
        changed.append(outdir / DEP_FILE)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m certdp.audit.listing",
        description="Write the code listings and source information a proof's LaTeX inputs.",
    )
    parser.add_argument("proof", help="the proof's .tex file")
    parser.add_argument("outdir", help="folder for the generated fragments (LaTeX must find it)")
    parser.add_argument(
        "--definitions-url",
        help="path of definitions.pdf relative to the proof's PDF, for cross-document links",
    )
    args = parser.parse_args(argv)
    try:
        generate(args.proof, args.outdir, definitions_url=args.definitions_url)
    except (ListingError, SourceMarkerError, OSError, UnicodeDecodeError) as error:
        print(f"certdp.audit.listing: {args.proof}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
