"""Sphinx extension: ``.. certdp-plot:: NAME`` draws a figure from the real constructors.

Each plot calls the constructors through ``certdp.prelude`` at build time (matplotlib, Agg) and
writes its PNG beside the doctrees (``docs/_build/plots/``), never into the sources.  A plot that
cannot be drawn -- a constructor missing, refusing every argument, or returning nothing to show --
is a warning naming the cause, so a ``-W`` build fails instead of showing an empty figure.
The directive's content is the figure's caption.  A plot of the page's own numbers
(``.. certdp-plot:: histogram`` with ``:data: NAME``) draws the variable ``NAME`` that the page's
``.. certdp-run::`` blocks left in their namespace, so the figure shows the very release the page
printed, not a second draw.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from docutils import nodes  # noqa: E402
from docutils.parsers.rst import directives  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402
from sphinx.util import logging  # noqa: E402
from sphinx.util.docutils import SphinxDirective  # noqa: E402

__all__ = [
    "PLOTS",
    "PAGE_PLOTS",
    "PlotError",
    "sized_sum_stair_step",
    "float_sum_relaxation",
    "count_mean_accuracy",
    "histogram_bars",
    "setup",
    "accuracy_panels",
]

logger = logging.getLogger(__name__)


class PlotError(Exception):
    """The data of a plot could not be computed from the constructors."""


def _dp():
    import certdp.prelude as dp

    return dp


def _transformation(name: str):
    constructor = getattr(_dp().t, name, None)
    if constructor is None:
        raise PlotError(f"dp.t.{name} does not exist yet")
    return constructor


# -- the stair-step of a sum over data of known size ----------------------------------------------
STAIR_BOUNDS = (-10, 10)
STAIR_SIZE = 3


def sized_sum_stair_step(d_ins=range(10)) -> tuple[list[int], list]:
    """``(d_in, map(d_in))`` of ``make_sum`` on integer vectors of known size."""
    dp = _dp()
    then_sum = _transformation("then_sum")
    space = (
        dp.vector_domain(dp.atom_domain(bounds=STAIR_BOUNDS), size=STAIR_SIZE),
        dp.symmetric_distance(),
    )
    summed = space >> then_sum()
    return list(d_ins), [summed.map(d_in) for d_in in d_ins]


def draw_sized_sum_stair_step() -> Figure:
    d_ins, d_outs = sized_sum_stair_step()
    figure = Figure(figsize=(6.4, 3.6), layout="constrained")
    axes = figure.subplots()
    axes.bar(d_ins, [float(d_out) for d_out in d_outs], width=0.8, color="#3f7fbf")
    axes.set_xticks(d_ins)
    axes.set_xlabel(r"$d_{in}$: symmetric distance (records added or removed)")
    axes.set_ylabel(r"$d_{out}$: sensitivity (absolute distance)")
    lower, upper = STAIR_BOUNDS
    axes.set_title(f"make_sum, size={STAIR_SIZE}, bounds=({lower}, {upper})")
    return figure


# -- the floating-point relaxation term ------------------------------------------------------------
RELAXATION_BOUNDS = (0.0, 10.0)
RELAXATION_SIZES = sorted({round(10 ** (exponent / 4)) for exponent in range(1, 29)})
SUMMATIONS = ["Sequential<f64>", "Pairwise<f64>", "Sequential<f32>", "Pairwise<f32>"]


def float_sum_relaxation(summation: str, sizes=RELAXATION_SIZES) -> tuple[list[int], list[float]]:
    """``(size, map(0))`` of ``make_sized_bounded_float_checked_sum`` for one summation ``S``.

    ``map(0)`` is the sensitivity between two orderings of the same data: the rounding term
    alone.  Every size must give a positive, finite term (a log scale shows nothing else), so a
    refusal or a zero is a :class:`PlotError`, never a missing point.
    """
    make = _transformation("make_sized_bounded_float_checked_sum")
    relaxations = []
    for size in sizes:
        try:
            relaxation = float(make(size, RELAXATION_BOUNDS, S=summation).map(0))
        except _dp().DPError as error:
            raise PlotError(f"S={summation!r}, size {size}: {error}") from error
        if not 0 < relaxation < float("inf"):
            raise PlotError(f"S={summation!r}, size {size}: map(0) = {relaxation}")
        relaxations.append(relaxation)
    return list(sizes), relaxations


def draw_float_sum_relaxation() -> Figure:
    figure = Figure(figsize=(6.4, 4.4), layout="constrained")
    axes = figure.subplots()
    styles = {"Sequential": "-", "Pairwise": "--"}
    colours = {"f64": "#3f7fbf", "f32": "#d0602c"}
    for summation in SUMMATIONS:
        algorithm, _, carrier = summation.partition("<")
        carrier = carrier.rstrip(">")
        sizes, relaxations = float_sum_relaxation(summation)
        axes.plot(sizes, relaxations, styles[algorithm], color=colours[carrier], label=summation)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("dataset size n")
    axes.set_ylabel("map(0): rounding term of the sensitivity")
    lower, upper = RELAXATION_BOUNDS
    axes.set_title(f"make_sized_bounded_float_checked_sum, bounds=({lower:g}, {upper:g})")
    axes.grid(True, which="major", alpha=0.3)
    axes.legend()
    return figure


# -- the accuracy of the count-and-mean release (tutorial-count-mean) ------------------------------
# The public choices of docs/guide/tutorial-count-mean.rst; tests/docs checks that the scale
# found here is the one that page prints.
RELEASE_BUDGET = (1.0, 1e-6)
RELEASE_D_IN = 1
RELEASE_BOUNDS = (0.0, 80.0)
RELEASE_SIZE = 100
RELEASE_CONSTANT = 40.0
RELEASE_SCALES = [2 ** (exponent / 4) for exponent in range(0, 25)]  # 1 to 64
COVERAGE = 0.95


def _release_maker():
    """``s -> (epsilon, delta)`` measurement of the tutorial: count and mean, each with Gaussian
    noise of ``s`` times its sensitivity, composed under zCDP and read at the budget's delta."""
    dp = _dp()
    space = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.symmetric_distance()
    counted = space >> _transformation("then_count")()
    averaged = (
        space
        >> dp.t.then_clamp(bounds=RELEASE_BOUNDS)
        >> _transformation("then_resize")(size=RELEASE_SIZE, constant=RELEASE_CONSTANT)
        >> _transformation("then_mean")()
    )
    count_sensitivity, mean_sensitivity = counted.map(RELEASE_D_IN), averaged.map(RELEASE_D_IN)

    def make_release(s):
        both = dp.c.make_composition(
            [
                counted >> dp.m.then_gaussian(scale=s * count_sensitivity),
                averaged >> dp.m.then_gaussian(scale=s * mean_sensitivity),
            ]
        )
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(both), delta=RELEASE_BUDGET[1])

    return make_release, count_sensitivity, mean_sensitivity


