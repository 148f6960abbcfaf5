"""SMT model of ``make_gaussian``: the finite, exact parts of its zCDP theorem.

* Part 0 (the real map, ``code``): one obligation per carrier type, shape (atom, or vector of
  length 1 to 3) and grid exponent ``k``, one case per ``scale`` and ``d_in``: the real
  ``make_gaussian`` is built, its map ``m = built.map(d_in)`` called and the relaxation ``R`` its
  map adds read from it.  A case is satisfiable exactly when ``R^2 < n r0^2`` (``r0`` the code's
  ``get_discretization_consts(k, T)[1]``, 0 for integers: then part 2 does not apply) or
  ``m < (d_in + R)^2 / (2 scale^2)``, exactly: by parts 2 and 3 (for all reals) the zCDP loss of
  the discrete Gaussians on the grid is at most ``(d_in + r0 sqrt(n))^2 / (2 scale^2)``, so the
  real map is then a valid loss.  No model of the map is used.  (Solving part 2 directly at each
  instance, with the vectors symbolic, is nonlinear and exceeds the budget at length 2 in f64.)

* Part 1 (map arithmetic): ``(d_in + R)^2 / (2 scale^2)`` rounded up once by ``inf_cast`` is
  never below its exact value (:func:`certdp.measurements._laplace.mechanism_smt.rounding_up`,
  every f32/f64 input), and the map's division circuit at reduced precision
  (:func:`~certdp.measurements._laplace.mechanism_smt.map_circuit`).
* Part 2 (discretization, L2 squared): the per-coordinate lemma ``discretization`` (f32,
  f64, every k), then, for vectors of length ``n <= 3``, Minkowski's step: from ``g_i <= u_i +
  r0`` and ``sum u_i^2 <= delta^2``, ``sum g_i^2 <= (delta + r0 s)^2`` with ``s`` the code's
  ``inf_sqrt(inf_cast(n))`` (checked ``s^2 >= n`` exactly; the code's ``R = r0 s`` read from
  built measurements); for integers the fast int64 path equals the exact clamp.
* Part 3 (Renyi divergence): the identity ``alpha (z - mu)^2 + (1 - alpha)(z - mu')^2 =
  (z - m)^2 - alpha (alpha - 1)(mu - mu')^2`` with ``m = alpha mu + (1 - alpha) mu'`` for all
  reals, and ``sum (a - a')^2 / (2 (scale / 2^k)^2) <= (delta + R)^2 / (2 scale^2)`` when
  ``4^k sum (a - a')^2 <= (delta + R)^2``.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.measurements._laplace.discretization import K_MIN
from certdp.measurements._laplace.mechanism_smt import int64_fast_path, rounding_up
from certdp.measurements._laplace.smt_model import SAMPLED_K, built_relaxation

__all__ = ["root_bound", "code_instance", "GAUSSIAN_CODE_CASES", "obligations", "MODELLED",
           "SCOPE"]  # fmt: skip

_NAME = "make_gaussian"
_VECTOR_SIZE = 3


def root_bound(size: int) -> Fraction:
    """The code's ``s >= sqrt(size)`` (``l2_relaxation(1, size)``)."""
    from .gaussian_map import l2_relaxation

    return l2_relaxation(Fraction(1), size)


def _relaxation_mismatch(size: int) -> str | None:
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import l2_distance

    from ..gaussian.make_gaussian import make_gaussian

    s = root_bound(size)
    if s * s < size:
        return f"s = {s} has s^2 < {size}"
    for T in ("f32", "f64"):
        for k in SAMPLED_K[T]:
            r0 = Fraction(2) ** k - Fraction(2) ** K_MIN[T]
            domain = vector_domain(atom_domain(T=T, nan=False), size=size)
            built = make_gaussian(domain, l2_distance(T=T), 1.0, k)
            if built_relaxation(built) != r0 * (s if r0 else 0):
                return f"{T} k={k} size={size}: code relaxation {built_relaxation(built)}"
    return None


