"""The coverage conditions cover-proof, cover-modules and cover-package (gate.tex, Lemma
prop:covered) each refuse on their own: every sealed row the tools write passes the first two
whenever it passes cover-files, so these tests forge entries that do not.  And an interrupt
landing right after the wrapper opens the scope leaves no open check behind (the scope is set
inside the wrapper's ``try``; found by the referee with a real SIGINT)."""

import dataclasses

import certdp.audit.status as status
from certdp.audit.discovery import discover
from certdp.audit.ledger import files_seal
from certdp.audit.status import CheapCheck, _folders, covered_status


def _entry(name):
    package, names, entries = _folders()
    (constructor,) = [c for c in discover(package) if c.name == name]
    return constructor, entries.get(constructor.key)


def _forge(monkeypatch, name, **changes):
    package, names, entries = _folders()
    constructor, vetting = _entry(name)
    forged = dataclasses.replace(vetting, **changes)
    forged.seal = files_seal(forged.fingerprints, forged.proof, forged.files)
    table = {key: entries[key] for key in entries}
    table[constructor.key] = forged
    monkeypatch.setattr(status, "_folders", lambda: (package, names, table))
    return constructor, forged


def test_a_row_without_its_proof_among_its_files_is_not_covered(monkeypatch):
    check = CheapCheck(*_entry("make_mean"))
    constructor, vetting = _entry("make_sum")
    files = {k: v for k, v in vetting.files.items() if k != constructor.relative(constructor.proof)}
    _forge(monkeypatch, "make_sum", files=files)
    assert covered_status(check, "make_sum") is None


def test_a_row_whose_python_file_the_outer_shadowing_check_did_not_test_is_not_covered(monkeypatch):
    check = CheapCheck(*_entry("make_mean"))
    _, vetting = _entry("make_sum")
    outside = next(f for f in check.files if f not in check.modules())
    _forge(monkeypatch, "make_sum", fingerprints={**vetting.fingerprints, f"{outside}#x": "0" * 64})
    assert covered_status(check, "make_sum") is None


def test_a_check_of_another_package_covers_nothing(tmp_path):
    check = CheapCheck(*_entry("make_mean"))
    check.package = tmp_path
    assert covered_status(check, "make_sum") is None


from .test_gate_nested_coverage import PRELUDE, copy, recorded, report  # noqa: E402,F401

INTERRUPT = """
import sys
from certdp.contracts import wrapper
WRAP = wrapper.__file__
TRY = [i for i, l in enumerate(open(WRAP), 1) if "# label: scope-open" in l][0] + 1
fired = []
def tracer(frame, event, arg):
    if frame.f_code.co_filename != WRAP or frame.f_code.co_name != "wrapper":
        return None
    def local(frame, event, arg):
        if event == "line" and frame.f_lineno == TRY and not fired and frame.f_locals.get("opened"):
            fired.append(1)
            raise KeyboardInterrupt  # where a SIGINT lands after the CALL of covering.set
        return local
    return local
sys.settrace(tracer)
try:
    dp.t.make_mean(*sized)
except KeyboardInterrupt:
    pass
sys.settrace(None)
add_statement('transformations/sized_bounded_int_checked_sum/make_sized_bounded_int_checked_sum.py')
result = [fired, outcome(lambda: dp.t.make_sized_bounded_int_checked_sum(100, (0, 10)))]
"""


def test_an_interrupt_at_the_scope_opening_leaves_no_open_scope(copy):
    got = report(copy, INTERRUPT)
    assert got["result"] == [[1], "FeatureNotEnabledError"]
