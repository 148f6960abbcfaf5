"""SMT model of ``nearest_grid_index`` and the bounded proof of the discretization lemma, for
every finite f64 (and f32) input and every grid exponent ``k``.

Exact encoding of a float.  Every finite value of f64 is an integer multiple of ``2^-1074``;
``scaled(x) = x * 2^1074`` is an integer of magnitude below ``2^2098``, built from the IEEE bits
of ``x`` (sign, biased exponent ``E``, fraction ``M``): ``M`` for a subnormal, else
``(2^52 + M) * 2^(E - 1)``.  A 2104-bit two's-complement bit-vector holds it and every quantity
below without overflow.  An f32 value is encoded the same way (``M * 2^925`` for a subnormal,
else ``(2^23 + M) * 2^(E + 924)``), on the same scale.

Model of ``nearest_grid_index(x, k) = floor(x / 2^k + 1/2)``: with ``j = k + 1074 >= 0``,
``floor((scaled(x) + 2^(j-1)) / 2^j)`` (an arithmetic right shift), and ``scaled(x)`` itself
when ``j = 0``.  ``tests/prove/test_laplace_model.py`` evaluates the model on random floats and
exponents and asserts it equals the code's integer.

Obligations (``k`` symbolic over ``[K_MIN[T], K_MAX[T]]``, ``x, x'`` over every finite value):

* ``nearest``: ``c 2^k - 2^(k-1) <= x < c 2^k + 2^(k-1)``: ``c`` is the index of the nearest
  multiple of ``2^k``, ties toward ``+inf`` (for ``k = K_MIN`` of f64, ``c 2^k = x``);
* ``discretization``: ``|c 2^k - c' 2^k| <= |x - x'| + relaxation(k)``, where
  ``relaxation(k)`` is the code's ``get_discretization_consts(k, T)[1]``, checked for every
  ``k`` to equal ``2^k - 2^K_MIN[T]`` before the solver uses that closed form.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

from .discretization import K_MAX, K_MIN, get_discretization_consts

__all__ = [
    "WIDTH",
    "scaled_value",
    "grid_index_model",
    "built_relaxation",
    "measurement_obligations",
    "obligations",
    "MODELLED",
]

#: Bits of the scaled integers: |x| 2^1074 < 2^2098, and the grid point c 2^j < 2^2099.
WIDTH = 2104
_SCALE = 1074  # every finite f64 is a multiple of 2^-1074
_LAYOUT = {"f64": (11, 52, 0), "f32": (8, 23, 1074 - 149)}  # exponent, fraction, subnormal shift


def finite(bits, T: str):
    ebits, fbits, _ = _LAYOUT[T]
    exponent = z3.Extract(fbits + ebits - 1, fbits, bits)
    return exponent != (1 << ebits) - 1


def scaled_value(bits, T: str):
    """``x * 2^1074`` as a WIDTH-bit integer, for the IEEE bits of a finite ``x`` of ``T``."""
    ebits, fbits, shift = _LAYOUT[T]
    exponent = z3.ZeroExt(WIDTH - ebits, z3.Extract(fbits + ebits - 1, fbits, bits))
    fraction = z3.ZeroExt(WIDTH - fbits, z3.Extract(fbits - 1, 0, bits))
    hidden = z3.BitVecVal(1 << fbits, WIDTH)
    subnormal = fraction << shift
    normal = (hidden + fraction) << (exponent + (shift - 1))
    magnitude = z3.If(exponent == 0, subnormal, normal)
    negative = z3.Extract(fbits + ebits, fbits + ebits, bits) == 1
    return z3.If(negative, -magnitude, magnitude)


def grid_index_model(scaled, j):
    """``floor(scaled / 2^j + 1/2)`` for ``j >= 0`` (a WIDTH-bit ``j``)."""
    one = z3.BitVecVal(1, WIDTH)
    return z3.If(j == 0, scaled, (scaled + (one << (j - 1))) >> j)


def grid_index_integer(scaled, j: int):
    """The same model in integer arithmetic (z3 ``Int``), for a concrete ``j``: SMT-LIB's
    ``div`` by a positive constant is the floor."""
    return scaled if j == 0 else (scaled + (1 << (j - 1))) / (1 << j)


def _relaxations_match_code(T: str) -> str | None:
    """``None`` if the code's relaxation is ``2^k - 2^K_MIN[T]`` for every ``k``, else a witness."""
    for k in range(K_MIN[T], K_MAX[T] + 1):
        _, relaxation = get_discretization_consts(k, T)
        if relaxation != Fraction(2) ** k - Fraction(2) ** K_MIN[T]:
            return f"k={k}: code relaxation {relaxation}"
    return None


