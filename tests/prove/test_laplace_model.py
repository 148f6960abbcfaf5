"""The grid-index models (bit-vector and integer) equal ``nearest_grid_index`` on random
floats and exponents, and the relaxation the proof uses is the code's for every ``k``."""

import struct
from fractions import Fraction

import numpy as np
import z3
from hypothesis import given
from hypothesis import strategies as st

from certdp.measurements._laplace import smt_model
from certdp.measurements._laplace.discretization import K_MAX, K_MIN
from certdp.samplers.discrete_laplace_z2k import nearest_grid_index


@given(
    T=st.sampled_from(["f64", "f32"]),
    bits=st.integers(0, 2**64 - 1),
    k=st.integers(K_MIN["f64"], K_MAX["f64"]),
)
def test_grid_index_models_are_the_code(T, bits, k):
    if T == "f32":
        bits &= 2**32 - 1
        x = float(np.frombuffer(struct.pack("<I", bits), dtype=np.float32)[0])
        k = max(k, K_MIN["f32"])
    else:
        x = struct.unpack("<d", struct.pack("<Q", bits))[0]
    if x != x or x in (float("inf"), float("-inf")):
        return
    width = 64 if T == "f64" else 32
    scaled = z3.simplify(smt_model.scaled_value(z3.BitVecVal(bits, width), T)).as_signed_long()
    assert Fraction(scaled, 1 << 1074) == Fraction(x)  # the encoding is the exact value
    j = k + 1074
    bit_model = smt_model.grid_index_model(
        z3.BitVecVal(scaled, smt_model.WIDTH), z3.BitVecVal(j, smt_model.WIDTH)
    )
    integer_model = z3.simplify(smt_model.grid_index_integer(z3.IntVal(scaled), j))
    expected = nearest_grid_index(x, k)
    assert z3.simplify(bit_model).as_signed_long() == expected
    assert integer_model.as_long() == expected


def test_relaxation_is_the_code_for_every_k():
    assert smt_model._relaxations_match_code("f64") is None
    assert smt_model._relaxations_match_code("f32") is None


def test_the_real_laplace_maps_are_proved_at_every_instance():
    import certdp.prelude as dp
    from certdp.measurements._laplace import smt_model as model
    from certdp.prove.engine import solve

    dp.enable_features("contrib")
    for name in model._MEASUREMENTS:
        for case in model._code_cases(name):
            assert solve(model.code_instance(name, *case), 60)["status"] == "proved", case


def test_a_laplace_map_over_twice_the_scale_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "measurements/_laplace/laplace_map.py": [
            ("lambda distance: distance / scale)", "lambda distance: distance / (2 * scale))")
        ]
    }
    name = "make_vector_float_laplace_cks20"
    summary = prove_edited(tmp_path, name, edit, select=f"real {name} f64 vector len 2")
    assert summary["status"] == "counterexample", summary


def test_the_integer_laplace_maps_are_checked_under_float_distances():
    from certdp.measurements._laplace import smt_model as model

    for name in ("make_integer_laplace", "make_vector_integer_laplace"):
        distances = {case[3] for case in model._code_cases(name)}
        assert {"f64", "f32"} <= distances, name


def test_a_map_that_drops_a_fractional_d_in_below_its_floor_is_refuted(tmp_path):
    """Over integers a d_in of 1.5 admits neighbours at distance 1: a map of (d_in - 1)/scale
    for a fractional d_in is unsound, and the float-distance instances refute it."""
    from .edited import prove_edited

    edit = {
        "measurements/_laplace/laplace_map.py": [
            (
                "lambda distance: distance / scale)",
                "lambda distance: (distance if distance.denominator == 1 else distance - 1)"
                " / scale)",
            )
        ]
    }
    name = "make_integer_laplace"
    summary = prove_edited(tmp_path, name, edit, select=f"real {name} i32 distance f64 atom")
    assert summary["status"] == "counterexample", summary
