"""Proof markers in Python sources (certdp.audit.sources) and the listing generator."""

import textwrap

import pytest

from certdp.audit import listing
from certdp.audit.listing import ListingError, find_code_refs, generate
from certdp.audit.sources import SourceMarkerError, parse_markers, read_markers
from certdp.core.errors import DPError


def source(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


SAMPLE = source(
    """
    import math

    # proof: begin outer

    def f(x):
        if x < 0:  # label: negative
            raise ValueError("x")
        # proof: begin inner
        y = math.sqrt(x)  # noqa: E501  # label: root
        # proof: end inner
        return y  # label: result


    # proof: end outer
    s = "# label: not-a-label"
    """
)


# --- sources ----------------------------------------------------------------


def test_ranges_span_the_code_between_markers_without_blank_ends():
    markers = parse_markers(SAMPLE, path="sample.py")
    outer, inner = markers.ranges["outer"], markers.ranges["inner"]
    assert (outer.begin_marker, outer.first, outer.last, outer.end_marker) == (3, 5, 11, 14)
    assert (inner.begin_marker, inner.first, inner.last, inner.end_marker) == (8, 9, 9, 10)
    assert markers.lines[outer.first - 1] == "def f(x):"


def test_labels_have_real_lines_and_innermost_range():
    markers = parse_markers(SAMPLE)
    assert {name: (label.line, label.range) for name, label in markers.labels.items()} == {
        "negative": (6, "outer"),
        "root": (9, "inner"),
        "result": (11, "outer"),
    }
    assert markers.labels_in("outer") == {6: "negative", 9: "root", 11: "result"}
    assert markers.labels_in("inner") == {9: "root"}


def test_range_lines_blank_out_nested_markers_and_keep_numbers():
    lines = parse_markers(SAMPLE).range_lines("outer")
    assert [number for number, _ in lines] == list(range(5, 12))
    assert dict(lines)[8] == "" and dict(lines)[10] == ""
    assert dict(lines)[9].strip().startswith("y = math.sqrt(x)")


def test_read_markers_reads_a_file(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(SAMPLE)
    assert read_markers(path).ranges.keys() == {"outer", "inner"}


def test_a_file_without_markers_has_no_ranges():
    markers = parse_markers("x = 1\n")
    assert markers.ranges == {} and markers.labels == {}


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("# proof: begin a\nx = 1\n", "'begin a' is never ended", 1),
        ("x = 1\n# proof: end a\n", "'end a' has no matching 'begin a'", 2),
        (
            "# proof: begin a\n# proof: begin b\nx = 1\n# proof: end a\n# proof: end b\n",
            "crosses range 'b'",
            4,
        ),
        (
            "# proof: begin a\nx = 1\n# proof: end a\n# proof: begin a\ny = 1\n# proof: end a\n",
            "range 'a' is defined twice",
            4,
        ),
        (
            "# proof: begin a\nx = 1  # label: l\ny = 2  # label: l\n# proof: end a\n",
            "label 'l' is already used on line 2",
            3,
        ),
        ("x = 1  # label: l\n# proof: begin a\ny = 1\n# proof: end a\n", "outside every range", 1),
        ("# proof: begin a\n# label: l\nx = 1\n# proof: end a\n", "must trail a code line", 2),
        ("x = 1  # proof: begin a\n# proof: end a\n", "must stand on a line of its own", 1),
        ("# proof: start a\n", "malformed proof marker", 1),
        ("# proof: begin\n", "malformed proof marker", 1),
        ("# proof: begin a\nx = 1  # label: two words\n# proof: end a\n", "malformed label", 2),
        ("# proof: begin a\n\n# proof: end a\n", "range 'a' contains no code", 1),
    ],
)
def test_malformed_markers_raise_with_position(text, message, line):
    with pytest.raises(SourceMarkerError, match=message) as caught:
        parse_markers(text, path="bad.py")
    assert caught.value.line == line
    assert str(caught.value).startswith(f"bad.py:{line}: ")
    assert isinstance(caught.value, DPError)


