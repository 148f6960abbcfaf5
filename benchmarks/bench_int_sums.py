"""Benchmark the integer sums on 10^6 i64 values, beside numpy.sum and OpenDP 0.16.

Run: ``python benchmarks/bench_int_sums.py`` (``make bench``); OpenDP is timed when it is
installed (in the same process, certdp and OpenDP taking turns within every repeat).

Each certdp sum is timed on a NumPy int64 array and on a Python list, as a whole call
(membership check of the input domain, then the function) and as the function alone.
Times are the median of ``REPEATS`` calls.  The data are a fixed arithmetic pattern in
[-1000, 1000] (no saturation), plus a saturating variant for the ordered sum.
Target: each certdp sum on a list no slower than OpenDP's on the same list.
"""

from __future__ import annotations

import _timing
import numpy as np

import certdp.prelude as cdp

SIZE = 1_000_000
REPEATS = 5
BOUND = 1000
TOP = 2**63 - 1


def pattern(size: int) -> list[int]:
    return [(i * 7919) % (2 * BOUND + 1) - BOUND for i in range(size)]


def median_seconds(call, data) -> float:
    return _timing.interleaved({"run": lambda: call(data)}, REPEATS)["run"]


def cases(dp, values: list[int]) -> dict:
    """``name -> (transformation, values it sums)`` in the library ``dp``."""
    positives = [abs(v) for v in values]
    built = {
        "checked (sized)": (
            dp.t.make_sized_bounded_int_checked_sum(SIZE, (-BOUND, BOUND), T="i64"),
            values,
        ),
        "monotonic": (dp.t.make_bounded_int_monotonic_sum((0, BOUND), T="i64"), positives),
        "split": (dp.t.make_bounded_int_split_sum((-BOUND, BOUND), T="i64"), values),
        "ordered": (dp.t.make_bounded_int_ordered_sum((-BOUND, BOUND), T="i64"), values),
    }
    if dp is cdp:  # the symmetric make_sum of an unsized i64 vector
        domain = dp.vector_domain(dp.atom_domain(bounds=(-BOUND, BOUND), T="i64"))
        built["make_sum (symmetric)"] = (dp.t.make_sum(domain, dp.symmetric_distance()), values)
    return built


def main() -> None:
    cdp.enable_features("contrib")  # the gate refuses a proof change until it is re-vetted
    odp = _timing.opendp()
    values = pattern(SIZE)
    array = np.array(values, dtype=np.int64)
    theirs = cases(odp, values) if odp is not None else {}
    print(f"Integer sums of {SIZE:,} i64 values (median of {REPEATS}; milliseconds)")
    print(_timing.load())
    rows = [
        ["numpy.sum", "ndarray", "", f"{median_seconds(np.sum, array) * 1e3:.2f}", "", ""],
        ["builtin sum", "list", "", f"{median_seconds(sum, values) * 1e3:.2f}", "", ""],
    ]
    targets = []
    for name, (transformation, data) in cases(cdp, values).items():
        for kind, payload in (("ndarray", np.array(data, dtype=np.int64)), ("list", data)):
            function = median_seconds(transformation.function, payload)
            other = theirs.get(name) if kind == "list" else None
            times = _timing.interleaved(
                {
                    "certdp": lambda t=transformation, p=payload: t(p),
                    "OpenDP": (lambda o=other: o[0](o[1])) if other else None,
                },
                REPEATS,
            )
            whole, them = times["certdp"], times.get("OpenDP")
            shown = "" if them is None else f"{them * 1e3:.2f}"
            rows.append(
                [f"certdp {name}", kind, f"{whole * 1e3:.2f}", f"{function * 1e3:.2f}", shown, ""]
            )
            if kind == "list":
                targets.append((f"{name} on a list", whole, them))
    # a fold that saturates early and often (falls back to the exact left fold)
    saturating = cdp.t.make_bounded_int_ordered_sum((-TOP, TOP), T="i64")
    data = np.array([TOP, TOP, -TOP, -TOP] * (SIZE // 4), dtype=np.int64)
    whole, function = median_seconds(saturating, data), median_seconds(saturating.function, data)
    rows.append(
        ["certdp ordered, saturating", "ndarray", f"{whole * 1e3:.2f}", f"{function * 1e3:.2f}"]
        + ["", ""]
    )
    _timing.table(["sum", "input", "whole call", "function", "OpenDP (list)", ""], rows)
    for name, ours, them in targets:
        _timing.target(name, ours, them, 1.0, "the exact domain check of every value")


if __name__ == "__main__":
    main()
