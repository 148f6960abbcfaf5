"""``make_user_transformation`` (OpenDP 0.16's name and signature; OpenDP has no
``then_user_transformation``, nor has certdp): a transformation built from the user's function
and stability map.

NOT PROVEN, NOT AUDITED.  The stability of the result is exactly the user's claim; it requires
the features ``"contrib"`` and ``"honest-but-curious"`` (as OpenDP does) and is not a certified
constructor (no proof, no contract, no audit row).  certdp calls the callbacks safely: an
exception of the function becomes :class:`FailedFunctionError` (its class name only), a value
outside ``output_domain`` is refused the same way (OpenDP does not check it), and the map's
value must be a distance of ``output_metric`` (``validate_d_in``'s rules), else
:class:`FailedMapError`.
"""

from __future__ import annotations

from certdp.core.domains import Domain
from certdp.core.errors import (
    DPError,
    FailedFunctionError,
    FailedMapError,
    MakeTransformationError,
    type_mismatch,
)
from certdp.core.features import assert_features
from certdp.core.metrics import Metric
from certdp.core.transformation import Transformation, validate_d_in

__all__ = ["make_user_transformation"]


def make_user_transformation(
    input_domain, input_metric, output_domain, output_metric, function, stability_map
) -> Transformation:
    """A transformation applying ``function`` with map ``stability_map``, both the user's and
    trusted, not proven (features ``contrib`` and ``honest-but-curious``)."""
    assert_features(
        "contrib",
        "honest-but-curious",
        reason="the user's function and map are trusted, not proven",
    )
    for value, kind, parameter in (
        (input_domain, Domain, "input_domain"),
        (input_metric, Metric, "input_metric"),
        (output_domain, Domain, "output_domain"),
        (output_metric, Metric, "output_metric"),
    ):
        if not isinstance(value, kind):
            raise type_mismatch(MakeTransformationError)(
                f"must be a {kind.__name__}, got {type(value).__name__}", parameter=parameter
            )
    for value, parameter in ((function, "function"), (stability_map, "stability_map")):
        if not callable(value):
            raise type_mismatch(MakeTransformationError)(
                f"must be callable, got {type(value).__name__}", parameter=parameter
            )

    def checked_function(arg):
        try:
            answer = function(arg)
        except DPError:
            raise
        except Exception as error:
            raise FailedFunctionError(
                f"the user's function raised {type(error).__name__}", parameter="function"
            ) from None
        try:
            return output_domain.admit(answer)
        except FailedFunctionError as refused:
            raise FailedFunctionError(
                f"the user's function returned a value outside the output domain: {refused}",
                parameter="function",
            ) from None

    def checked_map(d_in):
        try:
            value = stability_map(d_in)
        except DPError:
            raise
        except Exception as error:
            raise FailedMapError(
                f"the user's stability map raised {type(error).__name__}",
                parameter="stability_map",
            ) from None
        try:
            return validate_d_in(output_metric, value)
        except FailedMapError as refused:
            raise type(refused)(
                f"the user's stability map must return a distance of {output_metric}: {refused}",
                parameter="stability_map",
            ) from None

    return Transformation(
        input_domain, output_domain, checked_function, input_metric, output_metric, checked_map
    )
