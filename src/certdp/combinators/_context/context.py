"""The Context API: state the privacy unit and the budget once, then ask queries.

Guarantee (context.tex): ``Context.compositor(data, privacy_unit, privacy_loss, ...)`` builds
one accountant over ``data`` with ``d_in`` the privacy unit's distance exactly as given: with
``split_evenly_over`` or ``split_by_weights``, a sequential compositor whose ``d_mids`` are the
rounded-down shares of :func:`split_budget` (their composition is within ``privacy_loss``, and
the compositor's map at ``d_in`` is checked against it before any data is touched); without a
split, a privacy filter over a fully adaptive compositor with ``privacy_loss`` as its bound.
Every release goes through that accountant's queryable, which refuses a query over its share
before releasing anything; the Context refuses first, with a typed error saying what is left.
The shares shown left and spent are the compositor's own budgets, split at its own count of
charged queries.  A query submitted to the Context or to ``context.queryable`` while either
answers another is refused at once (ContextBusyError), never made to wait for it (so long as
the queryable is reached only through them).  The analyst must not run code in this
interpreter, and a query with user callables runs its author's code (context.tex, threat model).
A scale left out of a query is the parameter :func:`binary_search` finds for the query's share.
"""

from __future__ import annotations

import inspect
import threading
import weakref
from functools import partial

from certdp.audit.gate import _up_to_date, require_vetted_or_contrib
from certdp.core.domains import Domain
from certdp.core.errors import DPError, FailedFunctionError, FailedMapError, shown
from certdp.core.measures import ApproximateDivergence, Measure
from certdp.core.metrics import Metric
from certdp.core.partial import PartialConstructor
from certdp.core.transformation import Measurement, Transformation
from certdp.numeric import neg_inf_sub

from .errors import (
    BudgetExhaustedError,
    ContextArgumentError,
    ContextBusyError,
    ContextTypeError,
)
from .split import even_weights, split_budget
from .units import domain_of, loss_of

__all__ = ["Context", "Query", "PartialChain", "register", "constructors"]

# proof: begin context-module
_constructors: dict[str, tuple[object, bool]] = {}
_constructors_lock = threading.Lock()


def constructors() -> dict[str, tuple[object, bool]]:
    """``{name: (constructor, is_partial)}`` for every ``make_<name>`` of ``dp.t`` and ``dp.m``
    (its ``then_<name>`` form when there is one), plus those added with :func:`register`."""
    with _constructors_lock:
        if not _constructors:
            from certdp import measurements, transformations

            for module in (transformations, measurements):
                for name in module.__all__:
                    if name.startswith("make_"):
                        then = getattr(module, "then_" + name[5:], None)
                        found = (then, True) if then is not None else (getattr(module, name), False)
                        _constructors.setdefault(name[5:], found)
        return _constructors


def register(constructor, name: str | None = None) -> None:
    """Make ``constructor`` (a ``make_*`` function) available as ``query.<name>(...)``."""
    if name is None:
        name = getattr(constructor, "__name__", "")
        if not name.startswith("make_"):
            raise ContextArgumentError(
                f"must be named make_*, got {name!r}; pass name=", parameter="constructor"
            )
        name = name[5:]
    table = constructors()
    if name in table:
        raise ContextArgumentError(f"{name!r} is already registered", parameter="name")
    parameters = list(inspect.signature(constructor).parameters)
    if parameters[:2] == ["input_domain", "input_metric"]:
        from certdp.core.partial import partial_constructor

        table[name] = (partial_constructor(constructor), True)
    else:
        table[name] = (constructor, False)


def _is_pair(value) -> bool:
    return isinstance(value, tuple) and len(value) == 2


