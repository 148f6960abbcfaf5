"""Feature flags, as in OpenDP: opt-in switches that unlock constructors.

``"contrib"`` unlocks constructors whose proof is not (or no longer) vetted;
``"idealized-numerics"`` unlocks maps that ignore floating-point rounding.
"""

from __future__ import annotations

from .errors import FeatureNotEnabledError

__all__ = ["enable_features", "disable_features", "assert_features", "feature_enabled"]

# proof: begin features
KNOWN_FEATURES = frozenset(
    {"contrib", "floating-point", "honest-but-curious", "idealized-numerics"}
)

_enabled: set[str] = set()


def _validate(features) -> None:
    for feature in features:
        if type(feature) is not str or feature not in KNOWN_FEATURES:  # label: validate
            raise FeatureNotEnabledError(
                f"unknown feature {feature!r}; the known features are the strings "
                f"{', '.join(sorted(KNOWN_FEATURES))}",
                parameter="features",
            )


def enable_features(*features: str) -> None:
    """Opt in to each named feature."""
    _validate(features)
    _enabled.update(features)


def disable_features(*features: str) -> None:
    """Opt out of each named feature."""
    _validate(features)
    _enabled.difference_update(features)


def feature_enabled(feature: str) -> bool:
    """Is ``feature`` enabled?  (False for anything but the name of an enabled feature.)"""
    return type(feature) is str and feature in _enabled  # label: enabled


def assert_features(*features: str, reason: str | None = None) -> None:
    """Raise :class:`FeatureNotEnabledError` unless every named feature is enabled."""
    missing = [feature for feature in features if not feature_enabled(feature)]  # label: missing
    if missing:
        because = f" ({reason})" if reason else ""
        raise FeatureNotEnabledError(
            f"{', '.join(repr(f) for f in missing)} must be enabled{because}: "
            f"call dp.enable_features({', '.join(repr(f) for f in missing)})",
            parameter="features",
        )


# proof: end features
