"""Files that Python would import in place of a vetted module.

Python's path finder, looking for module ``X`` in a folder, takes a package ``X/`` (a folder
holding ``__init__`` with any importable suffix) first, then an extension module ``X.<suffix>``,
and only then ``X.py``.  So such a file beside a vetted ``X.py`` runs instead of the vetted code
while every byte the vetting recorded is unchanged.  The gate and the audit report a proof
whose modules are shadowed this way as not up to date, naming the shadowing files.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES, all_suffixes
from pathlib import Path, PurePosixPath

__all__ = ["shadowing_files"]


# proof: begin shadowing
def _shadows_of(package: Path, key: str) -> list[str]:
    """The package-relative files found that Python's path finder prefers to module ``key``."""
    relative = PurePosixPath(key)
    if relative.suffix != ".py" or relative.stem == "__init__":  # label: modules-only
        return []  # a package's __init__.py is found through its folder, which comes first
    folder = package.joinpath(*relative.parent.parts)
    found = []
    if (folder / relative.stem).is_dir():  # label: package-first
        found += [
            f"{relative.parent / relative.stem / ('__init__' + suffix)}"
            for suffix in all_suffixes()
            if (folder / relative.stem / f"__init__{suffix}").is_file()
        ]
    found += [
        f"{relative.parent / (relative.stem + suffix)}"
        for suffix in EXTENSION_SUFFIXES
        if (folder / f"{relative.stem}{suffix}").is_file()
    ]  # label: extension-next
    return found


def shadowing_files(package: Path, keys) -> tuple[str, ...]:
    """Every file below ``package`` that Python would import in place of a ``.py`` file among
    the package-relative paths ``keys`` (other paths are ignored), sorted."""
    return tuple(sorted({shadow for key in keys for shadow in _shadows_of(package, key)}))


# proof: end shadowing
