"""SMT model of ``make_np_sscp`` and its bounded theorem.

Model of the function (``sscp_matrix`` in ``numpy/sscp_domain/sscp_domain.py``, the matrix
``G(X)`` of ``sscp_domain.tex``): entry ``(i, j)`` starts at ``+0`` and adds, row after row,
the product ``X[r, i] * X[r, j]``, every operation an IEEE operation of the entry format
rounded to nearest, ties to even.  ``tests/prove/test_np_sscp_model.py`` evaluates the model
on random f32 and f64 arrays and checks that it equals the code bit for bit.

Obligations (satisfiable exactly when the theorem has a counterexample at that instance):

* ``output domain``: two parts.  (a) Bound to the code: the real constructor's function is
  run on every enumerated array (``enumerated_arrays``: at most 2 rows of special entries,
  signed zeros, infinities, subnormals, the largest finite values; the empty array too) and
  the REAL ``admit`` of the output domain it builds must accept each output; a refusal is a
  counterexample.  (b) Abstraction: for every array of ``N`` rows of width ``k`` whose entries
  are any non-NaN values of the format, ``G(X)`` is symmetric (entries ``(i, j)`` and
  ``(j, i)`` both NaN or bitwise equal) with a non-NaN diagonal ``>= 0``; these rules are
  restated in z3 from the domain lemma, not read from ``admit``.
* ``stability``: for datasets ``x, x'`` of at most ``N`` rows (a row is a record: the bit
  pattern of its ``k`` entries) with ``d_sym(x, x') <= d_in``, the pair itself witnesses the
  record-space closeness of the outputs at the real constructor's ``map(d_in)``, that is
  ``d_sym(x, x') <= map(d_in)`` (``sscp_domain.tex``, Definition "Source domain, record-space
  closeness"); the symmetric distance is the exact term of ``certdp.contracts.smt_datasets``.
"""

from __future__ import annotations

import itertools

import numpy as np
import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import FORMATS, float_sort
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_datasets import symmetric
from certdp.core.errors import FailedFunctionError

__all__ = ["gram_model", "obligations", "MODELLED", "SCOPE"]

_NAME = "make_np_sscp"
#: (format, number of columns k, rows N) of the output-domain obligations.
_DOMAIN_INSTANCES = (("f32", 2, 4), ("f64", 2, 4), ("f32", 3, 3), ("f64", 3, 3))
#: (format, k, N, size) of the stability obligations (size None: unknown).
_STABILITY_INSTANCES = (("f64", 2, 3, None), ("f32", 3, 3, None), ("f64", 2, 2, 2))
_D_INS = (1, 2, 3)


def _built(T: str, k: int, size=None):
    from certdp.core.metrics import symmetric_distance
    from certdp.numpy.array2_domain import array2_domain

    from .make_np_sscp import make_np_sscp

    domain = array2_domain(T=T, num_columns=k, size=size, nan=False)
    return make_np_sscp(domain, symmetric_distance())


def gram_model(rows: list[list], sort) -> list[list]:
    """``G(X)`` for ``rows`` (lists of z3 floats of ``sort``): left-to-right sums of products."""
    rne = z3.RNE()
    k = len(rows[0]) if rows else 0
    total = [[z3.FPVal(0.0, sort) for _ in range(k)] for _ in range(k)]
    for row in rows:
        total = [
            [z3.fpAdd(rne, total[i][j], z3.fpMul(rne, row[i], row[j])) for j in range(k)]
            for i in range(k)
        ]
    return total


def _all(terms: list):
    """The conjunction of ``terms`` (never a one-argument ``and``, which SMT-LIB refuses)."""
    terms = list(terms)
    if not terms:
        return z3.BoolVal(True)
    return terms[0] if len(terms) == 1 else z3.And(*terms)


def _same(a, b):
    """Both NaN or the same bit pattern: SMT-LIB equality of floats (one NaN, -0 != +0)."""
    return a == b


def _specials(dtype) -> list:
    """Signed zeros, small integers, a half, the smallest subnormals, the largest finite values
    and the infinities of ``dtype``."""
    info = np.finfo(dtype)
    tiny = np.nextafter(dtype(0), dtype(1))
    values = [0.0, -0.0, 1.0, -1.0, 0.5, 3.0, tiny, -tiny, info.max, -info.max, np.inf, -np.inf]
    return [dtype(v) for v in values]


def enumerated_arrays(T: str, k: int):
    """Every array of ``k`` columns and at most 2 rows over the special entries when ``k <= 2``;
    for wider ``k``, every one-row array over them and every two-row array over a smaller set
    (signed zeros, 1, infinities).  Empty arrays included."""
    dtype = {"f32": np.float32, "f64": np.float64}[T]
    values = _specials(dtype)
    rows = list(itertools.product(values, repeat=k))
    pair_rows = rows if k <= 2 else list(itertools.product(values[:3] + values[-2:], repeat=k))
    yield np.zeros((0, k), dtype=dtype)
    for row in rows:
        yield np.array([row], dtype=dtype)
    for first, second in itertools.product(pair_rows, repeat=2):
        yield np.array([first, second], dtype=dtype)


