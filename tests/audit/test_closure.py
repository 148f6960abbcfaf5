"""The closure of certdp definitions behind a constructor's proven ranges (issue 12, part 1)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from certdp.audit.closure import ProofIndex, closure, trusted_base, uncited_documents
from certdp.audit.discovery import ConstructorFolder, discover


@pytest.fixture(scope="module")
def constructors():
    return {constructor.name: constructor for constructor in discover()}


@pytest.fixture(scope="module")
def index(constructors):
    return ProofIndex(next(iter(constructors.values())).package)


def _by_name(definitions):
    return {definition.name: definition for definition in definitions}


def test_a_float_sum_reaches_the_outward_rounded_operations(constructors, index):
    found = _by_name(closure(constructors["make_sized_bounded_float_checked_sum"], index))
    assert "certdp.numeric.floats.inf_add" in found
    # inf_add = _binary(...): the closure follows the constant into what builds it
    for helper in ("_binary", "_bounded", "_round", "_finish", "_quantum", "_operand"):
        assert f"certdp.numeric.floats.{helper}" in found
    inf_add = found["certdp.numeric.floats.inf_add"]
    source = (constructors["make_sum"].package / inf_add.file).read_text().splitlines()
    assert source[inf_add.first - 1].startswith("inf_add = _binary(")
    assert inf_add.first == inf_add.last
    assert len(inf_add.fingerprint) == 64


def test_numeric_definitions_are_proven_by_the_numeric_lemmas(constructors, index):
    found = _by_name(closure(constructors["make_sized_bounded_float_checked_sum"], index))
    for name, definition in found.items():
        if name.startswith("certdp.numeric."):
            assert definition.proven_by, name
            assert all(doc.startswith("numeric/") for doc in definition.proven_by)


#: The infrastructure every certified constructor runs, and the documents that prove it.
WRAPPER_DOCUMENTS = {
    "certdp.audit.": "audit/gate.tex",
    "certdp.contracts.contract.": "contracts/certified.tex",
    "certdp.contracts.wrapper.": "contracts/certified.tex",
    "certdp.core.features.": "core/features.tex",
    "certdp.core.switches.": "core/features.tex",
}


@pytest.mark.parametrize("name", ["make_is_equal", "make_laplace"])
def test_the_wrapper_and_gate_are_proven_and_the_gate_skips_the_closure_module(
    constructors, index, name
):
    found = _by_name(closure(constructors[name], index))
    assert "certdp.audit.gate.require_vetted_or_contrib" in found
    assert "certdp.contracts.wrapper.certified" in found
    assert "certdp.contracts.contract.Postcondition" in found  # loaded with contracts on
    # the runtime gate compares ranges, documents and models: the audit's closure
    # computation, its diff hint and the ledger's writer are no part of a constructor
    assert not [n for n in found if n.startswith("certdp.audit.closure.")]
    for absent in ("current_fingerprints", "Ledger"):
        assert f"certdp.audit.ledger.{absent}" not in found
    assert "certdp.audit.status.status_of" not in found
    for definition_name, definition in found.items():
        for prefix, document in WRAPPER_DOCUMENTS.items():
            if definition_name.startswith(prefix):
                assert definition.proven_by == (document,), definition_name


def test_a_module_constant_is_in_the_closure_and_proven_inside_the_range(constructors, index):
    constructor = constructors["make_sum"]
    found = _by_name(closure(constructor, index))
    # the grid of the probe: a module-level constant the constructor reads (it now sits inside
    # the proven range, so the proof covers it; one just above the marker would be trusted)
    constant = found["certdp.transformations.sum.make_sum.DEFAULT_SIZE_LIMIT"]
    begin = constructor.code.read_text().splitlines().index("# proof: begin constructor") + 1
    assert constant.first > begin and not constant.trusted
    assert constant.proven_by == ("transformations/sum/make_sum.tex",)
    assert "certdp.transformations.sum.make_sum.DEFAULT_SIZE_LIMIT" not in trusted_base(
        constructor, index
    )
    own = found["certdp.transformations.sum.make_sum.make_sum"]
    assert own.proven_by == ("transformations/sum/make_sum.tex",)
    # a constructor re-exported by its package, whose module has the same name
    checked = "certdp.transformations.sized_bounded_int_checked_sum"
    called = found[
        f"{checked}.make_sized_bounded_int_checked_sum.make_sized_bounded_int_checked_sum"
    ]
    assert called.proven_by == (
        "transformations/sized_bounded_int_checked_sum/make_sized_bounded_int_checked_sum.tex",
    )
    # across modules: a shared lemma of the summation folder
    lemma = found["certdp.transformations._summation.integer_summation.can_int_sum_overflow"]
    assert lemma.proven_by == ("transformations/_summation/integer_summation.tex",)


def test_every_constructor_has_a_closure(constructors, index):
    for constructor in constructors.values():
        definitions = closure(constructor, index)
        names = [definition.name for definition in definitions]
        assert names == sorted(set(names))
        own = [d for d in definitions if d.name.startswith(constructor.module + ".")]
        if constructor.is_constructor:
            assert any(d.name.endswith("." + constructor.name) for d in own), constructor.name
        else:  # a support module (the search, the accuracy lemma): its own proven definitions
            assert own, constructor.name
        assert all(d.name.startswith("certdp.") for d in definitions)


# ------------------------------------------------------------------ a synthetic source tree


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())


@pytest.fixture
def tree(tmp_path):
    _write(tmp_path, "src/certdp/__init__.py", "")
    _write(tmp_path, "src/certdp/t/__init__.py", "")
    _write(
        tmp_path,
        "src/certdp/t/_support/__init__.py",
        "from .helpers import helper, unused\n",
    )
    _write(
        tmp_path,
        "src/certdp/t/_support/helpers.py",
        """
        import math

        SCALE = 3


        # proof: begin helper
        def helper(x):
            return math.floor(x) * SCALE + _private(x)
        # proof: end helper


        def _private(x):
            return x


        def unused():
            return 0
        """,
    )
    _write(
        tmp_path,
        "src/certdp/t/_support/helpers.tex",
        r"""
        \documentclass{article}
        \begin{document}
        \provesCode{helpers.py}{helper}
        \end{document}
        """,
    )
    _write(tmp_path, "src/certdp/t/thing/__init__.py", "")
    _write(
        tmp_path,
        "src/certdp/t/thing/make_thing.py",
        """
        import numpy as np

        from certdp.t._support import helper
        from .. import _support

        LIMIT = 10
        unused_name = 5


        # proof: begin constructor
        def make_thing(x):
            unused_name = 1  # a local variable, not the module constant
            if x > LIMIT:  # label: limit
                return np.int64(unused_name)
            return helper(x) + _support.helpers.SCALE
        # proof: end constructor
        """,
    )
    _write(
        tmp_path,
        "src/certdp/t/thing/make_thing.tex",
        r"""
        \documentclass{article}
        \begin{document}
        \provesCode{make_thing.py}{constructor}
        \end{document}
        """,
    )
    return tmp_path


def _thing(root: Path) -> ConstructorFolder:
    return ConstructorFolder("make_thing", root / "src/certdp/t/thing", root / "src/certdp")


def test_synthetic_closure_follows_imports_and_calls(tree):
    found = _by_name(closure(_thing(tree)))
    assert sorted(found) == [
        "certdp.t._support.helpers.SCALE",
        "certdp.t._support.helpers._private",
        "certdp.t._support.helpers.helper",
        "certdp.t.thing.make_thing.LIMIT",
        "certdp.t.thing.make_thing.make_thing",
    ]
    assert found["certdp.t._support.helpers.helper"].proven_by == ("t/_support/helpers.tex",)
    assert found["certdp.t.thing.make_thing.make_thing"].proven_by == ("t/thing/make_thing.tex",)
    assert trusted_base(_thing(tree)) == [
        "certdp.t._support.helpers.SCALE",
        "certdp.t._support.helpers._private",
        "certdp.t.thing.make_thing.LIMIT",
    ]
    limit = found["certdp.t.thing.make_thing.LIMIT"]
    assert (limit.file, limit.first, limit.last) == ("t/thing/make_thing.py", 6, 6)
    # the helpers' document is not cited by the constructor's proof
    assert uncited_documents(_thing(tree)) == {
        "t/_support/helpers.tex": ["certdp.t._support.helpers.helper"]
    }


def test_fingerprints_ignore_formatting_but_not_code(tree):
    before = _by_name(closure(_thing(tree)))
    helpers = tree / "src/certdp/t/_support/helpers.py"
    text = helpers.read_text()
    helpers.write_text(text.replace("def _private(x):\n", "def _private(x):  # a comment\n"))
    same = _by_name(closure(_thing(tree)))
    assert {n: d.fingerprint for n, d in same.items()} == {
        n: d.fingerprint for n, d in before.items()
    }
    helpers.write_text(text.replace("SCALE = 3", "SCALE = 4"))
    after = _by_name(closure(_thing(tree)))
    changed = [n for n in after if after[n].fingerprint != before[n].fingerprint]
    assert changed == ["certdp.t._support.helpers.SCALE"]


# ------------------------------------------------------------------ the probes of issue 12


@pytest.fixture(scope="module")
def copied_tree(tmp_path_factory, constructors):
    """A copy of the source tree (``src/certdp``) that a test may edit."""
    import shutil

    package = next(iter(constructors.values())).package
    copy = tmp_path_factory.mktemp("tree")
    shutil.copytree(package, copy / "src" / "certdp", ignore=shutil.ignore_patterns("*.pyc"))
    return copy


def _closure_in(root: Path, constructor: ConstructorFolder) -> dict:
    package = root / "src" / "certdp"
    moved = ConstructorFolder(
        constructor.name, package / constructor.folder.relative_to(constructor.package), package
    )
    return {d.name: d.fingerprint for d in closure(moved, ProofIndex(package))}


@pytest.mark.parametrize(
    "constructor_name, file, old, new, changed",
    [
        (  # probe 1: one outward-rounded operation rounds to nearest
            "make_sized_bounded_float_checked_sum",
            "src/certdp/numeric/floats.py",
            'inf_add = _binary("inf_add", "+", "up")',
            'inf_add = _binary("inf_add", "+", "nearest")',
            "certdp.numeric.floats.inf_add",
        ),
        (  # probe 2: a constant just above a `# proof: begin` marker moves by one
            "make_sum",
            "src/certdp/transformations/sum/make_sum.py",
            "DEFAULT_SIZE_LIMIT = 1 << 20",
            "DEFAULT_SIZE_LIMIT = (1 << 20) + 1",
            "certdp.transformations.sum.make_sum.DEFAULT_SIZE_LIMIT",
        ),
    ],
    ids=["inf_add-to-nearest", "constant-above-marker"],
)
def test_the_probes_change_exactly_one_fingerprint_of_the_closure(
    copied_tree, constructors, constructor_name, file, old, new, changed
):
    constructor = constructors[constructor_name]
    before = _closure_in(copied_tree, constructor)
    path = copied_tree / file
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    try:
        after = _closure_in(copied_tree, constructor)
    finally:
        path.write_text(text)
    assert set(after) == set(before)
    assert [name for name in before if before[name] != after[name]] == [changed]


def test_command_line_lists_every_definition_with_the_documents_proving_it(capsys):
    from certdp.audit.closure import _main

    assert _main(["make_sum", "--all"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("make_sum: ") and ", 0 trusted" in out.splitlines()[0]
    assert (
        "certdp.transformations.sum.make_sum.DEFAULT_SIZE_LIMIT  transformations/sum/make_sum.py"
        in out
    )
    assert "[transformations/sum/make_sum.tex]" in out
    assert "[trusted]" not in out and "proven but not cited" not in out


def test_no_constructor_trusts_certdp_code_or_relies_on_an_uncited_document(constructors, index):
    """Issue #12's goal: every certdp definition a constructor's code reaches is proven by a
    document its proof cites (directly or through cited lemmas)."""
    for name, constructor in constructors.items():
        assert trusted_base(constructor, index) == [], name
        assert uncited_documents(constructor, index) == {}, name


def test_a_name_re_exported_by_a_star_import_is_followed(constructors, index):
    """``make_count`` imports ``inf_cast`` from ``certdp.numeric``, which re-exports it with
    ``from .floats import *``: the closure must reach the definition (a star import that the
    closure skipped would drop the name, and everything behind it, from the binding)."""
    found = _by_name(closure(constructors["make_count"], index))
    assert "certdp.numeric.floats.inf_cast" in found
    assert "certdp.numeric.floats._round" in found


def test_an_index_made_through_a_link_to_the_package_gives_the_fresh_closure(
    constructors, tmp_path
):
    """The shared modules are used only when read from the constructor's own folder: an index
    made on a link to the package parses its own (before, the closure came back empty)."""
    constructor = constructors["make_count"]
    link = tmp_path / "linked"
    link.symlink_to(constructor.package)
    fresh = [d.name for d in closure(constructor)]
    assert fresh and [d.name for d in closure(constructor, ProofIndex(link))] == fresh
