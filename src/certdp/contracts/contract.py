"""Contracts: the executable statement of a constructor's theorem.

A contract lists the constructor's preconditions (each with an id that its
proof also states) and the closed-form bound of its theorem as a sympy
expression in ``d_in`` and the constructor's parameters.  It is used twice:

* at run time, when contracts are enabled, :func:`certified` checks the
  preconditions on every constructor call, the output domain on every
  invocation, and that every map value is at least the exact bound;
* at test time, :meth:`Contract.verify` draws constructor arguments and
  neighbouring inputs with hypothesis and checks the guarantee exactly.
"""

from __future__ import annotations

import decimal
import inspect
import logging
import numbers
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, Callable

import sympy

from certdp.core.errors import ContractError, DPError

from .wrapper import certified, contract_of

__all__ = [
    "D_IN",
    "Precondition",
    "Contract",
    "TransformationContract",
    "MeasurementContract",
    "Postcondition",
    "StabilityViolation",
    "PrivacyViolation",
    "VerificationReport",
    "certified",
    "contract_of",
    "as_rational",
    "at_least",
]

# proof: begin exact-values
log = logging.getLogger("certdp.contracts")

#: The input distance, the free variable of every bound.
D_IN = sympy.Symbol("d_in", nonnegative=True)


def _exact_float(value: sympy.Float) -> sympy.Expr:
    """The exact value of a sympy ``Float``: the rational of its binary value, ``oo``/``-oo``
    for the infinities, ``nan`` for NaN (which no comparison decides)."""
    if value.is_finite:
        return sympy.Rational(value)  # label: float-rational
    if value.is_infinite:
        return sympy.oo if value > 0 else -sympy.oo
    return sympy.nan


def as_rational(value) -> sympy.Expr:
    """An exact sympy number for an int, float, Fraction or sympy value (``oo``, ``-oo`` for the
    infinities; every sympy ``Float`` in a sympy value replaced by its exact binary value, so
    that no arithmetic on it is rounded); anything else (NaN, a string, a tuple, ...) is a
    :class:`ContractError`."""
    if isinstance(value, sympy.Basic):
        floats = value.atoms(sympy.Float)
        if not floats:
            return value
        with sympy.evaluate(False):  # no node rebuilt here is evaluated (a huge power)
            exact = value.xreplace({f: _exact_float(f) for f in floats})  # label: exact-floats
        if _work_bits(exact) is None:  # label: floats-too-big
            return exact  # left unevaluated: at_least tries only its enclosure
        return _evaluated(exact)  # label: floats-evaluated
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return sympy.oo if value > 0 else -sympy.oo  # label: infinite
    if isinstance(value, (numbers.Rational, float, decimal.Decimal)):
        try:
            fraction = Fraction(value)  # label: fraction
        except (ValueError, OverflowError, TypeError):  # NaN (a Decimal infinity or NaN too)
            fraction = None
        if fraction is not None:
            return sympy.Rational(fraction.numerator, fraction.denominator)
    raise ContractError(  # label: not-a-number
        f"{type(value).__name__} value {value!r} is not a number the contract can compare",
        condition="exact-value",
    )


#: The working precisions (bits) of the interval evaluations of ``at_least``, tried in turn: a
#: difference as small as a float's last bit among values near 1 (2**-1074) needs about 1100
#: bits, its square (a Renyi divergence) about 2200; 8192 bits bound the work.
PRECISIONS = (128, 512, 2048, 8192)


#: The largest magnitude of an integer exponent, or of the argument of an exponential, that
#: :func:`_enclosure` evaluates (beyond it mpmath's work grows with the exponent's bits).
EXPONENT_LIMIT = 2**256


