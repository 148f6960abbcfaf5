"""The float thresholds page (docs/guide/thresholds.rst) runs as the site build runs it --
every ``certdp-run`` block in order, in one namespace, a block declaring ``:raises:`` raising
exactly that -- and prints the numbers its prose states."""

import contextlib
import io
from pathlib import Path

from certdp.contracts import disable_contracts
from certdp.core.features import KNOWN_FEATURES, disable_features

from .test_context_page import _blocks

PAGE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "thresholds.rst"


def test_the_thresholds_page_runs_and_prints_its_numbers():
    disable_contracts()
    disable_features(*KNOWN_FEATURES)
    namespace = {"__name__": "__certdp_example__"}
    printed = io.StringIO()
    blocks = _blocks(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) == 4
    for code, raises in blocks:
        raised = None
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(code, str(PAGE), "exec"), namespace)
        except Exception as error:  # noqa: BLE001 - compared with the declaration below
            raised = error
        assert (type(raised).__name__ if raised else None) == raises, (code, raised)
    output = printed.getvalue()
    assert "(ε, δ): (1.0, 2.801398218768634e-09)" in output
    assert "(ρ, δ): (0.5, 8.528410684278336e-81)" in output
    for k, epsilon in ((None, 1.5), (-10, 1.5009765625), (0, 2.0), (2, 8.0)):
        assert f"k={k}: map((2, 1.5, 1.0)) = ({epsilon}, " in output
    # the Gaussian release converted and fixed at delta = 1e-6 (the total)
    assert "threshold δ: 8.528410684278336e-81" in output
    assert "profile δ(1.0): 0.24684633078294466" in output
    assert "fixed (ε, δ): (5.22153444453017, 1e-06)" in output
    disable_features(*KNOWN_FEATURES)
