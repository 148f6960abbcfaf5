"""Randomized response: median seconds per release, certdp beside OpenDP 0.16 when installed.

Bit vectors of 10^2, 10^3 and 10^4 bits (issue 22's target: 10^4 bits no slower than OpenDP),
one boolean and one of 10 categories.  certdp draws every bit with an exact Bernoulli trial
(two random bits on average); OpenDP's column uses its default (not constant-time) sampler.
The two libraries' releases are timed in turn (interleaved repeats).
Run: ``python benchmarks/bench_randomized_response.py [--repeats R]`` (enables ``contrib``).
"""

from __future__ import annotations

import argparse

import _timing

import certdp.prelude as cdp

TARGET_BITS = 10_000


def _cases(dp, fixed: bool):
    for bits in (100, 1000, TARGET_BITS):
        size = -(-bits // 8) * 8
        domain = (
            dp.bitvector_domain(max_weight=10, size=size)
            if fixed
            else dp.bitvector_domain(max_weight=10)
        )
        data = bytes([1] + [0] * (size // 8 - 1))
        m = dp.m.make_randomized_response_bitvec(domain, dp.discrete_distance(), f=0.5)
        yield f"bitvec {size} bits", m, data
    yield "bool", dp.m.make_randomized_response_bool(0.75), True
    categories = [f"c{i}" for i in range(10)]
    yield "10 categories", dp.m.make_randomized_response(categories, 0.5), "c3"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    repeats = parser.parse_args().repeats
    cdp.enable_features("contrib")
    odp = _timing.opendp()
    theirs = {name: (m, data) for name, m, data in _cases(odp, fixed=False)} if odp else {}
    rows = []
    for name, m, data in _cases(cdp, fixed=True):
        other = theirs.get(name)
        times = _timing.interleaved(
            {
                "certdp": lambda m=m, data=data: m(data),
                "OpenDP": (lambda other=other: other[0](other[1])) if other else None,
            },
            repeats,
        )
        ours, them = times["certdp"], times.get("OpenDP")
        target = _timing.verdict(ours, them) if name == f"bitvec {TARGET_BITS} bits" else ""
        shown = f"{them * 1e3:.4f}" if them else "-"
        rows.append([name, f"{ours * 1e3:.4f}", shown, _timing.ratio(ours, them), target])
    _timing.table(
        ["release", "certdp (ms)", "OpenDP (ms)", "ratio", f"target <= 1x at {TARGET_BITS} bits"],
        rows,
        title=f"randomized response, median of {repeats} interleaved releases; {_timing.load()}",
    )


if __name__ == "__main__":
    main()
