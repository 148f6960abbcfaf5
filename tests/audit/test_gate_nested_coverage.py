"""An outer gate's cheap check covers the constructors first called inside that construction
(``gate.tex``, Lemma prop:covered): make_mean's first construction reads each file of its
row once, yet coverage never reaches past the construction whose gate just ran, nor into
another thread, nor past a file or digest the outer check did not test.

The subprocess cases run a fresh interpreter on a copy of the package whose ledger holds
current entries (recorded here, as ``certdp vet`` records them) for the rows they call.
"""

import contextvars
import json
import shutil
import threading
from pathlib import Path

import pytest

from certdp.audit.discovery import discover
from certdp.audit.ledger import UNCOMMITTED, Ledger, Vetting, current_fingerprints, files_seal
from certdp.audit.status import UP_TO_DATE, CheapCheck, VettingStatus, _folders, covered_status

from .conftest import REPO, run_script

pytestmark = pytest.mark.xdist_group("nested_coverage")

ROWS = (
    "make_mean",
    "make_sum",
    "make_sized_bounded_float_checked_sum",
    "make_sized_bounded_int_checked_sum",
    "make_sized_bounded_int_monotonic_sum",
    "make_bounded_int_monotonic_sum",
)
T = "src/certdp/transformations"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """A copy of ``src`` whose ledger holds current entries for :data:`ROWS`."""
    root = tmp_path_factory.mktemp("nested") / "repo"
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__"))
    package = root / "src/certdp"
    ledger = Ledger(package)
    for constructor in discover(package):
        if constructor.name in ROWS:
            hashes: dict[str, str] = {}
            fingerprints, proof = current_fingerprints(constructor, files=hashes)
            seal = files_seal(fingerprints, proof, hashes)
            vetting = Vetting(fingerprints, proof, UNCOMMITTED, "test", files=hashes, seal=seal)
            ledger.record(constructor.key, vetting)
    return root


