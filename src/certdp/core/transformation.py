"""Transformations and measurements, and chaining them with ``>>``.

A :class:`Transformation` couples a function with an input and output domain,
input and output metrics, and a stability map: if ``x, x'`` are members of the
input domain at distance ``<= d_in``, then ``f(x), f(x')`` are at distance
``<= stability_map(d_in)``.  A :class:`Measurement` couples a randomised
function with an input metric, an output measure and a privacy map.  The model of
``invoke``/``map`` and the chaining theorem: transformation.tex (beside this file).  Chains
and compositions (which register their parts and combine rules with :func:`composite`) are
mapped and invoked by an explicit-stack evaluator, so nesting them to any depth never reaches
Python's recursion limit (Lemma [evaluator]).
"""

from __future__ import annotations

import contextvars
import functools
import math
import weakref
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
from .exact_type import type_is
from .fpenv import require_ieee_environment
from .metrics import InsertDeleteDistance, SymmetricDistance
from .partition_metrics import L0PInfDistance, triple_d_in
from .queryable import guarded, refuse_suspended

__all__ = ["Transformation", "Measurement", "validate_d_in", "attach_postcondition"]


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
    negative subnormal would compare as zero.  Under an L0-Lp-Linf metric ``d_in`` is a triple
    ``(l0, lp, linf)``, validated by :func:`certdp.core.partition_metrics.triple_d_in`.
    """
    if type(metric) is L0PInfDistance:
        return triple_d_in(d_in)  # label: d-in-triple
    d_in = exact_scalar(d_in, "d_in", FailedMapError)  # label: d-in-exact
    if not type_is(d_in, int, float, Fraction):
        raise type_mismatch(FailedMapError)(  # label: d-in-type
            f"must be a number, got {type(d_in).__name__}", parameter="d_in"
        )
    if type_is(metric, SymmetricDistance, InsertDeleteDistance):
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
    if not type_is(d_out, int, float, Fraction, tuple):  # label: check-d-out-type
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
        if type_is(self.input_metric, SymmetricDistance, InsertDeleteDistance) and (
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
        if _node(self) is not None:
            return _evaluate_map(self, d_in)  # label: map-evaluate
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
        if type(self) is Transformation:
            _BUILT[self] = (  # label: as-built
                input_domain,
                output_domain,
                function,
                input_metric,
                output_metric,
                stability_map,
                None,
            )

    @property
    def stability_map(self):
        return self.map

    @property
    def output_space(self) -> tuple:
        """The pair ``(output_domain, output_metric)``, as OpenDP names it."""
        return self.output_domain, self.output_metric  # label: output-space

    def invoke(self, arg):
        """Apply the function to ``arg``, which must be a member of the input domain."""
        if _node(self) is not None:
            return _evaluate_invoke(self, arg)  # label: invoke-evaluate-transformation
        arg = self._admit(arg)
        answer = self.function(arg)  # label: invoke-transformation
        if switches.contracts.enabled and self.postcondition is not None:
            self.postcondition.check_output(self, arg, answer)
        return answer

    def __rshift__(self, other):
        from .partial import PartialConstructor

        if issubclass(type(other), PartialConstructor):
            other = other(self.output_domain, self.output_metric)  # label: rshift-partial
            if not issubclass(type(other), (Transformation, Measurement)):
                raise MakeTransformationError(  # label: rshift-not-mapped
                    f"the constructor returned a {type(other).__name__}, not a transformation "
                    "or measurement",
                    parameter="chain",
                )
        if issubclass(type(other), (Transformation, Measurement)):
            return _chain(self, other)  # label: rshift-chain
        return NotImplemented

    def __repr__(self) -> str:
        # OpenDP 0.16's layout, one line per part
        return (
            f"Transformation(\n    input_domain   = {self.input_domain},\n"
            f"    output_domain  = {self.output_domain},\n"
            f"    input_metric   = {self.input_metric},\n"
            f"    output_metric  = {self.output_metric})"
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
        if _node(self) is not None:
            return _evaluate_invoke(self, arg)  # label: invoke-evaluate-measurement
        return self.function(self._admit(arg))  # label: invoke-measurement

    def __rshift__(self, other):
        """Postprocessing, as OpenDP's ``m >> f``: a ``dp.new_function`` Function; a
        transformation kept as built (see :func:`_kept_as_built`), copied now, whose class
        ``invoke`` bound to the copy is made a Function with no feature needed, as OpenDP
        takes a transformation's function when ``>>`` runs; or any other
        callable, which is first made one with ``new_function(other, TO="ExtrinsicObject")``
        (so under ``honest-but-curious``).  A partial constructor is declined: its
        ``__rrshift__`` refuses it (nothing but postprocessing follows a release)."""
        from .partial import PartialConstructor
        from .postprocess import Function, new_function, postprocess

        if issubclass(type(other), PartialConstructor):
            return NotImplemented  # label: rshift-measurement-partial
        if _kept_as_built(other):
            frozen = _frozen(other)  # label: rshift-freeze
            other = Function(
                functools.partial(Transformation.invoke, frozen), TO="ExtrinsicObject"
            )  # label: rshift-transformation
        if not issubclass(type(other), Function):
            if not callable(other):  # label: rshift-not-callable
                raise type_mismatch(MakeMeasurementError)(
                    f"only postprocessing (a Function or a callable) follows a measurement, "
                    f"got {type(other).__name__}",
                    parameter="chain",
                )
            other = new_function(other, TO="ExtrinsicObject")  # label: rshift-wrap
        return postprocess(other, self)  # label: rshift-postprocess

    def __repr__(self) -> str:
        # OpenDP 0.16's layout, one line per part
        return (
            f"Measurement(\n    input_domain   = {self.input_domain},\n"
            f"    input_metric   = {self.input_metric},\n"
            f"    output_measure = {self.output_measure})"
        )


#: What each object of exact class :class:`Transformation` was built with, and the
#: postcondition the contract wrapper attached to it: ``t -> (input_domain, output_domain,
#: function, input_metric, output_metric, map, postcondition)``.  Held by this module (keyed
#: weakly, so an entry goes with its object), never by the object: no assignment to ``t``
#: reaches it.  Written only by ``Transformation.__init__`` and :func:`attach_postcondition`.
_BUILT = weakref.WeakKeyDictionary()


def attach_postcondition(built, postcondition) -> None:
    """Set ``built.postcondition``; for a :class:`Transformation` recorded as built, also record
    this very object as the postcondition the contract machinery attached."""
    built.postcondition = postcondition  # label: attach-set
    if type(built) is Transformation and built in _BUILT:
        _BUILT[built] = _BUILT[built][:6] + (postcondition,)  # label: attach-record


#: The methods ``Transformation.invoke`` and the evaluator look up on a transformation, which
#: an instance attribute of the same name would replace.
_SHADOWING = ("invoke", "_admit")


def _plain_state(t):
    """``t``'s instance dictionary, if ``t`` is exactly a :class:`Transformation` whose
    dictionary is exactly a ``dict`` with every key exactly a ``str`` (so reading it runs no
    user code); else ``None``."""
    if type(t) is not Transformation:
        return None  # label: kept-class
    state = t.__dict__
    if type(state) is not dict or not all(type(name) is str for name in state):
        return None  # label: kept-plain
    return state


def _leaf_kept(t, chain=False) -> bool:
    """Is ``t`` exactly a :class:`Transformation` (no subclass) with a plain dictionary, recorded
    in ``_BUILT``, not a chain (unless ``chain``), with no instance attribute shadowing a method,
    its input domain, output domain, input metric and function the objects it was built with,
    and its postcondition none or the very one the contract machinery attached?"""
    state = _plain_state(t)
    record = _BUILT.get(t) if state is not None else None
    if record is None:
        return False  # label: kept-recorded
    post = state.get("postcondition")
    return (
        (chain or ("_node" not in state and "_stages" not in state))
        and not any(name in state for name in _SHADOWING)
        and record[0] is state.get("input_domain")
        and record[1] is state.get("output_domain")
        and record[2] is state.get("function")
        and record[3] is state.get("input_metric")
        and (post is None or post is record[6])
    )  # label: kept-leaf


def _kept_as_built(other) -> bool:
    """Is ``other`` a transformation kept as built: a leaf as :func:`_leaf_kept` says, or a
    chain made by ``>>`` kept as built itself (:func:`_leaf_kept` with ``chain``), whose node is
    intact (evaluated by the loop) and each of whose stages is such a leaf?"""
    if _leaf_kept(other):
        return True  # label: kept-as-built-leaf
    if not _leaf_kept(other, chain=True):
        return False  # label: kept-as-built-chain
    node = _node(other)
    return (
        node is not None and node[1] is None and all(_leaf_kept(stage) for stage in node[0])
    )  # label: kept-as-built


def _copy(t, function=None):
    """For ``t`` kept as built: a new :class:`Transformation` built from ``t``'s record only
    (its function replaced by ``function`` if given), with the recorded postcondition if ``t``
    still holds it; nothing else of ``t`` is read."""
    record = _BUILT[t]
    copy = Transformation(
        record[0],
        record[1],
        record[2] if function is None else function,
        record[3],
        record[4],
        record[5],
    )  # label: copy
    if record[6] is not None and t.__dict__.get("postcondition") is record[6]:
        attach_postcondition(copy, record[6])  # label: copy-postcondition
    return copy


def _frozen(t):
    """For ``t`` kept as built: a copy that later assignments to ``t`` or its stages do not
    reach.  A leaf is copied; a chain is copied with copies of its stages, a new stage loop as
    its function and a new node over them (so ``Transformation.invoke`` of the copy computes
    what ``t.invoke`` computes now)."""
    node = _node(t)
    if node is None:
        return _copy(t)  # label: frozen-leaf
    stages = tuple(_copy(stage) for stage in node[0])  # label: frozen-stages

    def function(arg):
        for stage in stages:
            arg = Transformation.invoke(stage, arg)
        return arg

    copy = _copy(t, function)
    copy._stages = stages
    copy._node = _Node(stages, None, None, None, copy._map, function)  # label: frozen-chain
    return copy


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

    if issubclass(type(second), Transformation):
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
    chained._node = _Node(stages, None, None, None, chained_map, function)  # label: chain-node
    return chained


def _stages(mapped) -> tuple:
    """The transformations and measurement a chain runs in order: those recorded by
    :func:`_chain` (so that a chain of any length is run by a loop, never by nested calls),
    or ``mapped`` alone."""
    return mapped.__dict__.get("_stages", (mapped,))  # label: stages


class _Node(tuple):
    """How a chain or composition computes from its children: ``children`` (a chain's stages,
    or a composition's leaves); ``losses``/``releases`` (``None`` for a chain, whose children
    are run in sequence; else the rules combining the children's maps at one ``d_in``, and
    their releases on one input); ``hooks`` (``None``, or a per-invocation factory whose
    result, given ``j``, is the guard hook of child ``j``); and the ``map`` and ``function``
    the node was built with (a node whose ``_map`` or ``function`` was since replaced is
    evaluated by its own methods)."""

    __slots__ = ()

    def __new__(cls, children, losses, releases, hooks, map_, function):
        return super().__new__(cls, (tuple(children), losses, releases, hooks, map_, function))


def composite(measurement, leaves, losses, releases, hooks) -> None:
    """Record ``measurement`` (built with ``privacy_map = d -> losses([c.map(d) for c in
    leaves])`` and ``function = x -> releases([c.invoke(x) for c in leaves])``, each child run
    under ``guarded(h(j))`` for ``h = hooks()`` made once per invocation when ``hooks`` is not
    ``None``) so that ``map`` and ``invoke`` evaluate it without nested calls."""
    measurement._node = _Node(  # label: composite-node
        leaves, losses, releases, hooks, measurement._map, measurement.function
    )


def converted(measurement, inner, convert) -> None:
    """Record ``measurement`` (built with ``privacy_map = d -> convert(inner.map(d))`` and
    ``function = inner.invoke``) as a node whose one leaf is ``inner``, so that ``map`` and
    ``invoke`` evaluate a tower of such wrappers without nested calls."""
    composite(measurement, (inner,), lambda maps: convert(maps[0]), _only, None)  # label: converted


def _only(releases):
    """The release of a node's one leaf."""
    return releases[0]  # label: only


