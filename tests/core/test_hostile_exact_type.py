"""Hostile exact types: a subclass whose metaclass makes the class compare and hash equal to a
builtin (or to a certdp class) must be refused like an ordinary subclass (Lemma [exact type],
core/exact_type.tex).  Copied from the session-12 typeid investigation (assertions kept): the
cases that pass since is_exact and exact_argument test types by identity, and (session 13) the
cases whose sites were converted to core.exact_type, with a few more.  NOT_YET_CONVERTED (empty
now) would list cases whose sites still test types by ``==``.
"""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.conversion import exact_argument, is_exact
from certdp.core.errors import DPError

dp.enable_features("contrib")  # the audit rows are outdated until the lead re-vets


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # again per test: another module may reset the features


def hostile(base, namespace=None):
    """A subclass of ``base`` whose metaclass makes the class ``==`` ``base``, with ``base``'s hash."""

    class Meta(type(base)):
        def __eq__(cls, other):
            return other is base or type.__eq__(cls, other)

        def __ne__(cls, other):
            return not cls.__eq__(other)

        def __hash__(cls):
            return hash(base)

    return Meta(f"Hostile{base.__name__}", (base,), dict(namespace or {}))


def ordinary(base, namespace=None):
    """A plain subclass of ``base`` (the reference: certdp refuses these by exact type)."""
    return type(f"Plain{base.__name__}", (base,), dict(namespace or {}))


# comparisons that lie: every value is "large" and never "small"
LIAR = {
    "__ge__": lambda s, o: True,
    "__gt__": lambda s, o: True,
    "__le__": lambda s, o: False,
    "__lt__": lambda s, o: False,
}


def outcome(call):
    """``("ok", value)`` or ``("error", exception class)``; an untyped exception propagates."""
    try:
        return "ok", call()
    except DPError as error:
        return "error", type(error)


# --- the shared root: core.conversion.is_exact / exact_argument (EXACT_TYPES by `in`) ---------


@pytest.mark.parametrize("base, value", [(int, 3), (float, 0.5), (str, "a")])
def test_is_exact_is_false_for_a_hostile_subclass(base, value):
    assert not is_exact(ordinary(base)(value))
    assert not is_exact(hostile(base)(value))


@pytest.mark.parametrize("base, value", [(int, 3), (float, 0.5)])
def test_exact_argument_refuses_a_hostile_number(base, value):
    with pytest.raises(DPError):
        exact_argument(ordinary(base)(value), "x")
    with pytest.raises(DPError):
        exact_argument(hostile(base)(value), "x")


# --- every public entry point that refuses an ordinary subclass must refuse the hostile one -----

F = dp.atom_domain(T=float, nan=False)
AD = dp.absolute_distance(T=float)
VI = dp.vector_domain(dp.atom_domain(T=int))
VS = dp.vector_domain(dp.atom_domain(T=str))
SD = dp.symmetric_distance()


def _laplace():
    return dp.m.make_laplace(F, AD, scale=1.0)


def _zcdp_gaussian():
    return dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(F, AD, scale=1.0))


def _quantile_scores(domain, values, kind):
    """Candidates all of ONE class ``kind`` (two hostile classes would not deduplicate)."""
    return dp.t.make_quantile_score_candidates(
        domain, SD, candidates=[kind(v) for v in values], alpha=0.5
    )


