"""Everything a user needs, under OpenDP's names: ``import certdp.prelude as dp``.

``dp.t`` holds transformations, ``dp.m`` measurements; domains, metrics,
measures, feature flags and contract switches are at the top level.
"""

from certdp import combinators as c
from certdp import examples as examples  # noqa: PLC0414
from certdp import measurements as m
from certdp import numpy as numpy  # noqa: PLC0414
from certdp import transformations as t
from certdp.combinators._context import (
    Context,
    PartialChain,
    Query,
    domain_of,
    loss_of,
    metric_of,
    register,
    space_of,
    unit_of,
)
from certdp.combinators._odometer import Odometer, OdometerQueryable
from certdp.combinators._search import binary_search, binary_search_chain, binary_search_param
from certdp.contracts import contracts_enabled, disable_contracts, enable_contracts
from certdp.core import *  # noqa: F403
from certdp.core import __all__ as _core
from certdp.core.bitvector_domain import BitVectorDomain, bitvector_domain
from certdp.core.change_metrics import (
    ChangeOneDistance,
    DiscreteDistance,
    HammingDistance,
    change_one_distance,
    discrete_distance,
    hamming_distance,
)
from certdp.core.errors import DPError
from certdp.core.map_domain import MapDomain, map_domain
from certdp.core.option_domain import OptionDomain, option_domain
from certdp.core.partition_metrics import (
    L0PInfDistance,
    LInfDistance,
    l01inf_distance,
    l02inf_distance,
    linf_distance,
)
from certdp.core.postprocess import Function, new_function
from certdp.core.renyi_divergence import RenyiDivergence, renyi_divergence
from certdp.core.typenames import *  # noqa: F403
from certdp.core.typenames import __all__ as _typenames
from certdp.measurements._accuracy import (
    accuracy_to_discrete_gaussian_scale,
    accuracy_to_discrete_laplacian_scale,
    accuracy_to_gaussian_scale,
    accuracy_to_laplacian_scale,
    discrete_gaussian_scale_to_accuracy,
    discrete_laplacian_scale_to_accuracy,
    gaussian_scale_to_accuracy,
    laplacian_scale_to_accuracy,
)

#: OpenDP's name for the base of its errors: ``except dp.OpenDPException`` catches every
#: certdp error, whose ``variant`` and ``message`` are spelled as OpenDP's.
OpenDPException = DPError

__all__ = [
    *_core,
    "t",
    "m",
    "c",
    "numpy",
    "Odometer",
    "OdometerQueryable",
    "examples",
    *_typenames,
    "Function",
    "new_function",
    "binary_search",
    "binary_search_param",
    "binary_search_chain",
    "laplacian_scale_to_accuracy",
    "accuracy_to_laplacian_scale",
    "discrete_laplacian_scale_to_accuracy",
    "accuracy_to_discrete_laplacian_scale",
    "gaussian_scale_to_accuracy",
    "accuracy_to_gaussian_scale",
    "discrete_gaussian_scale_to_accuracy",
    "accuracy_to_discrete_gaussian_scale",
    "Context",
    "Query",
    "PartialChain",
    "register",
    "unit_of",
    "loss_of",
    "space_of",
    "domain_of",
    "metric_of",
    "enable_contracts",
    "disable_contracts",
    "contracts_enabled",
    "OpenDPException",
    "MapDomain",
    "map_domain",
    "LInfDistance",
    "L0PInfDistance",
    "linf_distance",
    "l01inf_distance",
    "l02inf_distance",
    "ChangeOneDistance",
    "HammingDistance",
    "DiscreteDistance",
    "change_one_distance",
    "hamming_distance",
    "discrete_distance",
    "OptionDomain",
    "option_domain",
    "BitVectorDomain",
    "bitvector_domain",
    "RenyiDivergence",
    "renyi_divergence",
]


#: Prelude names that are namespaces of their own, never copied into ``dp.t``/``dp.m``/``dp.c``.
_NAMESPACES = frozenset({"t", "m", "c", "numpy", "examples"})

# OpenDP 0.16's ``dp.t``, ``dp.m`` and ``dp.c`` also carry its domains, metrics, measures, core
# classes and type names (``dp.t.symmetric_distance()`` runs there), so ported code finds them
# here too.  The prelude writes them into the namespaces (a namespace's own name wins); the
# namespaces never import the prelude, so no constructor's import closure grows.
for _namespace in (t, m, c):
    for _name in __all__:
        if _name not in _NAMESPACES and _name not in vars(_namespace):
            setattr(_namespace, _name, globals()[_name])
del _namespace, _name