# proof: begin accountant
def _accountant(domain, privacy_unit, privacy_loss, split_evenly_over, split_by_weights):
    """``(accountant, d_in, d_mids, d_out)`` for the stated unit, loss and split."""
    if not _is_pair(privacy_unit) or not isinstance(privacy_unit[0], Metric):
        raise ContextArgumentError("must be (metric, d_in), from dp.unit_of", "privacy_unit")
    if not _is_pair(privacy_loss) or not isinstance(privacy_loss[0], Measure):
        raise ContextArgumentError("must be (measure, d_out), from dp.loss_of", "privacy_loss")
    input_metric, d_in = privacy_unit  # label: unit-d-in
    output_measure, d_out = privacy_loss
    if split_evenly_over is not None and split_by_weights is not None:
        raise ContextArgumentError(
            "split_evenly_over and split_by_weights are mutually exclusive", "split_by_weights"
        )
    if split_evenly_over is None and split_by_weights is None:
        return _filter(domain, input_metric, output_measure, d_in, d_out)  # label: no-split
    weights = even_weights(split_evenly_over) if split_by_weights is None else split_by_weights
    d_mids = split_budget(d_out, weights)  # label: d-mids
    from certdp.combinators import make_adaptive_composition

    accountant = make_adaptive_composition(  # label: sequential
        domain, input_metric, output_measure, d_in, list(d_mids)
    )
    if not accountant.check(d_in, d_out):  # label: within-budget
        raise BudgetExhaustedError(
            f"the composed shares {shown(accountant.map(d_in))} exceed {shown(d_out)}",
            parameter="privacy_loss",
        )
    return accountant, d_in, d_mids, None


# proof: end accountant


def _filter(domain, input_metric, output_measure, d_in, d_out):
    """An odometer (unbounded loss) or a privacy filter bounded by ``d_out``."""
    from certdp.combinators import make_fully_adaptive_composition, make_privacy_filter

    odometer = make_fully_adaptive_composition(domain, input_metric, output_measure)
    infinite = float("inf")
    if d_out in (infinite, (infinite, infinite), (infinite, 1.0)):
        return odometer, d_in, None, None
    return make_privacy_filter(odometer, d_in, d_out), d_in, None, d_out


# proof: begin shares
def _compositor_state(queryable):
    """The ledger of the sequential compositor that released ``queryable``, read through its
    public accessor (``CompositorQueryable.state``: its charged count, its tuple of per-query
    budgets and its ``d_in``), so the Context keeps no copy that could differ."""
    from certdp.combinators.adaptive_composition.make_adaptive_composition import (
        CompositorQueryable,
    )

    if type(queryable) is not CompositorQueryable:  # label: compositor-type
        raise ContextArgumentError(
            "must be the queryable a sequential compositor (make_adaptive_composition) released",
            parameter="queryable",
        )
    return CompositorQueryable.state(queryable)  # label: read-state


def _charged(queryable) -> int:
    """How many queries the sequential compositor's ``queryable`` has charged."""
    return _compositor_state(queryable).charged  # label: read-spent


def _budgets(queryable) -> tuple:
    """The sequential compositor's own per-query budgets, in order."""
    return _compositor_state(queryable).budgets  # label: read-budgets


def _shares_of(queryable, d_mids: tuple) -> tuple:
    """The compositor's own budgets, once ``d_mids`` (the shares a Context is given) is
    checked equal to them; a typed error naming ``d_mids`` otherwise."""
    budgets = _budgets(queryable)
    if d_mids != budgets:  # label: same-budgets
        raise ContextArgumentError(
            f"must equal the compositor's budgets {shown(list(budgets))}, got "
            f"{shown(list(d_mids))}",
            parameter="d_mids",
        )
    return budgets  # label: shares-are-budgets


# proof: end shares


# proof: begin guard
#: The busy lock of each queryable a Context answers through, shared by every Context (and
#: every ``context.queryable``) over it, so no two of them can make each other wait.
_BUSY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_BUSY_LOCK = threading.Lock()


def _busy_lock(queryable) -> threading.Lock:
    """The one busy lock of ``queryable`` (created on first use)."""
    with _BUSY_LOCK:
        lock = _BUSY.get(queryable)
        if lock is None:
            lock = _BUSY[queryable] = threading.Lock()
        return lock


def _refuse_busy():
    raise ContextBusyError(
        "the context is answering another query (this one was submitted from inside that "
        "query, or from another thread meanwhile); a context answers one query at a time: "
        "submit it once the other has returned",
        parameter="query",
    )


