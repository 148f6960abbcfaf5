"""The Context page (docs/guide/context.rst) runs as the site build runs it -- every
``certdp-run`` block in order, in one namespace, contracts off and no feature enabled at the
start, a block declaring ``:raises:`` raising exactly that -- and prints the numbers its prose
states (OpenDP 0.16's scales and shares)."""

import contextlib
import io
import re
from pathlib import Path

from certdp.contracts import disable_contracts
from certdp.core.features import KNOWN_FEATURES, disable_features

PAGE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "context.rst"


def _blocks(text: str):
    """``(code, raises)`` of every ``.. certdp-run::`` block of ``text``."""
    lines, blocks, index = text.splitlines(), [], 0
    while index < len(lines):
        if lines[index].strip() != ".. certdp-run::":
            index += 1
            continue
        index += 1
        raises = None
        while index < len(lines) and lines[index].strip().startswith(":"):
            match = re.match(r"\s*:raises:\s*(\w+)", lines[index])
            raises = match.group(1) if match else raises
            index += 1
        body = []
        while index < len(lines) and (not lines[index].strip() or lines[index].startswith("   ")):
            body.append(lines[index][3:])
            index += 1
        blocks.append(("\n".join(body).strip("\n"), raises))
    return blocks


def test_the_context_page_runs_and_prints_opendps_numbers():
    disable_contracts()
    disable_features(*KNOWN_FEATURES)
    namespace = {"__name__": "__certdp_example__"}
    printed = io.StringIO()
    blocks = _blocks(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 8
    for code, raises in blocks:
        raised = None
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(code, str(PAGE), "exec"), namespace)
        except Exception as error:  # noqa: BLE001 - compared with the declaration below
            raised = error
        assert (type(raised).__name__ if raised else None) == raises, (code, raised)
    output = printed.getvalue()
    assert "scale found: 1.0\n" in output
    assert "spent: 1.0  left: 0.0" in output
    assert "[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]" in output
    assert "scale: 3.0000000000000004  loss: 0.3333333333333333" in output
    assert "left: [0.3333333333333333]" in output
    # the least float at or above the exact accuracy; OpenDP 0.16 prints 9.445721638273584
    assert "9.445721638273586\n" in output
    disable_features(*KNOWN_FEATURES)
