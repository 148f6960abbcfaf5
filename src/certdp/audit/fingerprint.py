"""Fingerprints of proven code ranges, blind to formatting and comments.

A range is fingerprinted from its syntax tree (``ast.dump`` without positions),
so re-indentation, line breaks and comments do not change it, while any
change to what the code does does.  Labels are part of the fingerprint: each
label is recorded with the syntax node it is attached to (the smallest node
starting on its line), so moving a label to another statement is a change.
Ranges that are not a complete block of statements fall back to the token
stream without comments.
"""

from __future__ import annotations

import ast
import hashlib
import io
import textwrap
import tokenize

from .sources import SourceMarkers

__all__ = ["fingerprint_range"]


# proof: begin fingerprint
def _label_anchors(tree: ast.AST, labels: dict[int, str]) -> list[tuple[str, int]]:
    """For each label, the position in ``ast.walk`` order of the node it annotates."""
    nodes = [node for node in ast.walk(tree) if hasattr(node, "lineno")]
    anchors = []
    for line, name in sorted(labels.items()):
        starting = [i for i, node in enumerate(nodes) if node.lineno == line]
        covering = [i for i, node in enumerate(nodes) if node.lineno <= line <= node.end_lineno]
        candidates = starting or covering
        # the widest node that starts on the line: the statement or argument the label annotates
        widest = min(candidates, key=lambda i: (nodes[i].lineno - nodes[i].end_lineno, i))
        anchors.append((name, widest))
    return anchors


def _token_stream(code: str) -> str:
    skipped = {tokenize.COMMENT, tokenize.NL}
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return " ".join(
        f"{token.type}:{'' if token.type == tokenize.INDENT else token.string}"
        for token in tokens
        if token.type not in skipped
    )


def fingerprint_range(markers: SourceMarkers, name: str) -> str:
    """The normalised fingerprint (sha256 hex) of range ``name``."""
    numbered = markers.range_lines(name)
    first = numbered[0][0]
    code = textwrap.dedent("\n".join(text for _, text in numbered)) + "\n"
    labels = {line - first + 1: label for line, label in markers.labels_in(name).items()}
    try:
        tree = ast.parse(code)
    except SyntaxError:
        normal = "tokens:" + _token_stream(code) + repr(sorted(labels.values()))
    else:
        normal = (
            "ast:" + ast.dump(tree, include_attributes=False) + repr(_label_anchors(tree, labels))
        )
    return hashlib.sha256(normal.encode()).hexdigest()


# proof: end fingerprint