class GuardedQueryable:
    """``context.queryable``: the accountant's queryable, sent queries only while no other
    query runs through the Context or through this object (else refused at once, typed:
    :class:`ContextBusyError`); every other attribute is the queryable's own."""

    def __init__(self, queryable):
        self._inner = queryable
        self._busy = _busy_lock(queryable)

    def _send(self, method: str, query):
        if not self._busy.acquire(blocking=False):  # label: direct-busy
            _refuse_busy()
        try:
            return getattr(self._inner, method)(query)  # label: direct-send
        finally:
            self._busy.release()  # label: direct-idle

    def __call__(self, query):
        return self._send("__call__", query)

    def eval(self, query):
        return self._send("eval", query)

    def eval_internal(self, query):
        return self._send("eval_internal", query)

    def invoke(self, query):
        return self._send("invoke", query)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._inner, name)

    def __repr__(self) -> str:
        return repr(self._inner)


# proof: end guard


class Context:
    """An accountant, its queryable over the data, and the privacy unit queries are measured at.

    Build it with :meth:`Context.compositor`; ask with :meth:`query`.  With a split, the shares
    left and spent are the compositor's own budgets, split by its own count of charged queries,
    however the queries reached it (through the Context or through ``context.queryable``);
    ``d_mids`` given here must equal those budgets."""

    def __init__(self, accountant, queryable, d_in, d_mids=None, d_out=None, query_space=None):
        if isinstance(queryable, GuardedQueryable):
            queryable = queryable._inner  # the same busy lock: it is the queryable's
        self.accountant = accountant
        self._queryable = queryable
        self.d_in = d_in
        self._shares = None if d_mids is None else tuple(d_mids)
        if self._shares is not None:
            self._shares = _shares_of(queryable, self._shares)
        self.d_out = d_out
        self.query_space = query_space
        self._busy = _busy_lock(queryable)

    @property
    def queryable(self):
        """The accountant's queryable over the data, guarded by the Context's busy lock: a query
        sent to it directly is charged by the compositor (and the Context's shares follow), and
        is refused at once (ContextBusyError) while another query runs through the Context or
        through it, as a query to the Context is while it runs."""
        return GuardedQueryable(self._queryable)

    @property
    def d_mids(self):
        """The shares not yet charged by the compositor, in order (a copy), or ``None``."""
        if self._shares is None:
            return None
        return list(self._shares[_charged(self._queryable) :])

    @property
    def d_mids_consumed(self) -> list:
        """The shares the compositor has charged, in order (a copy)."""
        if self._shares is None:
            return []
        return list(self._shares[: _charged(self._queryable)])

    def __repr__(self) -> str:
        return (
            f"Context(\n    accountant = {self.accountant!r},\n    d_in       = {self.d_in!r},\n"
            f"    d_mids     = {self.d_mids!r},\n    d_out      = {self.d_out!r})"
        )

    # proof: begin compositor
    @staticmethod
    def compositor(
        data,
        privacy_unit,
        privacy_loss,
        split_evenly_over=None,
        split_by_weights=None,
        domain: Domain | None = None,
        margins=None,
    ) -> Context:
        """A Context over ``data`` spending at most ``privacy_loss`` at ``privacy_unit``.

        ``domain`` defaults to the one inferred from ``data`` (its structure is then public).
        ``margins`` (Polars data) is refused: certdp has no Polars domains."""
        if "context" not in _up_to_date:
            require_vetted_or_contrib("context")  # label: gate
        if margins:
            raise ContextTypeError(
                "need Polars LazyFrame domains, which certdp does not build", parameter="margins"
            )
        if domain is None:
            domain = domain_of(data, infer=True)  # label: infer-domain
        elif not isinstance(domain, Domain):
            raise ContextArgumentError(f"must be a domain, got {shown(domain)}", "domain")
        accountant, d_in, d_mids, d_out = _accountant(
            domain, privacy_unit, privacy_loss, split_evenly_over, split_by_weights
        )
        queryable = accountant(data)  # label: spawn
        return Context(accountant, queryable, d_in, d_mids, d_out)

    # proof: end compositor

    # proof: begin submit
    def __call__(self, query: Measurement):
        """Release ``query`` through the accountant's queryable.  A query submitted while the
        Context is answering another one (from inside that query's callback, in this thread or
        any other) is refused at once, typed: a Context answers one query at a time."""
        if not self._busy.acquire(blocking=False):  # label: submit-busy
            _refuse_busy()
        try:
            if self._shares is None:
                return self._queryable(query)  # label: submit-filter
            spent = _charged(self._queryable)  # label: submit-index
            if spent == len(self._shares):  # label: submit-empty
                raise BudgetExhaustedError(
                    f"every one of the {spent} shares is spent; nothing is left",
                    parameter="query",
                )
            self._admissible(query, spent)  # label: submit-precheck
            return self._queryable(query)  # label: submit-release
        finally:
            self._busy.release()  # label: submit-idle

    def _admissible(self, query, spent: int) -> None:
        """Refuse (typed, before release) a query the compositor would refuse at share
        ``spent``; an exception of the query's map becomes the compositor's typed error."""
        accountant, share = self.accountant, self._shares[spent]
        d_in = _compositor_state(self._queryable).d_in  # label: precheck-d-in
        if not isinstance(query, Measurement):
            raise ContextArgumentError(f"must be a measurement, got {shown(query)}", "query")
        for what in ("input_domain", "input_metric", "output_measure"):
            ours = getattr(accountant, what)
            if type(ours).__eq__(ours, getattr(query, what)) is not True:
                raise ContextArgumentError(
                    f"{what} {getattr(query, what)!r} differs from the context's "
                    f"{getattr(accountant, what)!r}",
                    parameter="query",
                )
        try:
            loss = Measurement.map(query, d_in)  # label: precheck-loss
        except DPError:
            raise
        except Exception as error:  # label: precheck-wrap
            raise FailedFunctionError(
                f"the query failed: {_described(error)}", parameter="query"
            ) from error
        from certdp.combinators.adaptive_composition.make_adaptive_composition import _plain

        try:
            plain = _plain(loss)  # label: precheck-plain
            within = type(accountant.output_measure).ordered(plain, share)  # label: precheck-share
        except FailedMapError as error:  # label: precheck-not-a-loss
            raise FailedMapError(
                f"the query's privacy loss {shown(loss)} is not a loss under "
                f"{accountant.output_measure!r}: {error.message}",
                parameter="query",
            ) from None
        except DPError:
            raise
        except Exception as error:
            raise FailedFunctionError(
                f"the query failed: {_described(error)}", parameter="query"
            ) from error
        if within is not True:
            raise BudgetExhaustedError(
                f"its loss {shown(loss)} exceeds its share {shown(share)}; "
                f"left: {shown(list(self._shares[spent:]))}",
                parameter="query",
            )

    # proof: end submit

    def query(self, **kwargs) -> Query:
        """A new query; with a split, it spends the next share (no loss may be given), else
        the loss given as ``loss_of``'s keyword arguments."""
        d_query = None
        if self._shares is not None:
            if kwargs:
                raise ContextArgumentError(
                    f"the context was split in advance: give no loss, got {kwargs}", "kwargs"
                )
            left = self.d_mids
            if not left:
                raise BudgetExhaustedError(
                    "the privacy allowance is exhausted: every share is spent", "query"
                )
            d_query = left[0]
        elif kwargs:
            measure, d_query = loss_of(**kwargs)
            expected = self.accountant.output_measure
            if measure != expected:
                hint = ""
                if isinstance(expected, ApproximateDivergence) and "delta" not in kwargs:
                    hint = "; give delta=0.0"
                raise ContextArgumentError(
                    f"the context measures {expected!r}, not {measure!r}{hint}", "kwargs"
                )
        space = self.query_space or (self.accountant.input_domain, self.accountant.input_metric)
        return Query(space, self.accountant.output_measure, self.d_in, d_query, self)

    def current_privacy_loss(self):
        """The shares the compositor has charged (split context), else the accountant's loss at
        ``d_in``."""
        if self._shares is None:
            return self._queryable.privacy_loss(self.d_in)
        return self.d_mids_consumed

    def remaining_privacy_loss(self):
        """The shares the compositor has not charged (split context), else ``d_out`` minus the
        loss spent, rounded down."""
        if self._shares is not None:
            return self.d_mids
        if self.d_out is None:
            raise ContextArgumentError("the privacy loss is unbounded", "privacy_loss")
        spent = self._queryable.privacy_loss(self.d_in)
        if isinstance(self.d_out, tuple):
            return tuple(neg_inf_sub(a, b) for a, b in zip(self.d_out, spent, strict=True))
        return neg_inf_sub(self.d_out, spent)


