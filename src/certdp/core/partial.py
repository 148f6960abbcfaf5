"""Partial constructors: ``then_x(...)`` waits for the input domain and metric.

``(domain, metric) >> dp.t.then_is_equal(3)`` and ``t >> dp.t.then_is_equal(3)``
both call ``make_is_equal(domain, metric, 3)``.
"""

from __future__ import annotations

import inspect

__all__ = ["PartialConstructor", "partial_constructor"]


# proof: begin partial
class PartialConstructor:
    """A constructor with every argument but ``(input_domain, input_metric)`` supplied."""

    def __init__(self, constructor, args, kwargs):
        self.constructor = constructor
        self.args = args
        self.kwargs = kwargs

    def __call__(self, input_domain, input_metric):  # label: call
        return self.constructor(input_domain, input_metric, *self.args, **self.kwargs)

    def __rrshift__(self, space):
        from .errors import MakeTransformationError
        from .transformation import Measurement, Transformation

        if issubclass(type(space), Transformation):
            return space.__rshift__(self)  # label: rrshift-transformation
        if issubclass(type(space), Measurement):
            raise MakeTransformationError(  # label: rrshift-measurement
                "a measurement's output is a release: only postprocessing (a Function) follows it",
                parameter="chain",
            )
        if issubclass(type(space), tuple) and len(space) == 2:
            return self(*space)  # label: rrshift-space
        return NotImplemented

    def __repr__(self) -> str:
        return f"then_{self.constructor.__name__.removeprefix('make_')}(...)"


def partial_constructor(constructor):
    """Build ``then_<name>`` from ``make_<name>(input_domain, input_metric, ...)``."""

    def then(*args, **kwargs):
        return PartialConstructor(constructor, args, kwargs)  # label: then

    parameters = list(inspect.signature(constructor).parameters.values())[2:]
    then.__signature__ = inspect.Signature(parameters)
    then.__module__ = constructor.__module__
    then.__name__ = "then_" + constructor.__name__.removeprefix("make_")
    then.__qualname__ = then.__name__
    then.__doc__ = (
        f"Partial form of :func:`{constructor.__name__}`: supply every argument but the "
        "input domain and metric, then chain with ``>>``."
    )
    return then


# proof: end partial
