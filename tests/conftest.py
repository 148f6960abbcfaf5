"""Shared test configuration: hypothesis profiles and a clean global state per test.

``HYPOTHESIS_PROFILE=ci`` (the default) is deterministic and fast;
``HYPOTHESIS_PROFILE=thorough`` runs many more examples.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _isolated_switches():
    """Each test starts with contracts off and no features enabled, and leaves it so."""
    from certdp.core import features, switches

    saved_contracts, saved_features = switches.contracts.enabled, set(features._enabled)
    switches.contracts.enabled = False
    features._enabled.clear()
    yield
    switches.contracts.enabled = saved_contracts
    features._enabled.clear()
    features._enabled.update(saved_features)
