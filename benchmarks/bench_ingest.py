"""CSV ingest at 10^6 rows: seconds per stage and end to end, certdp beside OpenDP 0.16.

The shipped 1,000-row PUMS sample is repeated to 10^6 lines.  Rows: split_lines, split_lines >>
split_records, the user guide's pipeline (split_dataframe >> select_column >> cast_default
>> clamp >> sum) and a histogram release (split_dataframe >> select_column >> cast >>
impute_constant >> clamp >> count_by_categories >> laplace).  One run each after a warm-up call
on 1,000 lines; the last column is certdp's time over OpenDP's (target: at most 1.5).  Run:
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


def _histogram(dp):
    educ = dp.t.make_split_dataframe(",", COLUMNS) >> dp.t.make_select_column("educ", str)
    educ = educ >> dp.t.then_cast(int) >> dp.t.then_impute_constant(0)
    educ = educ >> dp.t.then_clamp((0, 16))
    counts = educ >> dp.t.then_count_by_categories(categories=list(range(17)))
    return counts >> dp.m.then_laplace(1.0)


def _frame_column(dp):
    return dp.t.make_split_dataframe(",", COLUMNS) >> dp.t.make_select_column("income", str)


PIPELINES = [
    ("split_lines", _split),
    ("split_lines >> split_records", _records),
    ("split_dataframe >> select_column", _frame_column),
    ("split_dataframe .. sum", _guide),
    ("split_dataframe .. count_by_cat .. laplace", _histogram),
]


def _seconds(library, build, text: str, small: str) -> float | str:
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
    return time.perf_counter() - start


def _shown(seconds) -> str:
    return f"{seconds:8.3f}" if isinstance(seconds, float) else seconds


def main() -> None:
    cdp.enable_features("contrib")
    if odp is not None:
        odp.enable_features("contrib")
    warnings.simplefilter("ignore", DeprecationWarning)
    text, small = _csv(ROWS), _csv(1000)
    print(f"{ROWS} CSV rows ({len(text) / 1e6:.1f} MB)")
    print(f"{'pipeline':44} {'certdp s':>14} {'OpenDP s':>14} {'ratio':>7}")
    for name, build in PIPELINES:
        ours = _seconds(cdp, build, text, small)
        theirs = _seconds(odp, build, text, small)
        both = isinstance(ours, float) and isinstance(theirs, float)
        ratio = f"{ours / theirs:7.2f}" if both else "-"
        print(f"{name:44} {_shown(ours):>14} {_shown(theirs):>14} {ratio:>7}")
    print("(OpenDP cannot return split_records' Vec<Vec<String>> to Python: its row is n/a)")


if __name__ == "__main__":
    main()
