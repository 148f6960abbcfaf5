"""domains.tex, lemma "user classes": a domain, metric or measure class certdp did not define is
built only under ``honest-but-curious`` (OpenDP 0.16's ``user_domain``, ``user_distance`` and
``user_divergence`` need it too), so a user's ``admit`` never runs on private data inside a
proven constructor unless the user said that code is trusted."""

import importlib
import inspect
import pkgutil

import pytest

import certdp
import certdp.prelude as dp
from certdp.core.frozen import _OWN, _FreezeOnBuild


class Echo(dp.Domain):
    """A user's element domain whose admit sees every private value."""

    seen = []

    def admit(self, value):
        Echo.seen.append(value)
        return value

    def _key(self):
        return ()


class Far(dp.Metric):
    def _key(self):
        return ()


class Loose(dp.Measure):
    def _key(self):
        return ()


@pytest.mark.parametrize("user_class", [Echo, Far, Loose], ids=lambda k: k.__name__)
def test_a_user_class_is_built_only_under_honest_but_curious(user_class):
    dp.enable_features("contrib", "floating-point")  # no other feature stands in for it
    with pytest.raises(dp.FeatureNotEnabledError) as refused:
        user_class()
    assert refused.value.parameter == "features"
    assert f"{user_class.__name__} is a user class" in str(refused.value)
    dp.enable_features("honest-but-curious")
    assert type(user_class()) is user_class


def test_a_user_element_domain_cannot_reach_make_identity_without_the_feature():
    """The gap it closes: make_identity over vector_domain(user domain) admits every element
    through the user's admit; without honest-but-curious the domain is never built."""
    with pytest.raises(dp.FeatureNotEnabledError):
        dp.t.make_identity(dp.vector_domain(Echo()), dp.symmetric_distance())
    dp.enable_features("honest-but-curious")
    Echo.seen.clear()
    identity = dp.t.make_identity(dp.vector_domain(Echo()), dp.symmetric_distance())
    assert identity([3, 4]) == [3, 4] and Echo.seen == [3, 4]


def test_a_subclass_made_past_the_class_statement_is_a_user_class():
    vector = type(dp.vector_domain(dp.atom_domain(T="i32")))
    made = type.__new__(type(vector), "Made", (vector,), {"__module__": __name__})
    with pytest.raises(dp.FeatureNotEnabledError, match="Made is a user class"):
        made(dp.atom_domain(T="i32"), None)


def _certdp_family_classes():
    for info in pkgutil.walk_packages(certdp.__path__, "certdp."):
        if info.name.startswith("certdp.crosscheck") or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if type(value) is _FreezeOnBuild and value.__module__.startswith("certdp."):
                yield value


def test_every_class_certdp_defines_is_its_own():
    """No certdp constructor needs honest-but-curious for its own domains, metrics, measures,
    columns and frames: every class of the family defined in the package is recorded."""
    classes = set(_certdp_family_classes())
    assert {"AtomDomain", "VectorDomain", "MaxDivergence", "NPArray2Domain"} <= {
        k.__name__ for k in classes
    }
    assert [k.__qualname__ for k in classes if id(k) not in _OWN] == []
    assert id(Echo) not in _OWN and id(Far) not in _OWN and id(Loose) not in _OWN


def test_no_way_to_an_instance_but_object_new_skips_the_feature():
    """refuser F1/F2/F5: a metaclass whose __call__ skips _FreezeOnBuild's, type.__call__,
    K.__new__(K), copy and pickle all reach Frozen.__new__ (label user-new)."""
    import copy
    import pickle

    class Skipping(type(dp.Domain)):
        def __call__(cls, *args, **kwargs):
            return type.__call__(cls, *args, **kwargs)

    class Sneaky(dp.Domain, metaclass=Skipping):
        def admit(self, value):
            return value

        def _key(self):
            return ()

    for make in (Sneaky, lambda: type.__call__(Echo), lambda: Echo.__new__(Echo)):
        with pytest.raises(dp.FeatureNotEnabledError, match="is a user class"):
            make()
    dp.enable_features("honest-but-curious")
    built, sneaky = Echo(), Sneaky()
    assert type(sneaky) is Sneaky
    dp.disable_features("honest-but-curious")
    # built under the feature, it stays usable; a copy of it is a new instance, refused
    assert dp.vector_domain(built).element_domain is built
    for copier in (copy.copy, copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))):
        with pytest.raises(dp.FeatureNotEnabledError, match="Echo is a user class"):
            copier(built)


def test_a_module_name_that_merely_begins_with_certdp_is_certdps_by_definition():
    """The definition the lemma states (refuser F3): "certdp" or a str beginning "certdp."."""
    from certdp.core.frozen import _certdp_module

    assert _certdp_module({"__module__": "certdp"})
    assert _certdp_module({"__module__": "certdp.core.domains"})
    assert not _certdp_module({"__module__": "certdpx"})
    assert not _certdp_module({"__module__": "tests.core"})
    assert not _certdp_module({})