CASES = {
    # sequence arguments: `type(x) not in (list, tuple)` (label in brackets)
    "count_by_categories categories [categories-sequence]": lambda k: dp.t.make_count_by_categories(
        VS, SD, categories=k(list)(["a", "b"])
    ),
    "find_bin edges [edges-sequence]": lambda k: dp.t.make_find_bin(VI, SD, edges=k(list)([1, 5])),
    "find categories [categories-sequence]": lambda k: dp.t.make_find(
        VS, SD, categories=k(list)(["a"])
    ),
    "index categories [categories-sequence]": lambda k: dp.t.make_index(
        dp.vector_domain(dp.atom_domain(T="usize")), SD, categories=k(list)(["a", "b"]), null="z"
    ),
    "impute_uniform_float bounds [bounds-pair]": lambda k: dp.t.make_impute_uniform_float(
        dp.vector_domain(dp.atom_domain(T=float, nan=True)), SD, bounds=k(tuple)((0.0, 1.0))
    ),
    "randomized_response categories [categories-shape]": lambda k: dp.m.make_randomized_response(
        categories=k(list)(["a", "b"]), prob=0.75
    ),
    "geometric bounds [bounds-shape]": lambda k: dp.m.make_geometric(
        dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0, bounds=k(tuple)((0, 10))
    ),
    "clamp bounds (core/domains.py bounds pair)": lambda k: dp.t.make_clamp(
        VI, SD, bounds=k(tuple)((0, 10))
    ),
    "create_dataframe col_names [names-sequence]": lambda k: dp.t.make_create_dataframe(
        col_names=k(list)(["a", "b"])
    ),
    "composition measurements (make_composition.py:131)": lambda k: dp.c.make_composition(
        k(list)([_laplace(), _laplace()])
    ),
    "adaptive_composition d_mids [d-mids]": lambda k: dp.c.make_adaptive_composition(
        F, AD, dp.max_divergence(), d_in=1.0, d_mids=k(list)([1.0, 1.0])
    ),
    "private_quantile candidates (make_private_quantile.py:68/71)": lambda k: (
        dp.m.make_private_quantile(
            VI, SD, dp.max_divergence(), candidates=k(list)([1, 5, 9]), alpha=0.5, scale=1.0
        )
    ),
    "quantile_score_candidates candidates list [snapshot]": lambda k: (
        dp.t.make_quantile_score_candidates(VI, SD, candidates=k(list)([1, 5, 9]), alpha=0.5)
    ),
    # scalar arguments: is_exact's `kind in EXACT_TYPES`, then `type(x) not in (int, float, ...)`
    "laplace scale (exact_argument)": lambda k: dp.m.make_laplace(
        dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=k(float)(1.0)
    ),
    "gaussian scale (exact_argument)": lambda k: dp.m.make_gaussian(F, AD, scale=k(float)(1.0)),
    "fix_delta delta [delta-type]": lambda k: dp.c.make_fix_delta(
        _zcdp_gaussian(), delta=k(float)(1e-6)
    ),
    "pureDP_to_zCDP map d_in (core/transformation.py:60)": lambda k: dp.c.make_pureDP_to_zCDP(
        _laplace()
    ).map(k(float)(1.0)),
    "measurement.check d_out [check-d-out-type]": lambda k: _laplace().check(1.0, k(float)(2.0)),
    "quantile_score_candidates int candidates [plain-ints]": lambda k: _quantile_scores(
        VI, [1, 5], k(int)
    ),
    "quantile_score_candidates float candidates [plain-floats]": lambda k: _quantile_scores(
        dp.vector_domain(dp.atom_domain(T=float, nan=False)), [1.0, 5.0], k(float)
    ),
    # class arguments: `type(metric) in (...)`
    "identity metric (make_identity.py:36)": lambda k: dp.t.make_identity(
        VI, k(type(dp.symmetric_distance()))()
    ),
    "count_by_categories MO [mo-object]": lambda k: dp.t.make_count_by_categories(
        VS, SD, categories=["a"], MO=k(type(dp.l1_distance(T=int)))(T=dp.l1_distance(T=int).T)
    ),
    "adaptive_composition output_measure (compose.py [scalar-measure])": lambda k: (
        dp.c.make_adaptive_composition(
            F, AD, k(type(dp.max_divergence()))(), d_in=1.0, d_mids=[1.0]
        )
    ),
    "l01inf_distance metric (partition_metrics.py [inner-metric])": lambda k: dp.l01inf_distance(
        k(type(dp.absolute_distance(T=int)))(T=dp.absolute_distance(T=int).T)
    ),
    "quantiles_from_counts bin_edges (quantiles_from_counts.py:65)": lambda k: (
        dp.t.make_quantiles_from_counts(bin_edges=k(list)([0.0, 1.0, 2.0]), alphas=[0.5])
    ),
    "quantiles_from_counts alphas (quantiles_from_counts.py:83)": lambda k: (
        dp.t.make_quantiles_from_counts(bin_edges=[0.0, 1.0, 2.0], alphas=k(list)([0.5]))
    ),
    "quantiles_from_counts alpha item (quantiles_from_counts.py:89)": lambda k: (
        dp.t.make_quantiles_from_counts(bin_edges=[0.0, 1.0, 2.0], alphas=[k(float)(0.5)])
    ),
    "array2_domain p (array2_domain.py:214)": lambda k: dp.numpy.array2_domain(
        norm=1.0, p=k(int)(1), T=float
    ),
    "fully_adaptive_composition output_measure (compose.py [scalar-measure])": lambda k: (
        dp.c.make_fully_adaptive_composition(F, AD, k(type(dp.max_divergence()))())
    ),
    # cases added with the conversion (session 13), each refused by a type_is site
    "b_ary_tree input_metric [metric]": lambda k: dp.t.make_b_ary_tree(
        VI,
        k(type(dp.l1_distance(T=int)))(T=dp.l1_distance(T=int).T),
        leaf_count=4,
        branching_factor=2,
    ),
    "identity metric, numeric branch (make_identity.py [constructor])": lambda k: (
        dp.t.make_identity(
            dp.vector_domain(dp.atom_domain(T=int)),
            k(type(dp.l2_distance(T=int)))(T=dp.l2_distance(T=int).T),
        )
    ),
    "geometric bounds, list [bounds-shape]": lambda k: dp.m.make_geometric(
        dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0, bounds=k(list)([0, 10])
    ),
    "randomized_response categories, tuple [categories-shape]": lambda k: (
        dp.m.make_randomized_response(categories=k(tuple)(("a", "b")), prob=0.75)
    ),
    "find_bin edges, tuple [edges-sequence]": lambda k: dp.t.make_find_bin(
        VI, SD, edges=k(tuple)((1, 5))
    ),
}