def test_untokenizable_source_raises():
    with pytest.raises(SourceMarkerError, match="cannot tokenize"):
        parse_markers('x = """never closed\n')


# --- listing ----------------------------------------------------------------


def write_proof(folder, tex_body: str, code: str = SAMPLE):
    (folder / "code.py").write_text(code)
    tex = folder / "proof.tex"
    tex.write_text(
        "\\documentclass{article}\n\\usepackage{certdp}\n\\begin{document}\n"
        + tex_body
        + "\n\\end{document}\n"
    )
    return tex


def test_find_code_refs_skips_comments_and_reads_both_macros():
    tex = "\\provesCode{a.py}{r}\n% \\certdpcode{x.py}{y}\n\\certdpcode {b/c.py} {s}\n\\certdpcode{a.py}{r}"
    assert [(r.macro, r.file, r.range) for r in find_code_refs(tex)] == [
        ("provesCode", "a.py", "r"),
        ("certdpcode", "b/c.py", "s"),
        ("certdpcode", "a.py", "r"),
    ]


def test_find_code_refs_rejects_unreadable_arguments():
    with pytest.raises(ListingError, match="cannot read the arguments"):
        find_code_refs("\\certdpcode{my file.py}{r}")


def test_generate_writes_listing_index_and_depfile(tmp_path):
    tex = write_proof(
        tmp_path, "\\provesCode{code.py}{outer}\n\\certdpcode{code.py}{outer}\nsee \\ref{code:root}"
    )
    out = tmp_path / "gen"
    changed = generate(tex, out, definitions_url="../definitions.pdf")
    assert {p.name for p in changed} == {
        "certdp-code-1.tex",
        "certdp-code.tex",
        "certdp-code.d",
        "certdp-status.tex",
    }
    # a proof outside every constructor folder is a lemma document
    assert "lemma document" in (out / "certdp-status.tex").read_text()

    fragment = (out / "certdp-code-1.tex").read_text()
    assert "\\begin{lstlisting}[style=certdp,firstnumber=5]" in fragment
    body = fragment.split("]\n", 1)[1].rsplit("\\end{lstlisting}", 1)[0].splitlines()
    assert len(body) == 7  # lines 5..11, nested markers blanked
    assert body[0] == "def f(x):"
    assert body[1] == ("    if x < 0:  (*@\\label{code:negative}\\certdplabelmark{negative}@*)")
    assert body[3] == "" and body[5] == ""
    assert (
        body[4]
        == "    y = math.sqrt(x)  # noqa: E501  (*@\\label{code:root}\\certdplabelmark{root}@*)"
    )
    assert "proof:" not in fragment and "# label:" not in fragment

    index = (out / "certdp-code.tex").read_text()
    assert "\\certdpSetDefinitionsURL{../definitions.pdf}" in index
    # tmp_path is not in a git repository: the file is uncommitted
    line = next(x for x in index.splitlines() if x.startswith("\\certdpDefineCode"))
    assert line.startswith("\\certdpDefineCode{code.py}{outer}{")
    assert line.endswith("{}{uncommitted}{5}{11}{certdp-code-1}")

    deps = (out / "certdp-code.d").read_text()
    assert f"{out}/certdp-code.stamp: {(tmp_path / 'code.py').resolve()}" in deps

    # a second run rewrites nothing, so make and latexmk see unchanged files
    assert generate(tex, out, definitions_url="../definitions.pdf") == []


def test_provescode_alone_writes_no_listing(tmp_path):
    tex = write_proof(tmp_path, "\\provesCode{code.py}{inner}")
    generate(tex, tmp_path / "gen")
    assert not (tmp_path / "gen" / "certdp-code-1.tex").exists()
    assert "{inner}" in (tmp_path / "gen" / "certdp-code.tex").read_text()


