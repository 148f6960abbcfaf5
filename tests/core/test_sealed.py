"""Concrete domain, metric and measure classes are sealed (core/frozen.py, domains.tex lemma
"sealed"): a subclass is refused when its class statement runs, and ``isinstance`` against a
sealed class is the exact-type test, so a subclass made past the refusal or an object whose
``__class__`` names the class is not taken for it by a proven constructor."""

import pytest

import certdp.prelude as dp
from certdp.core.domains import AtomDomain, Domain, VectorDomain
from certdp.core.errors import DPError
from certdp.core.frozen import SealedClassError, _FreezeOnBuild
from certdp.core.map_domain import MapDomain
from certdp.core.measures import MaxDivergence, Measure, ZeroConcentratedDivergence
from certdp.core.metrics import AbsoluteDistance, L1Distance, Metric, SymmetricDistance
from certdp.core.option_domain import OptionDomain

SEALED = [
    AtomDomain,
    VectorDomain,
    OptionDomain,
    MapDomain,
    SymmetricDistance,
    AbsoluteDistance,
    L1Distance,
    MaxDivergence,
    ZeroConcentratedDivergence,
]


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _pipeline(domain):
    return (
        dp.t.make_clamp(domain, dp.symmetric_distance(), bounds=(0.0, 1.0))
        >> dp.t.then_sum()
        >> dp.m.then_laplace(scale=1.0)
    )


@pytest.mark.parametrize("sealed", SEALED, ids=lambda c: c.__name__)
def test_a_class_statement_deriving_from_a_sealed_class_is_refused(sealed):
    with pytest.raises(SealedClassError, match=f"{sealed.__name__} is sealed") as error:

        class Sub(sealed):
            pass

    assert isinstance(error.value, DPError) and error.value.parameter == "Sub"


def test_the_reproducer_is_refused_at_the_class_statement():
    with pytest.raises(SealedClassError):

        class Amplify(VectorDomain):
            def admit(self, x, **k):
                return VectorDomain.admit(self, x, **k) * 1000


def _smuggled_vector_domain_class():
    """A VectorDomain subclass made past the class-statement refusal: its metaclass creates
    the class with ``type.__new__`` directly."""

    class Meta(_FreezeOnBuild):
        def __new__(mcls, name, bases, namespace, **kwargs):
            return type.__new__(mcls, name, bases, namespace)

        def __init__(cls, *args, **kwargs):
            pass

    def admit(self, x, **k):
        return VectorDomain.admit(self, x, **k) * 1000

    return Meta("Amplify", (VectorDomain,), {"admit": admit})


def test_a_smuggled_subclass_is_no_vector_domain_and_the_constructor_refuses_it():
    Amplify = _smuggled_vector_domain_class()
    assert VectorDomain in Amplify.__mro__  # it really derives from VectorDomain
    with pytest.raises(dp.FeatureNotEnabledError, match="Amplify is a user class"):
        Amplify(dp.atom_domain(T=float, nan=False), None)  # lemma "user classes"
    dp.enable_features("honest-but-curious")  # trusted by the user, still not a VectorDomain
    domain = Amplify(dp.atom_domain(T=float, nan=False), None)
    assert not isinstance(domain, VectorDomain)
    assert not issubclass(Amplify, VectorDomain)
    assert isinstance(domain, Domain)  # the open base still takes it (a user domain)
    with pytest.raises(dp.MakeTransformationError) as error:
        _pipeline(domain)
    assert error.value.parameter == "input_domain"


def test_a_shim_that_swallows_init_subclass_does_not_unseal():
    class Shim:
        def __init_subclass__(cls, **kwargs):
            pass

    with pytest.raises(SealedClassError):

        class Amplify(Shim, VectorDomain):
            pass


def test_an_object_naming_the_class_through_dunder_class_is_not_an_instance():
    real = dp.vector_domain(dp.atom_domain(T=float, nan=False))

    class Impostor:
        __class__ = property(lambda self: VectorDomain)
        element_domain = real.element_domain
        size = None

        def admit(self, x, **k):
            return real.admit(x, **k) * 1000

    impostor = Impostor()
    assert impostor.__class__ is VectorDomain
    assert not isinstance(impostor, VectorDomain)
    with pytest.raises(dp.DPError) as error:
        _pipeline(impostor)
    assert error.value.parameter == "input_domain"


def test_smuggled_metric_and_measure_subclasses_are_refused_by_constructors():
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    class Meta(_FreezeOnBuild):
        def __new__(mcls, name, bases, namespace, **kwargs):
            return type.__new__(mcls, name, bases, namespace)

        def __init__(cls, *args, **kwargs):
            pass

    Sym = Meta("Sym", (SymmetricDistance,), {})
    assert not isinstance(Sym(), SymmetricDistance)
    domain = dp.vector_domain(dp.atom_domain(T=float, nan=False))
    with pytest.raises(dp.MakeTransformationError) as error:
        dp.t.make_clamp(domain, Sym(), bounds=(0.0, 1.0))
    assert error.value.parameter == "input_metric"
    Pure = Meta("Pure", (MaxDivergence,), {})
    assert not isinstance(Pure(), MaxDivergence)
    assert not isinstance(Pure(), ZeroConcentratedDivergence)


def test_certdp_classes_and_open_bases_keep_their_relations():
    assert isinstance(dp.atom_domain(T=float), AtomDomain)
    assert isinstance(dp.atom_domain(T=float), Domain)
    assert isinstance(dp.absolute_distance(T=float), Metric)
    assert isinstance(dp.max_divergence(), Measure)
    assert issubclass(AbsoluteDistance, Metric) and not issubclass(AtomDomain, VectorDomain)
    assert not isinstance(dp.atom_domain(T=float), VectorDomain)


def test_a_user_domain_from_the_open_base_still_works_with_user_transformation():
    dp.enable_features("honest-but-curious")

    class Texts(Domain, sealed=False):  # a user class is open to subclasses only if it says so
        def admit(self, value):
            return value

        def _key(self):
            return ()

    class Deeper(Texts):
        pass

    assert isinstance(Deeper(), Texts)
    t = dp.t.make_user_transformation(
        Texts(), dp.symmetric_distance(), Texts(), dp.symmetric_distance(), len, lambda d: d
    )
    assert t(["a", "b"]) == 2 and t.map(3) == 3