#: Cases whose sites still test a type by ``==``: none since session 13 (every site tests the
#: class by identity, core.exact_type); every case must be refused.
NOT_YET_CONVERTED: frozenset[str] = frozenset()
FIXED = sorted(set(CASES) - NOT_YET_CONVERTED)


def test_the_not_yet_converted_cases_are_cases():
    assert NOT_YET_CONVERTED <= set(CASES)


@pytest.mark.parametrize("name", FIXED)
def test_hostile_subclass_is_refused_like_an_ordinary_one(name):
    call = CASES[name]
    reference = outcome(lambda: call(ordinary))
    assert reference[0] == "error", f"precondition of the test: {reference}"
    assert outcome(lambda: call(hostile))[0] == "error"  # a typed refusal too


# --- what goes wrong once the test is passed --------------------------------------------------


def test_quantile_score_candidates_refuses_non_increasing_hostile_candidates():
    """A hostile int whose ``<`` always holds passes the strictly-increasing bulk test with
    candidates 5, 1, 3; the plain list [5, 1, 3] is refused (wrong answer otherwise: the scores
    are not those of the proof's strictly increasing candidates)."""
    lying = hostile(int, {"__lt__": lambda s, o: True})
    with pytest.raises(DPError):
        dp.t.make_quantile_score_candidates(VI, SD, candidates=[5, 1, 3], alpha=0.5)
    with pytest.raises(DPError):
        dp.t.make_quantile_score_candidates(
            VI, SD, candidates=[lying(5), lying(1), lying(3)], alpha=0.5
        )


def test_check_is_not_true_for_a_budget_below_the_loss():
    """laplace(scale=1) at d_in=1 costs epsilon=1; ``check(1, 0.5)`` must not say True (it does
    for a hostile float 0.5 whose comparisons lie, since the exact-type test is passed)."""
    measurement = _laplace()
    assert measurement.check(1.0, 0.5) is False
    result = outcome(lambda: measurement.check(1.0, hostile(float, LIAR)(0.5)))
    assert result != ("ok", True)


def test_check_refuses_a_negative_hostile_budget():
    measurement = _laplace()
    assert outcome(lambda: measurement.check(1.0, hostile(float, LIAR)(-1.0)))[0] == "error"


@pytest.mark.parametrize("base, value", [(np.int64, 1), (np.float64, 1.0)])
def test_a_hostile_numpy_scalar_does_not_choose_its_own_value(base, value):
    """``kind in NUMPY_INTEGER_TYPES`` / ``NUMPY_BINARY64_FLOATS`` (conversion.py:101/:103) admit
    a hostile NumPy-scalar subclass and then read it with ``int()`` / ``float()``, i.e. its own
    ``__int__``/``__float__``: laplace(scale=<1 that says 99>) is built with scale 99."""
    says_99 = {"__int__": lambda s: 99, "__index__": lambda s: 99, "__float__": lambda s: 99.0}
    for kind in (ordinary, hostile):
        with pytest.raises(DPError):
            exact_argument(kind(base, says_99)(value), "x")
    with pytest.raises(DPError):
        dp.m.make_laplace(
            dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=hostile(base, says_99)(value)
        )


