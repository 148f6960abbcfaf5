"""The histogram tutorial (docs/guide/tutorial-histogram.rst): the page is in the site and its
toctree, every budget number it prints is what the constructors built here compute now, the two
releases have the shapes their proofs promise, and the bar charts draw the page's own release.
"""

from __future__ import annotations

import csv
import math
import re
from collections import Counter
from fractions import Fraction

import pytest

import certdp.prelude as dp
from tests.docs.test_guide import DOCS, _outputs, _page_text, _printed

D_IN = 1
LEVELS = list(range(1, 17))
BUDGET = (1.0, 1e-6)


def _columns() -> tuple[list[str], list[str]]:
    with open(dp.examples.get_california_pums_path(), newline="") as file:
        rows = list(csv.reader(file))
    return [row[2] for row in rows], [row[4] for row in rows]


COLUMNS = ["age", "sex", "educ", "race", "income", "married"]


def _column(key: str):
    """The page's proven ingest: the file's text -> frame -> the column ``key`` of strings."""
    frame = dp.t.make_split_dataframe(separator=",", col_names=COLUMNS)
    return frame >> dp.t.make_select_column(key=key, TOA=str)


@pytest.fixture(scope="module")
def page(site):
    page = site / "guide" / "tutorial-histogram.html"
    assert page.exists()
    return page


def test_tutorial_is_in_the_guide_toctree(site, page):
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="guide/tutorial-histogram.html"' in index
    assert "guide/tutorial-histogram" in (DOCS / "index.rst").read_text()


def test_ingest_is_the_proven_split_and_select_not_the_csv_module(page):
    outputs = _outputs(page)
    frame = dp.t.make_split_dataframe(separator=",", col_names=COLUMNS)
    assert _printed(outputs, "input space:") == [f"{frame.input_domain} {frame.input_metric}"]
    assert _printed(outputs, "frame:") == [f"{frame.output_domain} | d_in 1 -> d_out 1"]
    column = _column("educ")
    assert _printed(outputs, "one column:") == [
        f"{column.output_domain} {column.output_metric}",
        "d_in 1 -> d_out 1",
    ]
    # the stale sentences of issue 21 are gone: the page reads the file with the proven steps
    text = _page_text(page)
    assert "no dataframe step" not in text and "import csv" not in text
    assert "make_split_dataframe" in text and "make_select_column" in text
    # the proven ingest gives exactly the column an independent CSV reader gives
    with open(dp.examples.get_california_pums_path()) as file:
        assert column(file.read()) == _columns()[0]


def test_education_histogram_prints_the_map_and_true_counts_the_library_computes(page):
    outputs = _outputs(page)
    assert outputs and not any("Traceback" in output or "Error" in output for output in outputs)
    counts = (
        _column("educ")
        >> dp.t.then_cast_default(TOA=int)
        >> dp.t.then_count_by_categories(categories=LEVELS)
    )
    assert _printed(outputs, "cast and count: d_in 1 -> d_out") == [repr(counts.map(D_IN))]
    assert counts.map(D_IN) == 1
    release = counts >> dp.m.then_laplace(scale=1.0)
    assert _printed(outputs, "Laplace scale:") == ["1.0"]
    assert _printed(outputs, "epsilon:") == [f"{release.map(D_IN)!r} | within budget? True"]

    education, _ = _columns()
    table = next(output for output in outputs if output.startswith("level   true  noisy"))
    lines = table.splitlines()[1:]
    assert [line.split()[0] for line in lines] == [*map(str, LEVELS), "none"]
    with open(dp.examples.get_california_pums_path()) as file:
        true = counts(file.read())
    assert [int(line.split()[1]) for line in lines] == true
    # the proven pipeline's counts are those of an independent CSV reader
    independent = [education.count(str(level)) for level in LEVELS]
    assert true == [*independent, len(education) - sum(independent)]
    assert sum(true) == len(education) == 1000
    noisy = [int(line.split()[2]) for line in lines]
    # a release, not the true counts copied: the noise is drawn, so it differs somewhere unless
    # all 17 draws were 0, probability (tanh(1/2))^17 < 1e-5
    assert len(noisy) == 17 and noisy != true


def test_income_histogram_threshold_and_delta_are_the_librarys(page):
    outputs = _outputs(page)
    by_income = _column("income") >> dp.t.then_count_by()
    assert _printed(outputs, "d_in 1 -> (l0, l1, linf) =") == ["(1, 1, 1)"]

    def make(threshold):
        return by_income >> dp.m.then_laplace_threshold(scale=1.0, threshold=threshold)

    threshold = dp.binary_search_param(make, d_in=D_IN, d_out=BUDGET, bounds=(0, 1000))
    assert make(threshold).check(D_IN, BUDGET) and not make(threshold - 1).check(D_IN, BUDGET)
    assert _printed(outputs, "threshold:") == [str(threshold)]
    assert _printed(outputs, "(epsilon, delta):") == [
        f"{make(threshold).map(D_IN)!r} | within budget? True"
    ]
    assert _printed(outputs, "one less:") == [repr(make(threshold - 1).map(D_IN))]

    # the threshold delta is the exact tail P[Z >= threshold - 1] of DLap(0, 1), rounded up:
    # P[Z >= k] = e^-k / (1 + e^-1) for k >= 1
    def tail(k):
        return math.exp(-k) / (1 + math.exp(-1))

    delta = make(threshold).map(D_IN)[1]
    assert delta >= tail(threshold - 1) * (1 - 1e-12) and delta <= tail(threshold - 1) * 1.000001

    # #2922: at scale 1, threshold 5 the page prints the probability of the released event
    printed = _printed(outputs, "certdp, scale 1, threshold 5: (epsilon, delta) =")
    assert len(printed) == 1
    epsilon, delta5 = eval(printed[0], {})  # a tuple of two floats printed by repr
    assert epsilon == 1.0 and Fraction(delta5) >= Fraction(tail(4)) * (1 - Fraction(1, 10**12))
    assert delta5 > 0.0133 > 0.0049  # not OpenDP 0.16's 0.49 %


def test_income_release_shows_only_frequent_keys_with_their_true_counts(page):
    outputs = _outputs(page)
    _, income = _columns()
    true_income = Counter(income)
    threshold = int(_printed(outputs, "threshold:")[0])
    released_line = _printed(outputs, "released:")
    assert len(released_line) == 1
    released = eval(released_line[0], {})  # a dict of str -> int printed by repr
    assert isinstance(released, dict) and released
    assert all(key in true_income and value >= threshold for key, value in released.items())
    assert _printed(outputs, "distinct incomes in the data:") == [str(len(true_income))]
    block = next(output for output in outputs if "income   true  noisy" in output).splitlines()
    rows = block[block.index("income   true  noisy") + 1 :]
    assert rows and all(key in true_income for key, *_ in map(str.split, rows))
    for line in rows:
        key, true, noisy = line.split()
        assert int(true) == true_income[key]
        assert noisy == (str(released[key]) if key in released else "-")


def test_bar_charts_are_drawn_from_the_page_release(page, monkeypatch):
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    import certdp_plots

    text = page.read_text(encoding="utf-8")
    assert len(re.findall(r'<img [^>]*alt="A bar chart of', text)) == 2
    assert "This figure is missing" not in text
    figure = certdp_plots.draw_histogram(("t", ["a", "b"], [3, 4], [2.0, None]))
    assert len(figure.axes) == 1
    for bad in [None, ("t", [], [], []), ("t", ["a"], [1, 2], [1]), ("t", ["a"], [1], [None])]:
        with pytest.raises(certdp_plots.PlotError):
            certdp_plots.histogram_bars(bad)
