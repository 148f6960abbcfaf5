"""SMT model of ``make_randomized_response_bitvec``, bound to the code.

* ``map``: the real constructor is built over ``bitvector_domain(max_weight=m, size=n)`` for
  the weights of :data:`WEIGHTS` and every ``f`` of :data:`FS`, and its own map is called at
  every ``d_in`` of :data:`D_INS`; a case is satisfiable exactly when the value is below the
  exact loss ``2 m ln((2 - f) / f)`` (``d_in >= 1``; ``0`` below that);
* ``bits``: the real release function is run with its draws scripted (:func:`scripted_run`:
  ``bernoulli_ratio`` and ``entropy_source`` of its module replaced).  For every script of
  :func:`scripts` (all ``2^n`` scripts at 8 bits, and at 16 bits for ``f = 1/2`` on the
  alternate-bits input; otherwise every script with at most two flips, and all flips) and every
  input of :func:`inputs`, the function must make
  exactly ``n`` draws, each ``bernoulli_ratio(n', d')`` with ``n' / d' = f / 2``, and release
  exactly ``x XOR mask``, ``mask`` holding bit ``i`` when draw ``i`` came out true, as bytes of
  the input's length.  Every position, the last one included (OpenDP #2707), is thus flipped
  by its own draw, and only by it; the draws being independent exact trials (assumed), the
  output law is the product of independent ``f / 2`` flips.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.measurements._randomized_response.smt_support import (
    NeedDraw,
    below_scaled_abs_log,
    scripted_run,
)

_NAME = "make_randomized_response_bitvec"
WEIGHTS = (0, 1, 4, 1000)
SIZES = (8, 16, 24)
#: (size, f, input) whose every script is run; None: any f or input.  Elsewhere the scripts
#: with at most two flips, and all flips.
EVERY_SCRIPT = ((8, None, None), (16, 0.5, b"\x55\x55"))
FS = (5e-324, 0.25, 0.5, 0.95, 0.9999999999999999, 1.0)
D_INS = (0, 0.5, 1, 2, 2**40)


def built(weight, size, f):
    from certdp.core.bitvector_domain import bitvector_domain
    from certdp.core.change_metrics import discrete_distance

    from .make_randomized_response_bitvec import make_randomized_response_bitvec

    domain = bitvector_domain(max_weight=weight, size=size)
    return make_randomized_response_bitvec(domain, discrete_distance(), f)


def map_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for weight in WEIGHTS:
            for f in FS:
                measurement = built_of(weight, 24, f)
                q = Fraction(f) / 2
                for d_in in D_INS:
                    value = measurement.map(d_in)
                    if d_in < 1:
                        below = exact(value) < 0
                    else:
                        below = below_scaled_abs_log(value, 2 * weight, (1 - q) / q)
                    example = {"max_weight": weight, "f": f, "d_in": d_in, "map": repr(value)}
                    cases.append((below, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response_bitvec, max_weight in {WEIGHTS}, f in {FS}, "
        f"d_in in {D_INS}: the map is >= 2 max_weight ln((2 - f) / f) for d_in >= 1",
        format="real", size=1, violation=violation,
    )  # fmt: skip


def _every_script(size, f, x):
    return any(size == s and g in (None, f) and y in (None, x) for s, g, y in EVERY_SCRIPT)


def scripts(size, f, x):
    """The draw scripts run at ``size`` bits for ``f`` on ``x`` (outcome ``i`` is draw
    ``i``'s)."""
    if _every_script(size, f, x):
        yield from itertools.product((False, True), repeat=size)
        return
    yield (False,) * size
    yield (True,) * size
    for count in (1, 2):
        for flips in itertools.combinations(range(size), count):
            yield tuple(i in flips for i in range(size))


def inputs(size):
    """Inputs of ``size`` bits: none set, all set, the last one only, alternate bits."""
    length = size // 8
    return (bytes(length), b"\xff" * length, (1 << (size - 1)).to_bytes(length, "little"),
            b"\x55" * length)  # fmt: skip


def _released_wrongly(function, size, f, x, script):
    """Why the run of ``function`` on ``x`` under ``script`` breaks the law, or ``None``."""
    try:
        output, calls = scripted_run(function, x, script)
    except NeedDraw:
        return "more than size draws"
    if len(calls) != size:
        return f"{len(calls)} draws"
    for call in calls:
        if call[0] != "bernoulli" or Fraction(call[1], call[2]) != Fraction(f) / 2:
            return f"draw {call}"
    mask = sum(1 << i for i, outcome in enumerate(script) if outcome)
    wanted = (int.from_bytes(x, "little") ^ mask).to_bytes(len(x), "little")
    if type(output) is not bytes or output != wanted:
        return f"released {output!r}, not {wanted!r}"
    return None


def bits_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for size in SIZES:
            for f in FS:
                function = built_of(size // 8, size, f).function
                for x in inputs(size):
                    for script in scripts(size, f, x):
                        why = _released_wrongly(function, size, f, x, script)
                        if why is not None:
                            break
                    example = {"size": size, "f": f, "x": x.hex(), "script": "".join(
                        "1" if o else "0" for o in script), "why": why}  # fmt: skip
                    cases.append((z3.BoolVal(why is not None), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response_bitvec, size in {SIZES}, f in {FS}: every "
        "position below size, the last included, is flipped by its own bernoulli_ratio draw "
        "of probability exactly f / 2 and by nothing else (the real function run under "
        "scripted draws: every script at 8 bits, and at 16 bits for f = 0.5 on 0x5555; "
        "scripts with at most two flips and all flips otherwise; four inputs each)",
        format="real", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [map_instance(), bits_instance()]


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        sizes=(1,),
        bound_to_code="the real make_randomized_response_bitvec is built at each instance and "
        "its own map is called; its real function is run with bernoulli_ratio / entropy_source "
        "replaced by scripted outcomes, and its draws' arguments and its output are compared "
        "with x XOR mask",
        instances=f"max_weight in {WEIGHTS}, size 24 (map) or {SIZES} (bits), f in {FS}, "
        f"d_in in {D_INS}; bits: every script at 8 bits, and at 16 bits for f = 0.5 on 0x5555, "
        "elsewhere the scripts with at most two flips and all flips; inputs none set, all "
        "set, last bit only, alternate bits",
        abstractions=(
            "the logarithm enclosed by mpmath interval arithmetic, refined until the "
            "comparison with the map value is decided",
        ),  # fmt: skip
        assumed=(
            "bernoulli_ratio is an exact sampler (samplers/bernoulli.tex) and its draws are "
            "independent; the model checks the n, d the code passes",
            "sizes beyond 24 bits behave as the checked ones (the loop is not analysed "
            "symbolically)",
            "the max-divergence of two output laws is at most 2 m ln((2 - f) / f) (the proof)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/randomized_response_bitvec/make_randomized_response_bitvec.py"]}