def _node(mapped):
    """The node record of a chain or composition evaluated by the loops below, or ``None``:
    only an object of exactly :class:`Transformation` or :class:`Measurement` (so ``map``
    and ``invoke`` are the ones above) whose map and function are still those recorded."""
    if type(mapped) is not Transformation and type(mapped) is not Measurement:
        return None  # label: node-type
    node = mapped.__dict__.get("_node")
    if (
        type(node) is not _Node
        or mapped.__dict__.get("_map") is not node[4]
        or mapped.__dict__.get("function") is not node[5]
    ):
        return None  # label: node-unchanged
    return node


def _checked_map(mapped, d_in, d_out):
    if switches.contracts.enabled and mapped.postcondition is not None:
        mapped.postcondition.check_map(mapped, d_in, d_out)  # label: eval-map-post
    return d_out


#: While contracts are on and ``_evaluate_map`` runs in this thread: the table of the values it
#: has computed, ``(id(node), type(d), d) -> (node, value)`` (the node kept, so its id is not
#: reused), which a contract check's own call of a child node's ``map`` reads instead of
#: evaluating the child's tree again (so the checks do not nest with the depth).
_MEMO = contextvars.ContextVar("certdp_evaluated_maps", default=None)


class _Table(dict):
    """The values remembered by one outermost call; ``open`` turns False when it ends, and a
    closed table (still seen by a context copied during the call) is never read or written."""

    __slots__ = ("open",)

    def __init__(self):
        super().__init__()
        self.open = True