def discrete_gaussian_half_width(scale: float, coverage: float = COVERAGE) -> int:
    """The smallest integer ``t`` with ``P(|Z| <= t) >= coverage`` for ``Z`` the discrete
    Gaussian on the integers of ``scale`` (its pmf summed with mpmath, 50 digits)."""
    import mpmath

    with mpmath.workdps(50):
        sigma2 = 2 * mpmath.mpf(scale) ** 2
        tail = int(math.ceil(40 * scale)) + 1  # the mass beyond 40 scales is below 1e-340
        weights = [mpmath.exp(-(z**2) / sigma2) for z in range(tail + 1)]
        total = weights[0] + 2 * mpmath.fsum(weights[1:])
        inside = weights[0]
        for t in range(tail + 1):
            if inside / total >= coverage:
                return t
            inside += 2 * weights[t + 1]
    raise PlotError(f"no interval of the discrete Gaussian of scale {scale} reached {coverage}")


def gaussian_half_width(scale: float, coverage: float = COVERAGE) -> float:
    """``t`` with ``P(|Z| <= t) = coverage`` for ``Z`` the Gaussian of ``scale``: the float
    Gaussian's noise lives on the grid of multiples of 2^-1074, where this is its interval to
    far below the precision plotted."""
    import mpmath

    return float(mpmath.mpf(scale) * mpmath.sqrt(2) * mpmath.erfinv(coverage))


def count_mean_accuracy(scales=RELEASE_SCALES) -> dict:
    """For each relative scale ``s``: the epsilon of the release at the budget's delta and the
    95% noise half-widths of the count and of the mean; and the ``s`` the binary search finds."""
    dp = _dp()
    make_release, count_sensitivity, mean_sensitivity = _release_maker()
    chosen = dp.binary_search_param(make_release, d_in=RELEASE_D_IN, d_out=RELEASE_BUDGET)
    if not make_release(chosen).check(RELEASE_D_IN, RELEASE_BUDGET):
        raise PlotError(f"the scale found, {chosen}, does not pass the budget")
    epsilons = []
    for s in scales:
        epsilon, _ = make_release(s).map(RELEASE_D_IN)
        if not 0 < epsilon < math.inf:
            raise PlotError(f"s = {s}: epsilon = {epsilon}")
        epsilons.append(epsilon)
    return {
        "chosen": chosen,
        "scales": list(scales),
        "epsilons": epsilons,
        "count": [discrete_gaussian_half_width(s * count_sensitivity) for s in scales],
        "mean": [gaussian_half_width(s * mean_sensitivity) for s in scales],
        "chosen_count": discrete_gaussian_half_width(chosen * count_sensitivity),
        "chosen_mean": gaussian_half_width(chosen * mean_sensitivity),
    }