def _described(error) -> str:
    """``error``'s type and message; never raises."""
    try:
        return f"{type(error).__name__}: {error}"
    except Exception:
        return "an exception whose message cannot be shown"


# proof: begin cast
def _cast_measure(chain, to_measure=None, d_to=None):
    """``chain`` measured in ``to_measure`` through the proven conversions, as OpenDP does."""
    if to_measure is None or chain.output_measure == to_measure:
        return chain
    from certdp import combinators as c

    source, target = repr(chain.output_measure), repr(to_measure)
    if target == f"Approximate({source})" and source in (
        "MaxDivergence",
        "ZeroConcentratedDivergence",
    ):
        return _combinator("make_approximate")(chain)  # label: cast-approximate
    if (source, target) == ("MaxDivergence", "ZeroConcentratedDivergence"):
        return c.make_pureDP_to_zCDP(chain)  # label: cast-zcdp
    if target == "Approximate(MaxDivergence)" and source in (
        "ZeroConcentratedDivergence",
        "Approximate(ZeroConcentratedDivergence)",
    ):
        return c.make_fix_delta(c.make_zCDP_to_approxDP(chain), d_to[1])  # label: cast-fix-delta
    raise ContextTypeError(f"cannot convert {source} to {target}", parameter="output_measure")


def _combinator(name: str):
    from certdp import combinators

    found = getattr(combinators, name, None)
    if found is None:
        raise ContextTypeError(f"needs dp.c.{name}, which this certdp lacks", parameter="query")
    return found