def _exp(context, argument):
    """An interval holding ``exp`` of every point of ``argument``: ``context.exp(argument)``
    when both ends lie in ``[-EXPONENT_LIMIT, EXPONENT_LIMIT]``; when the lower end lies below,
    ``[0, u]`` with ``u`` the upper end for the argument's part above ``-EXPONENT_LIMIT``, or
    the exact ``2**-EXPONENT_LIMIT`` when there is none (``exp(x) < 2**x <= 2**-L`` for
    ``x <= -L``); ``ValueError`` when an end is not finite or the upper end is above the limit."""
    import mpmath

    low, high = mpmath.mpf(argument.a), mpmath.mpf(argument.b)
    if not (mpmath.isfinite(low) and mpmath.isfinite(high)) or high > EXPONENT_LIMIT:
        raise ValueError("an exponential of an argument beyond the limit")  # label: iv-exp-limit
    if low >= -EXPONENT_LIMIT:
        return context.exp(argument)  # label: iv-exp
    if high < -EXPONENT_LIMIT:  # label: iv-exp-tiny
        return context.mpf([0, mpmath.ldexp(1, -EXPONENT_LIMIT)])
    upper = context.exp(context.mpf([-EXPONENT_LIMIT, high])).b  # label: iv-exp-part
    return context.mpf([0, upper])


def _enclosure(expr, context):
    """An interval of ``context`` (``mpmath.iv`` at some precision) holding the exact value of
    the closed sympy number ``expr``: rationals, exact floats, ``E``, ``pi``, ``+``, ``*``,
    powers, ``exp``, ``log``, ``Abs``; anything else raises ``ValueError`` (so does the log of
    an interval reaching 0).  mpmath's interval arithmetic rounds every endpoint outward."""
    if expr.is_Rational:
        return context.mpf(int(expr.p)) / context.mpf(int(expr.q))  # label: iv-rational
    if expr.is_Float:
        rational = sympy.Rational(expr)  # a binary float's exact value
        return context.mpf(int(rational.p)) / context.mpf(int(rational.q))
    if expr is sympy.E:
        return context.e
    if expr is sympy.pi:
        return context.pi
    parts = [_enclosure(arg, context) for arg in expr.args]
    if expr.is_Add:
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        return total
    if expr.is_Mul:
        product = parts[0]
        for part in parts[1:]:
            product = product * part
        return product
    if expr.is_Pow:
        base, exponent = parts
        if expr.exp.is_Integer:
            if abs(int(expr.exp)) > EXPONENT_LIMIT:  # label: iv-exponent-limit
                raise ValueError("an integer exponent beyond the limit")
            return base ** int(expr.exp)  # label: iv-integer-power
        if not base.a > 0:
            raise ValueError("a fractional power of an interval reaching 0")
        return _exp(context, exponent * context.log(base))  # label: iv-power
    if isinstance(expr, sympy.exp):
        return _exp(context, parts[0])
    if isinstance(expr, sympy.log):
        if not parts[0].a > 0:
            raise ValueError("the log of an interval reaching 0")
        return context.log(parts[0])  # label: iv-log
    if isinstance(expr, sympy.Abs):
        return abs(parts[0])
    raise ValueError(f"no interval rule for {type(expr).__name__}")  # label: iv-unknown


def _sign(difference) -> int | None:
    """The sign (1 or -1) of the closed sympy number ``difference``, from an interval enclosure
    that excludes 0 with finite ends, at the first of :data:`PRECISIONS` that gives one;
    ``None`` when none does (an exact zero, a rule missing, or too close to 0)."""
    import mpmath
    from mpmath.ctx_iv import MPIntervalContext

    context = MPIntervalContext()  # its own precision: the shared ``mpmath.iv`` is left alone
    for bits in PRECISIONS:  # label: precisions
        context.prec = bits
        try:
            interval = _enclosure(difference, context)
        except (ValueError, ZeroDivisionError, TypeError, ArithmeticError):
            return None  # no rule, or the expression is not a finite real number
        low, high = mpmath.mpf(interval.a), mpmath.mpf(interval.b)  # exact endpoint values
        if not (mpmath.isfinite(low) and mpmath.isfinite(high)):
            continue
        if low > 0:  # label: iv-positive
            return 1
        if high < 0:  # label: iv-negative
            return -1
    return None