def draw_count_mean_accuracy() -> Figure:
    data = count_mean_accuracy()
    figure = Figure(figsize=(7.2, 3.8), layout="constrained")
    count_axes, mean_axes = figure.subplots(1, 2, sharex=True)
    epsilon_budget, delta = RELEASE_BUDGET
    panels = [
        (count_axes, "count", "chosen_count", "count: 95% noise interval ± (respondents)"),
        (mean_axes, "mean", "chosen_mean", "mean: 95% noise interval ± (hours)"),
    ]
    for axes, key, chosen_key, label in panels:
        axes.plot(data["epsilons"], data[key], "-", color="#3f7fbf")
        chosen = data[chosen_key]
        axes.plot([epsilon_budget], [chosen], "o", color="#d0602c")
        axes.annotate(
            f"ε = {epsilon_budget:g}: ±{chosen:.3g}",
            (epsilon_budget, chosen),
            textcoords="offset points",
            xytext=(8, 6),
            color="#d0602c",
        )
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel(f"ε of the whole release at δ = {delta:g}")
        axes.set_ylabel(label)
        axes.grid(True, which="both", alpha=0.3)
    figure.suptitle(f"count and mean of [0, 80]-clamped hours, resized to {RELEASE_SIZE}")
    return figure


# -- a histogram the page released, noisy counts beside the true ones (tutorial-histogram) --------
def histogram_bars(data) -> tuple[str, list[str], list[float], list[float | None]]:
    """Check and unpack a page's ``(title, labels, true_counts, noisy_counts)``; a noisy count is
    ``None`` for a key the release did not show.  Anything else is a :class:`PlotError`."""
    try:
        title, labels, true_counts, noisy_counts = data
    except (TypeError, ValueError) as error:
        raise PlotError("the data is not (title, labels, true counts, noisy counts)") from error
    labels = [str(label) for label in labels]
    if not labels or len(true_counts) != len(labels) or len(noisy_counts) != len(labels):
        raise PlotError(f"{len(labels)} labels, {len(true_counts)} true, {len(noisy_counts)} noisy")
    if all(noisy is None for noisy in noisy_counts):
        raise PlotError("no noisy count to show")
    true_counts = [float(count) for count in true_counts]
    noisy_counts = [None if noisy is None else float(noisy) for noisy in noisy_counts]
    return str(title), labels, true_counts, noisy_counts


def draw_histogram(data) -> Figure:
    title, labels, true_counts, noisy_counts = histogram_bars(data)
    figure = Figure(figsize=(7.2, 3.8), layout="constrained")
    axes = figure.subplots()
    positions = range(len(labels))
    width = 0.4
    axes.bar(
        [x - width / 2 for x in positions],
        true_counts,
        width,
        color="#9fb8d0",
        label="true count (not private)",
    )
    shown = [(x, noisy) for x, noisy in zip(positions, noisy_counts) if noisy is not None]
    axes.bar(
        [x + width / 2 for x, _ in shown],
        [noisy for _, noisy in shown],
        width,
        color="#d0602c",
        label="DP release",
    )
    for x, noisy in zip(positions, noisy_counts):
        if noisy is None:
            axes.annotate(
                "not released", (x + width / 2, 1), ha="center", va="bottom", size=7, rotation=90
            )
    axes.set_xticks(list(positions), labels, rotation=45 if len(labels) > 10 else 0)
    axes.set_ylabel("records")
    axes.set_title(title)
    axes.axhline(0, color="black", linewidth=0.6)
    axes.legend()
    return figure


# -- the error of several releases against epsilon (tutorial-quantile-variance-rr) ----------------
def accuracy_panels(data) -> list[tuple]:
    """Check and unpack a page's panels ``(title, ylabel, [(epsilon, error), ...], marked[,
    bias])``: ``marked`` is an ``(epsilon, error)`` point to highlight or ``None``, ``bias`` a
    level drawn dashed.  Every epsilon and error must be positive and finite (the axes are
    logarithmic); anything else is a :class:`PlotError`."""
    if not isinstance(data, (list, tuple)) or not data:
        raise PlotError("the data is not a non-empty list of panels")
    panels = []
    for panel in data:
        if not isinstance(panel, (list, tuple)) or len(panel) not in (4, 5):
            raise PlotError("a panel is not (title, ylabel, points, marked[, bias])")
        title, ylabel, points, marked, *bias = panel
        points = [(float(epsilon), float(error)) for epsilon, error in points]
        shown = points + ([] if marked is None else [tuple(map(float, marked))])
        if not points or not all(0 < v < math.inf for point in shown for v in point):
            raise PlotError(f"panel {title!r}: a point is not positive and finite: {shown}")
        panels.append((str(title), str(ylabel), points, marked, *map(float, bias)))
    return panels


