"""The sampler models equal the code on scripted random bits."""

import z3
from hypothesis import given
from hypothesis import strategies as st

from certdp.samplers import smt_model
from certdp.samplers.bernoulli import bernoulli_ratio
from certdp.samplers.uniform import EntropySource


class _OutOfBits(Exception):
    pass


class ScriptedSource:
    """Hands out the given bits, then raises."""

    def __init__(self, bits):
        self.bits_ = list(bits)
        self.read = 0

    def bit(self):
        if self.read == len(self.bits_):
            raise _OutOfBits
        self.read += 1
        return self.bits_[self.read - 1]


@given(st.data())
def test_bernoulli_model_is_the_code(data):
    d = data.draw(st.integers(1, (1 << smt_model.RATIO_BITS) - 1))
    n = data.draw(st.integers(0, d))
    bits = data.draw(st.lists(st.integers(0, 1), min_size=smt_model.RANDOM_BITS,
                              max_size=smt_model.RANDOM_BITS))  # fmt: skip
    wide = smt_model._WIDE
    decided, answer, steps = smt_model.bernoulli_ratio_model(
        z3.BitVecVal(n, wide), z3.BitVecVal(d, wide), bits
    )
    source = ScriptedSource(bits)
    try:
        code = bernoulli_ratio(source, n, d)
    except _OutOfBits:
        assert z3.is_false(z3.simplify(decided))
        return
    assert z3.is_true(z3.simplify(decided))
    assert z3.is_true(z3.simplify(answer)) == code
    assert z3.simplify(steps).as_long() == source.read


@given(st.integers(1, (1 << 16) - 1))
def test_below_width_model_is_the_code(n):
    assert z3.simplify(smt_model.below_width_model(z3.BitVecVal(n, 17))).as_long() == (
        (n - 1).bit_length()
    )
    assert isinstance(EntropySource().below(n), int)
