"""Shadowing gaps found by referee 18: a stale hash-based __pycache__ file, an extension
__init__ beside a vetted package __init__.py, and an edited package __init__.py re-exporting
altered code.  Each is reported (gate outdated, audit freshness outdated)."""

from __future__ import annotations

import importlib.util
import py_compile
from pathlib import Path

from tests.audit.conftest import FOLDER, audit, checks
from tests.audit.test_gate_shadowing import runtime


def _hash_pyc(root: Path, map_text: str, mode=py_compile.PycInvalidationMode.UNCHECKED_HASH):
    """Bytecode of an edited make_is_equal.py in __pycache__ (an unchecked-hash pyc: Python
    loads it without reading the source), the vetted source left byte for byte unchanged."""
    source = root / FOLDER / "make_is_equal.py"
    text = source.read_text()
    edited = text.replace("return d_in  # label: stability-map", map_text)
    assert edited != text
    temp = root / "edited_make_is_equal.py"
    temp.write_text(edited)
    py_compile.compile(
        str(temp), cfile=importlib.util.cache_from_source(str(source)), dfile=str(source),
        invalidation_mode=mode, doraise=True,
    )  # fmt: skip
    temp.unlink()


def test_cached_bytecode_shadow_is_refused_by_the_gate_cheap_path(repo):
    _hash_pyc(repo, "return d_in // 2  # label: stability-map")
    state, built = runtime(repo)[:2]
    assert built == "built 1" or state == "outdated", (state, built)


def test_cached_bytecode_shadow_is_refused_by_the_gate_full_path(repo):
    _hash_pyc(repo, "return d_in // 2  # label: stability-map")
    source = repo / FOLDER / "make_is_equal.py"
    source.write_text(source.read_text() + "\n# a comment after the proven range\n")
    state, built = runtime(repo)[:2]
    assert built == "built 1" or state == "outdated", (state, built)


def test_cached_bytecode_shadow_fails_the_audit(repo):
    _hash_pyc(repo, "return d_in // 2  # label: stability-map")
    code, report = audit(repo, "make_is_equal")
    assert checks(report)["freshness"] == "outdated", report["constructors"][0]["checks"]
    assert "__pycache__" in str(report["constructors"][0]["checks"])


def test_a_checked_hash_pyc_of_the_vetted_source_is_not_a_shadow(repo):
    source = repo / FOLDER / "make_is_equal.py"
    py_compile.compile(
        str(source), cfile=importlib.util.cache_from_source(str(source)),
        invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH, doraise=True,
    )  # fmt: skip
    state, built = runtime(repo)[:2]
    assert state != "outdated" and built == "built 1", (state, built)


def test_extension_init_beside_a_vetted_init_py_is_reported(tmp_path):
    from importlib._bootstrap_external import _get_supported_file_loaders
    from importlib.machinery import EXTENSION_SUFFIXES, FileFinder

    from certdp.audit.shadowing import shadowing_files

    (tmp_path / "a" / "pkg").mkdir(parents=True)
    (tmp_path / "a" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "a" / "pkg" / f"__init__{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    finder = FileFinder(str(tmp_path / "a"), *_get_supported_file_loaders())
    spec = finder.find_spec("pkg")
    assert spec.origin.endswith(EXTENSION_SUFFIXES[0])  # Python's choice: the extension
    assert shadowing_files(tmp_path, ["a/pkg/__init__.py"]) == (
        f"a/pkg/__init__{EXTENSION_SUFFIXES[0]}",
    )


def test_an_edited_package_init_re_export_is_noticed(repo):
    init = repo / FOLDER / "__init__.py"
    init.write_text(init.read_text() + (
        "\nfrom certdp.core.transformation import Transformation as _T\n"
        "_vetted = make_is_equal\n\n\n"
        "def make_is_equal(*args, **kwargs):\n"
        "    t = _vetted(*args, **kwargs)\n"
        "    return _T(t.input_domain, t.output_domain, t.function, t.input_metric,\n"
        "              t.output_metric, lambda d_in: d_in // 2)\n"
    ))  # fmt: skip
    state, built = runtime(repo)[:2]
    assert built == "built 1" or state == "outdated", (state, built)
