"""Quantile scores: seconds of ``make_quantile_score_candidates`` on 10^6 records (f64 and i64,
known and unknown size), certdp beside OpenDP 0.16 when it is installed.

Each row times one invocation (median of interleaved repeats, warm process) on a Python list,
as a user passes data; the scores of both libraries are compared too. Target (issue #22):
certdp's time <= 1x OpenDP's.
Run: ``python benchmarks/bench_quantile.py [--repeats R]`` (enables ``contrib`` in both).
"""

from __future__ import annotations

import argparse
import random

import _timing

import certdp.prelude as cdp

N = 10**6


def _cases(rng):
    floats = [rng.gauss(0.0, 1.0) for _ in range(N)]
    ints = [rng.randrange(-1000, 1000) for _ in range(N)]
    float_candidates = [i / 10 for i in range(-30, 31)]
    int_candidates = list(range(-1000, 1000, 10))
    yield "f64, unknown size, 61 candidates", "f64", None, float_candidates, floats
    yield f"f64, size {N}, 61 candidates", "f64", N, float_candidates, floats
    yield "i64, unknown size, 200 candidates", "i64", None, int_candidates, ints


def _build(lib, T, size, candidates):
    element = lib.atom_domain(T=T, nan=False) if T.startswith("f") else lib.atom_domain(T=T)
    domain = lib.vector_domain(element, size=size) if size else lib.vector_domain(element)
    return lib.t.make_quantile_score_candidates(domain, lib.symmetric_distance(), candidates, 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    cdp.enable_features("contrib")
    odp = _timing.opendp()
    rng = random.Random(0)
    rows = []
    for label, T, size, candidates, data in _cases(rng):
        ours = _build(cdp, T, size, candidates)
        theirs = _build(odp, T, size, candidates) if odp else None
        times = _timing.interleaved(
            {
                "certdp": lambda f=ours, x=data: f(x),
                "OpenDP": (lambda f=theirs, x=data: f(x)) if theirs else None,
            },
            repeats,
        )
        mine, other = times["certdp"], times.get("OpenDP")
        same = str(ours(data) == theirs(data)) if theirs else "-"
        shown = f"{other:.3f}" if other else "-"
        rows.append(
            [
                label,
                f"{mine:.3f}",
                shown,
                _timing.ratio(mine, other),
                same,
                _timing.verdict(mine, other),
            ]
        )
    _timing.table(
        ["case", "certdp s", "OpenDP s", "ratio", "same scores", "target <= 1x"],
        rows,
        title=f"quantile scores of {N} records, median of {repeats}; {_timing.load()}",
    )


if __name__ == "__main__":
    main()
