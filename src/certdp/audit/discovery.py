"""Find every constructor folder, and what its proof says, from the source tree alone."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

__all__ = ["ConstructorFolder", "discover", "package_root", "repository_root", "ProofText"]

NAMESPACES = ("transformations", "measurements", "numpy", "combinators")


def package_root() -> Path:
    return Path(__file__).resolve().parents[1]


def repository_root() -> Path:
    """The checkout holding ``src/certdp`` (the audit works on a source tree)."""
    return package_root().parents[1]


@dataclass(frozen=True)
class ConstructorFolder:
    """One constructor: ``make_<name>.py`` with its proof and contract beside it."""

    name: str
    folder: Path
    root: Path

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
        """The ledger key: the folder path below ``src/certdp``, then the constructor."""
        return f"{self.folder.relative_to(self.root / 'src' / 'certdp').as_posix()}/{self.name}"

    @property
    def module(self) -> str:
        relative = self.code.relative_to(self.root / "src").with_suffix("")
        return ".".join(relative.parts)

    def relative(self, path: Path) -> str:
        return path.resolve().relative_to(self.root.resolve()).as_posix()

    def tests(self) -> list[Path]:
        """Test files that name this constructor."""
        pattern = re.compile(rf"\b{re.escape(self.name)}\b")
        return sorted(
            path
            for path in (self.root / "tests").rglob("test_*.py")
            if pattern.search(path.read_text(encoding="utf-8"))
        )


def discover(root: Path | None = None) -> list[ConstructorFolder]:
    """Every ``make_*.py`` in a constructor folder under the namespaces, sorted by key."""
    root = root or repository_root()
    found = []
    for namespace in NAMESPACES:
        base = root / "src" / "certdp" / namespace
        if not base.is_dir():
            continue
        for code in base.rglob("make_*.py"):
            relative = code.relative_to(base).parts
            if any(part.startswith("_") for part in relative[:-1]):
                continue  # shared support, not a constructor
            found.append(ConstructorFolder(code.stem, code.parent, root))
    return sorted(found, key=lambda constructor: constructor.key)


_COMMENT = re.compile(r"(?<!\\)%.*$", re.MULTILINE)
_CODE_RANGE = re.compile(r"\\(?:certdpcode|provesCode)\{([^}]*)\}\{([^}]*)\}")
_CODE_REF = re.compile(r"\\(?:[a-zA-Z]*ref\*?\{code:|codeline\{)([^}]*)\}")
_PRECONDITION = re.compile(r"\\precondition\{([^}]*)\}")
_USES_LEMMA = re.compile(r"\\usesLemma\{([^}]*)\}")


class ProofText:
    """What a proof's LaTeX source claims: proven ranges, code references, precondition ids."""

    def __init__(self, path: Path):
        self.path = path
        self.text = _COMMENT.sub("", path.read_text(encoding="utf-8"))

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
    def lemma_documents(self) -> list[Path]:
        """The lemma documents this proof relies on (``\\usesLemma{path}``), resolved."""
        return [
            (self.path.parent / relative).resolve()
            for relative in dict.fromkeys(_USES_LEMMA.findall(self.text))
        ]

    def normalised(self) -> str:
        """The source without comments and with whitespace collapsed (for the ledger)."""
        return " ".join(self.text.split())
