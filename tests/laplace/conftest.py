"""The Laplace constructors' proofs are not vetted yet: as with OpenDP, users enable
``contrib`` to use them, and so do these tests (after the root conftest has reset the
feature flags for the test)."""

import pytest


@pytest.fixture(autouse=True)
def _contrib_enabled(_isolated_switches):
    from certdp.core.features import enable_features

    enable_features("contrib")
    yield
