"""The library under audit: imported by name, only when a cross-check asks for it.

A target is any importable module with OpenDP's prelude API (``opendp.prelude``, a fork, or
``certdp.prelude`` itself).  Its objects are built from the code of a grid point (a call in
that API, evaluated with ``dp`` bound to the target), so what is checked is exactly what the
reproducer script runs.  A point the target builds only once ``"idealized-numerics"`` is
enabled is marked idealized: its maps knowingly assume exact arithmetic.
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

import numpy as np

__all__ = ["Target", "TargetError", "load_target", "namespace", "NUMPY_CONSTRUCTOR_SOURCE"]


class TargetError(Exception):
    """The target cannot be imported or does not look like a prelude."""


#: The helper every point's code and every reproducer uses to find a NumPy constructor: OpenDP
#: 0.16 keeps some of them (``make_np_sum``) in ``opendp.extras.numpy._make_<name>`` only.
NUMPY_CONSTRUCTOR_SOURCE = '''\
def np_constructor(dp, name):
    """dp.numpy.<name>, or the module OpenDP keeps it in (opendp.extras.numpy._<name>; the
    private form of a constructor lives with it: make_private_np_mean in _make_np_mean)."""
    import importlib

    found = getattr(getattr(dp, "numpy", None), name, None)
    if found is not None:
        return found
    root = dp.__name__.rpartition(".")[0]
    module = name.replace("make_private_", "make_", 1)
    return getattr(importlib.import_module(f"{root}.extras.numpy._{module}"), name)
'''

_helpers: dict = {}
exec(NUMPY_CONSTRUCTOR_SOURCE, _helpers)  # our own fixed source: one small helper function


def namespace(dp: ModuleType) -> dict:
    """The names a point's code may use: ``dp`` (the library), ``np`` and ``np_constructor``."""
    return {"dp": dp, "np": np, "np_constructor": _helpers["np_constructor"]}


def _is_feature_refusal(error: Exception, feature: str) -> bool:
    return feature in str(error)


@dataclass
class Target:
    """An imported prelude-like module and how to build objects in it."""

    name: str
    dp: ModuleType

    @property
    def is_certdp(self) -> bool:
        return self.dp.__name__.split(".")[0] == "certdp"

    @contextmanager
    def features(self, *names: str):
        """Enable ``names`` on the target for the duration; restore what was enabled before."""
        enable = getattr(self.dp, "enable_features", None)
        disable = getattr(self.dp, "disable_features", None)
        enabled = getattr(self.dp, "feature_enabled", None)
        before = {name: enabled(name) for name in names} if enabled else {}
        if enable is not None:
            enable(*names)
        try:
            yield
        finally:
            if disable is not None:
                off = [name for name in names if not before.get(name, False)]
                if off:
                    disable(*off)

    def evaluate(self, code: str):
        """Evaluate one point's code (an expression in the shared API) in this library."""
        return eval(code, namespace(self.dp))  # code comes from the twin registry, never users

    def build(self, code: str) -> tuple[object, bool]:
        """Build ``code`` with ``"contrib"`` and ``"honest-but-curious"`` (the registry's own
        postprocessing callbacks, ``make_chain_pm``'s points, are honest); if the target refuses
        for want of ``"idealized-numerics"``, build it with that flag and say so (second
        value).  Errors of the target (a refusal) propagate."""
        with self.features("contrib", "honest-but-curious"):
            try:
                return self.evaluate(code), False
            except Exception as error:
                if not _is_feature_refusal(error, "idealized-numerics"):
                    raise
            with self.features("idealized-numerics"):
                return self.evaluate(code), True


def load_target(name: str) -> Target:
    """Import the target named ``name`` (a module path).  ``opendp`` means ``opendp.prelude``."""
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        raise TargetError(f"cannot import {name!r}: {error}") from None
    except (Exception, SystemExit) as error:  # the target's own code failed while importing
        raise TargetError(f"cannot import {name!r}: {type(error).__name__}: {error}") from None
    if not hasattr(module, "t") and not name.endswith(".prelude"):
        try:
            module = importlib.import_module(f"{name}.prelude")
        except ImportError:
            pass
        except (Exception, SystemExit) as error:
            raise TargetError(
                f"cannot import {name + '.prelude'!r}: {type(error).__name__}: {error}"
            ) from None
    missing = [part for part in ("t", "m", "c") if not hasattr(module, part)]
    if missing:
        raise TargetError(
            f"{module.__name__} has no {', '.join(missing)}: not a prelude like opendp.prelude"
        )
    return Target(module.__name__, module)
