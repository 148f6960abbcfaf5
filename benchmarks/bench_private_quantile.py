"""Private quantile: seconds of one release of ``make_private_quantile`` on 10^6 records (f64 and
i64, known and unknown size, both output measures), certdp beside OpenDP 0.16 when installed.

Each row times one invocation (median of interleaved repeats, warm process) on a Python list,
as a user passes data. Target (issue #22): certdp's time <= 1x OpenDP's.
A second table times the construction with 10^6 candidates (sorted, reversed, a ``range``),
target <= 1x too: certdp checks a list of plain floats or ints in bulk (one type, range and NaN
test, then one pass of ``<``), and the argument boundary of each of the two certified
constructors (private quantile, then the scores) takes one snapshot of a list of plain items
instead of converting it entry by entry (core/conversion.tex).
Run: ``python benchmarks/bench_private_quantile.py [--repeats R]`` (enables ``contrib``).
"""

from __future__ import annotations

import argparse
import random

import _timing

import certdp.prelude as cdp

N = 10**6
BOUNDARY = "type, range, NaN and order checks of the 10^6 candidates in Python"


def _cases(rng):
    floats = [rng.gauss(0.0, 1.0) for _ in range(N)]
    ints = [rng.randrange(-1000, 1000) for _ in range(N)]
    float_candidates = [i / 10 for i in range(-30, 31)]
    int_candidates = list(range(-1000, 1000, 10))
    for measure, short in (("max_divergence", "pure"), ("zero_concentrated_divergence", "zCDP")):
        yield f"f64, no size, 61 cand., {short}", "f64", None, measure, float_candidates, floats
        yield f"f64, size 10^6, 61 cand., {short}", "f64", N, measure, float_candidates, floats
        yield f"i64, no size, 200 cand., {short}", "i64", None, measure, int_candidates, ints


def _build(lib, T, size, measure, candidates):
    element = lib.atom_domain(T=T, nan=False) if T.startswith("f") else lib.atom_domain(T=T)
    domain = lib.vector_domain(element, size=size) if size else lib.vector_domain(element)
    return lib.m.make_private_quantile(
        domain, lib.symmetric_distance(), getattr(lib, measure)(), candidates, 0.5, 1.0
    )


def _row(label, runs, repeats, reason=""):
    times = _timing.interleaved(runs, repeats)
    mine, other = times["certdp"], times.get("OpenDP")
    shown = f"{other:.3f}" if other else "-"
    return [
        label,
        f"{mine:.3f}",
        shown,
        _timing.ratio(mine, other),
        _timing.verdict(mine, other, reason=reason),
    ]


def main(repeats: int) -> None:
    odp = _timing.opendp()
    rng = random.Random(0)
    rows = []
    for label, T, size, measure, candidates, data in _cases(rng):
        ours = _build(cdp, T, size, measure, candidates)
        theirs = _build(odp, T, size, measure, candidates) if odp else None
        runs = {
            "certdp": lambda f=ours, x=data: f(x),
            "OpenDP": (lambda f=theirs, x=data: f(x)) if theirs else None,
        }
        rows.append(_row(label, runs, repeats))
    _timing.table(
        ["release on 10^6 records", "certdp s", "OpenDP s", "ratio", "target <= 1x"],
        rows,
        title=f"private quantile, median of {repeats}; {_timing.load()}",
    )


def main_build(repeats: int) -> None:
    odp = _timing.opendp()
    cases = [
        ("f64, sorted list", "f64", [i / 4 for i in range(N)]),
        ("f64, reversed list", "f64", [i / 4 for i in range(N, 0, -1)]),
        ("i64, range", "i64", range(0, 10 * N, 10)),
    ]
    rows = []
    for label, T, candidates in cases:
        runs = {
            "certdp": lambda T=T, c=candidates: _build(cdp, T, None, "max_divergence", c),
            "OpenDP": (lambda T=T, c=candidates: _build(odp, T, None, "max_divergence", c))
            if odp
            else None,
        }
        rows.append(_row(label, runs, repeats, reason=BOUNDARY))
    print()
    _timing.table(
        ["construction, 10^6 candidates", "certdp s", "OpenDP s", "ratio", "target <= 1x"],
        rows,
        title=f"construction, median of {repeats}; {_timing.load()}",
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    cdp.enable_features("contrib")
    main(arguments.repeats)
    main_build(arguments.repeats)
