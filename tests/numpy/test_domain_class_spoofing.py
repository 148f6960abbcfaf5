"""The numpy constructors test their domain's and metric's class by identity: an object whose
``__class__`` attribute claims ``NPArray2Domain`` (which ``isinstance`` would believe) while its
``admit`` lets rows of any norm through is refused, so no map understates a neighbour's change.
(Found by the typeid referee: with ``isinstance``, ``make_np_sum(fake).map(2)`` said 2.0 while
neighbouring sums moved by 1000.)"""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError
from certdp.numpy import make_np_count, make_np_sscp, make_np_sum, make_private_np_mean
from certdp.numpy.array2_domain.array2_domain import NPArray2Domain, array2_domain

REAL = array2_domain(norm=1, p=1, size=4, num_columns=1, T="f64")


class FakeDomain:
    __class__ = property(lambda self: NPArray2Domain)

    def __getattr__(self, name):
        return getattr(REAL, name)

    def member(self, x):
        return True

    def admit(self, x):
        return np.asarray(x, dtype=np.float64)


class FakeMetric:
    __class__ = property(lambda self: type(dp.symmetric_distance()))

    def __getattr__(self, name):
        return getattr(dp.symmetric_distance(), name)


BUILDS = {
    "np_sum": lambda d, m: make_np_sum(d, m),
    "np_count": lambda d, m: make_np_count(d, m),
    "np_sscp": lambda d, m: make_np_sscp(d, m),
    "private_np_mean": lambda d, m: make_private_np_mean(d, m, scale=1.0),
    "np_clamp": lambda d, m: dp.numpy.make_np_clamp(d, m, norm=1.0, p=1),
}


def test_the_fake_claims_the_class_and_the_sealed_isinstance_reads_the_exact_type():
    """The fake's ``__class__`` names NPArray2Domain (a plain class's ``isinstance`` would
    believe it); the sealed class's ``isinstance`` reads ``type(x)`` (lemma "sealed")."""
    assert FakeDomain().__class__ is NPArray2Domain
    assert not isinstance(FakeDomain(), NPArray2Domain)


@pytest.mark.parametrize("build", BUILDS.values(), ids=BUILDS.keys())
def test_a_domain_or_metric_claiming_the_class_is_refused(build):
    dp.enable_features("contrib", "floating-point")
    with pytest.raises(DPError):
        build(FakeDomain(), dp.symmetric_distance())
    with pytest.raises(DPError):
        build(REAL, FakeMetric())


@pytest.mark.parametrize("build", BUILDS.values(), ids=BUILDS.keys())
def test_the_real_domain_and_metric_build(build):
    dp.enable_features("contrib", "floating-point")
    build(REAL, dp.symmetric_distance())  # the refusals above are the fakes', not the call's