def draw_accuracy_panels(data) -> Figure:
    panels = accuracy_panels(data)
    figure = Figure(figsize=(3.4 * len(panels), 3.6), layout="constrained")
    axes_list = figure.subplots(1, len(panels), squeeze=False)[0]
    for axes, (title, ylabel, points, marked, *bias) in zip(axes_list, panels):
        points = sorted(points)
        axes.plot([e for e, _ in points], [a for _, a in points], "o-", color="#3f7fbf", ms=3)
        if marked is not None:
            epsilon, error = marked
            axes.plot([epsilon], [error], "o", color="#d0602c")
            axes.annotate(
                f"ε = {epsilon:.3g}: {error:.3g}",
                (epsilon, error),
                textcoords="offset points",
                xytext=(6, 6),
                color="#d0602c",
                size=8,
            )
        for level in bias:
            axes.axhline(level, linestyle="--", color="#808080", label="clamping bias")
            axes.legend(fontsize=7)
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.xaxis.set_minor_formatter(NullFormatter())
        axes.set_xlabel("ε (the measurement's map)")
        axes.set_ylabel(ylabel)
        axes.set_title(title, size=9)
        axes.grid(True, which="both", alpha=0.3)
    return figure


PLOTS = {
    "sized-sum-stair-step": draw_sized_sum_stair_step,
    "float-sum-relaxation": draw_float_sum_relaxation,
    "count-mean-accuracy": draw_count_mean_accuracy,
}

#: Plots of numbers a page computed: drawn from the page variable named by ``:data:``.
PAGE_PLOTS = {
    "histogram": draw_histogram,
    "accuracy-panels": draw_accuracy_panels,
}


# -- the directive ---------------------------------------------------------------------------------
class PlotDirective(SphinxDirective):
    """Draw the named plot and show it as a figure captioned by the content."""

    required_arguments = 1
    has_content = True
    option_spec = {"alt": directives.unchanged, "data": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        variable = self.options.get("data")
        if name in PAGE_PLOTS:
            if variable is None:
                return self._failed(f"plot {name!r} needs :data: naming a variable of the page")
            namespace = self.env.temp_data.get("certdp_run_namespace") or {}
            if variable not in namespace:
                return self._failed(f"plot {name!r}: no certdp-run block set {variable!r}")
            page_draw = PAGE_PLOTS[name]

            def draw():
                return page_draw(namespace[variable])

            file_name = f"{self.env.docname.replace('/', '-')}-{variable}"
        elif name in PLOTS:
            if variable is not None:
                return self._failed(f"plot {name!r} takes no :data:")
            draw, file_name = PLOTS[name], name
        else:
            known = ", ".join([*PLOTS, *PAGE_PLOTS])
            return self._failed(f"unknown plot {name!r}; known plots: {known}")
        folder = Path(self.env.app.doctreedir).parent / "plots"
        folder.mkdir(parents=True, exist_ok=True)
        png = folder / f"{file_name}.png"
        try:
            figure = draw()
            figure.savefig(png, dpi=110)
        except Exception as error:  # every cause is reported; none draws an empty figure
            png.unlink(missing_ok=True)
            return self._failed(f"plot {name!r} could not be drawn from the constructors: {error}")

        document_folder = Path(self.env.doc2path(self.env.docname)).parent
        uri = Path(os.path.relpath(png, document_folder)).as_posix()
        image = nodes.image(uri=uri, alt=self.options.get("alt", name))
        figure_node = nodes.figure("", image)
        if self.content:
            caption_text = " ".join(self.content)
            parsed = nodes.paragraph()
            self.state.nested_parse(self.content, self.content_offset, parsed)
            figure_node += nodes.caption(caption_text, "", *parsed.children[0].children)
        return [figure_node]

    def _failed(self, message: str) -> list[nodes.Node]:
        logger.warning(message, location=self.get_location(), type="certdp", subtype="plot")
        return [nodes.warning("", nodes.paragraph(text=f"This figure is missing: {message}"))]


def setup(app):
    app.add_directive("certdp-plot", PlotDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