def _minkowski(size: int) -> Obligation:
    def violation():
        mismatch = _relaxation_mismatch(size)
        if mismatch is not None:
            return z3.BoolVal(True), lambda m: {"relaxation": mismatch}
        s = root_bound(size)
        u = [z3.Real(f"u{i}") for i in range(size)]
        g = [z3.Real(f"g{i}") for i in range(size)]
        r, delta = z3.Reals("r delta")
        S = z3.RealVal(f"{s.numerator}/{s.denominator}")
        inside = [r >= 0, delta >= 0, delta * delta >= sum(v * v for v in u)]
        inside += [z3.And(u[i] >= 0, g[i] >= 0, g[i] <= u[i] + r) for i in range(size)]
        linear = sum(u)
        # step 1 (Cauchy-Schwarz): (sum u)^2 <= n sum u^2 <= n delta^2 <= (s delta)^2
        cauchy = z3.And(*inside, linear * linear > S * S * delta * delta)
        # step 2: sum g^2 <= sum (u + r)^2 = sum u^2 + 2 r sum u + n r^2 <= (delta + r s)^2
        squares = sum(v * v for v in g)
        bound = (delta + r * S) * (delta + r * S)
        step = z3.And(*inside, linear >= 0, linear <= S * delta, squares > bound)

        def decode(m):
            return {"u": [str(m.eval(v)) for v in u], "g": [str(m.eval(v)) for v in g]}

        return [(cauchy, decode), (step, decode)]

    return Obligation(
        constructor=_NAME,
        claim=f"part 2 (discretization, L2 squared), vectors of length {size}: from the lemma's "
        "2^k|a_i - a'_i| <= |x_i - x'_i| + r0 and ||x - x'||_2 <= d_in, 4^k ||a - a'||_2^2 <= "
        "(d_in + R)^2 for every r0 >= 0, R = r0 s the code's relaxation (s = inf_sqrt(inf_cast"
        "(n)), s^2 >= n exactly; R read from built f32/f64 measurements at sampled k); two "
        "cases: Cauchy-Schwarz, then the square",
        format="real", size=size, violation=violation,
    )  # fmt: skip


def _renyi() -> Obligation:
    def violation():
        alpha, z, mu, mu2 = z3.Reals("alpha z mu mu2")
        mid = alpha * mu + (1 - alpha) * mu2
        left = alpha * (z - mu) ** 2 + (1 - alpha) * (z - mu2) ** 2
        right = (z - mid) ** 2 - alpha * (alpha - 1) * (mu - mu2) ** 2
        unit, scale, squares, total = z3.Reals("unit scale squares total")
        s = scale / unit  # the noise scale in grid units, scale / 2^k
        scaled = z3.And(unit > 0, scale > 0, squares >= 0, total >= 0,
                        unit * unit * squares <= total * total,
                        squares / (2 * s * s) > total * total / (2 * scale * scale))  # fmt: skip
        return [
            (left != right, lambda m: {"alpha": str(m.eval(alpha))}),
            (scaled, lambda m: {"scale": str(m.eval(scale))}),
        ]

    return Obligation(
        constructor=_NAME,
        claim="part 3 (Renyi divergence of discrete Gaussians): for all reals alpha, z, mu, mu', "
        "alpha(z-mu)^2 + (1-alpha)(z-mu')^2 = (z-m)^2 - alpha(alpha-1)(mu-mu')^2, m = alpha mu + "
        "(1-alpha) mu'; and ||a-a'||^2/(2 (scale/2^k)^2) <= (d_in + R)^2/(2 scale^2) when "
        "4^k ||a-a'||^2 <= (d_in + R)^2",
        format="real", size=1, violation=violation,
    )  # fmt: skip


#: (type, vector length or None for an atom, k) of the code obligations.
GAUSSIAN_CODE_CASES = [
    *[(T, size, k) for T in ("f32", "f64") for size in (None, 1, 2, 3)
      for k in sorted({K_MIN[T], -1, 0, 2})],
    *[(T, size, None) for T in ("i32", "i64") for size in (None, 3)],
]  # fmt: skip
_SCALES = (1.0, 0.3, 1e-3, 1e3)
_D_INS = (0, 0.5, 1, 2, 1e10)


def _built(T, size, k, scale):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import absolute_distance, l2_distance

    from ..gaussian.make_gaussian import make_gaussian

    integer = T.startswith("i")
    atom = atom_domain(T=T) if integer else atom_domain(T=T, nan=False)
    if size is None:
        return make_gaussian(atom, absolute_distance(T=T), scale, k)
    domain = vector_domain(atom, size=None if integer else size)
    return make_gaussian(domain, l2_distance(T=T), scale, k)