def _grid_multiple(T: str, label: str):
    """An integer ``X`` with ``|X| < 2^2098`` that is a multiple of the spacing of ``T``'s
    subnormals (scaled: 1 for f64, ``2^925`` for f32): a superset of ``scaled(x)`` over the
    finite values ``x`` of ``T``; returns ``(X, constraint)``."""
    step = 1 << (K_MIN[T] + _SCALE)
    units = z3.Int(label)
    limit = (1 << 2098) // step
    return units * step, z3.And(-limit < units, units < limit)


def _nearest(T: str) -> Obligation:
    def violation():
        cases = []
        for k in range(K_MIN[T], K_MAX[T] + 1):
            j = k + _SCALE
            x, inside = _grid_multiple(T, "x")
            c = grid_index_integer(x, j)
            point, half = c * (1 << j), Fraction(1 << j, 2)
            if j == 0:
                nearest = point == x
            else:
                nearest = z3.And(point - int(half) <= x, x < point + int(half))
            cases.append(
                (
                    z3.And(inside, z3.Not(nearest)),
                    lambda m, x=x, k=k: {"x_scaled": str(m.eval(x)), "k": k},
                )
            )
        return cases

    return Obligation(
        constructor="nearest_grid_index",
        claim=f"every finite {T} x, every k in [{K_MIN[T]}, {K_MAX[T]}]: nearest multiple, ties up",
        format=T, size=1, violation=violation,
    )  # fmt: skip


def _discretization(T: str) -> Obligation:
    def violation():
        mismatch = _relaxations_match_code(T)
        if mismatch is not None:
            return z3.BoolVal(True), lambda m: {"relaxation": mismatch}
        cases = []
        for k in range(K_MIN[T], K_MAX[T] + 1):
            j = k + _SCALE
            (x, inside), (y, inside_y) = _grid_multiple(T, "x"), _grid_multiple(T, "y")
            gap = (grid_index_integer(x, j) - grid_index_integer(y, j)) * (1 << j)
            relaxation = (1 << j) - (1 << (K_MIN[T] + _SCALE))
            distance = z3.If(x >= y, x - y, y - x)
            holds = z3.And(gap <= distance + relaxation, -gap <= distance + relaxation)
            cases.append(
                (
                    z3.And(inside, inside_y, z3.Not(holds)),
                    lambda m, x=x, y=y, k=k: {
                        "x_scaled": str(m.eval(x)),
                        "y_scaled": str(m.eval(y)),
                        "k": k,
                    },
                )
            )
        return cases

    return Obligation(
        constructor="discretization",
        claim=f"every finite {T} x, x', every k in [{K_MIN[T]}, {K_MAX[T]}]: "
        "|round_k(x) - round_k(x')| <= |x - x'| + 2^k - 2^K_MIN",
        format=T, size=2, violation=violation,
    )  # fmt: skip


# -- the Laplace measurements ----------------------------------------------------------------

_MEASUREMENTS = {
    "make_float_laplace_cks20": "float_laplace_cks20",
    "make_vector_float_laplace_cks20": "vector_float_laplace_cks20",
    "make_integer_laplace": "integer_laplace",
    "make_vector_integer_laplace": "vector_integer_laplace",
}
#: Grid exponents at which the relaxation is read from built measurements (a build runs the
#: contracts, so not every k): the ends of the range and points between.
SAMPLED_K = {T: sorted({K_MIN[T], K_MIN[T] + 1, -1, 0, 1, K_MAX[T]}) for T in K_MIN}
_VECTOR_SIZE = 3


def built_relaxation(measurement) -> Fraction:
    """The exact relaxation the built measurement's privacy map adds to ``d_in``."""
    import inspect

    return inspect.getclosurevars(measurement._map).nonlocals["relaxation"]


