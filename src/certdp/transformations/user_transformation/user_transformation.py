"""``make_user_transformation`` (OpenDP 0.16's name and signature; OpenDP has no
``then_user_transformation``, nor has certdp): a transformation built from the user's function
and stability map.

NOT PROVEN, NOT AUDITED.  The stability of the result is exactly the user's claim; it requires
the features ``"contrib"`` and ``"honest-but-curious"`` (as OpenDP does) and is not a certified
constructor (no proof, no contract, no audit row).  certdp calls the callbacks safely: an
exception of the function (a DPError included; KeyboardInterrupt and SystemExit pass) becomes
:class:`FailedFunctionError` (its class name only, raised after the exception is dropped: it is
neither the error's ``__context__`` nor its ``__cause__``), a value outside ``output_domain`` is
refused the same way (naming the domain, never the value; OpenDP does not check it), and the
map's value must be a distance of ``output_metric`` (``validate_d_in``'s rules), else
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
from certdp.core.user_callbacks import require_kinds, user_call

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
    require_kinds(
        MakeTransformationError,
        (
            (input_domain, Domain, "input_domain"),
            (input_metric, Metric, "input_metric"),
            (output_domain, Domain, "output_domain"),
            (output_metric, Metric, "output_metric"),
        ),
    )
    for value, parameter in ((function, "function"), (stability_map, "stability_map")):
        if not callable(value):
            raise type_mismatch(MakeTransformationError)(
                f"must be callable, got {type(value).__name__}", parameter=parameter
            )

    def checked_function(arg):
        returned, answer = user_call(function, arg)
        if not returned:
            raise FailedFunctionError(f"the user's function raised {answer}", parameter="function")
        admitted, answer = _admitted(output_domain, answer)
        if not admitted:
            raise FailedFunctionError(
                f"the user's function returned a value outside the output domain {output_domain}",
                parameter="function",
            )
        return answer

    def checked_map(d_in):
        returned, value = user_call(stability_map, d_in, keep=DPError)
        if not returned:
            raise FailedMapError(
                f"the user's stability map raised {value}", parameter="stability_map"
            )
        checked, value = _distance(output_metric, value)
        if not checked:
            raise FailedMapError(
                f"the user's stability map must return a distance of {output_metric}: {value}",
                parameter="stability_map",
            )
        return value

    return Transformation(
        input_domain, output_domain, checked_function, input_metric, output_metric, checked_map
    )


def _admitted(output_domain, answer):
    """``(True, output_domain.admit(answer))`` or ``(False, None)`` when it is refused; the
    refusal (whose text may show the value) is dropped when this frame ends."""
    try:
        return True, output_domain.admit(answer)
    except FailedFunctionError:
        return False, None


def _distance(output_metric, value):
    """``(True, validate_d_in(output_metric, value))`` or ``(False, text of the refusal)``."""
    try:
        return True, validate_d_in(output_metric, value)
    except FailedMapError as refused:
        return False, str(refused)
