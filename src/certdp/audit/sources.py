"""Proof markers in Python sources: named ranges and line labels.

A proof covers a *named range* of a Python file, delimited by two comments that
stand on lines of their own::

    # proof: begin constructor
    def make_thing(...):
        if bad:  # label: bad-check
            ...
    # proof: end constructor

A *label* is a trailing comment ``# label: NAME`` on a code line inside a range;
a proof refers to that line by ``NAME``.  A trailing label may follow another
comment (``# noqa: E501  # label: NAME``).

:func:`parse_markers` returns, for every range, the first and last line of the
code strictly between its markers (1-based line numbers of the real file, blank
lines at either end left out), and for every label its line and the innermost
range that contains it.  Ranges may nest but not cross.  Anything malformed
raises :class:`SourceMarkerError`: an unmatched ``begin`` or ``end``, a range or
label name used twice, a label outside every range, a marker that is not on a
line of its own, an empty range, or a comment that looks like a marker but does
not parse.

Its functions read text and return values (the comment tokens of a text are remembered by
that text, a process-wide cache whose answers are those of the text itself); the only I/O is
:func:`read_markers` opening the file it is given.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from certdp.core.errors import DPError

from .regular_file import read_regular_text

__all__ = [
    "SourceMarkerError",
    "Range",
    "Label",
    "SourceMarkers",
    "NAME_PATTERN",
    "parse_markers",
    "read_markers",
]

# proof: begin markers
#: Range and label names: they end up in LaTeX labels and file names, so no
#: spaces, braces, backslashes or percent signs.
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.:-]*"

_MARKER = re.compile(r"#\s*proof:\s*(begin|end)\s+(" + NAME_PATTERN + r")\s*$")
_LABEL = re.compile(r"(?:^|\s)#\s*label:\s*(" + NAME_PATTERN + r")\s*$")
# Anything that tries to be a marker or a label, well-formed or not.
_MARKER_LIKE = re.compile(r"#\s*proof\s*:")
_LABEL_LIKE = re.compile(r"#\s*label\s*:")


class SourceMarkerError(DPError):
    """A Python source has malformed, unmatched or duplicate proof markers."""

    variant = "SourceMarker"

    def __init__(self, message: str, *, path: str, line: int | None = None):
        self.path = path
        self.line = line
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Range:
    """A named range: ``first``..``last`` are its code lines (1-based, inclusive)."""

    name: str
    begin_marker: int
    end_marker: int
    first: int
    last: int


@dataclass(frozen=True)
class Label:
    """A labelled code line and the name of the innermost range containing it."""

    name: str
    line: int
    range: str


@dataclass(frozen=True)
class SourceMarkers:
    """Every range and label of one source text, and the text's lines."""

    path: str
    lines: tuple[str, ...]
    ranges: dict[str, Range]
    labels: dict[str, Label]

    def range_lines(self, name: str) -> list[tuple[int, str]]:
        """``(line number, text)`` of each line of range ``name``.

        Marker lines of ranges nested inside it come back as empty text, so that the
        numbering of the lines after them stays the real one.
        """
        span = self.ranges[name]
        markers = {r.begin_marker for r in self.ranges.values()}
        markers |= {r.end_marker for r in self.ranges.values()}
        return [
            (number, "" if number in markers else self.lines[number - 1])
            for number in range(span.first, span.last + 1)
        ]

    def labels_in(self, name: str) -> dict[int, str]:
        """Line number -> label name, for every label whose line lies in range ``name``."""
        span = self.ranges[name]
        return {
            label.line: label.name
            for label in self.labels.values()
            if span.first <= label.line <= span.last
        }