def _vector_relaxation_mismatch(size: int) -> str | None:
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import l1_distance

    from ..vector_float_laplace_cks20 import make_vector_float_laplace_cks20

    for T in ("f32", "f64"):
        for k in SAMPLED_K[T]:
            domain = vector_domain(atom_domain(T=T, nan=False), size=size)
            built = make_vector_float_laplace_cks20(domain, l1_distance(T=T), 1.0, k)
            expected = size * (Fraction(2) ** k - Fraction(2) ** K_MIN[T])
            if built_relaxation(built) != expected:
                return f"{T} k={k} size={size}: code relaxation {built_relaxation(built)}"
    return None


def _atom_relaxation_mismatch(_size: int) -> str | None:
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance

    from ..float_laplace_cks20 import make_float_laplace_cks20

    for T in ("f32", "f64"):
        for k in SAMPLED_K[T]:
            built = make_float_laplace_cks20(
                atom_domain(T=T, nan=False), absolute_distance(T=T), 1.0, k
            )
            expected = Fraction(2) ** k - Fraction(2) ** K_MIN[T]
            if built_relaxation(built) != expected:
                return f"{T} k={k}: code relaxation {built_relaxation(built)}"
    return None


def _integer_relaxation_mismatch(vector: bool):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import absolute_distance, l1_distance

    from ..integer_laplace import make_integer_laplace
    from ..vector_integer_laplace import make_vector_integer_laplace

    def mismatch(_size):
        for T in ("i8", "u32", "i64", "u128"):
            if vector:
                domain, metric = vector_domain(atom_domain(T=T)), l1_distance(T=T)
                built = make_vector_integer_laplace(domain, metric, 1.0)
            else:
                domain, metric = atom_domain(T=T), absolute_distance(T=T)
                built = make_integer_laplace(domain, metric, 1.0)
            if built_relaxation(built) != 0:
                return f"{T}: code relaxation {built_relaxation(built)}"
        return None

    return mismatch


_SCALES = (1.0, 0.3, 1e-3, 1e3)
_D_INS = (0, 0.5, 1, 2, 1e10)


def _built_laplace(name: str, T: str, size, k, scale, D=None):
    """The real measurement ``name`` over ``T`` (atom if ``size`` is None), measured by the
    distance type ``D`` (``T`` when None; a float type over integers)."""
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import absolute_distance, l1_distance

    from ..float_laplace_cks20 import make_float_laplace_cks20
    from ..integer_laplace import make_integer_laplace
    from ..vector_float_laplace_cks20 import make_vector_float_laplace_cks20
    from ..vector_integer_laplace import make_vector_integer_laplace

    constructor = {
        "make_float_laplace_cks20": make_float_laplace_cks20,
        "make_vector_float_laplace_cks20": make_vector_float_laplace_cks20,
        "make_integer_laplace": make_integer_laplace,
        "make_vector_integer_laplace": make_vector_integer_laplace,
    }[name]
    D = D or T
    integer = T.startswith(("i", "u"))
    atom = atom_domain(T=T) if integer else atom_domain(T=T, nan=False)
    if size is None:
        return constructor(atom, absolute_distance(T=D), scale, k)
    domain = vector_domain(atom, size=None if integer else size)
    return constructor(domain, l1_distance(T=D), scale, k)


def _code_cases(name: str) -> list[tuple]:
    """(type, vector length or None, k, distance type or None for the type itself) at which
    the real map of ``name`` is checked; integers under their own and under f64/f32 distances
    (float ``d_in``, fractional ones included)."""
    if name == "make_float_laplace_cks20":
        return [(T, None, k, None) for T in ("f32", "f64") for k in sorted({K_MIN[T], -1, 0, 2})]
    if name == "make_vector_float_laplace_cks20":
        return [(T, n, k, None) for T in ("f32", "f64") for n in (1, 2, 3)
                for k in sorted({K_MIN[T], -1, 0, 2})]  # fmt: skip
    size = None if name == "make_integer_laplace" else 3
    own = [(T, size, None, None) for T in ("i8", "i32", "u64")]
    return own + [(T, size, None, D) for T in ("i32", "u64") for D in ("f64", "f32")]


