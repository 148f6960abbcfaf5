"""``dp.t``, ``dp.m`` and ``dp.c`` answer the prelude's names as OpenDP 0.16's modules do."""

import pytest

import certdp.prelude as dp

try:
    import opendp.prelude as odp
except ImportError:  # pragma: no cover - OpenDP is a dev extra
    odp = None


@pytest.mark.parametrize("namespace", ["t", "m", "c"])
def test_prelude_names_are_the_preludes_objects(namespace):
    module = getattr(dp, namespace)
    for name in (
        "symmetric_distance",
        "atom_domain",
        "vector_domain",
        "Transformation",
        "Measurement",
        "max_divergence",
        "i32",
        "f64",
        "enable_features",
    ):
        assert getattr(module, name) is getattr(dp, name), (namespace, name)
    assert module.symmetric_distance() == dp.symmetric_distance()


@pytest.mark.parametrize("namespace", ["t", "m", "c"])
@pytest.mark.parametrize("name", ["t", "numpy", "examples", "_private", "no_such_name"])
def test_other_names_are_attribute_errors(namespace, name):
    with pytest.raises(AttributeError, match=name):
        getattr(getattr(dp, namespace), name)


@pytest.mark.skipif(odp is None, reason="OpenDP is not installed")
@pytest.mark.parametrize("namespace", ["t", "m", "c"])
def test_every_name_opendp_carries_and_the_prelude_has_is_reachable(namespace):
    ours, theirs = getattr(dp, namespace), getattr(odp, namespace)
    shared = [n for n in dir(theirs) if not n.startswith("_") and n in dp.__all__]
    assert len(shared) > 40
    unreachable = [n for n in shared if not hasattr(ours, n)]
    assert unreachable == []


def test_opendp_docs_form_runs():
    dp.enable_features("contrib")
    sum_ = dp.t.make_sum(
        dp.t.vector_domain(dp.t.atom_domain(bounds=(0, 10))), dp.t.symmetric_distance()
    )
    assert sum_.map(1) == 10
