"""The quantile, variance and randomized-response tutorial
(docs/guide/tutorial-quantile-variance-rr.rst): the page is in the site and its toctree, every
budget, map and accuracy number it prints is what the constructors and helpers built here compute
now, the true values it prints are those an independent CSV reader gives, and its figures draw
the page's own releases.
"""

from __future__ import annotations

import csv
import math
import re
import statistics

import pytest

import certdp.prelude as dp
from tests.docs.test_guide import DOCS, _outputs, _page_text, _printed

D_IN = 1
COLUMNS = ["age", "sex", "educ", "race", "income", "married"]
CANDIDATES = [float(c) for c in range(0, 200_001, 1_000)]
UPPER = 300_000.0
SIZE = 1_000


def _rows() -> list[list[str]]:
    with open(dp.examples.get_california_pums_path(), newline="") as file:
        return list(csv.reader(file))


def _incomes() -> list[float]:
    return [float(row[4]) for row in _rows()]


def _income():
    return (
        dp.t.make_split_dataframe(separator=",", col_names=COLUMNS)
        >> dp.t.make_select_column(key="income", TOA=str)
        >> dp.t.then_cast(TOA=float)
        >> dp.t.then_impute_constant(0.0)
    )


def _variance():
    return (
        _income()
        >> dp.t.then_clamp(bounds=(0.0, UPPER))
        >> dp.t.then_resize(size=SIZE, constant=0.0)
        >> dp.t.then_variance()
    )


@pytest.fixture(scope="module")
def page(site):
    page = site / "guide" / "tutorial-quantile-variance-rr.html"
    assert page.exists()
    return page


def test_tutorial_is_in_the_guide_toctree(site, page):
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="guide/tutorial-quantile-variance-rr.html"' in index
    assert "guide/tutorial-quantile-variance-rr" in (DOCS / "index.rst").read_text()


def test_income_is_read_by_the_proven_ingest_and_equals_an_independent_reader(page):
    outputs = _outputs(page)
    assert outputs and not any("Traceback" in output or "Error" in output for output in outputs)
    income = _income()
    assert _printed(outputs, "income column:") == [
        f"{income.output_domain} {income.output_metric}",
        "d_in 1 -> d_out 1",
    ]
    with open(dp.examples.get_california_pums_path()) as file:
        assert income(file.read()) == _incomes()
    quartiles = statistics.quantiles(_incomes(), n=4, method="inclusive")
    assert set(_printed(outputs, "true quartiles (teaching only):")) == {repr(quartiles)}


def test_quantile_scales_and_epsilons_are_the_librarys(page):
    outputs = _outputs(page)
    income = _income()
    measurements = []
    for alpha in (0.25, 0.5, 0.75):

        def make(scale, alpha=alpha):
            return income >> dp.m.then_private_quantile(
                output_measure=dp.max_divergence(), candidates=CANDIDATES, alpha=alpha, scale=scale
            )

        scale = dp.binary_search_param(make, d_in=D_IN, d_out=1 / 3)
        assert not make(math.nextafter(scale, 0)).check(D_IN, 1 / 3)
        measurements.append(make(scale))
        assert _printed(outputs, f"alpha {alpha}:") == [
            f"scale {scale}, epsilon {make(scale).map(D_IN)}"
        ]
    # the quartiles' scores move 3 times as far as the median's: 1.5 times the scale
    assert _printed(outputs, "alpha 0.25:")[0] == _printed(outputs, "alpha 0.75:")[0]
    composed = dp.c.make_composition(measurements).map(D_IN)
    assert _printed(outputs, "composed: epsilon") == [repr(composed)] and composed <= 1.0 + 1e-15
    released = eval(_printed(outputs, "released quartiles:")[0], {})
    assert len(released) == 3 and all(value in CANDIDATES for value in released)


def test_variance_table_and_release_use_the_librarys_maps_and_accuracy_helper(page):
    outputs = _outputs(page)
    table = next(output for output in outputs if "clamped variance (teaching only)" in output)
    rows = [line.split() for line in table.splitlines()[2:]]
    assert [float(row[0]) for row in rows] == [100_000.0, 200_000.0, 300_000.0, 500_000.0]
    incomes = _incomes()
    for upper, sensitivity, scale, half_width, clamped in rows:
        variance = (
            _income()
            >> dp.t.then_clamp(bounds=(0.0, float(upper)))
            >> dp.t.then_resize(size=SIZE, constant=0.0)
            >> dp.t.then_variance()
        )

        def make(s, variance=variance):
            return variance >> dp.m.then_laplace(scale=s)

        found = dp.binary_search_param(make, d_in=D_IN, d_out=1.0)
        assert sensitivity == f"{variance.map(D_IN):.4g}" and scale == f"{found:.4g}"
        assert half_width == f"{dp.laplacian_scale_to_accuracy(found, alpha=0.05):.4g}"
        exact = statistics.variance([min(x, float(upper)) for x in incomes])
        assert float(clamped) == pytest.approx(exact, rel=1e-3)

    variance = _variance()
    assert _printed(outputs, "variance: d_in 1 -> sensitivity") == [repr(variance.map(D_IN))]
    # the map is U^2 / 1000 plus the rounding terms: never below the exact-arithmetic value
    assert variance.map(D_IN) > UPPER**2 / SIZE

    def make(s):
        return variance >> dp.m.then_laplace(scale=s)

    scale = dp.binary_search_param(make, d_in=D_IN, d_out=1.0)
    assert _printed(outputs, "Laplace scale:") == [f"{scale} | epsilon: {make(scale).map(D_IN)}"]
    accuracy = dp.laplacian_scale_to_accuracy(scale, alpha=0.05)
    assert _printed(outputs, "95% of the noise within ±") == [repr(accuracy)]
    assert accuracy >= scale * math.log(20)
    assert len(_printed(outputs, "released variance:")) == 1


