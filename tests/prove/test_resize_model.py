"""The make_resize model equals the code bit for bit, and a wrong map is refuted."""

import importlib
from unittest import mock

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.core.errors import ArithmeticOverflowError
from certdp.prove.engine import solve
from certdp.transformations.resize.smt_model import (
    MAX_LENGTH,
    RECORD_BITS,
    map_instance,
    map_model,
    obligations,
    resize_instance,
    resize_model,
)

# the module (the package re-exports a function under the same name)
resize_module = importlib.import_module("certdp.transformations.resize.make_resize")

_I32 = st.integers(-(2**31), 2**31 - 1)
_METRICS = {"symmetric": dp.symmetric_distance, "insert_delete": dp.insert_delete_distance}
_MO = {"symmetric": "SymmetricDistance", "insert_delete": "InsertDeleteDistance"}


def _fixed_shuffle(rotation: int, reverse: bool):
    """A fixed permutation of any list (a rotation, then maybe a reversal)."""

    def shuffle(records):
        records = list(records)
        if records:
            k = rotation % len(records)
            records = records[k:] + records[:k]
        return records[::-1] if reverse else records

    return shuffle


def _symbolic(values):
    return [z3.BitVecVal(v, 32) for v in values]


def _concrete(terms):
    return [z3.simplify(t).as_signed_long() for t in terms]


@given(
    st.lists(_I32, max_size=10),
    st.integers(1, 8),
    _I32,
    st.sampled_from(list(_METRICS)),
    st.sampled_from(list(_METRICS)),
    st.integers(0, 20),
    st.booleans(),
)
def test_resize_model_is_the_code(data, size, constant, metric_in, metric_out, rotation, reverse):
    shuffle = _fixed_shuffle(rotation, reverse)
    built = dp.t.make_resize(
        dp.vector_domain(dp.atom_domain(T="i32")), _METRICS[metric_in](), size, constant,
        MO=_MO[metric_out],
    )  # fmt: skip
    with mock.patch.object(resize_module, "shuffled", shuffle):
        code = built.function(data)
        unshuffled = resize_module.resized(data, size, constant, False, False)
    padded = metric_out == "insert_delete" and metric_in == "symmetric"
    truncated = metric_in == "symmetric"
    model = resize_model(_symbolic(data), size, z3.BitVecVal(constant, 32), padded, truncated,
                         shuffle)  # fmt: skip
    assert type(code) is list and _concrete(model) == code
    plain = resize_model(_symbolic(data), size, z3.BitVecVal(constant, 32), False, False)
    assert _concrete(plain) == unshuffled


@given(st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([0, 2**31 - 1, 2**31, 2**32 - 1])))
def test_map_model_is_the_code(d_in):
    built = dp.t.make_resize(
        dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 3, 0
    )
    raises, value = (z3.simplify(t) for t in map_model(z3.BitVecVal(d_in, 32)))
    if z3.is_true(raises):
        with pytest.raises(ArithmeticOverflowError):
            built.map(d_in)
    else:
        assert z3.is_false(raises)
        assert built.map(d_in) == value.as_long() == 2 * d_in


def _insert_delete(a, b):
    """The insert-delete distance of two sequences: |a| + |b| - 2 LCS."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, p in enumerate(a):
        for j, q in enumerate(b):
            table[i + 1][j + 1] = (
                table[i][j] + 1 if p == q else max(table[i][j + 1], table[i + 1][j])
            )
    return len(a) + len(b) - 2 * table[-1][-1]


def test_wrong_map_is_refuted_with_the_codes_outputs():
    for size in (1, 3):
        outcome = solve(resize_instance("insert_delete", "insert_delete", size, lambda d: d), 60)
        assert outcome["status"] == "counterexample", outcome
        example = outcome["example"]
        y, y_prime = example["y"], example["y_prime"]
        assert len(y_prime) == len(y) + 1 <= MAX_LENGTH
        assert all(0 <= v < 2**RECORD_BITS for v in y + y_prime)
        built = dp.t.make_resize(
            dp.vector_domain(dp.atom_domain(T="i32")), dp.insert_delete_distance(), size,
            int(example["constant"]), MO="InsertDeleteDistance",
        )  # fmt: skip
        assert _insert_delete(y, y_prime) == 1
        outputs = built.function(y), built.function(y_prime)
        assert _insert_delete(*outputs) > 1  # the wrong map's value at d_in = 1


def test_wrong_map_is_refuted_for_the_couplings_and_the_arithmetic():
    for metric_out in ("symmetric", "insert_delete"):
        outcome = solve(resize_instance("symmetric", metric_out, 2, lambda d: d), 60)
        assert outcome["status"] == "counterexample", outcome
    assert solve(map_instance(lambda d: d), 60)["status"] == "counterexample"


def test_resize_obligations_are_proved():
    found = obligations(["make_resize"])
    assert len(found) == 18 and obligations(["make_count"]) == []
    for obligation in found:
        if "size=4" in obligation.claim or "size=2" in obligation.claim:
            assert solve(obligation, 60)["status"] == "proved", obligation.claim
