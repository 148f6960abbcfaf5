"""Objects that cannot be changed once built: the base of domains, metrics and measures.

Guarantee (domains.tex, lemma "frozen"): once the constructor call of a :class:`Frozen` class
returns, setting or deleting any attribute of the instance raises the class's
``frozen_error`` (a :class:`DPError`), so every later read sees the values the constructor
stored.  Only ``object.__setattr__`` called directly (outside the hypothesis) bypasses it.

Guarantee (domains.tex, lemma "sealed"): a class of this family is *sealed* unless it was
created with ``sealed=False`` (the abstract bases ``Frozen``, ``Domain``, ``Metric``,
``Measure``); ``isinstance(x, C)`` for a sealed ``C`` is true exactly when ``type(x) is C``, and
``issubclass(K, C)`` exactly when ``K is C``: neither a subclass (however it was made) nor an
object whose ``__class__`` names ``C`` passes, so a proven constructor's ``isinstance`` test
admits only certdp's own class, whose methods the proofs read.  Subclassing a sealed class is
refused when the class statement runs (:class:`SealedClassError`).

Guarantee (domains.tex, lemma "user classes"): making an instance of a class of this family
that certdp did not define (a user's domain, metric or measure, derived from an open base) --
by its class call, ``type.__call__``, ``K.__new__(K)``, a copy or an unpickling -- requires the
feature ``"honest-but-curious"``, as OpenDP 0.16's ``user_domain``, ``user_distance`` and
``user_divergence`` do: its methods are the user's, run on private data by any constructor that
admits through it.  Only a direct ``object.__new__`` (outside the hypothesis) gets past.
"""

from __future__ import annotations

from .errors import DPError
from .features import assert_features

__all__ = ["Frozen", "SealedClassError"]


# proof: begin frozen
class SealedClassError(DPError, TypeError):
    """A class statement names a sealed certdp class as a base."""


#: ``id`` of every class created with ``sealed=False`` -> the class (kept alive, so no id is
#: reused); keys are integers, so no class's ``__eq__`` or ``__hash__`` is ever asked.
_OPEN: dict = {}

#: ``id`` of every class of the family made from a namespace whose ``__module__`` names certdp
#: (``_certdp_module``) -> the class (kept alive, as above).
_OWN: dict = {}


def _certdp_module(namespace) -> bool:
    """Is the namespace's ``__module__`` entry (Python puts the defining module's name in every
    class body's namespace) the str ``"certdp"`` or a str beginning ``"certdp."``?"""
    module = namespace.get("__module__")
    return type(module) is str and (module == "certdp" or module.startswith("certdp."))


class _FreezeOnBuild(type):
    """Metaclass: marks an instance built when its class's constructor call returns; seals
    every class not created with ``sealed=False``."""

    def __new__(mcls, name, bases, namespace, sealed=True, **kwargs):
        for base in bases:  # label: sealed-refuse
            for ancestor in type.__getattribute__(base, "__mro__"):
                if isinstance(ancestor, _FreezeOnBuild) and id(ancestor) not in _OPEN:
                    raise SealedClassError(
                        f"{ancestor.__name__} is sealed: certdp's proofs read its methods as "
                        "written; derive a domain, metric or measure of your own from Domain, "
                        "Metric or Measure",
                        parameter=name,
                    )
        made = super().__new__(mcls, name, bases, namespace, **kwargs)
        if sealed is False:
            _OPEN[id(made)] = made  # label: sealed-open
        if _certdp_module(namespace):
            _OWN[id(made)] = made  # label: user-own
        return made

    def __init__(cls, name, bases, namespace, sealed=True, **kwargs):
        super().__init__(name, bases, namespace, **kwargs)

    def __instancecheck__(cls, instance) -> bool:
        return _derives(type(instance), cls)  # label: sealed-instance

    def __subclasscheck__(cls, subclass) -> bool:
        return _derives(subclass, cls)  # label: sealed-subclass

    def __call__(cls, *args, **kwargs):
        _require_trust(cls)  # label: user-class
        made = super().__call__(*args, **kwargs)  # label: frozen-construct
        object.__setattr__(made, "_built", True)  # label: frozen-mark
        return made


def _require_trust(cls) -> None:
    """Refuse, unless ``honest-but-curious`` is enabled, to make an instance of a user class."""
    if id(cls) not in _OWN:  # label: user-own-test
        assert_features(
            "honest-but-curious",
            reason=f"{cls.__name__} is a user class: its methods run on private data, trusted",
        )


def _derives(kind, cls) -> bool:
    """``kind is cls``; for a class created with ``sealed=False``, ``type.__subclasscheck__``."""
    if kind is cls:  # label: sealed-same
        return True
    if id(cls) not in _OPEN:  # label: sealed-closed
        return False
    return type.__subclasscheck__(cls, kind)  # label: sealed-open-base


class Frozen(metaclass=_FreezeOnBuild, sealed=False):
    """Attributes are written only while the constructor runs; afterwards a typed refusal."""

    #: The DPError subclass a write after construction raises.
    frozen_error = DPError
    _built = False

    def __new__(cls, *args, **kwargs):
        # every way to a new instance but a direct object.__new__ passes here: a metaclass
        # __call__ that skips _FreezeOnBuild's, type.__call__, K.__new__(K), copy and pickle
        _require_trust(cls)  # label: user-new
        return object.__new__(cls)

    def __setattr__(self, name, value):
        if object.__getattribute__(self, "_built"):  # label: frozen-set
            raise type(self).frozen_error(
                f"{type(self).__name__} is immutable once built; cannot set it", parameter=name
            )
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if object.__getattribute__(self, "_built"):  # label: frozen-del
            raise type(self).frozen_error(
                f"{type(self).__name__} is immutable once built; cannot delete it", parameter=name
            )
        object.__delattr__(self, name)


# proof: end frozen
