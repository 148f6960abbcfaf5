"""Transformations and measurements, and chaining them with ``>>``.

A :class:`Transformation` couples a function with an input and output domain,
input and output metrics, and a stability map: if ``x, x'`` are members of the
input domain at distance ``<= d_in``, then ``f(x), f(x')`` are at distance
``<= stability_map(d_in)``.  A :class:`Measurement` couples a randomised
function with an input metric, an output measure and a privacy map.  The model of
``invoke``/``map`` and the chaining theorem: transformation.tex (beside this file).
"""

from __future__ import annotations

import math
from fractions import Fraction

from . import switches
from .conversion import exact_argument, exact_scalar
from .domains import VectorDomain
from .errors import (
    DomainMismatchError,
    FailedMapError,
    MakeMeasurementError,
    MakeTransformationError,
    MetricMismatchError,
    shown,
    type_mismatch,
)
from .fpenv import require_ieee_environment
from .metrics import InsertDeleteDistance, SymmetricDistance

__all__ = ["Transformation", "Measurement", "validate_d_in"]


# proof: begin model
#: The most stages one chain runs: a chain that reuses one chain on both sides doubles its
#: stages per level, and is refused rather than exhausting memory.
MAX_STAGES = 2**20


def validate_d_in(metric, d_in):
    """``d_in`` as an exact distance of ``metric``; a typed error if it is not one.

    The value first passes the boundary (:func:`certdp.core.conversion.exact_scalar`): a NumPy
    scalar, ``Decimal`` or rational becomes the exact ``int``, ``Fraction`` or ``float`` it
    denotes.  Then it must be a non-negative integer under a dataset metric, and a
    non-negative, non-NaN number otherwise; a float zero is returned as ``0.0`` (never ``-0.0``).
    Call it in the IEEE default environment (``map`` probes first): under denormals-are-zero a
    negative subnormal would compare as zero.
    """
    d_in = exact_scalar(d_in, "d_in", FailedMapError)  # label: d-in-exact
    if type(d_in) not in (int, float, Fraction):
        raise type_mismatch(FailedMapError)(  # label: d-in-type
            f"must be a number, got {type(d_in).__name__}", parameter="d_in"
        )
    if isinstance(metric, (SymmetricDistance, InsertDeleteDistance)):
        if type(d_in) is not int:  # label: d-in-dataset
            raise type_mismatch(FailedMapError)(
                f"must be a non-negative integer under {metric}, got {shown(d_in)}",
                parameter="d_in",
            )
    elif type(d_in) is float and math.isnan(d_in):  # label: d-in-nan
        raise FailedMapError("must not be NaN", parameter="d_in")
    if d_in < 0:  # label: d-in-negative
        raise FailedMapError(f"must be non-negative, got {shown(d_in)}", parameter="d_in")
    if type(d_in) is float and d_in == 0:
        return 0.0  # label: d-in-zero
    return d_in


def _exact_d_out(d_out):
    """``d_out`` as an exact number or a tuple (of a pair of distances), never an array: an array
    would be compared element by element in its own width."""
    d_out = exact_argument(d_out, "d_out", FailedMapError)
    if type(d_out) not in (int, float, Fraction, tuple):  # label: check-d-out-type
        raise type_mismatch(FailedMapError)(
            f"must be a number (or a tuple for a pair of distances), got {type(d_out).__name__}",
            parameter="d_out",
        )
    return d_out


class _Mapped:
    """What transformations and measurements share: a map, invocation and ``>>``."""

    #: Set by the contract machinery when contracts are enabled at construction.
    postcondition = None

    def _admit(self, arg):
        """The data the function computes on: ``arg`` through the input domain's boundary.

        Under a dataset metric a vector domain rounds Python floats given for ``f32`` to the
        nearest binary32 value, as OpenDP does: rounding each record alone moves no two
        datasets apart."""
        require_ieee_environment()
        if isinstance(self.input_metric, (SymmetricDistance, InsertDeleteDistance)) and (
            type(self.input_domain) is VectorDomain
        ):
            return self.input_domain.admit(arg, nearest=True)  # label: admit-nearest
        return self.input_domain.admit(arg)  # label: admit

    @property
    def input_space(self) -> tuple:
        """The pair ``(input_domain, input_metric)``, as OpenDP names it."""
        return self.input_domain, self.input_metric  # label: input-space

    def map(self, d_in):
        """The smallest distance this object guarantees for inputs ``d_in``-close."""
        require_ieee_environment()  # label: map-environment
        d_in = validate_d_in(self.input_metric, d_in)  # label: map-validate
        d_out = self._map(d_in)  # label: map-apply
        if switches.contracts.enabled and self.postcondition is not None:
            self.postcondition.check_map(self, d_in, d_out)
        return d_out

    def check(self, d_in, d_out) -> bool:
        """Does ``map(d_in) <= d_out`` hold (compared exactly)?"""
        d_out = _exact_d_out(d_out)
        guaranteed = self.map(d_in)
        try:
            return bool(guaranteed <= d_out)  # label: check-transformation
        except (TypeError, ValueError):
            raise FailedMapError(
                f"must be a distance comparable with {shown(guaranteed)}", parameter="d_out"
            ) from None

    def __call__(self, arg):
        return self.invoke(arg)


