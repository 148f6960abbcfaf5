"""The engine: deliberately wrong maps are refuted with concrete pairs (which the real code
confirms), results are cached by fingerprint, and stale results are not reported as proved."""

import json

import pytest

from certdp import prove as prove_package
from certdp.__main__ import main
from certdp.core.types import carrier
from certdp.prove import engine
from certdp.prove.engine import solve
from certdp.transformations._summation import smt_model


def test_integer_sum_map_off_by_one_is_refuted_with_a_pair():
    name = "make_sized_bounded_int_checked_sum"
    [wrong, *_] = smt_model.int_sum_instances(name, carrier("i8"), map_shift=-1, d_values=(2,))
    outcome = solve(wrong, 60)
    assert outcome["status"] == "counterexample"
    example = outcome["example"]
    built = smt_model.constructor(name)(4, (-3, 5), "i8")
    assert abs(built(example["x"]) - built(example["x_prime"])) > built.map(2) - 1
    # the confirmation runs the real code on the pair: it breaks the wrong map, not the real one
    assert "does not violate map 8" in example["code"]


def test_the_right_integer_map_is_proved():
    name = "make_sized_bounded_int_checked_sum"
    [right, *_] = smt_model.int_sum_instances(name, carrier("i8"), d_values=(2,))
    assert solve(right, 60)["status"] == "proved"


def test_float_sum_without_relaxation_is_refuted_with_a_pair():
    name = "make_sized_bounded_float_checked_sum"
    for algorithm in ("Sequential", "Pairwise"):
        wrong = smt_model.float_sum_instance(
            name, algorithm, "f8", 3, (-1.0, 1.0), 2, relaxation=False
        )
        outcome = solve(wrong, 60)
        assert outcome["status"] == "counterexample", algorithm
        example = outcome["example"]
        assert len(example["x"]) == len(example["x_prime"]) == 3


def test_results_report_every_modelled_name_with_its_fields():
    results = prove_package.results()
    assert set(engine.known_constructors()) <= set(results)
    for entry in results.values():
        assert entry["status"] in ("proved", "counterexample", "timeout", "not-run")
        assert set(entry) == {"status", "detail", "sizes", "formats", "solver_version"}


def test_committed_cache_is_current_for_every_model():
    """`make prove` was run on this tree: nothing is stale or never run, nothing is refuted
    (a solver timeout is reported as such, and is not a proof)."""
    results = prove_package.results()
    stale = {
        n: r["detail"] for n, r in results.items() if r["status"] in ("not-run", "counterexample")
    }
    assert stale == {}
    assert sum(r["status"] == "proved" for r in results.values()) >= len(results) - 2


def test_a_warm_run_proves_nothing_again(tmp_path, monkeypatch):
    cache = tmp_path / "results.json"
    cache.write_text(engine.CACHE.read_text())
    monkeypatch.setattr(engine, "solve", _refuse_to_solve)
    results = engine.prove(["make_clamp", "uniform_below"], cache=cache, jobs=1)
    assert all(r.get("cached") for r in results.values())


def _refuse_to_solve(*_):
    raise AssertionError("a cached result was proved again")


def test_a_changed_fingerprint_makes_the_result_stale(tmp_path, monkeypatch):
    stored = json.loads(engine.CACHE.read_text())
    stored["uniform_below"]["fingerprint"] = "0" * 64
    cache = tmp_path / "results.json"
    cache.write_text(json.dumps(stored))
    monkeypatch.setattr(engine, "CACHE", cache)
    monkeypatch.setattr(prove_package, "cached_results", lambda: engine.cached_results(cache))
    assert prove_package.results(["uniform_below"])["uniform_below"]["status"] == "not-run"
    rerun = engine.prove(["uniform_below"], cache=cache, jobs=1)
    assert rerun["uniform_below"]["status"] == "proved" and not rerun["uniform_below"].get("cached")
    assert json.loads(cache.read_text())["uniform_below"]["fingerprint"] == (
        engine.fingerprint("uniform_below", engine.known_constructors()["uniform_below"])
    )


def test_a_result_records_the_fingerprint_of_the_files_it_began_with(tmp_path, monkeypatch):
    """A model edited while ``certdp prove`` runs must not be recorded as proved: the result
    carries the fingerprint taken before solving, so the next run sees the edit as stale."""
    cache = tmp_path / "results.json"
    cache.write_text("{}")
    real = engine.fingerprint
    calls = []

    def drifting(name, module):
        calls.append(name)
        return real(name, module) if len(calls) == 1 else "e" * 64  # "edited" after the start

    monkeypatch.setattr(engine, "fingerprint", drifting)
    engine.prove(["uniform_below"], cache=cache, jobs=1)
    recorded = json.loads(cache.read_text())["uniform_below"]["fingerprint"]
    assert recorded == real("uniform_below", engine.known_constructors()["uniform_below"])


