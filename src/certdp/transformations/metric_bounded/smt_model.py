"""SMT model of ``make_metric_bounded`` and its bounded theorem.

The function is modelled as the identity on records (i32 bit-vectors compared by equality, so
the check holds for any record type whose records compare as the metrics compare them); it is
tied to the code on a probe vector, which the real function must return unchanged.  Every
obligation builds the real constructor on a sized vector domain, calls its own map at
``d_in`` and reads its own input and output metrics; the distances are the z3 terms of
:mod:`certdp.contracts.smt_datasets`.  Theorem: no two datasets of length ``N`` at input
distance ``<= d_in`` are at output distance ``> map(d_in)``.
"""

from __future__ import annotations

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_datasets import identity_metric_cases

__all__ = ["obligations", "MODELLED", "SCOPE", "PROBES"]

SIZES = (0, 1, 2, 3, 4)
D_INS = (0, 1, 2, 3, 4, 5)
METRICS = ("symmetric", "insert_delete")
#: Larger sizes for the insert-delete -> Hamming map at d_in = 2 (its value is the size for every
#: d_in >= 2): an edit capping the map at 4 (``min(size, 4)``) is refuted here.
LARGE_SIZES = (5, 6, 8)
PROBES = [0, -1, 2**31 - 1, -(2**31), 7, 7]


def _metric(name: str):
    from certdp.core import change_metrics, metrics

    module = metrics if name in ("symmetric", "insert_delete") else change_metrics
    return getattr(module, f"{name}_distance")()


def _instance(metric: str, n: int, d_in: int) -> Obligation:
    def violation():
        from certdp.core.domains import atom_domain, vector_domain

        from .make_metric_bounded import make_metric_bounded

        built = make_metric_bounded(vector_domain(atom_domain(T="i32"), size=n), _metric(metric))
        probes = (PROBES * 2)[:n]
        return identity_metric_cases(built, d_in, [(n, n)], probes)

    return Obligation(
        constructor="make_metric_bounded",
        claim=f"{metric} N={n} d_in={d_in}",
        format="i32",
        size=n,
        violation=violation,
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_metric_bounded" not in names:
        return []
    result = [_instance(metric, n, d_in) for metric in METRICS for n in SIZES for d_in in D_INS]
    return result + [_instance("insert_delete", n, 2) for n in LARGE_SIZES]


MODELLED = {"make_metric_bounded": ["transformations/metric_bounded/make_metric_bounded.py"]}

SCOPE = {
    "make_metric_bounded": Scope(
        formats=("i32",),
        sizes=SIZES + LARGE_SIZES,
        bound_to_code="the real make_metric_bounded is built on vector_domain(atom_domain(T='i32'), "
        "size=N) under each input metric; its stability map is called at each d_in, its input "
        "and output metrics are read from the built transformation, and its function must "
        "return the first N records of the probe vector (0, -1, 2**31-1, -2**31, 7, 7) "
        "unchanged",
        bit_precise=(
            "every pair of datasets of N i32 records (compared by equality) at input distance "
            "<= d_in is at output distance <= map(d_in), the function taken as the identity",
        ),
        assumed=(
            "the function is tied to the model (the identity) only on the probe vector; other "
            "datasets and record types are covered by the hand proof and the tests",
            "the z3 distance terms are checked against the metric objects by random tests "
            "(tests/prove/test_metric_change_models.py), not proved equal",
        ),
        instances="N = 0..4 and d_in = 0..5; insert-delete also N = 5, 6, 8 at d_in = 2",
    )
}
