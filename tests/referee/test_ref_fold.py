"""Referee ref-fold (session 12): counterexamples against the shared lemmas threshold_release
and count_type, kept as regression tests after branch foldfix fixed them.

Each test asserts the correct behaviour; each failed before the fix: count's float map named
``inf_cast`` instead of ``d_in``, count's type error named ``T`` as well as ``TO``, and
``threshold_arguments`` read a long double scale through binary64 (rounding it down, or calling
a finite one beyond the binary64 range infinite).
"""

from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, MakeMeasurementError

dp.enable_features("contrib")


def _vector_i32():
    return dp.vector_domain(dp.atom_domain(T="i32"))


@pytest.mark.parametrize("ctor", ["make_count", "make_count_distinct"])
def test_count_map_float_overflow_names_d_in(ctor):
    """count_type.py ``count_map``: for TO=f32 and d_in = 2**128 (above the f32 range) the map
    raises ArithmeticOverflowError with ``parameter == 'inf_cast'`` (the helper's name), while
    the integer branch of the same map names ``d_in``. The rule (a typed error naming the
    parameter) and Lemma [count map] ("raises if d_in exceeds the range of TO") call for
    ``d_in``; the message also speaks of ``inf_cast: value = ...``, not of the distance."""
    t = getattr(dp.t, ctor)(_vector_i32(), dp.symmetric_distance(), TO="f32")
    with pytest.raises(DPError) as info:
        t.map(2**128)
    assert info.value.parameter == "d_in"


def test_count_type_message_names_only_TO():
    """count_type.py ``count_type``: ``str(error)`` of carrier's error is re-raised under
    ``TO``, so the message reads ``TO: T: unknown carrier type 'garbage'`` -- it names a
    parameter ``T`` that make_count/make_count_distinct do not have."""
    with pytest.raises(DPError) as info:
        dp.t.make_count(_vector_i32(), dp.symmetric_distance(), TO="garbage")
    assert info.value.parameter == "TO"
    assert not str(info.value).startswith("TO: T:"), str(info.value)


def _threshold_args():
    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    metric = dp.l01inf_distance(dp.absolute_distance(T="i32"))
    return domain, metric


def test_threshold_arguments_scale_is_exact_for_long_double():
    """threshold_release.tex, Lemma [threshold arguments] item 3: "then b is its exact rational
    value". For ``scale = np.longdouble(1) + eps`` (exactly 1 + 2**-63 on x86-64) exact_scale
    passes it through ``float()`` and returns Fraction(1): b is the scale rounded DOWN to
    binary64, not its exact value. Correct: the exact value, or a typed refusal. (Through the
    constructor the boundary, core/conversion.py ``_exact_longdouble``, already turns a long
    double into its exact Fraction, so make_laplace_threshold is not affected: the lemma as
    stated for a direct call is what is wrong. Low severity.)"""
    from certdp.measurements._threshold import threshold_arguments

    scale = np.longdouble(1) + np.finfo(np.longdouble).eps
    exact = Fraction(*scale.as_integer_ratio())
    if exact == 1:
        pytest.skip("long double is binary64 on this platform")
    domain, metric = _threshold_args()
    try:
        _, b = threshold_arguments(domain, metric, scale, 5, None, 1)
    except MakeMeasurementError:
        return  # a typed refusal is also acceptable
    assert b == exact, f"b = {b}, exact scale = {exact}"


def test_threshold_arguments_finite_long_double_not_called_infinite():
    """threshold_release.tex item 3 / _laplace exact_scale: a FINITE ``np.longdouble('1e400')``
    is refused with "must be finite, got np.longdouble('1e+400')" (math.isinf converts it to a
    binary64 infinity first -- the very pitfall floats.tex warns about). It should be refused
    for its size (the 1075-bit rule), as the constructor's boundary path does. Direct call
    only; low severity, message only."""
    from certdp.measurements._threshold import threshold_arguments

    scale = np.longdouble("1e400")
    if not np.isfinite(scale):
        pytest.skip("long double is binary64 on this platform")
    domain, metric = _threshold_args()
    with pytest.raises(MakeMeasurementError) as info:
        threshold_arguments(domain, metric, scale, 5, None, 1)
    assert "finite" not in str(info.value), str(info.value)
