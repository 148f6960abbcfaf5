"""Find every constructor folder of the package, and what its proof says, from its files alone.

The package may be a checkout's ``src/certdp`` or an installed ``site-packages/certdp``: every
path the audit records is relative to the package, never to a checkout.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .regular_file import read_regular_text

__all__ = [
    "ConstructorFolder",
    "discover",
    "constructor_names",
    "constructor_named",
    "package_root",
    "checkout_root",
    "ProofText",
    "NAMESPACES",
]

# proof: begin discovery
NAMESPACES = ("transformations", "measurements", "numpy", "combinators")


def package_root() -> Path:
    """The folder of the ``certdp`` package in use: ``src/certdp`` or ``site-packages/certdp``."""
    return Path(__file__).resolve().parents[1]


def checkout_root(package: Path | None = None) -> Path | None:
    """The source checkout holding ``package`` as ``src/certdp``; ``None`` when installed."""
    package = (package or package_root()).resolve()
    root = package.parents[1]
    if package.parent.name == "src" and (root / "pyproject.toml").is_file():
        return root
    return None


@dataclass(frozen=True)
class ConstructorFolder:
    """One constructor: ``make_<name>.py`` with its proof and contract beside it."""

    name: str
    folder: Path
    package: Path

    @property
    def is_constructor(self) -> bool:
        """A ``make_*`` constructor (not an audited support module such as the search)."""
        return self.name.startswith("make_")

    @property
    def code(self) -> Path:
        return self.folder / f"{self.name}.py"

    @property
    def proof(self) -> Path:
        return self.folder / f"{self.name}.tex"

    @property
    def contract(self) -> Path:
        return self.folder / "contract.py"

    @property
    def key(self) -> str:
        """The ledger key: the folder below the package, then the constructor (no checkout path)."""
        return f"{self.folder.relative_to(self.package).as_posix()}/{self.name}"

    @property
    def module(self) -> str:
        relative = self.code.relative_to(self.package.parent).with_suffix("")
        return ".".join(relative.parts)

    @property
    def checkout(self) -> Path | None:
        """The source checkout holding the package, or ``None`` for an installed package."""
        return checkout_root(self.package)

    def relative(self, path: Path) -> str:
        """``path`` relative to the package (the form the ledger records)."""
        return path.resolve().relative_to(self.package.resolve()).as_posix()

    def in_checkout(self, relative: str) -> str:
        """A package-relative path as seen from the checkout root (``src/certdp/...``)."""
        return f"src/certdp/{relative}"

    def tests(self) -> list[Path] | None:
        """Test files that name this constructor; ``None`` when no test folder is at hand.

        Tests live in the source repository (``tests/``); an installed package has none.
        """
        checkout = self.checkout
        if checkout is None or not (checkout / "tests").is_dir():
            return None
        pattern = re.compile(rf"\b{re.escape(self.name)}\b")
        return sorted(
            path
            for path in (checkout / "tests").rglob("test_*.py")
            if pattern.search(path.read_text(encoding="utf-8"))
        )


def constructor_names(package: Path) -> list[tuple[str, str]]:
    """``(name, folder)`` of every constructor :func:`discover` finds in ``package`` (which
    must be resolved): the listing alone, no object built per constructor."""
    found = []
    for namespace in NAMESPACES:
        base = package / namespace
        if not base.is_dir():
            continue
        for folder, subfolders, files in os.walk(base):  # label: walk
            subfolders[:] = [
                name for name in subfolders if not name.startswith("_")
            ]  # label: prune
            for file in files:
                if file.startswith("make_") and file.endswith(".py"):  # label: make-file
                    found.append((file[: -len(".py")], folder))
        for contract in sorted(base.glob("_*/contract.py")):  # label: support
            if contract.parent.is_symlink():
                continue  # like os.walk above, no symbolic link to a folder is entered
            for proof in sorted(contract.parent.glob("*.tex")):
                if proof.with_suffix(".py").is_file():  # label: support-module
                    found.append((proof.stem, str(contract.parent)))
    return found


def discover(package: Path | None = None) -> list[ConstructorFolder]:
    """Every ``make_*.py`` in a constructor folder under the namespaces (a folder whose name
    starts with ``_`` -- shared support, ``__pycache__`` -- is not entered, nor is a symbolic
    link to a folder), and every audited support module: an ``X.py`` with its proof ``X.tex``
    beside it in a ``_<topic>/`` folder directly under a namespace that holds a
    ``contract.py`` (the parameter search); sorted by key."""
    package = (package or package_root()).resolve()
    found = [
        ConstructorFolder(name, Path(folder), package)
        for name, folder in constructor_names(package)
    ]  # label: all-folders
    return sorted(found, key=lambda constructor: constructor.key)


def constructor_named(
    package: Path, name: str, names: list[tuple[str, str]]
) -> ConstructorFolder | None:
    """The constructor called ``name`` among ``names`` (:func:`constructor_names` of the
    resolved ``package``), or ``None``: where several folders hold one, the one of greatest
    key, which is the one ``{c.name: c for c in discover(package)}`` keeps.  Only this
    name's folders become objects."""
    found = [
        ConstructorFolder(name, Path(folder), package) for other, folder in names if other == name
    ]  # label: named-folders
    return max(found, key=lambda constructor: constructor.key, default=None)  # label: last