#: The most bits of integers that sympy's arithmetic on the two sides may be asked to build
#: (:func:`_work_bits`): beyond it only the enclosure of the unevaluated difference is tried.
WORK_BITS = 2**24

#: ``simplify`` is tried only on a difference whose estimate (:func:`_work_bits`) is at most
#: this many bits: its time grows fast with the integers' size (``exp(2**4000)`` takes seconds).
SIMPLIFY_BITS = 2**12


def _evaluated(expr) -> sympy.Expr:
    """``expr`` rebuilt bottom-up with sympy's evaluation on (as ``xreplace`` rebuilds)."""
    if not expr.args or expr.is_Rational:
        return expr
    return expr.func(*(_evaluated(argument) for argument in expr.args))


def _work_bits(expr) -> int | None:
    """An over-estimate of the bits of the integers that evaluating the closed sympy number
    ``expr`` can build: a rational's numerator and denominator bits, a power's base estimate
    times its exponent's magnitude (at most ``2**(bits of the exponent)`` when the exponent
    is not a rational), a sum of the arguments' estimates for any other node; ``None`` when
    it exceeds :data:`WORK_BITS`."""
    if expr.is_Rational:
        bits = int(expr.p).bit_length() + int(expr.q).bit_length()  # label: bits-rational
    elif expr.is_Pow:
        base, exponent = _work_bits(expr.base), _work_bits(expr.exp)
        if base is None or exponent is None:
            return None
        if expr.exp.is_Rational:
            magnitude = max(1, abs(int(expr.exp.p)) + int(expr.exp.q))
        elif exponent <= 64:
            magnitude = 2**exponent
        else:
            return None
        bits = base * magnitude  # label: bits-power
    else:
        bits = 1
        for argument in expr.args:
            part = _work_bits(argument)
            if part is None:
                return None
            bits += part
    return bits if bits <= WORK_BITS else None  # label: bits-bound


def at_least(value, bound) -> bool:
    """Exactly: is ``value >= bound``?

    Rationals and infinities are compared exactly.  Otherwise the difference, as given and
    then simplified, is enclosed in an interval (mpmath's outward-rounded interval arithmetic)
    at 128, 512, 2048 and 8192 bits until the interval excludes 0; a candidate that simplifies
    to the exact zero means equality.  sympy's own relation is not asked: it calls two values
    equal when a low-precision evaluation of their difference gives 0 (log(1 + 2**-1074) and
    0, say).  When none of these decides (an exact zero sympy cannot recognise, or a
    difference below 2**-8000 or so), this raises :class:`ContractError` with condition
    ``undecided``: the check could not decide, which is not a violation found.  Sides whose
    evaluation could build integers of more than :data:`WORK_BITS` bits (:func:`_work_bits`)
    are never handed to sympy's arithmetic: only the enclosure of their unevaluated
    difference is tried, and otherwise the answer is ``undecided``.  An expression nested too
    deep for Python's recursion limit is ``undecided`` too.
    """
    try:
        return _at_least(value, bound)
    except RecursionError:  # label: too-deep
        raise ContractError(
            "cannot decide exactly whether the value is at least the bound: an expression is "
            "nested too deep to be read; no violation was found",
            condition="undecided",
        ) from None


