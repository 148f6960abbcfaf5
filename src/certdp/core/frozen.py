"""Objects that cannot be changed once built: the base of domains, metrics and measures.

Guarantee (domains.tex, lemma "frozen"): once the constructor call of a :class:`Frozen` class
returns, setting or deleting any attribute of the instance raises the class's
``frozen_error`` (a :class:`DPError`), so every later read sees the values the constructor
stored.  Only ``object.__setattr__`` called directly (outside the hypothesis) bypasses it.
"""

from __future__ import annotations

from .errors import DPError

__all__ = ["Frozen"]


# proof: begin frozen
class _FreezeOnBuild(type):
    """Metaclass: marks an instance built when its class's constructor call returns."""

    def __call__(cls, *args, **kwargs):
        made = super().__call__(*args, **kwargs)  # label: frozen-construct
        object.__setattr__(made, "_built", True)  # label: frozen-mark
        return made


class Frozen(metaclass=_FreezeOnBuild):
    """Attributes are written only while the constructor runs; afterwards a typed refusal."""

    #: The DPError subclass a write after construction raises.
    frozen_error = DPError
    _built = False

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
