"""A deliberately broken prelude: certdp's, except that one map is halved.

``make_sized_bounded_int_checked_sum`` builds certdp's transformation but reports half its
map (rounded down), so a pair of neighbouring datasets moves the sum further than the map
says.  ``certdp crosscheck tests.crosscheck.fake_prelude`` must find that pair.
"""

from types import SimpleNamespace

import certdp.prelude as _certdp
from certdp.prelude import *  # noqa: F403

BROKEN = "make_sized_bounded_int_checked_sum"


class _Halved:
    """A transformation whose map is half the real one (rounded down)."""

    def __init__(self, built):
        self._built = built

    def map(self, d_in):
        return self._built.map(d_in) // 2

    def __call__(self, data):
        return self._built(data)

    def __getattr__(self, name):
        return getattr(self._built, name)


def _halved(*args, **kwargs):
    return _Halved(getattr(_certdp.t, BROKEN)(*args, **kwargs))


t = SimpleNamespace(
    **{name: getattr(_certdp.t, name) for name in dir(_certdp.t) if not name.startswith("_")}
)
setattr(t, BROKEN, _halved)
m, c, numpy = _certdp.m, _certdp.c, _certdp.numpy
