"""Unvetted or outdated proofs make their constructors require ``contrib`` at run time."""

import pytest

import certdp.prelude as dp
from certdp.audit import gate
from certdp.audit.discovery import discover
from certdp.audit.ledger import Ledger
from certdp.audit.status import NEVER_VETTED, OUTDATED, UP_TO_DATE, VettingStatus, status_of
from certdp.core.errors import FeatureNotEnabledError

SPACE = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()


# a repeat: `certdp audit --strict` (`make`) fails on a row that is not up to date, and in
# `make test` tests/install/test_installed.py's strict audit of the package built from this
# tree asserts freshness "ok" for every constructor (the same status_of, the same ledger)
@pytest.mark.slow
def test_every_constructor_in_the_repository_is_vetted_and_up_to_date():
    constructors = discover()
    assert len(constructors) >= 20
    ledger = Ledger(constructors[0].package)
    stale = {c.name: str(status_of(c, ledger)) for c in constructors}
    stale = {name: status for name, status in stale.items() if not status.startswith(UP_TO_DATE)}
    assert not stale, f"run `certdp audit` and have these proofs vetted: {stale}"


def test_vetted_constructor_runs_without_contrib():
    assert dp.t.make_is_equal(*SPACE, 3)([3]) == [True]


@pytest.mark.parametrize(
    "status, reason",
    [
        (VettingStatus(OUTDATED, commit="abc1234"), "outdated since abc1234"),
        (VettingStatus(NEVER_VETTED), "never vetted"),
    ],
)
def test_unvetted_constructor_requires_contrib(monkeypatch, request, status, reason):
    monkeypatch.setattr(gate, "vetting_status", lambda name: status)
    # forget what this process already found up to date (the wrapper shares the set)
    for name in list(gate._up_to_date):
        gate._up_to_date.discard(name)
        request.addfinalizer(lambda name=name: gate._up_to_date.add(name))
    with pytest.raises(
        FeatureNotEnabledError,
        match=f"make_is_equal requires 'contrib' because its proof is {reason}",
    ):
        dp.t.make_is_equal(*SPACE, 3)
    dp.enable_features("contrib")
    assert dp.t.make_is_equal(*SPACE, 3)([3]) == [True]


def test_the_namespaces_and_the_source_tree_list_the_same_constructors():
    """dp.t / dp.m / dp.numpy (imports) and the audit (files) must not drift apart."""
    from certdp.registry import certified_constructors

    assert sorted(c.__name__ for c in certified_constructors()) == sorted(
        c.name for c in discover() if c.is_constructor
    )
    assert [c.key for c in discover() if not c.is_constructor] == [
        "combinators/_context/context",
        "combinators/_search/binary_search",
        "measurements/_accuracy/accuracy",
    ]


def test_ledger_keys_recorded_from_a_checkout_path_are_read_package_relative(tmp_path):
    """Entries vetted before keys became package-relative still match (branches in flight)."""
    import json

    from certdp.audit.discovery import package_root

    current = Ledger(package_root())
    key = "measurements/float_laplace_cks20/make_float_laplace_cks20"  # cites lemmas
    entry = current.get(key)
    assert any(k.startswith("lemma:") for k in entry.fingerprints)
    legacy = {
        ("lemma:src/certdp/" + k[len("lemma:") :])
        if k.startswith("lemma:")
        else "src/certdp/" + k: value
        for k, value in entry.fingerprints.items()
    }
    folder = tmp_path / "certdp" / "proofs"
    folder.mkdir(parents=True)
    raw = {key: {**entry.__dict__, "fingerprints": legacy}}
    (folder / "vetting-ledger.json").write_text(json.dumps(raw))
    assert Ledger(tmp_path / "certdp").get(key).fingerprints == entry.fingerprints
    (constructor,) = [c for c in discover() if c.key == key]
    assert status_of(constructor, Ledger(tmp_path / "certdp")).state == UP_TO_DATE
