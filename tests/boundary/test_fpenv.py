"""The floating-point environment is checked before any map or function runs.

The tests leave IEEE default arithmetic on purpose, in this thread only, and restore it in a
``finally``: the rounding mode through C's ``fesetround``, flush-to-zero and
denormals-are-zero through the x86-64 MXCSR register (a three-line C helper, compiled here).
"""

import ctypes
import ctypes.util
import platform
import subprocess
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedMapError, FloatingPointEnvironmentError, MakeDomainError
from certdp.core.fpenv import ieee_environment_problems

X86 = platform.machine() in ("x86_64", "AMD64")
FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO = 0x000, 0x400, 0x800, 0xC00
FTZ, DAZ = 0x8000, 0x0040

MXCSR_C = """
#include <xmmintrin.h>
unsigned int get_mxcsr(void) { return _mm_getcsr(); }
void set_mxcsr(unsigned int value) { _mm_setcsr(value); }
"""


@pytest.fixture(scope="module")
def mxcsr(tmp_path_factory):
    if not X86:
        pytest.skip("FTZ/DAZ are set through the x86-64 MXCSR register")
    folder = tmp_path_factory.mktemp("mxcsr")
    (folder / "mxcsr.c").write_text(MXCSR_C)
    library = folder / "mxcsr.so"
    subprocess.run(
        ["cc", "-O2", "-shared", "-fPIC", "-o", str(library), str(folder / "mxcsr.c")], check=True
    )
    helper = ctypes.CDLL(str(library))
    helper.get_mxcsr.restype = ctypes.c_uint
    helper.set_mxcsr.argtypes = [ctypes.c_uint]
    return helper


@contextmanager
def mxcsr_bits(helper, bits):
    saved = helper.get_mxcsr()
    helper.set_mxcsr(saved | bits)
    try:
        yield
    finally:
        helper.set_mxcsr(saved)


@contextmanager
def rounding(mode):
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    saved = libm.fegetround()
    assert libm.fesetround(mode) == 0
    try:
        yield
    finally:
        libm.fesetround(saved)


def built():
    space = dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0)), size=3), dp.symmetric_distance()
    return space >> dp.t.then_sum(), dp.m.make_laplace(
        dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), 1.0
    )


def test_default_environment_has_no_problems():
    assert ieee_environment_problems() == []
    summed, laplace = built()
    assert summed([0.5, 0.25, 0.125]) == 0.875
    assert laplace.map(1) == 1.0


@pytest.mark.skipif(not X86, reason="the fesetround mode constants are those of x86-64")
@pytest.mark.parametrize("mode", [FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO])
def test_a_directed_rounding_mode_stops_maps_and_functions(mode):
    summed, laplace = built()
    with rounding(mode):
        problems = ieee_environment_problems()
        with pytest.raises(FloatingPointEnvironmentError, match="^environment: .*rounding mode"):
            summed.map(1)
        with pytest.raises(FloatingPointEnvironmentError):
            summed([0.5, 0.25, 0.125])
        with pytest.raises(FloatingPointEnvironmentError):
            laplace.map(1)
    assert problems == ["the rounding mode is not round-to-nearest-even"]
    assert summed.map(1) > 0  # restored


@pytest.mark.parametrize(
    "bits, expected",
    [
        (FTZ, "subnormals are flushed to zero"),
        (DAZ, "subnormals are flushed to zero"),
        (FTZ | DAZ, "subnormals are flushed to zero"),
    ],
)
def test_flush_to_zero_stops_maps_and_functions(mxcsr, bits, expected):
    summed, laplace = built()
    with mxcsr_bits(mxcsr, bits):
        problems = ieee_environment_problems()
        with pytest.raises(FloatingPointEnvironmentError, match=expected):
            summed.map(1)
        with pytest.raises(FloatingPointEnvironmentError, match=expected):
            laplace([0.5][0])
    assert any("binary64" in problem for problem in problems)
    assert any("binary32" in problem for problem in problems)
    assert ieee_environment_problems() == []