def _remembered(memo, mapped, d):
    """``(True, value)`` if the open table ``memo`` holds node ``mapped``'s map at ``d``, else
    ``(False, None)``; an unhashable ``d`` is never remembered."""
    if memo is None or not memo.open:
        return False, None  # label: memo-closed
    try:
        entry = memo.get((id(mapped), type(d), d))  # label: memo-read
    except TypeError:
        return False, None  # label: memo-unhashable
    if entry is None or entry[0] is not mapped:
        return False, None
    return True, entry[1]


def _remember(memo, mapped, d, value):
    """Records node ``mapped``'s map at ``d`` in the open table ``memo``, unless ``d`` is
    unhashable."""
    if memo is None or not memo.open:
        return  # label: memo-write-closed
    try:
        memo[(id(mapped), type(d), d)] = (mapped, value)  # label: memo-write
    except TypeError:
        pass  # label: memo-write-unhashable


def _evaluate_map(root, d_in):
    """``root.map(d_in)`` computed with an explicit stack (transformation.tex, Lemma
    [evaluator]): each frame is ``[mapped, d_in, node, next child, value]``, the value being
    a chain's running distance or a composition's list of children's maps.  With contracts
    on, the values of the nodes are remembered for the contract checks run meanwhile."""
    memo = _MEMO.get()
    if memo is not None and not memo.open:
        memo = None  # label: memo-stale
    found, value = _remembered(memo, root, d_in)
    if found:
        return value  # label: memo-hit
    if memo is None and switches.contracts.enabled:
        table = _Table()
        token = _MEMO.set(table)  # label: memo-open
        try:
            return _evaluate_map(root, d_in)
        finally:
            table.open = False  # label: memo-close
            table.clear()
            _MEMO.reset(token)
    frames = []
    mapped, d = root, d_in
    while True:
        node = _node(mapped)
        found, value = _remembered(memo, mapped, d) if node is not None else (False, None)
        if node is None:
            value = mapped.map(d)  # label: eval-map-leaf
        elif found:
            pass  # label: eval-map-remembered
        else:
            require_ieee_environment()  # label: eval-map-environment
            given = d
            d = validate_d_in(mapped.input_metric, d)  # label: eval-map-validate
            frames.append(
                [mapped, d, node, 0, d if node[1] is None else [], given]
            )  # label: eval-map-push
            value = _PENDING
        while True:
            frame = frames[-1] if frames else None
            if value is not _PENDING:
                if frame is None:
                    return value  # label: eval-map-return
                if frame[2][1] is None:
                    frame[4] = value  # label: eval-map-chain-step
                else:
                    frame[4].append(value)  # label: eval-map-collect
            children = frame[2][0]
            if frame[3] < len(children):
                mapped = children[frame[3]]
                frame[3] += 1
                d = frame[4] if frame[2][1] is None else frame[1]  # label: eval-map-descend
                break
            frames.pop()
            value = (
                frame[4] if frame[2][1] is None else frame[2][1](frame[4])
            )  # label: eval-map-combine
            value = _checked_map(frame[0], frame[1], value)
            _remember(memo, frame[0], frame[5], value)