def _at_least(value, bound) -> bool:
    """:func:`at_least` for expressions within Python's recursion limit."""
    value, bound = as_rational(value), as_rational(bound)
    infinities = (sympy.oo, -sympy.oo)
    if value in infinities or bound in infinities:  # label: infinite-sides
        return value == sympy.oo or bound == -sympy.oo or value == bound
    if value.is_Rational and bound.is_Rational:  # label: rationals
        return bool(value >= bound)
    if _work_bits(value) is None or _work_bits(bound) is None:  # label: work-bound
        # too big for sympy's arithmetic (an unevaluated huge power, say): only the
        # enclosure of the difference as given, no node of it evaluated, is tried
        unevaluated = sympy.Add(value, sympy.Mul(-1, bound, evaluate=False), evaluate=False)
        sign = _sign(unevaluated)  # label: evaluate-unevaluated
        if sign is not None:
            return sign > 0
        raise ContractError(  # label: undecided-too-big
            f"cannot decide exactly whether {_shown(value)} >= {_shown(bound)}: evaluating "
            f"them could build integers of more than {WORK_BITS} bits, and the interval "
            "enclosure of their difference decides nothing; no violation was found",
            condition="undecided",
        )
    difference = value - bound
    small = _work_bits(difference)
    tried = (False, True) if small is not None and small <= SIMPLIFY_BITS else (False,)
    for simplified in tried:  # label: candidates
        try:
            candidate = sympy.simplify(difference) if simplified else difference
        except (ValueError, ArithmeticError, RecursionError):  # sympy gave up (huge integers)
            break
        if candidate == 0:  # label: exact-zero
            return True
        sign = _sign(candidate)  # label: evaluate
        if sign is not None:
            return sign > 0  # label: sign
    raise ContractError(  # label: undecided
        f"cannot decide exactly whether {_shown(value)} >= {_shown(bound)} (their difference "
        "may be an exact zero sympy does not recognise, or below 2**-8000); no violation was "
        "found",
        condition="undecided",
    )


def _shown(number) -> str:
    """``number`` printed, cut to 200 characters (a number too long to print is named so)."""
    try:
        text = str(number)
    except ValueError:  # Python refuses to print integers of more than 4300 digits
        return "(a number too long to print)"
    return text if len(text) <= 200 else text[:200] + "..."


# proof: end exact-values


@dataclass(frozen=True)
class Precondition:
    """A named condition on a constructor's arguments that its proof assumes."""

    id: str
    holds: Callable[[SimpleNamespace], bool]
    message: str
    parameter: str | None = None


class StabilityViolation(ContractError):
    """A concrete pair of inputs whose outputs are further apart than the map allows."""

    def __init__(self, *, x, x_prime, d_in, d_out_observed, d_out_stated):
        self.x, self.x_prime = x, x_prime
        self.d_in, self.d_out_observed, self.d_out_stated = d_in, d_out_observed, d_out_stated
        super().__init__(
            f"inputs at distance <= {d_in} gave outputs at distance {d_out_observed}, "
            f"more than the map's {d_out_stated}: x={x!r}, x'={x_prime!r}",
            condition="stability",
        )


class PrivacyViolation(ContractError):
    """A concrete pair of inputs and an output whose likelihood ratio exceeds the map."""

    def __init__(self, *, x, x_prime, d_in, divergence, d_out_stated, witness=None):
        self.x, self.x_prime, self.witness = x, x_prime, witness
        self.d_in, self.divergence, self.d_out_stated = d_in, divergence, d_out_stated
        super().__init__(
            f"inputs at distance <= {d_in} have divergence {divergence} > map's {d_out_stated} "
            f"at output {witness!r}: x={x!r}, x'={x_prime!r}",
            condition="privacy",
        )


@dataclass
class VerificationReport:
    """What a verification run saw: how many examples, and how tight the map was."""

    constructor: str
    examples: int = 0
    max_tightness: float = 0.0
    tightest: Any = None

    def observe(self, tightness: float, example) -> None:
        self.examples += 1
        if tightness > self.max_tightness or self.tightest is None:
            self.max_tightness = max(tightness, self.max_tightness)
            self.tightest = example

    def __str__(self) -> str:
        return (
            f"{self.constructor}: {self.examples} examples, tightest observed "
            f"d_out / map(d_in) = {self.max_tightness:.6g}"
        )


