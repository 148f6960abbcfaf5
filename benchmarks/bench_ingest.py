"""CSV ingest at 10^6 rows: seconds per stage and end to end, certdp beside OpenDP 0.16.

The shipped 1,000-row PUMS sample is repeated to 10^6 lines.  Rows: split_lines, split_lines >>
split_records, and the user guide's pipeline (split_dataframe >> select_column >> cast_default
>> clamp >> sum) where the library has every step of it (certdp's dataframe steps are not built
yet: its row says so).  One run each after a warm-up call on 1,000 lines.  Run:
``python benchmarks/bench_ingest.py`` (enables ``contrib`` while the constructors are not
vetted).
"""

from __future__ import annotations

import time
import warnings

import certdp.prelude as cdp

try:
    import opendp.prelude as odp
except ImportError:  # OpenDP is optional: certdp's column alone
    odp = None

ROWS = 10**6
COLUMNS = ["age", "sex", "educ", "race", "income", "married"]


def _csv(rows: int) -> str:
    from certdp.examples import get_california_pums_path

    lines = get_california_pums_path().read_text().splitlines()
    repeated = (lines * (rows // len(lines) + 1))[:rows]
    return "\n".join(repeated) + "\n"


def _split(dp):
    return dp.t.make_split_lines()


def _records(dp):
    return dp.t.make_split_lines() >> dp.t.make_split_records(",")


def _guide(dp):
    income = dp.t.make_split_dataframe(",", COLUMNS) >> dp.t.make_select_column("income", str)
    income = income >> dp.t.then_cast_default(int) >> dp.t.then_clamp((0, 200_000))
    return income >> dp.t.then_sum()


PIPELINES = [
    ("split_lines", _split),
    ("split_lines >> split_records", _records),
    ("split_dataframe .. sum", _guide),
]


def _seconds(library, build, text: str, small: str) -> str:
    if library is None:
        return "-"
    try:
        pipeline = build(library)
    except Exception as error:  # a step the library does not have
        return f"n/a ({type(error).__name__})"
    try:
        pipeline(small)
    except Exception as error:
        return f"n/a ({type(error).__name__})"
    start = time.perf_counter()
    pipeline(text)
    return f"{time.perf_counter() - start:8.3f}"


def main() -> None:
    cdp.enable_features("contrib")
    if odp is not None:
        odp.enable_features("contrib")
    warnings.simplefilter("ignore", DeprecationWarning)
    text, small = _csv(ROWS), _csv(1000)
    print(f"{ROWS} CSV rows ({len(text) / 1e6:.1f} MB)")
    print(f"{'pipeline':32} {'certdp s':>22} {'OpenDP s':>22}")
    for name, build in PIPELINES:
        ours = _seconds(cdp, build, text, small)
        theirs = _seconds(odp, build, text, small)
        print(f"{name:32} {ours:>22} {theirs:>22}")
    print("(OpenDP cannot return split_records' Vec<Vec<String>> to Python: its row is n/a)")


if __name__ == "__main__":
    main()
