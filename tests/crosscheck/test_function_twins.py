"""Postprocessor twins (kind "function"): outputs are compared input by input; a target whose
Function returns other numbers is a violation, a one-sided refusal only a note."""

from certdp.core.postprocess import Function
from certdp.crosscheck.findings import VIOLATION, TwinResult
from certdp.crosscheck.run import _build_oracle, _compare_outputs
from certdp.crosscheck.twins import TWINS


def _run(name, target):
    twin = TWINS[name]
    point = twin.points(True)[0]
    oracle, refusal = _build_oracle(point.oracle_code)
    assert oracle is not None, refusal
    result = TwinResult(name)
    _compare_outputs(twin, point, result, target(oracle), oracle, refusal)
    return result


def test_the_same_function_agrees_on_every_input():
    for name in ("make_cdf", "make_consistent_b_ary_tree", "make_quantiles_from_counts"):
        result = _run(name, lambda oracle: oracle)
        assert result.findings == [] and result.pairs == len(TWINS[name].points(True)[0].inputs)


def test_a_function_one_ulp_off_is_a_violation():
    def shifted(oracle):
        return Function(lambda arg: [v * (1 + 2**-52) + 0.0 for v in oracle(arg)], "Vec<f64>")

    result = _run("make_cdf", shifted)
    (finding,) = result.findings
    assert finding.severity == VIOLATION and finding.check == "outputs"


def test_a_one_sided_refusal_is_a_note_not_a_finding():
    def refusing(oracle):
        def refuse(arg):
            raise ValueError("no")

        return refuse

    result = _run("make_cdf", refusing)
    assert result.findings == [] and result.pairs == 0 and result.notes
