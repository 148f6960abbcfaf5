"""The model of make_private_quantile takes the map from the code: an edit that samples with the
noise scale sigma but states the map of 2 sigma is refuted; the unedited code is proved.  The
model's bound, computed from the arguments, agrees with the code's map at every instance."""

import math
from fractions import Fraction

from certdp.measurements.private_quantile import smt_model

from .edited import prove_edited

FILE = "measurements/private_quantile/make_private_quantile.py"
SELECT = "f64 size=None symmetric pure alpha=0.5"


def test_a_map_claiming_twice_the_noise_is_refuted(tmp_path):
    old = "        *scores.output_space, output_measure, noise_scale, negate=True\n    )\n"
    new = old + (
        "    selected._map = (scores >> make_noisy_max(*scores.output_space, output_measure,"
        " 2 * noise_scale, negate=True)).map\n"
    )
    summary = prove_edited(tmp_path, "make_private_quantile", {FILE: [(old, new)]}, select=SELECT)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_private_quantile", {}, select=SELECT)
    assert summary["status"] == "proved", summary


def test_the_codes_map_is_the_least_float_at_or_above_the_models_bound():
    import certdp.prelude as dp

    dp.enable_features("contrib")
    for case in smt_model.INSTANCES:
        built = smt_model._build(*case)
        T, size, _, zcdp, alpha, scale = case
        for d_in in (0, 1, 2, 3, 10):
            stated = built.map(d_in)
            bound = smt_model.composed_bound(size, zcdp, alpha, scale, d_in)
            if bound == math.inf:
                assert stated == math.inf
                continue
            assert Fraction(stated) >= bound
            assert stated == 0.0 or Fraction(math.nextafter(stated, 0.0)) < bound