def test_randomized_response_epsilons_and_true_totals(page):
    outputs = _outputs(page)
    rows = _rows()
    married = sum(1 for row in rows if row[5] == "1")
    line = _printed(outputs, "married: estimate")
    assert len(line) == 1 and line[0].endswith(f"| true (teaching only): {married}")
    assert _printed(outputs, "married: epsilon per person") == [
        repr(dp.m.make_randomized_response_bool(prob=0.75).map(1))
    ]
    assert float(_printed(outputs, "married: epsilon per person")[0]) >= math.log(3)

    bits = dp.bitvector_domain(max_weight=1, size=8)
    randomizer = dp.m.make_randomized_response_bitvec(bits, dp.discrete_distance(), f=0.5)
    assert _printed(outputs, "education: epsilon per person") == [repr(randomizer.map(1))]
    block = next(output for output in outputs if "band    true" in output).splitlines()
    lines = [
        line.split() for line in block[block.index("band    true (teaching only)  estimate") + 1 :]
    ]
    assert len(lines) == 8
    levels = [int(row[2]) for row in rows]
    for band, (label, true, estimate) in enumerate(lines):
        assert label == f"{2 * band + 1}-{2 * band + 2}"
        assert int(true) == sum(1 for level in levels if (level - 1) // 2 == band)
        float(estimate)


def test_accuracy_study_is_measured_and_matches_the_exact_spread(page):
    outputs = _outputs(page)
    lines = _printed(outputs, "married, epsilon")
    assert len(lines) == 6
    n = len(_rows())
    pattern = r"(\S+): 95% of \|error\| <= (\S+) \| exact sd (\S+) \(1\.96 sd = (\S+)\)"
    for line in lines:
        epsilon, empirical, sd, _ = re.fullmatch(pattern, line).groups()
        prob = math.exp(float(epsilon)) / (1 + math.exp(float(epsilon)))
        exact = math.sqrt(n * prob * (1 - prob)) / (2 * prob - 1)
        assert float(sd) == pytest.approx(exact, rel=1e-2, abs=0.06)
        # the 95th percentile of 200 draws of |estimate - truth| is near 1.96 sd: far outside
        # [0.6, 1.6] times it only with a negligible probability (and not if it were hard-coded)
        assert 0.6 * 1.96 * exact <= float(empirical) <= 1.6 * 1.96 * exact
    bands = _printed(outputs, "education bands, epsilon")
    assert len(bands) == 1
    epsilon, empirical, sd, _ = re.fullmatch(pattern, bands[0]).groups()
    exact = math.sqrt(n * 0.25 * 0.75) / 0.5  # f = 1/2: each bit flipped with probability 1/4
    assert float(epsilon) == pytest.approx(2 * math.log(3), rel=1e-2)
    assert float(sd) == pytest.approx(exact, abs=0.06)
    assert 0.7 * 1.96 * exact <= float(empirical) <= 1.4 * 1.96 * exact  # 1,600 pooled errors
    median = _printed(outputs, "median at epsilon")
    assert len(median) == 1 and float(median[0].split("<=")[1]) > 0


def test_figures_are_drawn_from_the_page_releases(page, monkeypatch):
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    import certdp_plots

    text = page.read_text(encoding="utf-8")
    assert len(re.findall(r'<img [^>]*alt="A bar chart of the eight education bands', text)) == 1
    assert len(re.findall(r'<img [^>]*alt="Three log-log plots', text)) == 1
    assert "This figure is missing" not in _page_text(page)
    figure = certdp_plots.draw_accuracy_panels([("t", "y", [(1.0, 2.0), (2.0, 1.0)], None, 0.5)])
    assert len(figure.axes) == 1
    for bad in [
        None,
        [],
        [("t", "y", [], None)],
        [("t", "y", [(0.0, 1.0)], None)],
        [("t", "y", [(1.0, math.inf)], None)],
        [("t", "y", [(1.0, 1.0)], (1.0, 0.0))],
        [("t", "y")],
    ]:
        with pytest.raises(certdp_plots.PlotError):
            certdp_plots.accuracy_panels(bad)
