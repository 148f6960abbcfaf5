"""Accuracy conversions: median seconds per call, certdp beside OpenDP 0.16 when installed.

Each of the eight functions is timed at typical levels (alpha = 0.05 and 1e-6) and at the
smallest ones (1e-300 and, for an accuracy, 5e-324), where the exact enclosures need more than
a thousand bits.  Target: well under 10 ms per call at typical levels.  Run:
``python benchmarks/bench_accuracy.py`` (enables ``contrib`` while the lemma is not vetted).
"""

from __future__ import annotations

import math
import time

import _timing

import certdp.prelude as cdp

#: Typical levels must take well under this many seconds per call.
TARGET_SECONDS = 0.010
TYPICAL = {0.05, 1e-6}

NAMES = (
    "laplacian_scale_to_accuracy",
    "accuracy_to_laplacian_scale",
    "discrete_laplacian_scale_to_accuracy",
    "accuracy_to_discrete_laplacian_scale",
    "gaussian_scale_to_accuracy",
    "accuracy_to_gaussian_scale",
    "discrete_gaussian_scale_to_accuracy",
    "accuracy_to_discrete_gaussian_scale",
)
CASES = [(3.7, 0.05), (100.0, 1e-6), (3.7, 1e-300), (3.7, 5e-324)]
REPEATS = 7


def _median(function, value, alpha) -> float | None:
    """Median seconds over REPEATS calls at ``value`` and the next floats up (so that no call
    repeats an earlier one's arguments)."""
    times = []
    for _ in range(REPEATS):
        value = math.nextafter(value, math.inf)
        start = time.perf_counter()
        try:
            function(value, alpha)
        except Exception:
            return None
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def _ms(seconds: float | None) -> str:
    return "refused" if seconds is None else f"{seconds * 1000:8.3f}"


def main() -> None:
    cdp.enable_features("contrib")
    odp = _timing.opendp()
    print(_timing.load())
    print(f"{'function':40} {'value':>7} {'alpha':>8} {'certdp ms':>10} {'OpenDP ms':>10}")
    slowest = 0.0
    for name in NAMES:
        for value, alpha in CASES:
            if alpha == 5e-324 and name.startswith("accuracy_to"):
                alpha = 1e-300
            ours = _median(getattr(cdp, name), value, alpha)
            theirs = _median(getattr(odp, name), value, alpha) if odp is not None else None
            shown = _ms(theirs) if odp is not None else "-"
            print(f"{name:40} {value:7g} {alpha:8.0e} {_ms(ours):>10} {shown:>10}")
            if alpha in TYPICAL and ours is not None:
                slowest = max(slowest, ours)
    met = "met" if slowest < TARGET_SECONDS else "missed (an exact enclosure needs many bits)"
    print(
        f"target: every call at alpha 0.05 and 1e-6 under {TARGET_SECONDS * 1e3:g} ms: {met} "
        f"(slowest {slowest * 1e3:.3f} ms)"
    )


if __name__ == "__main__":
    main()