def test_map_domain_member_is_false_for_a_hostile_dict():
    """``MapDomain.admit`` tests ``type(value) not in MAP_TYPES`` (label ``map-type``): an
    ordinary dict subclass is not a member, the hostile one is (non-member input accepted)."""
    domain = dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int))
    assert domain.member(ordinary(dict)({"a": 1})) is False
    assert domain.member(hostile(dict)({"a": 1})) is False


# --- session 14: objects that only *claim* a class through a ``__class__`` property ----------
# (isinstance believes them; type() does not).  Each site below read such an object with
# isinstance before; an impostor must be refused with a DPError or be no impostor there.


def claiming(cls, **attributes):
    """An object whose ``__class__`` names ``cls``; the other attributes are given."""
    namespace = {"__class__": property(lambda self: cls)}
    namespace.update(attributes)
    return type("Claiming" + cls.__name__, (), namespace)()


def test_the_claiming_object_fools_isinstance_of_a_builtin_but_not_of_a_sealed_class():
    from certdp.core.partition_metrics import LInfDistance

    assert isinstance(claiming(int), int)
    # certdp's metric, domain and measure classes answer isinstance by exact type (lemma
    # "sealed" of core/domains.tex)
    assert not isinstance(claiming(LInfDistance), LInfDistance)


def _top_k_space():
    return dp.vector_domain(dp.atom_domain(T=int)), dp.linf_distance(T=int)


def test_noisy_top_k_refuses_a_k_claiming_int():
    """A k whose products are 0 would make the map 0 (below the truth)."""
    liar = claiming(
        int,
        __lt__=lambda s, o: False,
        __gt__=lambda s, o: False,
        __mul__=lambda s, o: 0,
        __rmul__=lambda s, o: 0,
        __int__=lambda s: 1,
        __index__=lambda s: 1,
    )
    domain, metric = _top_k_space()
    with pytest.raises(DPError) as caught:
        dp.m.make_noisy_top_k(domain, metric, dp.max_divergence(), k=liar, scale=1.0)
    assert caught.value.parameter == "k"


def test_noisy_top_k_refuses_a_metric_claiming_linf():
    """A monotonic impostor of linf_distance(T=int) (the real one is not) would halve the map."""
    from certdp.core.partition_metrics import LInfDistance

    real = dp.linf_distance(T=int)
    liar = claiming(LInfDistance, T=real.T, monotonic=True)
    domain, _ = _top_k_space()
    with pytest.raises(DPError) as caught:
        dp.m.make_noisy_top_k(domain, liar, dp.max_divergence(), k=1, scale=1.0)
    assert caught.value.parameter == "input_metric"
    honest = dp.m.make_noisy_top_k(domain, real, dp.max_divergence(), k=1, scale=1.0)
    assert honest.map(1) >= 2  # not monotonic: R = 2 d_in


def test_noisy_top_k_refuses_a_measure_or_domain_claiming_the_class():
    from certdp.core.domains import VectorDomain
    from certdp.core.measures import MaxDivergence

    domain, metric = _top_k_space()
    with pytest.raises(DPError):
        dp.m.make_noisy_top_k(domain, metric, claiming(MaxDivergence), k=1, scale=1.0)
    fake_domain = claiming(VectorDomain, element_domain=domain.element_domain, size=None)
    with pytest.raises(DPError):
        dp.m.make_noisy_top_k(fake_domain, metric, dp.max_divergence(), k=1, scale=1.0)


def test_chaining_an_object_claiming_transformation_is_not_a_chain():
    from certdp.core.transformation import Transformation

    t = dp.t.make_count(dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance())
    liar = claiming(
        Transformation,
        input_domain=t.output_domain,
        input_metric=t.output_metric,
        output_domain=t.output_domain,
        output_metric=t.output_metric,
        map=lambda self, d: 0,
        invoke=lambda self, x: x,
    )
    with pytest.raises(TypeError):  # declined by both sides: Python's own refusal of >>
        t >> liar


def test_the_d_in_rule_reads_the_real_metric_class():
    """validate_d_in asks for an integer d_in under a dataset metric, by exact type."""
    from certdp.core.errors import FailedMapError

    t = dp.t.make_count(dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance())
    with pytest.raises(FailedMapError):
        t.map(1.5)
