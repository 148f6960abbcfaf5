"""Benchmark: make_count, make_resize and make_mean on 10^5 records, beside OpenDP 0.16.

    python benchmarks/bench_transforms.py    # beside OpenDP when it is installed

Times are the median of several interleaved runs of ``invoke`` (domain check included, contracts off) on a
Python list of f64 records in [0, 10].  Resizing to half the length shuffles all records
(Fisher--Yates from the OS CSPRNG, one exact uniform draw per record).
"""

from __future__ import annotations

import _timing

import certdp.prelude as cdp

N = 10**5
REPEAT = 5


def cases(dp):
    """(name, transformation) pairs, built with the library ``dp`` (certdp or OpenDP)."""
    unsized = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0)))
    sized = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0)), size=N)
    sym, ordered = dp.symmetric_distance(), dp.insert_delete_distance()
    built = [
        ("count", dp.t.make_count(unsized, sym)),
        ("resize: pad to 2N", dp.t.make_resize(unsized, sym, 2 * N, 0.0)),
        ("resize: sample N/2", dp.t.make_resize(unsized, sym, N // 2, 0.0)),
        (
            "resize: pad, shuffled (Sym -> ID)",
            dp.t.make_resize(unsized, sym, 2 * N, 0.0, MO="InsertDeleteDistance"),
        ),
        ("resize: prefix (ID -> ID)", dp.t.make_resize(unsized, ordered, N // 2, 0.0)),
        ("mean", dp.t.make_mean(sized, sym)),
    ]
    return built


def main() -> None:
    cdp.enable_features("contrib")
    odp = _timing.opendp()
    data = [(i * 7919 % 1000) / 100.0 for i in range(N)]
    theirs = dict(cases(odp)) if odp is not None else {}
    print(f"{N} f64 records; median of {REPEAT} interleaved runs, milliseconds")
    print(_timing.load())
    rows = []
    for name, t in cases(cdp):
        other = theirs.get(name)
        times = _timing.interleaved(
            {
                "certdp": lambda t=t: t(data),
                "OpenDP": (lambda other=other: other(data)) if other is not None else None,
            },
            REPEAT,
        )
        ours, them = times["certdp"], times.get("OpenDP")
        shown = "-" if them is None else f"{them * 1e3:.2f}"
        why = "the exact per-record domain check and exact draws"
        rows.append(
            [
                name,
                f"{ours * 1e3:.2f}",
                shown,
                _timing.ratio(ours, them),
                _timing.verdict(ours, them, 1.0, why),
            ]
        )
    _timing.table(["transformation", "certdp", "OpenDP 0.16", "ratio", "target <= 1x OpenDP"], rows)


if __name__ == "__main__":
    main()
