"""A file that Python imports in place of a vetted module (a package ``X/__init__.py`` or an
extension module ``X.<suffix>`` beside a vetted ``X.py``) makes the proof not up to date: the
gate refuses the constructor without ``contrib`` with a typed error naming the shadowing file,
and ``certdp audit`` reports the row OUTDATED, naming it too, although every byte the vetting
recorded is unchanged.

Each case works on a vetted copy of the package (``conftest.repo``), in a fresh process.
"""

from pathlib import Path

from certdp.audit.shadowing import shadowing_files

from .conftest import FOLDER, audit, checks, run_script

SHADOW = "transformations/is_equal/make_is_equal/__init__.py"

#: Prints the gate's state, then what building the constructor did, and the error's text.
CALL = """
import certdp.prelude as dp
from certdp.audit import status
print(status.vetting_status("make_is_equal").state)
space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
try:
    t = dp.t.make_is_equal(*space, 3)
except Exception as error:
    print(type(error).__name__, getattr(error, "parameter", None))
    print(error)
else:
    print("built", t.map(1))
"""


def runtime(root: Path) -> list[str]:
    return run_script(root, CALL, 3)


def shadow_package(root: Path) -> Path:
    """A package beside the vetted module: the vetted code with its map doubled (unsound for
    nothing, but not the vetted code), which Python imports instead."""
    code = root / FOLDER / "make_is_equal.py"
    package = root / FOLDER / "make_is_equal"
    package.mkdir()
    text = code.read_text()
    (package / "__init__.py").write_text(text + "\nSHADOW = True\n")
    return package


def test_an_unshadowed_copy_builds(repo):
    assert runtime(repo)[:2] == ["up to date", "built 1"]


def test_a_package_beside_a_vetted_module_is_refused_by_the_gate_naming_it(repo):
    shadow_package(repo)
    state, refusal, message = runtime(repo)
    assert state == "outdated"
    assert refusal == "FeatureNotEnabledError features"
    assert SHADOW in message and "make_is_equal requires 'contrib'" in message


def test_a_package_beside_a_vetted_module_fails_the_audit_naming_it(repo):
    shadow_package(repo)
    code, report = audit(repo, "make_is_equal")
    assert code != 0
    assert checks(report)["freshness"] == "outdated"
    (row,) = report["constructors"]
    assert SHADOW in row["checks"]["freshness"]["detail"]


def test_a_shadowed_module_of_a_cited_lemma_is_refused(repo):
    """The gate's own status module is in every proof's ranges (through the gate lemma): a
    package beside a module of a lemma's range counts as a package beside the constructor's."""
    package = repo / "src/certdp/core/frozen"
    package.mkdir()
    text = (repo / "src/certdp/core/frozen.py").read_text()
    (package / "__init__.py").write_text(text.replace("from .", "from .."))  # one level down
    state, refusal, message = runtime(repo)
    assert (state, refusal) == ("outdated", "FeatureNotEnabledError features")
    assert "core/frozen/__init__.py" in message


def test_a_folder_without_init_does_not_shadow(repo):
    """A folder ``X/`` without ``__init__`` is a namespace portion: Python imports ``X.py``
    before it, so nothing is shadowed and the constructor builds."""
    (repo / FOLDER / "make_is_equal").mkdir()
    (repo / FOLDER / "make_is_equal" / "notes.txt").write_text("not a package")
    assert runtime(repo)[:2] == ["up to date", "built 1"]


def test_shadowing_files_finds_every_kind_python_prefers(tmp_path):
    from importlib.machinery import EXTENSION_SUFFIXES, all_suffixes

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "m.py").write_text("")
    assert shadowing_files(tmp_path, ["a/m.py"]) == ()
    for suffix in all_suffixes():
        (tmp_path / "a" / "m").mkdir(exist_ok=True)
        (tmp_path / "a" / "m" / f"__init__{suffix}").write_text("")
        assert f"a/m/__init__{suffix}" in shadowing_files(tmp_path, ["a/m.py"])
    for suffix in EXTENSION_SUFFIXES:
        (tmp_path / "a" / f"m{suffix}").write_text("")
        assert f"a/m{suffix}" in shadowing_files(tmp_path, ["a/m.py"])
    expected = len(all_suffixes()) + len(EXTENSION_SUFFIXES)
    assert len(shadowing_files(tmp_path, ["a/m.py", "a/m.py#range", "lemma:a/m.tex"])) == expected
    # an __init__.py is found through its folder, which nothing precedes
    (tmp_path / "a" / "__init__").mkdir()
    (tmp_path / "a" / "__init__" / "__init__.py").write_text("")
    assert shadowing_files(tmp_path, ["a/__init__.py"]) == ()
