"""A prelude whose ``make_clamp`` maps refuse every distance (as OpenDP refuses a distance of
the wrong type): certdp's, otherwise.  ``certdp crosscheck`` must count every pair it tries
on make_clamp as unchecked, never as checked or passing."""

from types import SimpleNamespace

import certdp.prelude as _certdp
from certdp.prelude import *  # noqa: F403

REFUSING = "make_clamp"


class _Refusing:
    """A transformation whose ``map`` raises on every distance."""

    def __init__(self, built):
        self._built = built

    def map(self, d_in):
        raise TypeError(f"the stand-in refuses every distance ({type(d_in).__name__})")

    def __call__(self, data):
        return self._built(data)

    def __getattr__(self, name):
        return getattr(self._built, name)


def _refusing(*args, **kwargs):
    return _Refusing(getattr(_certdp.t, REFUSING)(*args, **kwargs))


t = SimpleNamespace(
    **{name: getattr(_certdp.t, name) for name in dir(_certdp.t) if not name.startswith("_")}
)
setattr(t, REFUSING, _refusing)
m, c, numpy = _certdp.m, _certdp.c, _certdp.numpy
