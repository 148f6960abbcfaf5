"""The core model: types, domains, metrics, measures, transformations, errors, features."""

# type_strings attaches metric.type and domain.carrier_type (OpenDP 0.16 introspection)
from . import domains, errors, features, measures, metrics, partial, type_strings  # noqa: F401
from .domains import *  # noqa: F403
from .errors import *  # noqa: F403
from .features import *  # noqa: F403
from .measures import *  # noqa: F403
from .metrics import *  # noqa: F403
from .partial import *  # noqa: F403
from .queryable import Queryable, new_queryable
from .transformation import Measurement, Transformation
from .types import CarrierType, carrier

__all__ = [
    *errors.__all__,
    *domains.__all__,
    *(name for name in metrics.__all__ if name != "exact"),
    *measures.__all__,
    "Transformation",
    "Measurement",
    *partial.__all__,
    "Queryable",
    "new_queryable",
    "CarrierType",
    "carrier",
    *features.__all__,
]