def code_instance(name: str, T: str, size, k, D=None, built_of=_built_laplace) -> Obligation:
    """The real map of the Laplace measurement ``name`` at every scale of ``_SCALES`` and
    ``d_in`` of ``_D_INS``: satisfiable exactly when the relaxation ``R`` its map adds is below
    ``n r0`` (``r0`` the code's discretization constant; part 2 then does not apply) or the map
    is below ``(d_in + R) / scale``, the bound of parts 2 and 3 on the privacy loss (exact;
    ``built_of`` replaces the real constructor: tests). ``D`` is the distance type (``T``
    when None); under a float ``D`` over integers every ``d_in`` is checked, fractional ones
    included, against ``d_in / scale`` itself (the proof's bound for every real ``d_in``)."""
    from certdp.contracts.smt_code import exact

    n = 1 if size is None else size
    r0 = Fraction(0) if T.startswith(("i", "u")) else get_discretization_consts(k, T)[1]

    def violation():
        cases = []
        for scale in _SCALES:
            built = built_of(name, T, size, k, scale, D)
            R = built_relaxation(built)
            for d_in in _D_INS:
                if T.startswith(("i", "u")) and D is None and d_in != int(d_in):
                    continue
                m = built.map(d_in)
                if m == float("inf"):
                    continue
                formula = z3.Or(
                    exact(R) < n * exact(r0),
                    exact(m) * exact(scale) < exact(d_in) + exact(R),
                )
                example = {"scale": repr(scale), "d_in": repr(d_in), "map": repr(m),
                           "relaxation": str(R)}  # fmt: skip
                cases.append((formula, lambda model, e=example: e))
        return cases

    shape = "atom" if size is None else f"vector len {size}"
    distance = "" if D is None else f" distance {D}"
    return Obligation(
        constructor=name,
        claim=f"real {name} {T}{distance} {shape} k={k}, scale in {_SCALES}, d_in in {_D_INS}: the real map "
        "is >= (d_in + R)/scale with the code's relaxation R >= n r0 (exact)",
        format=T, size=n, violation=violation,
    )  # fmt: skip


def measurement_obligations(name: str) -> list[Obligation]:
    """The obligations of one Laplace measurement: part 1 (the map's rounding, for every
    f32/f64 input, and as a division circuit at reduced precision), part 2 (the discretization
    lemma, proved once under the name ``discretization`` and required through ``REQUIRES``, and
    its sum over coordinates), part 3 (the log-likelihood bound)."""
    from .mechanism_smt import (
        int64_fast_path,
        l1_composition,
        laplace_llr,
        map_circuit,
        rounding_up,
    )

    quotient = "(d_in + R)/scale"
    result = [code_instance(name, *case) for case in _code_cases(name)]
    result += [rounding_up(name, quotient), map_circuit(name)]
    if name == "make_float_laplace_cks20":
        result.append(l1_composition(name, 1, _atom_relaxation_mismatch))
        result.append(laplace_llr(name, 1))
    elif name == "make_vector_float_laplace_cks20":
        result += [
            l1_composition(name, n, _vector_relaxation_mismatch) for n in range(1, _VECTOR_SIZE + 1)
        ]
        result.append(laplace_llr(name, _VECTOR_SIZE))
    elif name == "make_integer_laplace":
        result.append(l1_composition(name, 1, _integer_relaxation_mismatch(False)))
        result.append(laplace_llr(name, 1))
    elif name == "make_vector_integer_laplace":
        result.append(l1_composition(name, 1, _integer_relaxation_mismatch(True)))
        result.append(int64_fast_path(name))
        result.append(laplace_llr(name, _VECTOR_SIZE))
    return result


def _dispatch_obligation() -> Obligation:
    """``make_laplace`` delegates to the constructor of its domain's shape and type."""

    def violation():
        from certdp.core.domains import atom_domain, vector_domain
        from certdp.core.types import INTEGER_TYPES

        from ..laplace.make_laplace import LAPLACE_CONSTRUCTORS, choose_laplace_constructor

        for T in (*INTEGER_TYPES, "f32", "f64"):
            nature = "float" if T in ("f32", "f64") else "integer"
            atom = atom_domain(T=T, nan=False) if nature == "float" else atom_domain(T=T)
            for shape, domain in (("atom", atom), ("vector", vector_domain(atom))):
                chosen = choose_laplace_constructor(domain)
                if chosen is not LAPLACE_CONSTRUCTORS[shape, nature]:
                    return z3.BoolVal(True), lambda m, T=T, s=shape: {"T": T, "shape": s}
        return z3.BoolVal(False), lambda m: {}

    return Obligation(
        constructor="make_laplace",
        claim="dispatch: for every numeric type and shape, make_laplace delegates to the "
        "constructor whose obligations follow",
        format="all", size=1, violation=violation,
    )  # fmt: skip


