"""What binds an SMT obligation to the code: instances at which the real constructor is built and
its own map is called, and the record of what a machine check covers.

Guarantee: :data:`F64_SAMPLES` is a fixed list (the same on every run, so a result's
fingerprint names what was checked) of non-negative f64 values spanning the whole range of the
format: zero, the smallest subnormal, subnormals, the smallest normal, values around 1, the
points where a square or a sum overflows, the largest finite value, ``+inf``, and values drawn
from a seeded generator over every exponent.  :func:`stub_measurement` is a measurement whose
privacy map returns a given value, so a combinator built on it is the real combinator, and its
map is the real map applied to that inner loss.  :func:`traced` runs the code and returns what
it returned together with the arguments, results and last local variables of the functions it
called by name, so an obligation can read the code's own intermediate values.
"""

from __future__ import annotations

import math
import random
import struct
import sys
from dataclasses import dataclass
from fractions import Fraction

import z3

__all__ = [
    "F64_SAMPLES",
    "F64_MAX",
    "stub_measurement",
    "traced",
    "exact",
    "Scope",
]

F64_MAX = 1.7976931348623157e308


def _f64_from_bits(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _samples() -> list[float]:
    edges = [
        0.0, 5e-324, 1e-320, 2.2250738585072014e-308, 1e-300, 1e-150, 1e-10, 1e-3, 0.1, 0.5,
        1.0, 1.5, 2.0, 3.0, 10.0, 1e3, 1e10, 1e150, 1.3407807929942596e154,
        1.3407807929942597e154, 1e300, 8.98846567431158e307, F64_MAX, math.inf,
    ]  # fmt: skip
    draw = random.Random(20261126)
    # positive finite f64 bit patterns: every exponent equally likely
    drawn = [_f64_from_bits(draw.randrange(1, 0x7FF0000000000000)) for _ in range(12)]
    return sorted(set(edges + drawn))


#: Non-negative f64 inputs over the whole range of the format (see the module docstring).
F64_SAMPLES = _samples()


def stub_measurement(loss, measure):
    """A measurement on f64 atoms whose privacy map returns ``loss`` for every ``d_in``: the
    inner measurement of a combinator instance (the combinators read only its map)."""
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance
    from certdp.core.transformation import Measurement

    return Measurement(
        atom_domain(T="f64", nan=False), lambda x: x, absolute_distance(T="f64"), measure,
        lambda d_in: loss,
    )  # fmt: skip


def traced(call, watched: tuple[str, ...]):
    """``(value, records)``: ``value = call()``, and for every call of a function whose name is
    in ``watched`` (in any module), in order, ``(name, arguments, result, last locals)``.

    The code runs unchanged; a tracer only reads its frames (``sys.settrace``), so the values
    are the ones the code computed."""
    records: list[tuple[str, dict, object, dict]] = []
    previous = sys.gettrace()

    def local(frame, event, argument):
        if event == "return":
            code = frame.f_code
            names = code.co_varnames[: code.co_argcount]
            arguments = {name: frame.f_locals.get(name) for name in names}
            records.append((code.co_name, arguments, argument, dict(frame.f_locals)))
        return local

    def tracer(frame, event, argument):
        if event == "call" and frame.f_code.co_name in watched:
            return local
        return None

    sys.settrace(tracer)
    try:
        value = call()
    finally:
        sys.settrace(previous)
    return value, records


def exact(value) -> z3.ArithRef:
    """A finite number (int, float, Fraction) as an exact z3 real."""
    value = Fraction(value)
    return z3.RealVal(f"{value.numerator}/{value.denominator}")


@dataclass(frozen=True)
class Scope:
    """What the machine check of one name covers, stated once and rendered by ``certdp
    prove``, the audit, the proof's first page and the docs.

    ``formats``: the number formats in which inputs range (``f64``, ``f32``, reduced formats
    such as ``f8``, ``real`` for exact reals); ``sizes``: the dataset sizes ``N`` (empty when the
    theorem has no dataset); ``bound_to_code``: how the obligations take the map from the real
    constructor; ``bit_precise``: the parts checked bit for bit in IEEE or bit-vector
    arithmetic; ``reduced_formats``: the parts checked only in a reduced format (never the
    code's own); ``abstractions``: the parts checked in exact real arithmetic on an
    abstraction of the code; ``free_functions``: functions left uninterpreted (only the stated
    facts about them are assumed); ``assumed``: what the check takes from a proof instead of
    checking; ``instances``: the concrete instances (parameters, ``d_in``) at which the real
    map is evaluated."""

    formats: tuple[str, ...]
    bound_to_code: str
    sizes: tuple[int, ...] = ()
    bit_precise: tuple[str, ...] = ()
    reduced_formats: tuple[str, ...] = ()
    abstractions: tuple[str, ...] = ()
    free_functions: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()
    instances: str = ""

    def sentences(self) -> list[str]:
        """The scope as plain sentences, in a fixed order."""
        parts = [f"Formats: {', '.join(self.formats)}."]
        if self.sizes:
            parts.append(f"Dataset sizes N: {', '.join(str(n) for n in self.sizes)}.")
        parts.append(f"Bound to the code: {self.bound_to_code}.")
        if self.instances:
            parts.append(f"Instances: {self.instances}.")
        for title, items in (
            ("Bit-precise", self.bit_precise),
            ("Only in a reduced format", self.reduced_formats),
            ("Exact-real abstraction", self.abstractions),
            ("Free (uninterpreted) functions", self.free_functions),
            ("Assumed, not machine-checked", self.assumed),
        ):
            if items:
                parts.append(f"{title}: " + "; ".join(items) + ".")
        return parts

    def text(self) -> str:
        return " ".join(self.sentences())

    def as_dict(self) -> dict:
        return {
            "formats": list(self.formats),
            "sizes": list(self.sizes),
            "bound_to_code": self.bound_to_code,
            "instances": self.instances,
            "bit_precise": list(self.bit_precise),
            "reduced_formats": list(self.reduced_formats),
            "abstractions": list(self.abstractions),
            "free_functions": list(self.free_functions),
            "assumed": list(self.assumed),
        }
