"""The SMT models of make_laplace_threshold and make_gaussian_threshold: each closeness encoding
is its metric's on concrete pairs, the obligations are proved on the real code, and edits of the
code that shrink delta or the loss (epsilon, rho) are refuted with a pair."""

from __future__ import annotations

import importlib

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.prove.engine import solve

from .edited import prove_edited

#: name -> (the metric its closeness encodes, the partition norm read by the no-change test)
RELEASES = {
    "make_laplace_threshold": (dp.l01inf_distance(dp.absolute_distance(T="i32")), "l1"),
    "make_gaussian_threshold": (dp.l02inf_distance(dp.absolute_distance(T="i32")), "linf"),
}


def _model(name):
    return importlib.import_module(f"certdp.measurements.{name[len('make_') :]}.smt_model")


def _file(name):
    return f"measurements/{name[len('make_') :]}/{name}.py"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _substitute(keys, x, y, names):
    pairs = []
    for index, key in enumerate(keys):
        name = names[index]
        pairs += [
            (key["on_x"], z3.BoolVal(name in x)),
            (key["on_y"], z3.BoolVal(name in y)),
            (key["x"], z3.IntVal(x.get(name, 0))),
            (key["y"], z3.IntVal(y.get(name, 0))),
        ]
    return pairs


@pytest.mark.parametrize("name", RELEASES)
def test_the_closeness_encoding_is_the_metric(name):
    model = _model(name)
    names = [str(k) for k in range(model.KEYS)]
    metric = RELEASES[name][0]
    maps = st.dictionaries(st.sampled_from(names), st.integers(-20, 20), max_size=model.KEYS)
    triples = st.tuples(st.integers(0, 4), st.integers(0, 30), st.integers(0, 12))

    @given(x=maps, y=maps, d_in=triples)
    def check(x, y, d_in):
        keys = model.pair_variables()
        formula = z3.substitute(model.close(keys, d_in), *_substitute(keys, x, y, names))
        assert z3.is_true(z3.simplify(formula)) == metric.close(x, y, d_in)

    check()


@pytest.mark.parametrize("name", RELEASES)
def test_the_obligations_are_proved_on_the_real_code(name):
    for threshold in (-3, 5):
        assert solve(_model(name).code_instance(1.0, threshold), 60)["status"] == "proved"


@pytest.mark.parametrize("name", RELEASES)
def test_a_map_stating_opendps_tail_is_refuted(tmp_path, name):
    """OpenDP #2922's off-by-one: the tail starting one step further from the threshold."""
    edit = ("reach = abs(threshold)  # label: reach", "reach = abs(threshold) + 1  # label: reach")
    summary = prove_edited(tmp_path, name, {_file(name): [edit]}, select="scale=1.0")
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize("name", RELEASES)
def test_a_map_ignoring_lone_zero_keys_is_refuted(tmp_path, name):
    """OpenDP's (0, 0) whenever the partition norm is 0, even with keys on one side only."""
    norm = RELEASES[name][1]
    edit = ("if l0 == 0:  # label: no-change", f"if {norm} == 0:  # label: no-change")
    summary = prove_edited(tmp_path, name, {_file(name): [edit]}, select="scale=1.0")
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize("name", RELEASES)
def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path, name):
    summary = prove_edited(tmp_path, name, {}, select="scale=1.0")
    assert summary["status"] == "proved", summary


def test_a_gaussian_map_using_l2_unsquared_is_refuted(tmp_path):
    """rho from l2' instead of its square: too small when l2' > 1 (the shared keys move)."""
    edit = (
        "exact_rho = Fraction(squared) / (2 * scale * scale)",
        "exact_rho = Fraction(math.isqrt(squared)) / (2 * scale * scale)",
    )
    name = "make_gaussian_threshold"
    summary = prove_edited(tmp_path, name, {_file(name): [edit]}, select="scale=1.0")
    assert summary["status"] == "counterexample", summary


FLOAT_RELEASE = "measurements/_threshold/float_release.py"
NO_RELAXATION = (
    "grid_lp = (lp + relaxation * root_up(l0, p)) / unit  # label: grid-lp",
    "grid_lp = lp / unit  # label: grid-lp",
)


@pytest.mark.parametrize("name", RELEASES)
def test_float_grid_without_the_rounding_slack_is_refuted(name, tmp_path):
    """Dropping the slack that rounding to the grid adds to lp lets a pair of float values
    that round apart (0.4 and 0.6 at k = 0) move further than the stated loss covers."""
    summary = prove_edited(tmp_path, name, {FLOAT_RELEASE: [NO_RELAXATION]}, select="f32 k=0 ")
    assert summary["status"] == "counterexample", summary


def test_float_threshold_index_one_too_high_is_refuted(tmp_path):
    edit = (
        "grid_threshold = nearest_grid_index(float(threshold), k)  # label: grid-threshold",
        "grid_threshold = nearest_grid_index(float(threshold), k) + 1  # label: grid-threshold",
    )
    summary = prove_edited(
        tmp_path, "make_laplace_threshold", {FLOAT_RELEASE: [edit]}, select="f32 k=-2 "
    )
    assert summary["status"] == "counterexample", summary


def test_float_instances_are_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_laplace_threshold", {}, select="f32")
    assert summary["status"] == "proved", summary


DOUBLED_GRID_SCALE = (
    "grid_map = integer_map(grid_scale, index)  # label: grid-map",
    "grid_map = integer_map(2 * grid_scale, index)  # label: grid-map",
)


@pytest.mark.parametrize("name", RELEASES)
def test_the_shared_float_branch_with_a_doubled_grid_scale_is_refuted(name, tmp_path):
    """Both constructors run one float branch (float_threshold_measurement): a map built for
    twice the grid scale of the noise states half the epsilon (a quarter of the rho), which
    each constructor's float instances refute with a pair whose shared keys move further."""
    summary = prove_edited(tmp_path, name, {FLOAT_RELEASE: [DOUBLED_GRID_SCALE]}, select="f32 k=0 ")
    assert summary["status"] == "counterexample", summary
