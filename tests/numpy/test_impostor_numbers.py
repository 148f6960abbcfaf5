"""Numbers that lie about their value are refused, never read: ``array2_domain`` and
``make_np_clamp`` test the class of ``size``, ``num_columns``, ``norm``, ``nan`` and ``origin``
by identity (Lemma [exact type], core/exact_type.tex).  With ``isinstance`` an object naming
``numpy.int64`` as its ``__class__`` whose ``__int__`` says -5 was read as the size -5, and
``make_np_sum(...).map(2)`` said -10 (found by the session-13 referee)."""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError
from certdp.numpy import make_np_clamp, make_np_sum
from certdp.numpy.array2_domain.array2_domain import array2_domain


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib", "floating-point")


def claims(cls, value):
    """An object whose ``__class__`` names ``cls`` and whose conversions and comparisons say
    ``value`` (and that it is neither negative nor NaN)."""

    class Impostor:
        __class__ = property(lambda self: cls)
        __int__ = __index__ = lambda self: int(value)

        def __float__(self):
            return float(value)

        def __bool__(self):
            return bool(value)

        __lt__ = __le__ = lambda self, other: False
        __gt__ = __ge__ = lambda self, other: True

        def __eq__(self, other):
            return other == value

        def __ne__(self, other):
            return other != value

        def __hash__(self):
            return hash(value)

    return Impostor()


IMPOSTORS = {
    "int64 -5": lambda: claims(np.int64, -5),
    "int -5": lambda: claims(int, -5),
    "float64 -5": lambda: claims(np.float64, -5.0),
    "float nan": lambda: claims(float, float("nan")),
    "bool": lambda: claims(bool, True),
}


def test_the_impostor_passes_isinstance():
    assert isinstance(claims(np.int64, -5), np.integer)
    assert isinstance(claims(float, 1.0), float)


@pytest.mark.parametrize("make", IMPOSTORS.values(), ids=IMPOSTORS.keys())
@pytest.mark.parametrize("name", ["size", "num_columns", "norm"])
def test_array2_domain_refuses_an_impostor_number(name, make):
    arguments = {"norm": 1.0, "p": 1, "size": 3, "num_columns": 2, "T": "f64"}
    arguments[name] = make()
    with pytest.raises(DPError) as caught:
        array2_domain(**arguments)
    assert caught.value.parameter == name


@pytest.mark.parametrize("make", IMPOSTORS.values(), ids=IMPOSTORS.keys())
def test_array2_domain_refuses_an_impostor_nan_or_origin(make):
    with pytest.raises(DPError) as caught:
        array2_domain(nan=make(), T="f64")
    assert caught.value.parameter == "nan"
    with pytest.raises(DPError) as caught:
        array2_domain(norm=1.0, p=1, origin=make(), num_columns=2, T="f64")
    assert caught.value.parameter == "origin"


def test_the_referee_repro_gives_no_map_below_the_truth():
    with pytest.raises(DPError):
        domain = array2_domain(norm=1.0, p=1, size=claims(np.int64, -5), num_columns=1, T="f64")
        make_np_sum(domain, dp.symmetric_distance()).map(2)
    # the honest domain's map is the truth: two changed rows of norm <= 1
    domain = array2_domain(norm=1.0, p=1, size=5, num_columns=1, T="f64")
    assert make_np_sum(domain, dp.symmetric_distance()).map(2) >= 2.0


@pytest.mark.parametrize("make", IMPOSTORS.values(), ids=IMPOSTORS.keys())
def test_np_clamp_refuses_an_impostor_norm(make):
    domain = array2_domain(num_columns=2, T="f64")
    with pytest.raises(DPError) as caught:
        make_np_clamp(domain, dp.symmetric_distance(), norm=make(), p=1)
    assert caught.value.parameter == "norm"


def test_exact_numbers_still_build():
    domain = array2_domain(
        norm=np.int64(3),
        p=np.float64(1.0),
        size=np.uint8(4),
        num_columns=2,
        nan=np.bool_(False),
        T="f64",
    )
    assert (domain.norm, domain.size, domain.num_columns, domain.nan) == (3, 4, 2, False)
    assert type(domain.size) is int and type(domain.norm) is int and type(domain.nan) is bool
    clamp = make_np_clamp(
        array2_domain(num_columns=2, T="f64"), dp.symmetric_distance(), norm=np.float64(2.0), p=2
    )
    assert clamp.output_domain.norm == 2.0 and type(clamp.output_domain.norm) is float
