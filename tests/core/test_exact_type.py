"""Lemma [exact type] (core/exact_type.tex): identity tests that a class whose metaclass makes
it compare and hash equal to a builtin cannot pass, and a lint that keeps ``==`` type tests out
of the converted modules."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

import certdp
from certdp.core.exact_type import kind_ids, type_ids, type_is, types_are


def hostile(base):
    """A subclass of ``base`` whose class is ``==`` ``base`` and hashes like it."""

    class Meta(type(base)):
        def __eq__(cls, other):
            return other is base or type.__eq__(cls, other)

        def __ne__(cls, other):
            return not cls.__eq__(other)

        def __hash__(cls):
            return hash(base)

    return Meta(f"Hostile{base.__name__}", (base,), {})


def test_the_hostile_class_fools_equality_tests():
    """The premise: ``in`` and sets of classes are fooled, so the lemma is needed."""
    h = hostile(int)
    assert type(h(1)) in (int, float)
    assert set(map(type, [1, h(2)])) == {int}


@pytest.mark.parametrize("base, value", [(int, 3), (float, 0.5), (str, "a"), (list, [1])])
def test_type_is_is_identity(base, value):
    assert type_is(value, base)
    assert type_is(value, bool, base)
    assert not type_is(hostile(base)(value), base)
    assert not type_is(value)


def test_types_are_is_identity_for_every_item():
    h = hostile(int)
    assert types_are([], int)
    assert types_are([1, 2, 3], int)
    assert types_are((1.0, None, "a", True), type(None), bool, float, str)
    assert not types_are([1, h(2)], int)  # the hostile class does not merge away
    assert not types_are([h(2), 1], int)
    assert not types_are([1, 2.0], int)
    assert not types_are([1, 2.0, h(3)], int, float)
    assert types_are(iter([1, 2]), int)  # any iterable, read once


def test_id_sets_compare_integers():
    h = hostile(float)
    assert id(type(1.5)) in type_ids(float, int)
    assert id(type(h(1.5))) not in type_ids(float, int)
    assert kind_ids([1, h(2.0), 3]) == {id(int), id(h)}


# --- lint: no type test by `==` in the converted modules --------------------------------------

PACKAGE = Path(certdp.__file__).parent
#: ``type(x) in``, ``type(x) not in``, ``kind in``, ``kinds in``, ``kinds ==``, ``set(map(type``
#: (tokens are joined by one space).  Two uses of the name ``kind`` are no type test and pass: a
#: NumPy dtype's one-letter code (``dtype.kind in "iu"``, a ``str``) and a loop variable
#: (``for kind in ...`` binds, it does not test).  Since session 14 also the other spellings:
#: ``type(x) == C`` / ``!=`` (either side), a lookup keyed by a class (``{...}[type(x)]``,
#: ``.get(type(x)``), any test of ``x.__class__`` (an attribute an object may fake, even with
#: ``is``) and a test of a class's name (``type(x).__name__ == "C"``: any class may take it).
EQUALITY_TYPE_TEST = re.compile(
    r"\btype\s*\([^()]*\)\s*(not\s+)?in\b"
    r"|(?<!dtype \. )(?<!for )\bkinds?\s+(not\s+)?in\b|\bkinds\s*=="
    r"|\bset\s*\(\s*map\s*\(\s*type\b"
    r"|\btype\s*\([^()]*\)\s*[!=]=|[!=]=\s*type\s*\("
    r"|\[\s*type\s*\(|\.\s*get\s*\(\s*type\s*\("
    r"|\b__class__\s*([!=]=|is\b|in\b|not\b)|([!=]=|\bis|\bin)\s*(not\s+)?[\w. ]*__class__\b"
    r"|\btype\s*\([^()]*\)\s*\.\s*__(qual)?name__\s*([!=]=|in\b|not\b)"
)
#: Modules whose type tests are by identity (core.exact_type): the lint forbids ``==`` tests.
CONVERTED = ("core/exact_type.py", "core/conversion.py", "core/map_domain.py")
#: Modules that still hold a type test by ``==``: none since session 13 (every module tests
#: classes by identity); a new ``==`` type test anywhere fails the test below.
NOT_YET_CONVERTED: frozenset[str] = frozenset()


def _code_lines(path: Path):
    """The code of each line of ``path`` without strings and comments, tokens joined."""
    lines: dict[int, list[str]] = {}
    skipped = {tokenize.STRING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE}
    skipped |= {tokenize.INDENT, tokenize.DEDENT}
    for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if token.type not in skipped:
            lines.setdefault(token.start[0], []).append(token.string)
    for number, tokens in lines.items():
        yield number, " ".join(tokens)


def _equality_type_tests(path: Path):
    return [number for number, code in _code_lines(path) if EQUALITY_TYPE_TEST.search(code)]


def test_the_lint_finds_each_forbidden_form(tmp_path):
    sample = tmp_path / "sample.py"
    forms = ["type(x) in (int,)", "type(x) not in S", "kind in S", "kinds == {int}"]
    forms += ["set(map(type, xs))", "'type(x) in S'  # type(x) in S"]
    forms += [
        "a.dtype.kind in 'iu'",
        "[k for kind in KINDS]",
        "x.kind in S",
        "for kind in S: kind in T",
    ]
    forms += [
        "type(x) == int",
        "float != type(x)",
        "{int: 1}[type(x)]",
        "TABLE.get(type(x))",
        "x.__class__ is int",
        "int == x.__class__",
        "type(x).__name__ == 'L1Distance'",
        "type(x).__qualname__ in NAMES",
        "type(x) is int and type(y) is not float",
        "if __name__ == '__main__': pass",
    ]
    sample.write_text("\n".join(forms) + "\n")
    assert _equality_type_tests(sample) == [1, 2, 3, 4, 5, 9, 10, *range(11, 19)]


@pytest.mark.parametrize("module", CONVERTED)
def test_converted_modules_test_types_by_identity(module):
    assert module not in NOT_YET_CONVERTED
    assert _equality_type_tests(PACKAGE / module) == []


def test_no_new_module_tests_types_by_equality():
    found = {
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if _equality_type_tests(path)
    }
    assert found <= NOT_YET_CONVERTED, sorted(found - NOT_YET_CONVERTED)