@dataclass
class Contract:
    """The theorem of one constructor, in executable form.

    ``bound`` is the proof's closed-form map as a sympy expression in
    :data:`D_IN` and the symbols that ``parameters(args, built)`` assigns.
    ``arguments`` returns a hypothesis strategy of keyword-argument dicts for
    valid constructor calls; ``d_in`` one of input distances for a built object.
    """

    constructor: Callable
    preconditions: list[Precondition]
    bound: sympy.Expr
    parameters: Callable[[SimpleNamespace, Any], dict] = lambda args, built: {}
    arguments: Callable[[], Any] | None = None
    d_in: Callable[[Any], Any] | None = None
    #: Errors a valid call may still raise (e.g. overflow refusals); verify skips those draws.
    refusals: tuple[type[DPError], ...] = ()
    #: A proof's weakened errors item: the built function raises a ``DPError`` on a member
    #: exactly when this public property of it (given the constructor's keyword arguments)
    #: holds, the same for every member at a finite distance (e.g. the length under an
    #: L-infinity distance); called as ``raises_on(member, kwargs)``; ``None``: never raises.
    raises_on: Callable[[Any, dict], bool] | None = None
    #: The arguments whose built objects the tests invoke (default: ``arguments``); narrower
    #: where a valid call runs for a long time by design (a tiny stop probability).
    invocation_arguments: Callable[[], Any] | None = None
    datasets_max_size: int = 12
    kind = "contract"

    @property
    def name(self) -> str:
        return self.constructor.__name__

    @property
    def precondition_ids(self) -> list[str]:
        return [precondition.id for precondition in self.preconditions]

    # -- run time -------------------------------------------------------------
    # proof: begin contract-runtime
    def bind(self, args, kwargs) -> SimpleNamespace:
        signature = inspect.signature(inspect.unwrap(self.constructor))
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return SimpleNamespace(**bound.arguments)

    def check_preconditions(self, arguments: SimpleNamespace) -> None:
        for precondition in self.preconditions:
            try:
                holds = precondition.holds(arguments)
            except Exception:  # a predicate that cannot even be evaluated does not hold
                holds = False
            if not holds:
                raise ContractError(
                    f"{self.name}: {precondition.message}",
                    condition=precondition.id,
                    parameter=precondition.parameter,
                )

    def exact_bound(self, arguments: SimpleNamespace, built, d_in) -> sympy.Expr:
        substitutions = {D_IN: as_rational(d_in)}
        substitutions.update(
            {
                symbol: as_rational(value)
                for symbol, value in self.parameters(arguments, built).items()
            }
        )
        return self.bound.subs(substitutions)

    # proof: end contract-runtime

    # -- test time ------------------------------------------------------------
    def verify(
        self, *, max_examples: int | None = None, map_override=None, data_form=None
    ) -> VerificationReport:
        """Search for inputs that break the guarantee; raise the first one found.

        ``map_override`` replaces the map under test (to show a wrong map is refuted).
        ``data_form(dataset, domain)`` re-expresses each drawn dataset (a list) in another form
        holding the same values, e.g. a NumPy array of some dtype, byte order or stride; it
        returns ``None`` when the dataset has no such form, and the draw is then skipped.
        """
        from hypothesis import HealthCheck, assume, given, settings, target
        from hypothesis import strategies as st

        from .neighbours import distances_for, large_distances_for, neighbours, usable_by_pairs

        report = VerificationReport(self.name)

        @given(st.data())
        def search(data):
            kwargs = data.draw(self.arguments(), label="arguments")
            try:
                built = self.constructor(**kwargs)
            except self.refusals:
                assume(False)
            if map_override is None:
                # the map against the exact bound where float arithmetic stops being exact
                # (2**53 +- 1, 2**63, 2**64, ...) and at the largest distance it accepts
                for far in large_distances_for(built):
                    Postcondition(self, self.bind((), kwargs)).check_map(built, far, built.map(far))
            d_in_strategy = self.d_in(built) if self.d_in else distances_for(built)
            d_in = data.draw(d_in_strategy, label="d_in")
            x, x_prime = data.draw(
                neighbours(
                    built.input_domain, built.input_metric, d_in, max_size=self.datasets_max_size
                ),
                label="neighbours",
            )
            if data_form is not None:
                x, x_prime = (data_form(data, built.input_domain) for data in (x, x_prime))
                assume(x is not None and x_prime is not None)
            stated = map_override(d_in) if map_override else built.map(d_in)
            tightness = self.check_pair(built, kwargs, x, x_prime, d_in, stated)
            if usable_by_pairs(built.input_metric, d_in, self.datasets_max_size):
                # (a d_in beyond what small datasets can use tests only the map's value)
                target(tightness, label="d_out / map(d_in)")
            report.observe(tightness, (kwargs, d_in, x, x_prime))
            if map_override is None:
                arguments = self.bind((), kwargs)
                Postcondition(self, arguments).check_map(built, d_in, stated)

        # constructing objects inside the search is slow by hypothesis's standards, not a bug
        overrides = {
            "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
            "deadline": None,  # exact (sympy, mpmath) checks of one example may take a while
        }
        if max_examples is not None:
            overrides["max_examples"] = max_examples
        settings(settings(), **overrides)(search)()
        return report

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        raise NotImplementedError