# proof: end cast


class Query:
    """A chain under construction, with the unit and loss it will be released at."""

    def __init__(
        self, chain, output_measure, d_in=None, d_out=None, context=None, _wrap_release=None
    ):
        self._chain = chain
        self._output_measure = output_measure
        self._d_in = d_in
        self._d_out = d_out
        self._context = context
        self._wrap_release = _wrap_release

    def __repr__(self) -> str:
        return (
            f"Query(\n    chain          = {self._chain!r},\n"
            f"    output_measure = {self._output_measure!r},\n"
            f"    d_in           = {self._d_in!r},\n    d_out          = {self._d_out!r})"
        )

    def __dir__(self):
        return [*super().__dir__(), *constructors()]

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        table = constructors()
        if name not in table:
            raise AttributeError(
                f"unrecognized constructor {name!r}; did you mean to .release() first?"
            )

        def make(*args, **kwargs) -> Query:
            constructor, is_partial = table[name]
            missing = len(args)
            for parameter in inspect.signature(constructor).parameters.values():
                if parameter.name in kwargs:
                    continue
                if parameter.default is not parameter.empty:
                    break
                missing -= 1
            if missing == -1 and not isinstance(self._chain, PartialChain):
                constructor = PartialChain.wrap(constructor)
            elif missing < 0:
                raise ContextArgumentError(
                    f"{name} is missing {-missing} parameters (one may be left to the search)",
                    parameter=name,
                )
            elif missing > 0:
                raise ContextArgumentError(f"{name} has {missing} parameters too many", name)
            step = constructor(*args, **kwargs)
            if is_partial or not isinstance(self._chain, tuple):
                step = self._chain >> step
            return self.new_with(chain=step)

        make.__name__ = name
        return make

    def new_with(self, *, chain, wrap_release=None) -> Query:
        """This query with ``chain`` in place of its chain."""
        return Query(
            chain,
            self._output_measure,
            self._d_in,
            self._d_out,
            self._context,
            wrap_release or self._wrap_release,
        )

    def resolve(self, allow_transformations=False, bounds=None, T=None):
        """The measurement (or, if allowed, transformation) of this query; a parameter left
        out is found by the binary search against the query's loss."""
        chain = self._chain
        if isinstance(chain, PartialChain):
            if self._d_in is None or self._d_out is None:
                raise ContextArgumentError(
                    "a parameter is left out but the query has no loss to search against",
                    parameter="d_out",
                )
            chain = chain.fix(self._d_in, self._d_out, self._output_measure, bounds=bounds, T=T)
        if isinstance(chain, tuple):
            raise ContextArgumentError("the query has no step yet", parameter="query")
        if not allow_transformations and isinstance(chain, Transformation):
            raise ContextArgumentError(
                "the query is not yet a measurement (end it with a mechanism)", "query"
            )
        if isinstance(chain, Transformation):
            return chain
        return _cast_measure(chain, self._output_measure, self._d_out)

    def release(self, data=None, bounds=None, T=None):
        """Release the query through its context (or on ``data`` when it has none)."""
        if self._context is not None and data is not None:
            raise ContextArgumentError("the query's context holds the data already", "data")
        measurement = self.resolve(bounds=bounds, T=T)
        if self._context is not None:
            answer = self._context(measurement)
        elif data is not None:
            answer = measurement(data)
        else:
            raise ContextArgumentError("give data or build the query in a context", "data")
        return self._wrap_release(answer) if self._wrap_release else answer

    def compositor(
        self,
        split_evenly_over=None,
        split_by_weights=None,
        d_out=None,
        output_measure=None,
        alpha=None,
    ) -> Query:
        """A query whose release is a nested Context: a compositor over this query's space (after
        its transformations), splitting ``d_out`` (default: this query's loss) the same way."""
        d_out = d_out if d_out is not None else self._d_out
        if d_out is None:
            raise ContextArgumentError("the query has no loss to split: give d_out", "d_out")
        if output_measure is not None and output_measure != self._output_measure:
            raise ContextTypeError(
                "a nested compositor under another measure (OpenDP's output_measure=, alpha=) is "
                "not built by certdp",
                parameter="output_measure",
            )
        chain, d_in = self._chain, self._d_in
        if isinstance(chain, tuple):
            domain, metric = chain
        elif isinstance(chain, Transformation):
            domain, metric, d_in = chain.output_domain, chain.output_metric, chain.map(d_in)
        else:
            raise ContextArgumentError(
                "a nested compositor follows a space or a transformation", parameter="query"
            )
        if split_evenly_over is None and split_by_weights is None:
            raise ContextArgumentError(
                "give split_evenly_over or split_by_weights", parameter="split_evenly_over"
            )
        accountant, d_in, d_mids, _ = _accountant(
            domain,
            (metric, d_in),
            (self._output_measure, d_out),
            split_evenly_over,
            split_by_weights,
        )
        inner = accountant
        if isinstance(chain, Transformation):
            accountant = chain >> accountant

        def nested(queryable):
            return Context(inner, queryable, d_in, d_mids, d_out, query_space=(domain, metric))

        return Query(accountant, self._output_measure, self._d_in, d_out, self._context, nested)

    def param(self, allow_transformations=False, bounds=None, T=None):
        """The parameter the search found, or ``None`` when none was left out."""
        resolved = self.resolve(allow_transformations=allow_transformations, bounds=bounds, T=T)
        return getattr(resolved, "param", None)


