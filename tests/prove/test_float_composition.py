"""The compositional proof of the float sums in f32/f64 (``float_addition`` + the sum theorem on
abstract additions): the abstraction admits every execution of the code, a wrong map or a wrong
lemma is refuted, and the solvers' answers decode to values that really break them."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.contracts.smt import real_value
from certdp.prove.solver import solve
from certdp.transformations._summation import smt_model
from certdp.transformations._summation.float_summation import (
    float_sum,
    parse_summation,
    saturating_float_sum,
)

_DTYPES = {"f32": np.float32, "f64": np.float64}


class _Recorded:
    """The code's own IEEE arithmetic on concrete values (NumPy scalars of the format), checking
    at each addition the lemma the abstraction assumes of it."""

    def __init__(self, fmt: str):
        self.dtype = _DTYPES[fmt]
        self.error, self.max = smt_model.addition_error(fmt), smt_model.largest(fmt)
        self.results = []

    def zero(self, negative: bool):
        return self.dtype(-0.0 if negative else 0.0)

    def add(self, a, b):
        with np.errstate(over="ignore"):
            r = self.dtype(a + b)
        if not (np.isfinite(a) and np.isfinite(b)):  # after an overflow: the lemma is silent
            self.results.append(r)
            return r
        exact = Fraction(float(a)) + Fraction(float(b))
        if abs(exact) <= self.max:  # where the lemma speaks: finite, and within u |r| of a + b
            assert np.isfinite(r)
            assert abs(Fraction(float(r)) - exact) <= self.error * abs(Fraction(float(r)))
        self.results.append(r)
        return r

    def clamp(self, value):
        top = self.dtype(self.max)
        return min(max(value, -top), top)


@st.composite
def _datasets(draw):
    fmt = draw(st.sampled_from(["f32", "f64"]))
    width = 32 if fmt == "f32" else 64
    top = float(np.finfo(_DTYPES[fmt]).max)
    special = st.sampled_from([0.0, -0.0, 1.0, -1.0, top / 4, -top / 4, 2.0**-149, 3.5])
    values = draw(
        st.lists(
            st.one_of(special, st.floats(allow_nan=False, allow_infinity=False, width=width)),
            max_size=7,
        )  # fmt: skip
    )
    return fmt, [float(_DTYPES[fmt](v)) for v in values]


@pytest.mark.parametrize("algorithm", ["Sequential", "Pairwise"])
@given(case=_datasets(), saturate=st.booleans())
def test_the_abstraction_admits_the_code_s_execution_addition_by_addition(
    algorithm, case, saturate
):
    """The fold/tree the abstraction is built from, run with the code's own additions, is the
    code's output bit for bit, and each of those additions satisfies the lemma: so every run of
    the code is one of the abstract executions that the compositional instances quantify over."""
    fmt, values = case
    ops = _Recorded(fmt)
    kernel = smt_model.sequential_fold if algorithm == "Sequential" else smt_model.pairwise_tree
    model = kernel([_DTYPES[fmt](v) for v in values], None, saturate, ops)
    summation = parse_summation(f"{algorithm}<{fmt}>")
    code = (saturating_float_sum if saturate else float_sum)(summation, values)
    assert np.array([model], dtype=_DTYPES[fmt]).tobytes() == np.array(
        [code], dtype=_DTYPES[fmt]
    ).tobytes() or (np.isnan(model) and np.isnan(code))


@pytest.mark.parametrize("algorithm", ["Sequential", "Pairwise"])
@given(case=_datasets(), saturate=st.booleans())
def test_the_code_s_run_satisfies_rounded_reals_own_constraints(algorithm, case, saturate):
    """The constraints that :class:`RoundedReals` itself builds (not a restatement of them),
    with each of its unknown results replaced by the code's rounded value at that addition,
    are all true, and its output is then the code's: the run is one of the abstract runs."""
    import z3

    fmt, values = case
    kernel = smt_model.sequential_fold if algorithm == "Sequential" else smt_model.pairwise_tree
    concrete = _Recorded(fmt)
    kernel([_DTYPES[fmt](v) for v in values], None, saturate, concrete)
    ops = smt_model.RoundedReals(fmt, "t_")
    records = [real_value(Fraction(v)) for v in values]
    out = kernel(records, None, saturate, ops)
    assert len(ops.assumptions) == len(concrete.results)

    def stand_in(r):
        # where the code overflowed the lemma says nothing: the abstract result is any real,
        # and one beyond MAX of the same sign clamps (when saturating) to what the code clamps to
        if np.isfinite(r):
            return Fraction(float(r))
        return 0 if np.isnan(r) else (2 if r > 0 else -2) * smt_model.largest(fmt)

    substitution = [
        (z3.Real(f"t_r{i}"), real_value(stand_in(r))) for i, r in enumerate(concrete.results)
    ]

    def value(term):
        return z3.simplify(z3.substitute(term, *substitution) if substitution else term)

    for assumption in ops.assumptions:
        assert z3.is_true(value(assumption))
    overflowed = any(z3.is_true(value(flag)) for flag in ops.overflows)
    if not overflowed:
        summation = parse_summation(f"{algorithm}<{fmt}>")
        code = (saturating_float_sum if saturate else float_sum)(summation, values)
        assert Fraction(value(out).as_fraction()) == Fraction(float(code))


