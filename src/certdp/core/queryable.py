"""Queryables: stateful objects that answer a sequence of queries (OpenDP's ``Queryable``).

Guarantee (queryable.tex): the transition function of one queryable runs for at most one query
at a time (queries from several threads wait for each other); a query submitted to a queryable
from inside its own transition (a callback re-entering it) is refused with a typed
:class:`~certdp.core.errors.FailedFunctionError` before the transition runs, so the state is
untouched by the refused query; an exception from the transition reaches the caller as a
``DPError`` (others are wrapped in ``FailedFunctionError``), and whatever the transition had
changed before raising stays changed: a transition that charges before it releases is never
refunded by an exception. A queryable created while :func:`guarded` hooks are active (in the same
thread) keeps them and runs each before every query it answers, and the queryables its own
transition creates inherit them, added to the hooks current in the thread that queries it: a hook that raises refuses the query before the transition runs,
and a hook may return a callable that is called when the transition ends (however it ends). A
hook installed with :func:`guarded_everywhere` is kept the same way by every queryable created
while its block runs, in ANY thread of the process (threads the block starts included).
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
import threading

from .errors import DPError, FailedFunctionError
from .features import assert_features

__all__ = [
    "Queryable",
    "new_queryable",
    "guarded",
    "guarded_everywhere",
    "current_hooks",
    "start_hooks",
    "end_all",
    "refuse_suspended",
]


# proof: begin queryable
#: The hooks every queryable created now (in this thread) keeps: a tuple of callables.
_HOOKS: contextvars.ContextVar[tuple] = contextvars.ContextVar("certdp_queryable_hooks", default=())


@contextlib.contextmanager
def guarded(hook):
    """While the block runs, every queryable created in this thread (and, through their
    transitions, every queryable those create) calls ``hook()`` before answering any query; if
    ``hook()`` returns a callable, that callable is called once the transition has ended."""
    token = _HOOKS.set((*_HOOKS.get(), hook))  # label: push
    try:
        yield
    finally:
        _HOOKS.reset(token)  # label: pop


#: The hooks every queryable created now, in any thread, keeps (read and written under
#: ``_EVERYWHERE_LOCK`` only).
_EVERYWHERE: list = []
_EVERYWHERE_LOCK = threading.Lock()


@contextlib.contextmanager
def guarded_everywhere(hook):
    """While the block runs, every queryable created in ANY thread of the process (and, through
    their transitions, every queryable those create) keeps ``hook`` as :func:`guarded` does."""
    with _EVERYWHERE_LOCK:
        _EVERYWHERE.append(hook)  # label: everywhere-push
    try:
        yield
    finally:
        with _EVERYWHERE_LOCK:
            for index, kept in enumerate(_EVERYWHERE):
                if kept is hook:
                    del _EVERYWHERE[index]  # label: everywhere-pop
                    break


def current_hooks() -> tuple:
    """The hooks a queryable created now keeps: this thread's current hooks, then the hooks of
    the :func:`guarded_everywhere` blocks now running that are not among them."""
    here = _HOOKS.get()  # label: current-here
    with _EVERYWHERE_LOCK:
        everywhere = tuple(_EVERYWHERE)  # label: current-everywhere
    extra = tuple(h for h in everywhere if not any(h is k for k in here))
    return (*here, *extra)  # label: current


def start_hooks(hooks, ends: list) -> None:
    """Call each of ``hooks`` in order, appending to ``ends`` every callable one returns; a hook
    that raises stops here (its exception propagates), and one that returns neither ``None`` nor
    a callable raises :class:`FailedFunctionError` (the ends kept so far stay in ``ends``)."""
    for hook in hooks:
        end = hook()  # label: hook
        if end is None:
            continue
        if not callable(end):  # label: end-callable
            raise FailedFunctionError(
                f"a guard hook must return None or a callable, got {type(end).__name__}",
                parameter="query",
            )
        ends.append(end)  # label: end-kept


def end_all(ends) -> DPError | None:
    """Call every callable of ``ends``, the last kept first, each even if an earlier one raised
    an ``Exception``; the first such failure as a ``DPError`` (others wrapped in
    :class:`FailedFunctionError`), or ``None``."""
    failure = None
    for end in reversed(ends):
        try:
            end()  # label: end-call
        except Exception as error:  # label: end-raised
            if failure is None:
                failure = (
                    error
                    if issubclass(type(error), DPError)
                    else FailedFunctionError(
                        f"a guard's end failed: {_describe(error)}", parameter="query"
                    )
                )
    return failure


def refuse_suspended(value, parameter: str = "function"):
    """``value`` itself, unless it is a generator, a coroutine or an async generator (a
    suspended computation that could build queryables once resumed, after every guard of the
    query has ended): then it is closed (generator, coroutine) and a typed
    :class:`FailedFunctionError` naming ``parameter`` is raised."""
    if inspect.isgenerator(value) or inspect.iscoroutine(value):  # label: suspended
        try:
            value.close()  # label: suspended-close
        except Exception:
            pass  # a body that refuses to close is refused all the same  # label: close-failed
    elif not inspect.isasyncgen(value):
        return value  # label: not-suspended
    raise FailedFunctionError(
        f"under Approximate(ZeroConcentratedDivergence) a release must not be a "
        f"{type(value).__name__} (resumed later it would build queryables no sequentiality "
        "guard reaches); release its values instead",
        parameter=parameter,
    )  # label: suspended-refused


class Queryable:
    """Answers queries through ``transition(query, is_internal)``, one query at a time."""

    def __init__(self, transition, query_type: str = "ExtrinsicObject"):
        if not callable(transition):  # label: callable
            raise FailedFunctionError("must be callable", parameter="transition")
        self._transition = transition
        self.query_type = query_type
        self._lock = threading.Lock()  # label: lock
        self._owner = None  # the identifier of the thread running the transition, or None
        self._hooks = current_hooks()  # label: keep-hooks

    def __call__(self, query):
        """Answer ``query`` (a user's query)."""
        return self._answer(query, False)

    def eval(self, query):
        """Answer ``query`` (a user's query); the same as calling the queryable."""
        return self._answer(query, False)

    def eval_internal(self, query):
        """Answer ``query`` as a query from the framework (``is_internal`` is true)."""
        return self._answer(query, True)

    def _answer(self, query, is_internal: bool):
        me = threading.get_ident()
        if self._owner == me and self._lock.locked():  # label: reentry
            raise FailedFunctionError(
                "a queryable refuses a query submitted while it is answering another query in "
                "the same thread (from inside that query's callback); submit it afterwards",
                parameter="query",
            )
        with self._lock:  # label: acquire
            token, ends = None, []
            try:
                self._owner = me  # label: own
                here = _HOOKS.get()  # label: inherit-here
                own = tuple(h for h in self._hooks if not any(h is k for k in here))
                token = _HOOKS.set((*here, *own))  # label: inherit
                start_hooks(self._hooks, ends)  # label: hooks
                return self._transition(query, is_internal)  # label: transition
            except DPError:
                raise  # label: typed
            except Exception as error:  # label: wrap
                raise FailedFunctionError(
                    f"the query failed: {_describe(error)}", parameter="query"
                ) from error
            finally:
                try:
                    failure = end_all(ends)  # label: end
                finally:
                    self._owner = None  # label: disown
                    if token is not None:
                        _HOOKS.reset(token)  # label: reset
                if failure is not None:
                    raise failure  # label: end-failed

    def __repr__(self) -> str:
        return f"Queryable(Q={self.query_type})"


def new_queryable(transition, Q="ExtrinsicObject", A="ExtrinsicObject") -> Queryable:
    """A queryable answering each query ``q`` with ``transition(q, is_internal)`` (requires
    ``contrib``, as in OpenDP: the transition is user code no proof covers)."""
    assert_features("contrib")  # label: new-contrib
    if _one_parameter(transition):  # label: one-parameter
        single = transition

        def transition(query, is_internal):
            return single(query)  # label: drop-internal

    name = _RUST_NAMES.get(Q) if isinstance(Q, type) else None
    return Queryable(transition, query_type=name or (Q if type(Q) is str else repr(Q)))


def _one_parameter(transition) -> bool:
    """Does ``transition`` take exactly one parameter (OpenDP then omits ``is_internal``)?"""
    try:
        return len(inspect.signature(transition).parameters) == 1
    except (TypeError, ValueError):
        return False  # not callable, or no signature: Queryable decides


def _describe(error) -> str:
    """``error``'s type and message for a wrapping error; never raises for an ``Exception``
    raised while formatting them."""
    try:
        return f"{type(error).__name__}: {error}"
    except Exception:
        return "an exception whose message cannot be formatted"


#: OpenDP's names of the Python types a query type may be given as.
_RUST_NAMES = {int: "i32", float: "f64", str: "String", bool: "bool"}


# proof: end queryable