class PartialChain:
    """A chain missing one numeric parameter: ``fix`` finds it by the binary search."""

    def __init__(self, f, *args, **kwargs):
        self.partial = partial(f, *args, **kwargs)

    def __call__(self, value):
        return self.partial(value)

    # proof: begin fix
    def fix(self, d_in, d_out, output_measure=None, bounds=None, T=None):
        """The chain at the parameter the search returns: ``check(d_in, d_out)`` passed there
        (after the conversion to ``output_measure``) and failed at its neighbour."""
        from certdp.combinators._search import binary_search

        def passes(value):
            return _cast_measure(self(value), output_measure, d_out).check(
                d_in, d_out
            )  # label: fix-check

        value = binary_search(passes, bounds=bounds, T=T)  # label: fix-search
        chain = self.partial(value)
        chain.param = value
        return chain

    # proof: end fix

    def __rshift__(self, other):
        if isinstance(other, (Transformation, Measurement, PartialConstructor)):
            return PartialChain(lambda value: self(value) >> other)
        raise ContextArgumentError("at most one parameter may be left out", parameter="query")

    def __rrshift__(self, other):
        if isinstance(other, (tuple, Transformation, Measurement)):
            return PartialChain(lambda value: other >> self(value))
        raise ContextArgumentError("at most one parameter may be left out", parameter="query")

    @classmethod
    def wrap(cls, f):
        """``f`` returning a :class:`PartialChain` instead of a chain."""

        def wrapped(*args, **kwargs):
            return cls(f, *args, **kwargs)

        return wrapped


# proof: end context-module