def test_composed_instances_cover_f32_at_three_records_and_more():
    claims = [o.claim for o in smt_model.float_obligations() if "composed" in o.claim]
    for name in smt_model.FLOAT_SUMS:
        mine = [o for o in smt_model.float_obligations([name]) if "composed" in o.claim]
        for algorithm in ("Sequential", "Pairwise"):
            assert any(
                o.format == "f32" and o.size >= 3 and o.claim.startswith(algorithm) for o in mine
            ), (name, algorithm)
    assert claims


@pytest.mark.parametrize("algorithm", ["Sequential", "Pairwise"])
def test_the_composed_theorem_is_proved_with_the_map_and_refuted_without_its_relaxation(algorithm):
    name = "make_sized_bounded_float_checked_sum"
    right = smt_model.float_sum_composition(name, algorithm, "f32", 3, (-1.0, 1.0), 2)
    assert solve(right, 120)["status"] == "proved"
    wrong = smt_model.float_sum_composition(
        name, algorithm, "f32", 3, (-1.0, 1.0), 2, relaxation=False
    )
    outcome = solve(wrong, 120)
    assert outcome["status"] == "counterexample"
    example = outcome["example"]
    assert len(example["x"]) == len(example["x_prime"]) == 3
    # the abstract outputs really are farther apart than the wrong map
    gap = abs(Fraction(example["f(x)"]) - Fraction(example["f(x')"]))
    assert gap > Fraction(wrong.tags["stated"])
    assert "code:" in example["code"]


def test_a_too_small_addition_error_is_refuted_by_bitwuzla_with_a_real_pair(monkeypatch):
    """Half the unit roundoff is not a bound of f32 addition: the solver finds ``a, b``, and on
    them the code's addition really is farther from ``a + b`` than the claimed bound."""
    half = smt_model.addition_error("f32") / 2
    monkeypatch.setattr(smt_model, "addition_error", lambda fmt: half)
    outcome = solve(smt_model.addition_obligation("f32"), 120)
    assert outcome["status"] == "counterexample"
    a, b = (np.float32(float(outcome["example"][k])) for k in ("a", "b"))
    r = a + b
    exact = Fraction(float(a)) + Fraction(float(b))
    assert abs(Fraction(float(r)) - exact) > half * abs(Fraction(float(r)))


def test_the_addition_lemma_is_required_by_every_float_sum():
    for name in smt_model.FLOAT_SUMS:
        assert smt_model.REQUIRES[name] == ["float_addition"]
    assert {o.format for o in smt_model.obligations(["float_addition"])} == {"f32", "f64"}
    assert all(o.solver == "bitwuzla" for o in smt_model.obligations(["float_addition"]))


@pytest.mark.parametrize("algorithm", ["Sequential", "Pairwise"])
def test_the_split_theorem_is_proved_with_the_map_and_refuted_without_its_relaxation(algorithm):
    """The larger-N instances (Lemma error + ideal part): proved with the code's map; without
    its relaxation term the ideal part has a pair of real datasets whose exact sums are farther
    apart than what is left for them."""
    name = "make_sized_bounded_float_checked_sum"
    right = smt_model.float_sum_by_lemmas(name, algorithm, "f32", 4, (-1.0, 1.0), 2)
    assert solve(right, 120)["status"] == "proved"
    wrong = smt_model.float_sum_by_lemmas(
        name, algorithm, "f32", 4, (-1.0, 1.0), 2, relaxation=False
    )
    outcome = solve(wrong, 120)
    assert outcome["status"] == "counterexample"
    example = outcome["example"]
    assert len(example["x"]) == len(example["x_prime"]) == 4
    gap = abs(sum(Fraction(float(v)) for v in example["x"]) - sum(
        Fraction(float(v)) for v in example["x_prime"]
    ))  # fmt: skip
    assert gap > Fraction(wrong.tags["stated"][2]) - 2 * Fraction(wrong.tags["E"])


def test_the_error_lemma_is_refuted_below_the_true_error():
    """Half the code's error bound is not a bound of a Sequential f32 sum of three records in
    the abstraction: the error-lemma case reports a dataset."""
    name = "make_sized_bounded_float_checked_sum"
    ob = smt_model.float_sum_by_lemmas(name, "Sequential", "f32", 3, (-1.0, 1.0), 2)
    half = Fraction(ob.tags["E"]) / 64
    [(formula, decode), *_] = ob.violation()
    # rebuild the first (error-lemma) case with a smaller E by substitution of its limit
    import z3

    limit = z3.RealVal(f"{Fraction(ob.tags['E']).numerator}/{Fraction(ob.tags['E']).denominator}")
    smaller = z3.RealVal(f"{half.numerator}/{half.denominator}")
    weaker = z3.substitute(formula, (limit, smaller))
    solver = z3.Solver()
    solver.add(weaker)
    assert solver.check() == z3.sat
    assert decode(solver.model())["lemma"] == "error"