def _laplace_obligations() -> list[Obligation]:
    """Its own obligation is the dispatch; the four constructors' results are required."""
    return [_dispatch_obligation()]


def obligations(names=None) -> list[Obligation]:
    result = []
    for T in ("f64", "f32"):
        if names is None or "nearest_grid_index" in names:
            result.append(_nearest(T))
        if names is None or "discretization" in names:
            result.append(_discretization(T))
    for name in _MEASUREMENTS:
        if names is None or name in names:
            result += measurement_obligations(name)
    if names is None or "make_laplace" in names:
        result += _laplace_obligations()
    return result


_SHARED_LAPLACE = [
    "measurements/_laplace/mechanism_smt.py",
    "measurements/_laplace/laplace_map.py",
    "measurements/_laplace/rounded_map.py",
    "measurements/_laplace/discretization.py",
    "measurements/_laplace/parameters.py",
    "measurements/_laplace/construction.py",
    "numeric/floats.py",
    "samplers/discrete_laplace_z2k.py",
]

MODELLED = {
    "nearest_grid_index": ["samplers/discrete_laplace_z2k.py"],
    "discretization": [
        "measurements/_laplace/discretization.py",
        "samplers/discrete_laplace_z2k.py",
    ],
    **{
        name: [f"measurements/{folder}/{name}.py", *_SHARED_LAPLACE]
        for name, folder in _MEASUREMENTS.items()
    },
    "make_laplace": [
        "measurements/laplace/make_laplace.py",
        *[f"measurements/{folder}/{name}.py" for name, folder in _MEASUREMENTS.items()],
        *_SHARED_LAPLACE,
    ],
}

#: Results these theorems rely on besides their own obligations (see certdp.prove.engine): the
#: float mechanisms use the discretization lemma (per coordinate), which is proved once under its
#: own name; make_laplace's own obligation is its dispatch, and it relies on the four constructors
#: it delegates to.
REQUIRES = {
    "make_float_laplace_cks20": ["discretization"],
    "make_vector_float_laplace_cks20": ["discretization"],
    "make_laplace": list(_MEASUREMENTS),
}


def _laplace_scope(name: str) -> Scope:
    floats = name in ("make_float_laplace_cks20", "make_vector_float_laplace_cks20")
    abstractions = (
        "the map's upward rounding (divmod and increment) for every positive rational and quantum",
        "the log-likelihood bound for all integers and reals",
    )
    return Scope(
        formats=("rational", "e4p4", "real") + (("f32", "f64") if floats else ()),
        sizes=(1, _VECTOR_SIZE) if "vector" in name else (1,),
        bound_to_code="the real constructor is built at each type, shape, k, distance type "
        "(over integers: the type itself, f64 and f32) and scale, its own map is called at "
        "each d_in and checked exactly against (d_in + R)/scale, with the relaxation R read "
        "from it",
        instances=f"{len(_code_cases(name))} (type, shape, k, distance type) x scales "
        f"{_SCALES} x d_in {_D_INS}",
        reduced_formats=("a model of the map's division circuit, every d_in and scale of e4p4",),
        abstractions=abstractions,
        bit_precise=(("the discretization lemma (required), every finite f32/f64 and k",)
                     if floats else ()),
    )  # fmt: skip


SCOPE = {
    "nearest_grid_index": Scope(
        formats=("f32", "f64"),
        bound_to_code="a model of nearest_grid_index, tested against the code",
        bit_precise=("every finite value and every grid exponent k",),
    ),
    "discretization": Scope(
        formats=("f32", "f64"),
        bound_to_code="the relaxation is the code's get_discretization_consts at every k",
        bit_precise=("every pair of finite values and every grid exponent k",),
    ),
    **{name: _laplace_scope(name) for name in _MEASUREMENTS},
    "make_laplace": Scope(
        formats=("all numeric types",),
        bound_to_code="the dispatch is run for every type and shape",
        bit_precise=("the dispatch, by running the code",),
    ),
}