def refused_output(built, T: str, k: int):
    """The first enumerated array whose output the REAL output domain refuses (its ``admit``),
    with the rule it gives, or ``None``.  The outputs are computed by the real function."""
    domain = built.output_domain
    for x in enumerated_arrays(T, k):
        out = built.function(x)
        try:
            domain.admit(out)
        except FailedFunctionError as error:
            return x, str(error)
    return None


def domain_instance(T: str, k: int, N: int) -> Obligation:
    built = _built(T, k)
    sort = float_sort(T)

    def violation():
        refused = refused_output(built, T, k)
        if refused is not None:  # the real admit refuses a real output: a counterexample
            x, rule = refused
            return [(z3.BoolVal(True), lambda m: {"rows": x.tolist(), "refused": rule})]
        rows = [[z3.FP(f"x{r}_{c}", sort) for c in range(k)] for r in range(N)]
        no_nan = _all(z3.Not(z3.fpIsNaN(v)) for row in rows for v in row)
        g = gram_model(rows, sort)
        symmetric_ok = _all(_same(g[i][j], g[j][i]) for i in range(k) for j in range(i))
        diagonal_ok = _all(
            z3.And(z3.Not(z3.fpIsNaN(g[i][i])), z3.fpGEQ(g[i][i], z3.FPVal(0.0, sort)))
            for i in range(k)
        )
        formula = z3.And(no_nan, z3.Not(z3.And(symmetric_ok, diagonal_ok)))

        def decode(m):
            if isinstance(m, dict):  # a Bitwuzla model: {name: value}
                return {"rows": [[m.get(str(v)) for v in row] for row in rows]}
            return {"rows": [[str(m.eval(v, True)) for v in row] for row in rows]}

        return [(formula, decode)]

    return Obligation(
        constructor=_NAME,
        claim=f"output domain {T} k={k} N={N}: the real output domain admits the real output "
        "of every enumerated array (<= 2 rows of special entries), and G(X) of every non-NaN "
        f"array of {N} rows is symmetric with a non-negative, non-NaN diagonal",
        format=T,
        size=N,
        violation=violation,
        solver="bitwuzla",
    )


def stability_instance(T: str, k: int, N: int, size, d_in: int, map_shift: int = 0):
    built = _built(T, k, size)
    stated = built.map(d_in) + map_shift
    width = k * (FORMATS[T][0] + FORMATS[T][1])

    def violation():
        cases = []
        lengths = range(N + 1) if size is None else [size]
        for m in lengths:
            for m_prime in lengths:
                x = [z3.BitVec(f"x{r}", width) for r in range(m)]
                y = [z3.BitVec(f"y{r}", width) for r in range(m_prime)]
                distance = symmetric(x, y)
                formula = z3.And(distance <= d_in, distance > stated)
                cases.append((formula, lambda model, x=x, y=y: {"x": x, "x_prime": y}))
        return cases

    kind = "unknown size" if size is None else f"size={size}"
    return Obligation(
        constructor=_NAME,
        claim=f"stability {T} k={k} {kind} d_in={d_in}: d_sym-close datasets of <= {N} rows "
        "witness record-space closeness at map(d_in)"
        + ("" if not map_shift else f" map{map_shift:+}"),
        format=T,
        size=N,
        violation=violation,
        confirm=lambda example: f"code: map({d_in}) = {built.map(d_in)!r}",
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    result = [domain_instance(*instance) for instance in _DOMAIN_INSTANCES]
    result += [
        stability_instance(T, k, N, size, d_in)
        for (T, k, N, size) in _STABILITY_INSTANCES
        for d_in in _D_INS
    ]
    return result


MODELLED = {
    _NAME: ["numpy/np_sscp/make_np_sscp.py", "numpy/sscp_domain/sscp_domain.py"],
}

SCOPE = {
    _NAME: Scope(
        formats=("f32", "f64"),
        sizes=(2, 3, 4),
        bound_to_code="the real make_np_sscp is built at each instance; its own map is called "
        "at each d_in; its real function is run on every enumerated array (at most 2 rows of "
        "special entries) and the real admit of the output domain it builds must accept each "
        "output (so num_features, dtype, symmetry and the diagonal rule are the code's there); "
        "the model of sscp_matrix is tested equal to the code bit for bit on random arrays",
        bit_precise=(
            "symmetry and the non-negative, non-NaN diagonal of G(X) for every non-NaN array of "
            "4 rows and 2 columns, or 3 rows and 3 columns, in IEEE binary32 and binary64 "
            "(Bitwuzla, round to nearest even)",
            "the record-space witness d_sym(x, x') <= map(d_in) for every pair of datasets of "
            "at most 3 rows (rows as bit patterns), d_in = 1, 2, 3",
        ),
        assumed=(
            "that sscp_matrix computes G(X) (the lemma of sscp_domain.tex and the test against "
            "the model); that the rows of a 2-D array are its records",
            "abstraction: for the arrays the solver ranges over (not only the enumerated ones), "
            "membership is the z3 restatement of admit's rules (symmetric, NaN pairs allowed; "
            "diagonal non-NaN and >= 0) from the domain lemma, not the code of admit",
        ),
        instances="f32/f64 with k = 2, 3; unknown size, and size 2",
    )
}
