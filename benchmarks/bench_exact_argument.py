"""Time exact_argument's bulk path (one list of 10^6 floats, one of 10^6 ints).

Run with PYTHONPATH pointing at the tree to measure; compare two trees by running twice.
Prints the best of several repeats in milliseconds (2 shared cores: numbers are noisy).
"""

from __future__ import annotations

import os
import time

from certdp.core.conversion import exact_argument

N = 10**6
REPEATS = 7


def best_ms(value) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = exact_argument(value, "x")
        best = min(best, time.perf_counter() - start)
        assert result == value
    return best * 1e3


def main() -> None:
    floats = [i / 7 for i in range(N)]
    ints = list(range(N))
    print(f"load: {os.getloadavg()}")
    print(f"{'input':<22}{'exact_argument ms':>20}")
    print(f"{'list of 10^6 floats':<22}{best_ms(floats):>20.1f}")
    print(f"{'list of 10^6 ints':<22}{best_ms(ints):>20.1f}")
    print(f"{'tuple of 10^6 floats':<22}{best_ms(tuple(floats)):>20.1f}")


if __name__ == "__main__":
    main()
