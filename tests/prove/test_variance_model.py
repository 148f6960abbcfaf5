"""The make_variance model: every instance is proved, and an edited copy of the code whose map
leaves out the rounding of the product ``c * clamp(ssd)`` is refuted."""

import certdp.prelude as dp
from certdp.prove.engine import solve
from certdp.transformations.variance.smt_model import CASES, variance_instance

from .edited import prove_edited


def test_every_instance_is_proved():
    dp.enable_features("contrib")
    for case in CASES:
        outcome = solve(variance_instance(*case), 60)
        assert outcome["status"] == "proved", outcome


def test_leaving_out_the_rounding_of_the_product_is_refuted(tmp_path):
    edits = {
        "transformations/variance/make_variance.py": [
            (
                "return inf_add(inf_mul(reciprocal, d_ssd, T), rounding, T)",
                "return inf_mul(reciprocal, d_ssd, T)",
            )
        ]
    }
    summary = prove_edited(tmp_path, "make_variance", edits, select="f64 size=2 ddof=1")
    assert summary["status"] == "counterexample", summary
    example = summary["counterexamples"][0]["example"]
    assert {"d_in", "map", "v", "v'"} <= set(example)