def test_git_commit_and_modified_state(tmp_path):
    import subprocess

    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    tex = write_proof(tmp_path, "\\provesCode{code.py}{outer}")
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "code.py"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "c"], cwd=tmp_path, check=True)
    commit = subprocess.run(
        ["git", "log", "-1", "--format=%h"], cwd=tmp_path, capture_output=True, text=True
    ).stdout.strip()
    generate(tex, tmp_path / "gen")
    index = (tmp_path / "gen" / "certdp-code.tex").read_text()
    assert f"{{code.py}}{{outer}}{{code.py}}{{{commit}}}{{clean}}" in index
    (tmp_path / "code.py").write_text(SAMPLE + "z = 2\n")
    generate(tex, tmp_path / "gen")
    assert f"{{{commit}}}{{modified}}" in (tmp_path / "gen" / "certdp-code.tex").read_text()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("\\certdpcode{missing.py}{outer}", "no file"),
        ("\\certdpcode{code.py}{nope}", "has no range 'nope'"),
        ("\\certdpcode{code.py}{inner} \\ref{code:negative}", "no label 'negative'"),
        ("\\certdpcode{code.py}{inner} \\codeline{result}", "no label 'result'"),
    ],
)
def test_generate_errors(tmp_path, body, message):
    tex = write_proof(tmp_path, body)
    with pytest.raises(ListingError, match=message):
        generate(tex, tmp_path / "gen")


def test_malformed_markers_stop_the_generator(tmp_path):
    tex = write_proof(tmp_path, "\\certdpcode{code.py}{a}", code="# proof: begin a\nx = 1\n")
    with pytest.raises(SourceMarkerError, match="never ended"):
        generate(tex, tmp_path / "gen")


def test_non_ascii_is_escaped_and_escape_delimiters_are_refused(tmp_path):
    code = "# proof: begin a\nx = 1  # d_in → d_out, ε ☃\n# proof: end a\n"
    tex = write_proof(tmp_path, "\\certdpcode{code.py}{a}", code=code)
    generate(tex, tmp_path / "gen")
    fragment = (tmp_path / "gen" / "certdp-code-1.tex").read_text()
    assert fragment.isascii()
    assert "(*@\\(\\rightarrow\\)@*)" in fragment and "(*@\\texttt{<U+2603>}@*)" in fragment

    (tmp_path / "code.py").write_text("# proof: begin a\nx = '(*@'\n# proof: end a\n")
    with pytest.raises(ListingError, match="cannot show a line"):
        generate(tex, tmp_path / "gen")


def test_cli_exit_status_and_message(tmp_path, capsys):
    tex = write_proof(tmp_path, "\\certdpcode{code.py}{outer}")
    assert listing.main([str(tex), str(tmp_path / "gen")]) == 0
    tex.write_text("\\certdpcode{code.py}{nope}")
    assert listing.main([str(tex), str(tmp_path / "gen")]) == 1
    assert "error: \\certdpcode{code.py}{nope}" in capsys.readouterr().err


def test_the_remembered_comment_tokens_are_those_of_the_text_and_errors_are_not_remembered():
    """_comment_tokens is remembered by the text: an equal text gives the same tokens, another
    text its own, and a text the tokenizer refuses is refused again each time."""
    marked = "# proof: begin r\nx = 1  # label: a\n# proof: end r\n"
    assert parse_markers(marked).labels["a"].line == 2
    shifted = "\n" + marked
    assert parse_markers(shifted).labels["a"].line == 3
    assert parse_markers(marked).labels["a"].line == 2
    for _ in range(2):
        with pytest.raises(SourceMarkerError, match="cannot tokenize"):
            parse_markers('x = """never closed\n', path="bad.py")


def test_a_str_subclass_text_is_refused_before_the_memo():
    class Lying(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    with pytest.raises(SourceMarkerError, match="not a str"):
        parse_markers(Lying("x = 1\n"))