@pytest.fixture
def copy(recorded: Path, tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(recorded, root)
    return root


PRELUDE = """
import json, threading, contextvars
from pathlib import Path
import certdp.prelude as dp
from certdp.audit import gate, ledger, status
calls, read = [], []
real, real_digest = status.files_unchanged, ledger.has_digest
def unchanged(c, files):
    calls.append([c.name, real(c, files), threading.current_thread() is threading.main_thread()])
    return calls[-1][1]
status.files_unchanged = unchanged
ledger.has_digest = lambda path, digest: read.append(path) or real_digest(path, digest)
sized = (dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0), nan=False), size=100),
         dp.symmetric_distance())
ints = dp.vector_domain(dp.atom_domain(bounds=(0, 10))), dp.symmetric_distance()
def outcome(call):
    try:
        call()
    except Exception as error:
        return type(error).__name__
    return "built"
def add_statement(relative):
    path = Path("src/certdp") / relative
    text = path.read_text()
    body = text.index("\\n", text.index("def ", text.index("# proof: begin")))
    path.write_text(text[: body + 1] + "    _ = 0\\n" + text[body + 1 :])
"""

REPORT = """
print(json.dumps({"calls": calls, "up": sorted(gate._up_to_date), "most": max(
    [read.count(p) for p in read] or [0]), "statuses": status.vetting_status.cache_info().currsize,
    "result": result}))
"""


def report(root: Path, body: str) -> dict:
    return json.loads(run_script(root, PRELUDE + body + REPORT, 1)[0])


INT_SUM = "make_sized_bounded_int_checked_sum"


def test_mean_first_construction_checks_the_files_once(copy):
    got = report(copy, "result = outcome(lambda: dp.t.make_mean(*sized))")
    assert got["result"] == "built"
    assert got["calls"] == [["make_mean", True, True]]  # one cheap check in all
    assert got["most"] == 1  # each file of the row read once
    assert got["statuses"] == 1  # make_sum and the inner sum took no status of their own
    assert {"make_sum", "make_sized_bounded_float_checked_sum"} <= set(got["up"])


def test_a_covered_row_edited_after_the_construction_is_refused_at_its_first_call(copy):
    # make_mean's files cover the integer checked sum, which its construction does not call
    got = report(
        copy,
        "dp.t.make_mean(*sized)\n"
        f"add_statement('transformations/sized_bounded_int_checked_sum/{INT_SUM}.py')\n"
        f"result = outcome(lambda: dp.t.{INT_SUM}(100, (0, 10)))",
    )
    assert got["result"] == "FeatureNotEnabledError"
    assert [name for name, *_ in got["calls"]] == ["make_mean", INT_SUM]


def test_a_later_invocation_of_the_outer_covers_nothing(copy):
    got = report(
        copy,
        "dp.t.make_sum(*sized)\n"
        "add_statement('transformations/bounded_int_monotonic_sum/"
        "make_bounded_int_monotonic_sum.py')\n"
        "result = outcome(lambda: dp.t.make_sum(*ints))",
    )
    assert got["result"] == "FeatureNotEnabledError"
    assert got["calls"] == [
        ["make_sum", True, True],
        ["make_bounded_int_monotonic_sum", False, True],
    ]


def test_an_outer_passing_by_contrib_covers_nothing(copy):
    got = report(
        copy,
        "add_statement('transformations/mean/make_mean.py')\n"
        "dp.enable_features('contrib')\n"
        "result = outcome(lambda: dp.t.make_mean(*sized))",
    )
    assert got["result"] == "built"
    # make_sum runs its own gate, whose cheap check then covers the inner sum
    assert got["calls"] == [["make_mean", False, True], ["make_sum", True, True]]
    assert "make_mean" not in got["up"]


def comment_in(root: Path, relative: str) -> None:
    path = root / T / relative
    path.write_text(path.read_text() + "# a comment\n")


def test_an_outer_up_to_date_the_slow_way_covers_nothing(copy):
    comment_in(copy, "mean/make_mean.py")
    got = report(copy, "result = outcome(lambda: dp.t.make_mean(*sized))")
    assert got["result"] == "built"
    assert got["calls"] == [["make_mean", False, True], ["make_sum", True, True]]


def test_a_shared_file_edited_makes_every_gate_check_for_itself(copy):
    comment_in(copy, "sized_bounded_float_checked_sum/make_sized_bounded_float_checked_sum.py")
    got = report(copy, "result = outcome(lambda: dp.t.make_mean(*sized))")
    assert got["result"] == "built"
    assert [name for name, *_ in got["calls"]] == [
        "make_mean",
        "make_sum",
        "make_sized_bounded_float_checked_sum",
    ]
    assert not any(unchanged for _, unchanged, _ in got["calls"])


def test_no_coverage_in_another_thread_or_after_the_construction(copy):
    got = report(
        copy,
        "import sys\nM = sys.modules['certdp.transformations.mean.make_mean']\n"
        "inner, copied = M.make_sum, []\n"
        "def hooked(*a, **k):\n"
        "    copied.append(contextvars.copy_context())\n"
        f"    t = threading.Thread(target=lambda: dp.t.{INT_SUM}(100, (0, 10)))\n"
        "    t.start(); t.join()\n"
        "    t = threading.Thread(target=lambda: copied[0].run(\n"
        "        dp.t.make_sized_bounded_int_monotonic_sum, 100, (0, 10)))\n"
        "    t.start(); t.join()\n"
        "    return inner(*a, **k)\n"
        "M.make_sum = hooked\n"
        "dp.t.make_mean(*sized)\n"
        "result = outcome(lambda: copied[0].run(dp.t.make_bounded_int_monotonic_sum, (0, 10)))",
    )
    assert got["result"] == "built"
    assert got["calls"] == [
        ["make_mean", True, True],
        [INT_SUM, True, False],
        ["make_sized_bounded_int_monotonic_sum", True, False],
        ["make_bounded_int_monotonic_sum", True, True],  # the copied context, closed check
    ]


# In-process: the coverage test on the package's own ledger entries (main's vettings).


def entry(name: str):
    package, names, entries = _folders()
    (constructor,) = [c for c in discover(package) if c.name == name]
    return constructor, entries.get(constructor.key)


def mean_check(**files_changed) -> CheapCheck:
    check = CheapCheck(*entry("make_mean"))
    check.files = {**check.files, **files_changed}
    return check


def test_make_means_entry_covers_make_sum_with_the_cheap_checks_status():
    _, vetting = entry("make_sum")
    assert covered_status(mean_check(), "make_sum") == VettingStatus(
        UP_TO_DATE, vetting.commit, vetting.reviewer, vetting.date
    )


def test_a_row_with_a_file_outside_the_outer_check_is_not_covered():
    _, clamp = entry("make_clamp")
    assert not clamp.files.items() <= mean_check().files.items()
    assert covered_status(mean_check(), "make_clamp") is None
    _, inner = entry("make_sum")
    one = next(iter(inner.files))
    check = mean_check()
    check.files = {k: v for k, v in check.files.items() if k != one}
    assert covered_status(check, "make_sum") is None


def test_a_row_recorded_with_another_digest_is_not_covered():
    _, inner = entry("make_sum")
    one = next(iter(inner.files))
    assert covered_status(mean_check(**{one: "0" * 64}), "make_sum") is None


def test_a_closed_check_or_another_threads_covers_nothing():
    check = mean_check()
    seen = []
    worker = threading.Thread(target=lambda: seen.append(covered_status(check, "make_sum")))
    worker.start()
    worker.join()
    assert seen == [None]
    assert contextvars.copy_context().run(covered_status, check, "make_sum") is not None
    check.open = False
    assert covered_status(check, "make_sum") is None


def test_a_row_whose_seal_is_broken_is_not_covered(monkeypatch):
    import certdp.audit.status as status

    package, names, entries = _folders()
    constructor, vetting = entry("make_sum")
    vetting.seal = "0" * 64
    forged = {**{key: entries[key] for key in entries}, constructor.key: vetting}
    monkeypatch.setattr(status, "_folders", lambda: (package, names, forged))
    assert covered_status(mean_check(), "make_sum") is None