@dataclass
class TransformationContract(Contract):
    """Contract of a stable transformation: output domain and stability."""

    kind = "transformation"

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        outputs = built(x), built(x_prime)
        for output in outputs:
            if not built.output_domain.member(output):
                raise ContractError(
                    f"{self.name}: output {output!r} is not in {built.output_domain}",
                    condition="output-domain",
                )
        metric = built.output_metric
        if not metric.close(*outputs, stated):
            raise StabilityViolation(
                x=x,
                x_prime=x_prime,
                d_in=d_in,
                d_out_observed=metric.distance(*outputs),
                d_out_stated=stated,
            )
        observed = metric.distance(*outputs)
        return float(as_rational(observed) / as_rational(stated)) if stated else 0.0


@dataclass
class MeasurementContract(Contract):
    """Contract of a private measurement: the privacy guarantee.

    ``divergence(built, kwargs, x, x_prime)`` returns ``(divergence, witness)``: the
    exact max-divergence between the output distributions on ``x`` and ``x_prime``
    (or an exact lower bound of it found at output ``witness``).
    """

    divergence: Callable | None = None
    kind = "measurement"

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        divergence, witness = self.divergence(built, kwargs, x, x_prime)
        if not at_least(stated, divergence):
            raise PrivacyViolation(
                x=x,
                x_prime=x_prime,
                d_in=d_in,
                divergence=divergence,
                d_out_stated=stated,
                witness=witness,
            )
        if not stated:
            return 0.0
        ratio = as_rational(divergence) / as_rational(stated)
        return float(ratio) if ratio.is_finite else 1.0  # both infinite: as tight as it gets


# proof: begin postcondition
class Postcondition:
    """The runtime checks a contract attaches to an object it built."""

    def __init__(self, contract: Contract, arguments: SimpleNamespace):
        self.contract = contract
        self.arguments = arguments

    def check_map(self, built, d_in, d_out) -> None:
        custom = getattr(self.contract, "check_map_value", None)
        if custom is not None:  # measures whose distances are not numbers (pairs, profiles)
            custom(self.arguments, built, d_in, d_out)
            return
        bound = self.contract.exact_bound(self.arguments, built, d_in)
        condition = "stability-map" if self.contract.kind == "transformation" else "privacy-map"
        if not at_least(d_out, bound):
            shortfall = (bound - as_rational(d_out)).evalf(20)
            raise ContractError(
                f"{self.contract.name}: map({d_in}) = {d_out!r} is below the proof's bound "
                f"{self.contract.bound} = {bound} by {shortfall}",
                condition=condition,
            )
        slack = (as_rational(d_out) - bound).evalf(20) if d_out != float("inf") else sympy.oo
        built.last_map_slack = slack
        log.debug(
            "%s: map(%s) = %r exceeds the proof's bound by %s",
            self.contract.name,
            d_in,
            d_out,
            slack,
        )

    def check_output(self, built, arg, answer) -> None:
        if not built.output_domain.member(answer):
            raise ContractError(
                f"{self.contract.name}: the output is not a member of {built.output_domain}",
                condition="output-domain",
            )


# proof: end postcondition
