"""refexact (pre-existing, not introduced by exacttype): the exact-type test
``type_is(input_domain, NPArray2Domain)`` of make_np_sum accepted an ``NPArray2Domain`` built
by calling the class directly, which checked none of array2_domain's rules; a negative norm
then gave a negative stability map (below the truth, which is >= 0).

(Copied from the referee's worktree; the direct call is now inside the refusal check, since
the fix refuses it at the call of the class already.)"""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import (
    DPError,
    MakeDomainError,
    MakeMeasurementError,
    MakeTransformationError,
)
from certdp.core.types import carrier
from certdp.numpy import (
    make_np_clamp,
    make_np_count,
    make_np_sscp,
    make_np_sum,
    make_private_np_mean,
)
from certdp.numpy.array2_domain import NPArray2Domain


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib", "floating-point")


def test_a_directly_built_domain_with_a_negative_norm_gives_no_negative_map():
    try:
        domain = NPArray2Domain(
            origin=np.array([0.0]), norm=-1.0, p=1, size=None, num_columns=1, nan=False,
            T=carrier("f64"),
        )  # fmt: skip
        value = make_np_sum(domain, dp.symmetric_distance()).map(2)
    except DPError:
        return  # refused: fine
    assert value >= 0


def test_a_direct_call_of_the_class_is_refused_even_with_valid_fields():
    with pytest.raises(MakeDomainError, match="array2_domain") as raised:
        NPArray2Domain(
            origin=np.array([0.0]), norm=1.0, p=1, size=None, num_columns=1, nan=False,
            T=carrier("f64"),
        )  # fmt: skip
    assert raised.value.parameter == "NPArray2Domain"


REFUSALS = (MakeTransformationError, MakeMeasurementError)


def _forged(**fields):
    """object.__new__ and attribute writes: no call of the class, so its check never runs."""
    genuine = dp.numpy.array2_domain(norm=1.0, p=1, num_columns=1, size=3)
    forged = object.__new__(NPArray2Domain)
    for name, value in vars(genuine).items():
        if name != "_built":
            setattr(forged, name, fields.get(name, value))
    forged._built = True  # what the metaclass marks after a real call of the class
    return forged


@pytest.mark.parametrize(
    "build",
    [
        lambda d: make_np_sum(d, dp.symmetric_distance()),
        lambda d: make_np_count(d, dp.symmetric_distance()),
        lambda d: make_np_sscp(d, dp.symmetric_distance()),
        lambda d: make_private_np_mean(d, dp.symmetric_distance(), scale=1.0),
        lambda d: make_np_clamp(d, dp.symmetric_distance(), norm=1.0, p=1),
    ],
    ids=["np_sum", "np_count", "np_sscp", "private_np_mean", "np_clamp"],
)
def test_every_numpy_constructor_refuses_a_forged_domain_and_accepts_the_genuine_one(build):
    build(dp.numpy.array2_domain(norm=1.0, p=1, num_columns=1, size=3))  # the genuine one builds
    with pytest.raises(REFUSALS, match="array2_domain") as raised:
        build(_forged(norm=-1.0))
    assert raised.value.parameter == "input_domain"
    with pytest.raises(REFUSALS, match="array2_domain"):
        build(_forged())  # even with every field valid: nothing vouches for them
