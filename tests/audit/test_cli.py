"""The command line for people: plain text when piped, colour on a terminal, plurals, help."""

import io
import re

import pytest

from certdp.__main__ import SUBCOMMANDS, parser
from certdp.audit import terminal
from certdp.audit.checks import Check, ConstructorAudit
from certdp.audit.report import render_table, summary

from .conftest import run

ANSI = re.compile(r"\x1b\[")
RESTRUCTURED_TEXT = re.compile(r"``|:(func|class|mod|data|meth):|^\.\. ", re.MULTILINE)


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def row(name: str, freshness: str = "ok") -> ConstructorAudit:
    checks = {c: Check("ok") for c in ("artifacts", "binding", "contracts")}
    checks["freshness"] = Check(freshness, "detail")
    checks["machine_checked"] = Check("ok")
    checks["build"] = Check("skipped")
    return ConstructorAudit(f"t/{name}/{name}", name, checks)


def test_plurals():
    assert terminal.plural(0, "constructor") == "0 constructors"
    assert terminal.plural(1, "constructor") == "1 constructor"
    assert terminal.plural(2, "constructor") == "2 constructors"
    assert summary([row("make_a")], False, 1.0).startswith("1 constructor: 1 passed, 0 failed")
    two = summary([row("make_a"), row("make_b", "outdated")], False, 1.0)
    assert two.startswith("2 constructors: 1 passed, 1 failed (1 outdated")


def test_piped_audit_is_plain_text_with_one_line_per_constructor(repo):
    result = run(repo, "audit", "--examples", "5")
    assert result.returncode == 0, result.stderr
    assert not ANSI.search(result.stdout) and not ANSI.search(result.stderr)
    assert re.search(r"^ok +make_is_equal$", result.stderr, re.MULTILINE)
    assert "1 constructor: 1 passed, 0 failed" in result.stdout
    assert "proofs not built (add --build" in result.stdout


def test_colour_only_on_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    rows = [row("make_a"), row("make_b", "outdated")]
    for stream, coloured in ((io.StringIO(), False), (FakeTerminal(), True)):
        out = terminal.console(stream)
        for line in render_table(rows, False, 1.0):
            out.print(line)
        assert bool(ANSI.search(stream.getvalue())) is coloured
        assert "outdated" in stream.getvalue()


def test_progress_lines_piped_and_bar_on_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    piped = io.StringIO()
    with terminal.progress(2, "auditing", piped) as reporter:
        reporter.done("ok", "make_a")
        reporter.done("FAIL", "make_b", "why")
    assert piped.getvalue().splitlines() == ["ok        make_a", "FAIL      make_b  why"]
    tty = FakeTerminal()
    with terminal.progress(2, "auditing", tty) as reporter:
        reporter.done("ok", "make_a")
        reporter.done("outdated", "make_b")
    assert ANSI.search(tty.getvalue()) and "make_a" in tty.getvalue()


@pytest.mark.parametrize(
    "command", [[]] + [[add.__name__.strip("_").removesuffix("_command")] for add in SUBCOMMANDS]
)
def test_help_is_plain_prose(command, capsys):
    with pytest.raises(SystemExit) as exit:
        parser().parse_args([*command, "--help"])
    assert exit.value.code == 0
    text = capsys.readouterr().out
    assert not RESTRUCTURED_TEXT.search(text), text
    assert text.startswith("usage: certdp")
    if not command:
        assert all(name in text for name in ("audit", "verify", "vet", "examples:"))
