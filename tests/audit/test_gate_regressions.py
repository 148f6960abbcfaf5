"""Regressions of the referee's report on audit/gate.tex and core/features.tex (B6, C2, C3)."""

import sys
import types

import pytest

from certdp.audit import ledger
from certdp.audit.discovery import ConstructorFolder
from certdp.audit.ledger import proof_fingerprints
from certdp.core import features
from certdp.core.errors import FeatureNotEnabledError


def test_a_lemma_outside_the_package_is_refused_before_it_is_read(tmp_path, monkeypatch):
    package = tmp_path / "certdp"
    folder = package / "transformations" / "demo"
    folder.mkdir(parents=True)
    outside = tmp_path / "outside.tex"
    outside.write_text("\\documentclass{article}")
    (folder / "make_demo.tex").write_text(f"\\usesLemma{{{outside}}}\n")
    opened = []
    real = ledger.ProofText

    def recording(path, *text):
        opened.append(path)
        return real(path, *text)

    monkeypatch.setattr(ledger, "ProofText", recording)
    with pytest.raises(ValueError):
        proof_fingerprints(ConstructorFolder("make_demo", folder, package))
    assert outside.resolve() not in opened  # only the constructor's own proof was read


def _fake_model(monkeypatch, obligations):
    module = types.ModuleType("certdp_fake_smt_model")
    module.obligations = obligations
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module.__name__


@pytest.mark.parametrize("fails", [False, True], ids=["returns", "raises"])
def test_an_in_process_prove_shard_restores_the_feature_set(monkeypatch, fails):
    from certdp.prove.engine import _prove_shard

    seen = []

    def obligations(names):
        seen.append(features.feature_enabled("contrib"))
        if fails:
            raise RuntimeError("model failed")
        return []

    task = ("make_demo", _fake_model(monkeypatch, obligations), 1, 0, 1)
    if fails:
        with pytest.raises(RuntimeError):
            _prove_shard(task)
    else:
        _prove_shard(task)
    assert seen == [True]  # the models ran with contrib on
    assert not features.feature_enabled("contrib")  # and it is off again


def test_a_prove_shard_keeps_contrib_when_the_caller_had_it(monkeypatch):
    from certdp.prove.engine import _prove_shard

    features.enable_features("contrib")
    _prove_shard(("make_demo", _fake_model(monkeypatch, lambda names: []), 1, 0, 1))
    assert features.feature_enabled("contrib")


def test_the_audits_contract_check_restores_the_feature_set(monkeypatch):
    from certdp.audit import checks
    from certdp.audit.discovery import discover

    constructor = next(c for c in discover() if c.name == "make_is_equal")
    seen = []

    class Contract:
        def verify(self, max_examples):
            seen.append(features.feature_enabled("contrib"))
            raise RuntimeError("refuted")

    monkeypatch.setattr(checks, "_contract", lambda constructor: Contract())
    assert checks.check_contracts(constructor, 1).status != checks.OK
    assert seen == [True]
    assert not features.feature_enabled("contrib")


@pytest.mark.parametrize("name", [["contrib"], {"contrib"}, 1, b"contrib"], ids=repr)
def test_feature_names_are_strings(name):
    with pytest.raises(FeatureNotEnabledError):
        features.enable_features(name)
    with pytest.raises(FeatureNotEnabledError):
        features.disable_features(name)
    with pytest.raises(FeatureNotEnabledError):
        features.assert_features(name)
    assert features.feature_enabled(name) is False