def _evaluate_invoke(root, arg):
    """``root.invoke(arg)`` computed with an explicit stack (transformation.tex, Lemma
    [evaluator]): each frame is ``[mapped, admitted input, node, next child, value, hook
    factory's result, open guard]``; on an exception every open guard is closed, the innermost
    first, as the nested ``with`` blocks would."""

    frames = []
    mapped, x = root, arg
    try:
        while True:
            node = _node(mapped)
            if node is None:
                value = mapped.invoke(x)  # label: eval-invoke-leaf
            else:
                admitted = mapped._admit(x)  # label: eval-invoke-admit
                chain = node[1] is None
                hook_for = None if chain or node[3] is None else node[3]()  # label: eval-hooks
                frames.append(
                    [mapped, admitted, node, 0, admitted if chain else [], hook_for, None]
                )
                value = _PENDING
            while True:
                frame = frames[-1] if frames else None
                if value is not _PENDING:
                    if frame is None:
                        return value  # label: eval-invoke-return
                    if frame[2][1] is None:
                        frame[4] = value  # label: eval-invoke-chain-step
                    else:
                        if frame[6] is not None:
                            value = refuse_suspended(value)  # label: eval-suspended
                        frame[4].append(value)  # label: eval-invoke-collect
                        guard, frame[6] = frame[6], None
                        if guard is not None:
                            guard.__exit__(None, None, None)  # label: eval-guard-exit
                children = frame[2][0]
                if frame[3] < len(children):
                    j = frame[3]
                    mapped = children[j]
                    frame[3] = j + 1
                    if frame[2][1] is None:
                        x = frame[4]  # label: eval-invoke-chain-descend
                    else:
                        x = frame[1]  # label: eval-invoke-descend
                        if frame[5] is not None:
                            guard = guarded(frame[5](j))  # label: eval-guard-make
                            guard.__enter__()
                            frame[6] = guard  # label: eval-guard-enter
                    break
                frames.pop()
                if frame[2][1] is None:
                    value = frame[4]
                    if type(frame[0]) is Transformation:
                        value = _checked_output(frame[0], frame[1], value)  # label: eval-post
                else:
                    value = frame[2][2](frame[4])  # label: eval-invoke-combine
    except BaseException as error:
        raised = error
        for frame in reversed(frames):
            guard, frame[6] = frame[6], None
            if guard is not None:
                try:
                    guard.__exit__(type(raised), raised, raised.__traceback__)  # label: eval-unwind
                except BaseException as replaced:
                    raised = replaced
        if raised is error:
            raise
        raise raised  # noqa: B904 -- as a with block would: its context is the first error


def _checked_output(mapped, arg, answer):
    if switches.contracts.enabled and mapped.postcondition is not None:
        mapped.postcondition.check_output(mapped, arg, answer)
    return answer


_PENDING = object()


# proof: end model