class Transformation(_Mapped):
    """A stable transformation (see the module docstring)."""

    def __init__(
        self,
        input_domain,
        output_domain,
        function,
        input_metric,
        output_metric,
        stability_map,
    ):
        require_ieee_environment()  # label: transformation-environment
        self.input_domain = input_domain
        self.output_domain = output_domain
        self.function = function
        self.input_metric = input_metric
        self.output_metric = output_metric
        self._map = stability_map

    @property
    def stability_map(self):
        return self.map

    @property
    def output_space(self) -> tuple:
        """The pair ``(output_domain, output_metric)``, as OpenDP names it."""
        return self.output_domain, self.output_metric  # label: output-space

    def invoke(self, arg):
        """Apply the function to ``arg``, which must be a member of the input domain."""
        arg = self._admit(arg)
        answer = self.function(arg)  # label: invoke-transformation
        if switches.contracts.enabled and self.postcondition is not None:
            self.postcondition.check_output(self, arg, answer)
        return answer

    def __rshift__(self, other):
        from .partial import PartialConstructor

        if isinstance(other, PartialConstructor):
            other = other(self.output_domain, self.output_metric)  # label: rshift-partial
            if not isinstance(other, (Transformation, Measurement)):
                raise MakeTransformationError(  # label: rshift-not-mapped
                    f"the constructor returned a {type(other).__name__}, not a transformation "
                    "or measurement",
                    parameter="chain",
                )
        if isinstance(other, (Transformation, Measurement)):
            return _chain(self, other)  # label: rshift-chain
        return NotImplemented

    def __repr__(self) -> str:
        return (
            f"Transformation(input_domain={self.input_domain}, output_domain={self.output_domain}, "
            f"input_metric={self.input_metric}, output_metric={self.output_metric})"
        )


class Measurement(_Mapped):
    """A private measurement (see the module docstring)."""

    def __init__(self, input_domain, function, input_metric, output_measure, privacy_map):
        require_ieee_environment()  # label: measurement-environment
        self.input_domain = input_domain
        self.function = function
        self.input_metric = input_metric
        self.output_measure = output_measure
        self._map = privacy_map

    @property
    def privacy_map(self):
        return self.map

    def check(self, d_in, d_out) -> bool:
        """Does ``map(d_in) <= d_out`` hold, in the order of the output measure (compared
        exactly: ``d_out`` passes the boundary first, so a NumPy float is not compared in its
        own width)?"""
        d_out = _exact_d_out(d_out)
        guaranteed = self.map(d_in)
        try:
            return bool(self.output_measure.ordered(guaranteed, d_out))  # label: check-measurement
        except (FailedMapError, TypeError, ValueError, IndexError, KeyError) as error:
            wrong_type = isinstance(error, TypeError)  # e.g. a number where a pair is wanted
            raise (type_mismatch(FailedMapError) if wrong_type else FailedMapError)(
                f"must be a distance comparable with {shown(guaranteed)}", parameter="d_out"
            ) from None  # label: check-incomparable

    def invoke(self, arg):
        """Release ``function(arg)``; ``arg`` must be a member of the input domain."""
        return self.function(self._admit(arg))  # label: invoke-measurement

    def __rshift__(self, other):
        """Postprocessing, as OpenDP's ``m >> f``: a ``dp.new_function`` Function, or any other
        callable, which is first made one with ``new_function(other, TO="ExtrinsicObject")``
        (so under ``honest-but-curious``).  A partial constructor is declined: its
        ``__rrshift__`` refuses it (nothing but postprocessing follows a release)."""
        from .partial import PartialConstructor
        from .postprocess import Function, new_function, postprocess

        if isinstance(other, PartialConstructor):
            return NotImplemented  # label: rshift-measurement-partial
        if not isinstance(other, Function):
            if not callable(other):  # label: rshift-not-callable
                raise type_mismatch(MakeMeasurementError)(
                    f"only postprocessing (a Function or a callable) follows a measurement, "
                    f"got {type(other).__name__}",
                    parameter="chain",
                )
            other = new_function(other, TO="ExtrinsicObject")  # label: rshift-wrap
        return postprocess(other, self)  # label: rshift-postprocess

    def __repr__(self) -> str:
        return (
            f"Measurement(input_domain={self.input_domain}, input_metric={self.input_metric}, "
            f"output_measure={self.output_measure})"
        )


def _chain(first: Transformation, second):
    if first.output_domain != second.input_domain:  # label: chain-domain
        raise DomainMismatchError(
            f"output domain {first.output_domain} of the first does not equal "
            f"input domain {second.input_domain} of the second",
            parameter="chain",
        )
    if first.output_metric != second.input_metric:  # label: chain-metric
        raise MetricMismatchError(
            f"output metric {first.output_metric} of the first does not equal "
            f"input metric {second.input_metric} of the second",
            parameter="chain",
        )

    if len(_stages(first)) + len(_stages(second)) > MAX_STAGES:  # label: too-many-stages
        raise MakeTransformationError(
            f"a chain may run at most {MAX_STAGES} transformations and measurements",
            parameter="chain",
        )
    stages = _stages(first) + _stages(second)  # label: chain-stages

    def function(arg):
        for stage in stages:
            arg = stage.invoke(arg)  # label: chain-function
        return arg

    def chained_map(d_in):
        for stage in stages:
            d_in = stage.map(d_in)  # label: chain-map
        return d_in

    if isinstance(second, Transformation):
        chained = Transformation(
            first.input_domain,
            second.output_domain,
            function,
            first.input_metric,
            second.output_metric,
            chained_map,
        )
    else:
        chained = Measurement(
            first.input_domain, function, first.input_metric, second.output_measure, chained_map
        )
    chained.components = (first, second)
    chained._stages = stages
    return chained


def _stages(mapped) -> tuple:
    """The transformations and measurement a chain runs in order: those recorded by
    :func:`_chain` (so that a chain of any length is run by a loop, never by nested calls),
    or ``mapped`` alone."""
    return mapped.__dict__.get("_stages", (mapped,))  # label: stages


# proof: end model