@functools.lru_cache(maxsize=4096)
def _comment_tokens(text: str) -> tuple[tuple[int, int, str], ...]:
    """``(line, column, comment text)`` of every comment token of ``text``: a function of the
    text alone, so it is remembered by the text (a ``str``, compared by equality); the
    tokenizer's errors are raised, and an error is never remembered."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))  # label: tokenize
    return tuple((t.start[0], t.start[1], t.string) for t in tokens if t.type == tokenize.COMMENT)


def _comments(text: str, path: str) -> tuple[tuple[int, int, str], ...]:
    """``(line, column, comment text)`` of every comment token of ``text``."""
    if type(text) is not str:  # a str subclass could compare equal to another text
        raise SourceMarkerError("the text is not a str", path=path)
    try:
        return _comment_tokens(text)  # label: comment-tokens
    except (tokenize.TokenError, SyntaxError) as error:
        raise SourceMarkerError(f"cannot tokenize the file: {error}", path=path) from None


def parse_markers(text: str, path: str = "<string>") -> SourceMarkers:
    """Find the named ranges and labels of a Python source text (see the module docstring)."""
    lines = tuple(text.splitlines())
    open_ranges: list[tuple[str, int]] = []  # stack of (name, line of its begin marker)
    closed: dict[str, tuple[int, int]] = {}
    raw_labels: dict[str, int] = {}
    seen_names: set[str] = set()

    for line, column, comment in _comments(text, path):
        own_line = lines[line - 1][:column].strip() == ""
        marker = _MARKER.match(comment)
        if marker:
            if not own_line:
                raise SourceMarkerError(
                    "a proof marker must stand on a line of its own", path=path, line=line
                )
            kind, name = marker.groups()
            if kind == "begin":
                if name in seen_names:
                    raise SourceMarkerError(
                        f"range {name!r} is defined twice", path=path, line=line
                    )
                seen_names.add(name)
                open_ranges.append((name, line))
            else:
                if not any(open_name == name for open_name, _ in open_ranges):
                    raise SourceMarkerError(
                        f"'end {name}' has no matching 'begin {name}'", path=path, line=line
                    )
                if open_ranges[-1][0] != name:
                    raise SourceMarkerError(
                        f"'end {name}' crosses range {open_ranges[-1][0]!r}, "
                        f"which began on line {open_ranges[-1][1]} and is still open",
                        path=path,
                        line=line,
                    )
                _, begin = open_ranges.pop()
                closed[name] = (begin, line)
            continue
        if _MARKER_LIKE.match(comment):
            raise SourceMarkerError(
                f"malformed proof marker {comment!r}; expected '# proof: begin NAME' "
                "or '# proof: end NAME'",
                path=path,
                line=line,
            )
        label = _LABEL.search(comment)
        if label:
            name = label.group(1)
            if own_line:
                raise SourceMarkerError(
                    f"label {name!r} must trail a code line, not stand alone", path=path, line=line
                )
            if name in raw_labels:
                raise SourceMarkerError(
                    f"label {name!r} is already used on line {raw_labels[name]}",
                    path=path,
                    line=line,
                )
            raw_labels[name] = line
        elif _LABEL_LIKE.search(comment):
            raise SourceMarkerError(
                f"malformed label comment {comment!r}; expected a trailing '# label: NAME'",
                path=path,
                line=line,
            )

    if open_ranges:
        name, begin = open_ranges[-1]
        raise SourceMarkerError(f"'begin {name}' is never ended", path=path, line=begin)

    ranges: dict[str, Range] = {}
    for name, (begin, end) in sorted(closed.items(), key=lambda item: item[1]):
        code = [n for n in range(begin + 1, end) if lines[n - 1].strip()]
        if not code:
            raise SourceMarkerError(f"range {name!r} contains no code", path=path, line=begin)
        ranges[name] = Range(name, begin, end, code[0], code[-1])

    labels: dict[str, Label] = {}
    for name, line in raw_labels.items():
        containing = [r for r in ranges.values() if r.begin_marker < line < r.end_marker]
        if not containing:
            raise SourceMarkerError(f"label {name!r} is outside every range", path=path, line=line)
        innermost = max(containing, key=lambda r: r.begin_marker)
        labels[name] = Label(name, line, innermost.name)

    return SourceMarkers(path=path, lines=lines, ranges=ranges, labels=labels)


def read_markers(path: str | Path) -> SourceMarkers:
    """:func:`parse_markers` applied to the file at ``path`` (read as UTF-8)."""
    path = Path(path)
    return parse_markers(read_regular_text(path), path=str(path))


# proof: end markers