def test_cli_prints_cached_results(capsys):
    assert main(["prove", "make_clamp", "uniform_below"]) == 0
    output = capsys.readouterr().out
    assert "proved" in output and "make_clamp" in output


@pytest.mark.parametrize("name", ["no_such_constructor"])
def test_unknown_names_are_not_run(name):
    assert prove_package.results([name])[name]["status"] == "not-run"


def test_every_smt_model_file_is_discovered():
    package = engine._PACKAGE
    files = {p for p in package.rglob(engine.MODEL_FILE) if "__pycache__" not in p.parts}
    assert {engine._module_file(module) for module in engine.MODELS} == files
    assert "certdp.transformations._summation.smt_model" in engine.MODELS


def test_each_finished_result_is_in_the_cache_at_once(tmp_path):
    """An interrupted run keeps what it finished: when the first result is reported, the
    cache already holds it (and the entries of the other names are kept)."""
    cache = tmp_path / "results.json"
    stored = json.loads(engine.CACHE.read_text())
    stored["uniform_below"]["fingerprint"] = "0" * 64
    cache.write_text(json.dumps(stored))
    seen = {}

    def progress(name, result):
        seen[name] = json.loads(cache.read_text())[name]["fingerprint"]

    engine.prove(["uniform_below"], cache=cache, jobs=1, progress=progress)
    current = engine.fingerprint("uniform_below", engine.known_constructors()["uniform_below"])
    assert seen == {"uniform_below": current}
    assert json.loads(cache.read_text())["make_clamp"] == stored["make_clamp"]


def test_a_result_is_proved_only_with_every_result_it_requires():
    from certdp.prove.engine import requirements, with_requirements

    assert requirements("make_laplace", "certdp.measurements._laplace.smt_model") == [
        "make_float_laplace_cks20",
        "make_vector_float_laplace_cks20",
        "make_integer_laplace",
        "make_vector_integer_laplace",
    ]
    own = {"status": "proved", "detail": "all 3 instances unsatisfiable", "formats": ["f64"]}
    for status, expected in [
        ("counterexample", "counterexample"),
        ("timeout", "timeout"),
        ("not-run", "not-run"),
    ]:
        combined = with_requirements(
            "make_float_laplace_cks20", own, lambda _, s=status: {"status": s, "detail": "x"}
        )
        assert combined["status"] == expected
        assert "relies on discretization" in combined["detail"]
    proved = with_requirements(
        "make_float_laplace_cks20",
        own,
        lambda _: {"status": "proved", "detail": "y", "formats": ["f32"]},
    )
    assert proved["status"] == "proved" and proved["formats"] == ["f32", "f64"]
    assert own["status"] == "proved" and own["formats"] == ["f64"]  # not changed in place


def test_a_required_lemma_is_part_of_the_fingerprint(monkeypatch):
    from certdp.prove import engine

    module = "certdp.measurements._laplace.smt_model"
    before = engine.fingerprint("make_float_laplace_cks20", module)
    original = engine.fingerprint

    def changed(name, module):
        if name == "discretization":
            return "0" * 64
        return original(name, module)

    monkeypatch.setattr(engine, "fingerprint", changed)
    assert changed("make_float_laplace_cks20", module) != before


def test_every_modelled_name_declares_what_its_check_covers():
    """Each model states its scope once (``SCOPE``), and the audit's machine-check line, the
    docs page and the proof's first page render it from there."""
    from certdp.audit.checks import _machine_line
    from certdp.contracts.smt_code import Scope

    for name in engine.known_constructors():
        declared = prove_package.scope(name)
        assert isinstance(declared, Scope), name
        assert declared.formats and declared.bound_to_code, name
        line = _machine_line(name, {"status": "proved", "detail": "d"})
        assert declared.text() in line
    assert prove_package.scope("no_such_constructor") is None


def test_a_reduced_format_check_says_so_and_never_claims_the_code_format():
    for name in ("make_np_sum", "make_np_clamp"):
        text = prove_package.scope(name).text()
        assert "reduced format" in text and "f64" not in prove_package.scope(name).formats
    mean = prove_package.scope("make_mean")
    assert "f8" not in mean.formats and "bit-precise" not in mean.text().lower()
    cdp = prove_package.scope("make_zCDP_to_approxDP")
    assert any("exp" in f and "ln" in f for f in cdp.free_functions)