def code_instance(T: str, size, k, built_of=_built) -> Obligation:
    """The real map of ``make_gaussian`` (type ``T``, vector length ``size`` or an atom, grid
    exponent ``k``) at every scale of ``_SCALES`` and ``d_in`` of ``_D_INS`` (``built_of``
    replaces the real constructor: tests)."""
    from certdp.measurements._laplace.discretization import get_discretization_consts

    n = 1 if size is None else size
    r0 = Fraction(0) if T.startswith("i") else Fraction(get_discretization_consts(k, T)[1])

    def violation():
        cases = []
        for scale in _SCALES:
            built = built_of(T, size, k, scale)
            R = built_relaxation(built)  # the relaxation the code's map adds
            for d_in in _D_INS:
                if T.startswith("i") and d_in != int(d_in):
                    continue
                m = built.map(d_in)
                if m == float("inf"):
                    continue  # +inf is a valid loss
                D, S = exact(d_in), exact(scale)
                # the Minkowski step (part 2) needs R >= r0 sqrt(n); the loss it bounds,
                # (d_in + R)^2 / (2 scale^2), must be at most the real map
                formula = z3.Or(
                    exact(R) * exact(R) < n * exact(r0) * exact(r0),
                    2 * S * S * exact(m) < (D + exact(R)) * (D + exact(R)),
                )

                def decode(model, scale=scale, d_in=d_in, m=m, R=R):
                    return {"scale": repr(scale), "d_in": repr(d_in), "map": repr(m),
                            "relaxation": str(R)}  # fmt: skip

                cases.append((formula, decode))
        return cases

    shape = "atom" if size is None else f"vector len {size}"
    return Obligation(
        constructor=_NAME,
        claim=f"real make_gaussian {T} {shape} k={k}, scale in {_SCALES}, d_in in {_D_INS}: "
        "the real map is >= (d_in + R)^2/(2 scale^2), the bound of part 2 on the zCDP loss, with "
        "the code's relaxation R >= r0 sqrt(n) (r0 the code's discretization constant; exact)",
        format=T, size=n, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    result = [code_instance(*case) for case in GAUSSIAN_CODE_CASES]
    result += [rounding_up(_NAME, "(d_in + R)^2/(2 scale^2)")]
    result += [_minkowski(n) for n in range(1, _VECTOR_SIZE + 1)]
    result.append(int64_fast_path(_NAME))
    result.append(_renyi())
    return result


MODELLED = {
    _NAME: [
        "measurements/gaussian/make_gaussian.py",
        "measurements/_gaussian/gaussian_map.py",
        "measurements/_laplace/rounded_map.py",
        "measurements/_laplace/mechanism_smt.py",
        "measurements/_laplace/smt_model.py",
        "measurements/_laplace/discretization.py",
        "measurements/_laplace/parameters.py",
        "numeric/floats.py",
        "samplers/discrete_gaussian_z2k.py",
    ]
}

#: The discretization lemma (per coordinate) is proved once under its own name and required here.
REQUIRES = {_NAME: ["discretization"]}

SCOPE = {
    _NAME: Scope(
        formats=("f32", "f64", "i32", "i64", "real", "rational"),
        sizes=(1, 2, 3),
        bound_to_code="the real make_gaussian is built at each type, shape, k and scale, its "
        "own map is called at each d_in, and the discretization relaxation is the code's",
        instances=f"{len(GAUSSIAN_CODE_CASES)} (type, shape, k) x scales {_SCALES} x d_in {_D_INS}",
        bit_precise=(
            "the int64 fast path of the integer release (every x of each type of <= 32 bits, "
            "every |z| < 2^62)",
            "the discretization lemma per coordinate (required: discretization; every finite "
            "f32/f64 and every k)",
        ),
        abstractions=(
            "at the instances, the real map compared exactly with (d_in + R)^2 / (2 scale^2), "
            "the bound that the Minkowski and Renyi steps give for the zCDP loss",
            "the map's rounding (divmod and increment) for every positive rational and quantum",
            "Minkowski's and Renyi's steps for all reals",
        ),
        assumed=(
            "the Renyi divergence of two discrete Gaussians of one scale (make_gaussian.tex)",
        ),
    )
}