_COMMENT = re.compile(r"(?<!\\)%.*$", re.MULTILINE)
_CODE_RANGE = re.compile(r"\\(?:certdpcode|provesCode)\{([^}]*)\}\{([^}]*)\}")
_CODE_REF = re.compile(r"\\(?:[a-zA-Z]*ref\*?\{code:|codeline\{)([^}]*)\}")
_PRECONDITION = re.compile(r"\\precondition\{([^}]*)\}")
_USES_LEMMA = re.compile(r"\\usesLemma\{([^}]*)\}")
_MACHINE_MODEL = re.compile(r"\\machineModel\{([^}]*)\}")


class ProofText:
    """What a proof's LaTeX source claims: proven ranges, code references, precondition ids,
    the lemma documents and SMT models it names."""

    def __init__(self, path: Path, text: str | None = None):
        """The proof at ``path``; ``text`` is its content when the caller has read it already."""
        self.path = path
        if text is None:
            text = read_regular_text(path)  # label: read-proof
        self.text = _COMMENT.sub("", text)

    @cached_property
    def code_ranges(self) -> list[tuple[str, str]]:
        """``(file relative to the proof, range name)`` of every proven range, in order."""
        return list(dict.fromkeys(_CODE_RANGE.findall(self.text)))

    @cached_property
    def code_references(self) -> list[str]:
        return list(dict.fromkeys(_CODE_REF.findall(self.text)))

    @cached_property
    def precondition_ids(self) -> list[str]:
        return list(dict.fromkeys(_PRECONDITION.findall(self.text)))

    @cached_property
    def lemma_names(self) -> list[str]:
        """The paths of ``\\usesLemma{path}``, as written (relative to the proof's folder)."""
        return list(dict.fromkeys(_USES_LEMMA.findall(self.text)))

    @cached_property
    def machine_model_names(self) -> list[str]:
        """The paths of ``\\machineModel{path}``, as written (relative to the proof's folder)."""
        return list(dict.fromkeys(_MACHINE_MODEL.findall(self.text)))

    @cached_property
    def lemma_documents(self) -> list[Path]:
        """The lemma documents this proof relies on (``\\usesLemma{path}``), resolved."""
        return [(self.path.parent / relative).resolve() for relative in self.lemma_names]

    @cached_property
    def machine_models(self) -> list[Path]:
        """The SMT models this proof names (``\\machineModel{path}``), resolved."""
        return [(self.path.parent / relative).resolve() for relative in self.machine_model_names]

    def normalised(self) -> str:
        """The source without comments and with whitespace collapsed (for the ledger)."""
        return " ".join(self.text.split())


# proof: end discovery