def test_the_probe_operands_are_the_numbers_fpenv_tex_names():
    from certdp.core import fpenv

    binary64 = [
        fpenv._ONE,
        fpenv._HALF_ULP,
        fpenv._THREE_QUARTER_ULP,
        fpenv._ONE_PLUS_ULP,
        fpenv._SMALLEST_NORMAL,
        fpenv._SMALLEST_SUBNORMAL,
        fpenv._TWO,
    ]
    assert all(type(operand) is float for operand in binary64)
    assert binary64 == [1.0, 2.0**-53, 3 * 2.0**-54, 1 + 2.0**-52, 2.0**-1022, 2.0**-1074, 2.0]
    assert all(type(operand) is np.float32 for operand in fpenv._F32)
    exact32 = [1, 2**-24, 3 * 2**-25, 1 + 2**-23, 2**-126, 2**-149, 2]
    assert [Fraction(float(operand)) for operand in fpenv._F32] == [
        Fraction(value) for value in exact32
    ]


@pytest.mark.skipif(not X86, reason="the fesetround mode constants are those of x86-64")
@pytest.mark.parametrize("mode", [FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO])
def test_each_format_detects_a_directed_rounding_mode_on_its_own(mode):
    from certdp.core import fpenv

    rounding64 = (fpenv._ONE, fpenv._HALF_ULP, fpenv._THREE_QUARTER_ULP, fpenv._ONE_PLUS_ULP)
    assert not fpenv._misrounds(*rounding64)
    assert not fpenv._misrounds(*fpenv._F32[:4])
    with rounding(mode):
        detected64 = fpenv._misrounds(*rounding64)
        with np.errstate(all="ignore"):
            detected32 = fpenv._misrounds(*fpenv._F32[:4])
    assert detected64 and detected32


@pytest.mark.skipif(not X86, reason="the fesetround mode constants are those of x86-64")
def test_an_f32_bound_is_not_rounded_outside_the_default_environment():
    with rounding(FE_UPWARD):
        with pytest.raises(FloatingPointEnvironmentError, match="rounding mode"):
            dp.atom_domain(bounds=(0.1, 1.0), T="f32")
    assert dp.atom_domain(bounds=(0.1, 1.0), T="f32").lower == float(np.float32(0.1))


# Construction runs the probe too (referee coreB, A2, B3, B7): domains, bounds, transformations,
# measurements and the validation of d_in compare floats, and a subnormal read as zero changes
# those comparisons.


def test_daz_refuses_bounds_it_would_misorder(mxcsr):
    with mxcsr_bits(mxcsr, DAZ):
        with pytest.raises(FloatingPointEnvironmentError, match="flushed to zero"):
            dp.atom_domain(bounds=(5e-324, 0.0), T="f64")
    with pytest.raises(MakeDomainError, match="must not exceed"):
        dp.atom_domain(bounds=(5e-324, 0.0), T="f64")


@pytest.mark.parametrize("bits", [FTZ, DAZ])
def test_a_binary32_bound_is_not_judged_under_flushing(mxcsr, bits):
    from certdp.core.domains import carrier_bound
    from certdp.core.types import carrier

    tiny = Fraction(1, 2**140)
    with mxcsr_bits(mxcsr, bits):
        with pytest.raises(FloatingPointEnvironmentError):
            carrier_bound("lower bound", tiny, carrier("f32"))
    assert carrier_bound("lower bound", tiny, carrier("f32")) == 2.0**-140


def test_domains_and_transformations_are_not_built_under_daz(mxcsr):
    summed, laplace = built()
    element = dp.atom_domain(bounds=(0.0, 1.0))
    with mxcsr_bits(mxcsr, DAZ):
        with pytest.raises(FloatingPointEnvironmentError):
            dp.vector_domain(element, size=3)
        with pytest.raises(FloatingPointEnvironmentError):
            type(summed)(element, element, abs, summed.input_metric, summed.input_metric, abs)
        with pytest.raises(FloatingPointEnvironmentError):
            type(laplace)(element, abs, laplace.input_metric, laplace.output_measure, abs)
    assert dp.vector_domain(element, size=3).size == 3


def test_a_negative_subnormal_d_in_is_not_read_as_zero(mxcsr):
    laplace = built()[1]
    with mxcsr_bits(mxcsr, DAZ):
        with pytest.raises(FloatingPointEnvironmentError):
            laplace.map(-5e-324)
        with pytest.raises(FloatingPointEnvironmentError):
            laplace.check(-5e-324, 1.0)
    with pytest.raises(FailedMapError, match="non-negative"):
        laplace.map(-5e-324)
