"""The count-and-mean tutorial (docs/guide/tutorial-count-mean.rst): the page is in the site and
its toctree, and every number it prints about the budget is what the library computes now, by a
chain built here from the constructors, independently of the page's code.
"""

from __future__ import annotations

import math
import re

import pytest

import certdp.prelude as dp
from tests.docs.test_guide import DOCS, _outputs, _page_text, _printed

BUDGET = (1.0, 1e-6)
D_IN = 1
SIZE = 100


def _transformations():
    space = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()
    counted = dp.t.make_count(*space)
    clamped = dp.t.make_clamp(*space, bounds=(0.0, 80.0))
    resized = dp.t.make_resize(clamped.output_domain, clamped.output_metric, SIZE, 40.0)
    mean = dp.t.make_mean(resized.output_domain, resized.output_metric)
    averaged = clamped >> resized >> mean
    return counted, averaged


def _composition(s, counted, averaged):
    count_noise = dp.m.make_gaussian(
        counted.output_domain, counted.output_metric, s * counted.map(D_IN)
    )
    mean_noise = dp.m.make_gaussian(
        averaged.output_domain, averaged.output_metric, s * averaged.map(D_IN)
    )
    return dp.c.make_composition([counted >> count_noise, averaged >> mean_noise])


def _release(s, counted, averaged):
    profile = dp.c.make_zCDP_to_approxDP(_composition(s, counted, averaged))
    return dp.c.make_fix_delta(profile, BUDGET[1])


@pytest.fixture(scope="module")
def page(site):
    page = site / "guide" / "tutorial-count-mean.html"
    assert page.exists()
    return page


def test_tutorial_is_in_the_guide_toctree(site, page):
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="guide/tutorial-count-mean.html"' in index
    assert "guide/tutorial-count-mean" in (DOCS / "index.rst").read_text()


def test_tutorial_prints_the_epsilon_and_delta_the_library_computes(page):
    outputs = _outputs(page)
    assert outputs and not any("Traceback" in output or "Error" in output for output in outputs)
    counted, averaged = _transformations()

    assert _printed(outputs, "count: AtomDomain(T=i32) | d_in 1 -> d_out") == ["1"]
    sensitivity = averaged.map(D_IN)
    assert _printed(outputs, "mean: d_in 1 -> d_out") == [repr(sensitivity)]
    rounding = float(_printed(outputs, "of which rounding:")[0])
    assert rounding == sensitivity - 80.0 / SIZE and rounding > 0  # the mean's rounding term

    # the scale: searched here again, and it must be the nearest passing float
    scale = dp.binary_search_param(
        lambda s: _release(s, counted, averaged), d_in=D_IN, d_out=BUDGET
    )
    assert _printed(outputs, "s =") == [repr(scale)]
    release = _release(scale, counted, averaged)
    epsilon, delta = release.map(D_IN)
    assert epsilon <= BUDGET[0] and delta == BUDGET[1]
    smaller = _release(math.nextafter(scale, 0), counted, averaged)
    assert not smaller.check(D_IN, BUDGET)
    assert _printed(outputs, "(epsilon, delta) =") == [repr((epsilon, delta))]
    assert _printed(outputs, "one float less: (epsilon, delta) =") == [repr(smaller.map(D_IN))]
    assert _printed(outputs, "within budget?") == ["True", "False"]

    # where the budget goes: rho of the composition and delta of its conversion at epsilon 1
    composition = _composition(scale, counted, averaged)
    rho = composition.map(D_IN)
    assert _printed(outputs, "rho of the composition:") == [repr(rho)]
    profile = dp.c.make_zCDP_to_approxDP(composition).map(D_IN)
    printed_delta = _printed(outputs, f"delta at epsilon {BUDGET[0]} :")
    assert printed_delta == [repr(profile.delta(BUDGET[0]))]
    assert float(printed_delta[0]) <= BUDGET[1]
    simpler = float(_printed(outputs, "the simpler bound rho + 2 sqrt(rho ln(1/delta)):")[0])
    assert simpler == rho + 2 * math.sqrt(rho * math.log(1 / BUDGET[1])) > epsilon


def test_tutorial_releases_an_integer_count_and_a_mean_in_bounds(page):
    outputs = _outputs(page)
    count = _printed(outputs, "DP count of respondents:")
    mean = _printed(outputs, "DP mean:")
    assert len(count) == 1 and re.fullmatch(r"-?\d+", count[0])
    assert len(mean) == 1 and re.fullmatch(r"-?\d+\.\d hours per week", mean[0])


def test_accuracy_plot_uses_the_page_scale_and_the_text_states_its_intervals(page, monkeypatch):
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    import certdp_plots

    assert 'alt="Two log-log plots' in page.read_text(encoding="utf-8")
    assert (page.parent.parent.parent / "plots" / "count-mean-accuracy.png").exists() or any(
        image.name.startswith("count-mean-accuracy")
        for image in (page.parent.parent / "_images").iterdir()
    )
    data = certdp_plots.count_mean_accuracy(scales=[1.0, 64.0])
    assert _printed(_outputs(page), "s =") == [repr(data["chosen"])]
    text = _page_text(page)
    assert f"within about ±{data['chosen_count']} respondents" in text
    assert f"within about ±{round(data['chosen_mean'])} hours" in text
    # the count's interval is exact: it covers 95% and one integer less does not
    assert certdp_plots.discrete_gaussian_half_width(1.0) == 2  # P(|Z| <= 1) < 0.95 at scale 1
