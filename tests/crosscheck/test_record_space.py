"""The record-space search (make_np_sscp's twin): stress pairs are members, a map below the
witnessed distance is found, and an output outside the output domain is reported."""

import numpy as np

import certdp.prelude as dp
from certdp.crosscheck.record_space import search_record_space, stress_pairs


def _built(**domain):
    dp.enable_features("contrib")
    space = dp.numpy.array2_domain(nan=False, num_columns=3, **domain), dp.symmetric_distance()
    return dp.numpy.make_np_sscp(*space), space


def test_stress_pairs_are_members_and_one_record_apart():
    for domain in ({"T": "f64"}, {"T": "f32", "norm": 1.0, "p": 2}, {"T": "f64", "size": 4}):
        _, (input_domain, metric) = _built(**domain)
        pairs = list(stress_pairs(input_domain))
        assert pairs
        for x, x_prime in pairs:
            assert input_domain.member(x) and input_domain.member(x_prime)
            assert metric.distance(x, x_prime) in (1, 2)


def test_certdp_itself_passes():
    built, space = _built(T="f64")
    result = search_record_space(built, space, quick=True, oracle=built)
    assert result.pairs > 0 and result.found is None


class _Halved:
    """certdp's transformation with half its map."""

    def __init__(self, built):
        self.built, self.output_domain = built, built.output_domain
        self.input_domain = built.input_domain

    def __call__(self, x):
        return self.built(x)

    def map(self, d_in):
        return d_in // 2


class _Asymmetric(_Halved):
    """certdp's function with one off-diagonal entry changed, and its true map."""

    def __call__(self, x):
        y = self.built(x).copy()
        if y.shape[0] > 1:
            y[0, 1] = 7.0
        return y

    def map(self, d_in):
        return d_in


def test_a_halved_map_is_found():
    built, space = _built(T="f64")
    result = search_record_space(_Halved(built), space, quick=True, oracle=built)
    assert result.found is not None and not result.found.outside
    assert result.found.d_in > result.found.claimed


def test_an_output_outside_the_domain_is_reported():
    built, space = _built(T="f64")
    result = search_record_space(_Asymmetric(built), space, quick=True, oracle=built)
    assert result.found is not None and "output domain" in result.found.outside
    assert isinstance(result.found.x, np.ndarray)
