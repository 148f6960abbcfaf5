"""The core model: types, domains, metrics, measures, transformations, errors, features."""

from .domains import AtomDomain, Domain, VectorDomain, atom_domain, vector_domain
from .errors import *  # noqa: F403
from .errors import __all__ as _errors
from .features import assert_features, disable_features, enable_features, feature_enabled
from .measures import (
    ApproximateDivergence,
    MaxDivergence,
    Measure,
    PrivacyProfile,
    SmoothedMaxDivergence,
    ZeroConcentratedDivergence,
    approximate,
    max_divergence,
    smoothed_max_divergence,
    zero_concentrated_divergence,
)
from .metrics import (
    AbsoluteDistance,
    InsertDeleteDistance,
    L1Distance,
    L2Distance,
    Metric,
    SymmetricDistance,
    absolute_distance,
    insert_delete_distance,
    l1_distance,
    l2_distance,
    symmetric_distance,
)
from .partial import PartialConstructor, partial_constructor
from .transformation import Measurement, Transformation
from .types import CarrierType, carrier

__all__ = [
    *_errors,
    "Domain",
    "AtomDomain",
    "VectorDomain",
    "atom_domain",
    "vector_domain",
    "Metric",
    "SymmetricDistance",
    "InsertDeleteDistance",
    "AbsoluteDistance",
    "L1Distance",
    "L2Distance",
    "symmetric_distance",
    "insert_delete_distance",
    "absolute_distance",
    "l1_distance",
    "l2_distance",
    "Measure",
    "MaxDivergence",
    "max_divergence",
    "ZeroConcentratedDivergence",
    "zero_concentrated_divergence",
    "SmoothedMaxDivergence",
    "smoothed_max_divergence",
    "ApproximateDivergence",
    "approximate",
    "PrivacyProfile",
    "Transformation",
    "Measurement",
    "PartialConstructor",
    "partial_constructor",
    "CarrierType",
    "carrier",
    "enable_features",
    "disable_features",
    "assert_features",
    "feature_enabled",
]
