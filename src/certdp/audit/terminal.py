"""How the command line talks to a person: progress, colour and plurals.

Output goes through rich: on a terminal, ``ok`` / ``outdated`` / ``FAIL`` are coloured and a
live progress bar runs while constructors are checked; piped or redirected, every line is plain
text (no ANSI codes, no wrapping), one line per constructor as it finishes.  ``NO_COLOR`` is
honoured.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

__all__ = ["plural", "console", "styled", "progress", "STYLES"]

#: The style of each verdict on a terminal.
STYLES = {
    "ok": "green",
    "outdated": "yellow",
    "unvetted": "yellow",
    "FAIL": "bold red",
    "skipped": "dim",
}


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``"1 constructor"``, ``"2 constructors"`` (``nouns`` for irregular plurals)."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def console(stream=None) -> Console:
    """A console on ``stream`` (default: standard output, looked up now, not at import)."""
    return Console(file=stream or sys.stdout, highlight=False, soft_wrap=True)


def styled(status: str, width: int = 0) -> Text:
    """``status`` padded to ``width``, coloured by its verdict (colour shows on terminals only)."""
    return Text(f"{status:<{width}}", style=STYLES.get(status, ""))


class _Reporter:
    """Report each finished item on its own line; move the bar (if any) along."""

    def __init__(self, out: Console, bar: Progress | None, task):
        self.out, self.bar, self.task = out, bar, task

    def describe(self, text: str) -> None:
        """Say what runs now: in the bar on a terminal, as a plain line when piped."""
        if self.bar is not None:
            self.bar.update(self.task, description=text)
        else:
            self.out.print(f"{text} ...")

    def done(self, status: str, name: str, detail: str = "") -> None:
        line = Text.assemble(styled(status, 9), " ", name)
        if detail:
            line.append(f"  {detail}", style="dim")
        if self.bar is not None:
            self.bar.console.print(line)
            self.bar.advance(self.task)
        else:
            self.out.print(line)


@contextmanager
def progress(total: int, description: str, stream=None):
    """A :class:`_Reporter` for ``total`` items, with a live bar when ``stream`` is a terminal."""
    out = console(stream or sys.stderr)
    if not out.is_terminal:
        yield _Reporter(out, None, None)
        return
    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=out,
        transient=True,
    )
    with bar:
        yield _Reporter(out, bar, bar.add_task(description, total=total))
