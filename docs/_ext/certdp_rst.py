"""Small helpers for writing reStructuredText from Python values."""

from __future__ import annotations

import inspect

__all__ = ["escape", "heading", "first_paragraph", "link", "table"]

_MARKUP = set("\\*`_|[]<>")
_UNDERLINES = {0: "=", 1: "-", 2: "~"}


def escape(text: str) -> str:
    """``text`` as plain reST prose: every markup character backslash-escaped."""
    return "".join("\\" + character if character in _MARKUP else character for character in text)


def heading(title: str, level: int = 0) -> str:
    """A section title at ``level`` (0: page title, 1: section, 2: subsection)."""
    return f"{title}\n{_UNDERLINES[level] * len(title)}\n"


def first_paragraph(obj) -> str:
    """The first paragraph of ``obj``'s docstring on one line (reST kept as is), or ``""``."""
    docstring = inspect.getdoc(obj) or ""
    return " ".join(docstring.split("\n\n")[0].split())


def link(text: str, url: str) -> str:
    """An anonymous hyperlink to ``url`` (a relative URL of the site)."""
    return f"`{escape(text)} <{url}>`__"


def table(header: list[str], rows: list[list[str]]) -> str:
    """A ``list-table`` with a header row; cells are reST."""
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in [header, *rows]:
        for position, cell in enumerate(row):
            lines.append(f"   {'*' if position == 0 else ' '} - {cell or ' '}")
    return "\n".join(lines) + "\n"
