"""The recorded finding against OpenDP 0.16's create_dataframe chain on texts with NUL
(referee-frames): its reproducer reads texts as lines and reproduces."""

import json
import math
import pathlib
import subprocess
import sys

import pytest

import certdp.prelude as dp

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECORDS = ["crosscheck-opendp-0.16.0.json"]


def _recorded_nul_reproducers(name):
    record = json.loads((ROOT / "docs/guide/data" / name).read_text())

    def walk(node):
        if isinstance(node, dict):
            if "reproducer" in node and "make_create_dataframe" in node.get("point", ""):
                yield node
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    return list(walk(record))


@pytest.mark.parametrize("name", RECORDS)
def test_recorded_nul_reproducer_reproduces(tmp_path, name):
    pytest.importorskip("opendp")
    findings = _recorded_nul_reproducers(name)
    assert findings
    for finding in findings:
        script = tmp_path / "repro.py"
        script.write_text(finding["reproducer"])
        run = subprocess.run(
            [sys.executable, "-W", "ignore", str(script)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 1 and "REPRODUCED" in run.stdout, run.stdout + run.stderr
        # the script's input distance is the line distance the finding records
        assert run.stdout.startswith(f"input distance {finding['d_in']}:"), run.stdout


def test_reproducer_distances_read_texts_as_lines():
    from certdp.crosscheck.reproducer import _DISTANCES

    namespace = {}
    exec(_DISTANCES, namespace)
    a, b = "x\r\ny\n", "y\nx"
    assert namespace["symmetric"](a, b) == 0 == dp.symmetric_distance().distance(a, b)
    assert namespace["symmetric"]("a\n\nb", "a\nb\n") == 1
    assert namespace["insert_delete"](a, b) == 2 == dp.insert_delete_distance().distance(a, b)
    assert namespace["lines"](["a\n"]) == ["a\n"]


def test_opendp_nul_cut_is_a_real_violation():
    """OpenDP 0.16's split_dataframe >> select_column on two texts at line distance 1 gives
    outputs at distance 3 (the first text is cut at its NUL)."""
    odp = pytest.importorskip("opendp.prelude")
    import warnings

    warnings.simplefilter("ignore")
    odp.enable_features("contrib")
    chain = odp.t.make_split_dataframe(",", ["A", "B"]) >> odp.t.make_select_column("A", TOA=str)
    a, b = "x\x00y,1\nb,2\nc,3\n", "b,2\nc,3\n"
    assert dp.symmetric_distance().distance(a, b) == 1
    assert dp.symmetric_distance().distance(chain(a), chain(b)) == 3
    assert not math.isinf(chain.map(1)) and chain.map(1) == 1
