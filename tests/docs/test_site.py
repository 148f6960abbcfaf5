"""The documentation site: built from the real tree, every constructor linked to its proof.

The ``site`` fixture (``conftest.py``) builds the site once per test session.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from certdp.contracts import contract_of
from certdp.crosscheck.report import digest, to_json
from certdp.registry import certified_constructors

from ..crosscheck import opendp_quick

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PROOFS_BUILD = ROOT / "build" / "proofs"
PDF_LINK = re.compile(r'href="([^"#]+\.pdf)"')
MATH_IMAGE = re.compile(r'<img class="math" src="([^"]+\.svg)"')


def _page(site: Path, constructor) -> Path:
    folder = constructor.__module__.split(".")[1]  # transformations, measurements or numpy
    return site / "reference" / folder / f"{constructor.__name__}.html"


def _pdf_links(page: Path) -> list[Path]:
    return [(page.parent / href).resolve() for href in PDF_LINK.findall(page.read_text())]


def test_every_constructor_page_links_its_proof_pdf(site):
    constructors = certified_constructors()
    assert any(c.__name__ == "make_is_equal" for c in constructors)
    for constructor in constructors:
        page = _page(site, constructor)
        assert page.is_file(), f"no page for {constructor.__name__}"
        links = _pdf_links(page)
        assert links, f"{page.name} links no PDF"
        for pdf in links:
            assert pdf.is_file(), f"{page.name} links {pdf}, which the site lacks"
            assert pdf.is_relative_to(site / "proofs")
        html = page.read_text()
        for precondition in contract_of(constructor).preconditions:
            assert precondition.id in html, f"{page.name} omits precondition {precondition.id}"
        assert "Audit" in html
        formulas = MATH_IMAGE.findall(html)  # the bound, drawn by LaTeX
        assert formulas and all((page.parent / svg).stat().st_size > 0 for svg in formulas)


def test_proofs_index_lists_definitions_and_every_pdf(site):
    page = site / "reference" / "proofs.html"
    links = set(_pdf_links(page))
    assert (site / "proofs" / "definitions.pdf").resolve() in links
    built = sorted(PROOFS_BUILD.rglob("*.pdf"))
    assert built
    for pdf in built:
        in_site = (site / "proofs" / pdf.relative_to(PROOFS_BUILD)).resolve()
        assert in_site in links, f"the Proofs page does not list {pdf.relative_to(PROOFS_BUILD)}"
        assert in_site.read_bytes() == pdf.read_bytes()


def test_no_pdf_has_an_unresolved_reference(site):
    pdfs = sorted((site / "proofs").rglob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        text = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert text.strip(), f"{pdf.name} has no text"
        assert "??" not in text, f"{pdf.relative_to(site)} contains '??'"


def test_sums_page_shows_plots_drawn_at_build_time(site):
    page = site / "guide" / "sums.html"
    images = re.findall(r'<img[^>]+src="([^"]+\.png)"', page.read_text())
    names = {Path(src).stem for src in images}
    assert {"sized-sum-stair-step", "float-sum-relaxation"} <= names
    for src in images:
        assert (page.parent / src).stat().st_size > 10_000  # a drawn figure, not an empty canvas


# -- the hooks, without a build --------------------------------------------------------------------
@pytest.fixture
def extensions(monkeypatch):
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    import certdp_plots
    import certdp_status

    return types.SimpleNamespace(status=certdp_status, plots=certdp_plots)


def test_crosscheck_page_shows_the_quick_run_the_crosscheck_tests_read(site, tmp_path_factory):
    """The guide's quick OpenDP cross-check is this session's one run (``opendp_quick.py``),
    handed to the build: the page asked for it, and prints that report's digest line for line."""
    pytest.importorskip("opendp")
    pickled = opendp_quick.quick_report_pickle(tmp_path_factory)
    answered = Path(f"{pickled}.answered").read_text().splitlines()
    assert answered == ["opendp.prelude quick=True"]
    page = (site / "guide" / "crosscheck.html").read_text()
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    lines = digest(json.loads(to_json(opendp_quick.quick_report(tmp_path_factory))))
    assert len(lines) > 3
    for line in lines:
        assert line in text, line


def test_audit_status_without_the_audit_tool(extensions, monkeypatch):
    real_import = extensions.status.importlib.import_module

    def without_audit(name, *args):
        if name == "certdp.audit.status":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *args)

    monkeypatch.setattr(extensions.status.importlib, "import_module", without_audit)
    assert extensions.status.status_line("make_is_equal") == "not audited yet"


def test_audit_status_from_the_audit_tool(extensions, monkeypatch):
    reported = types.SimpleNamespace(
        state="outdated", commit="abc1234", reviewer="R. Viewer", date="2025-01-02"
    )
    tool = types.ModuleType("certdp.audit.status")
    tool.vetting_status = lambda name: reported if name == "make_x" else None
    monkeypatch.setitem(sys.modules, "certdp.audit.status", tool)
    line = extensions.status.status_line("make_x")
    assert line == "**outdated** (last vetted at commit ``abc1234`` by R. Viewer on 2025-01-02)"
    reported.reviewed = "proof against code listing, cited lemmas"
    assert extensions.status.status_line("make_x") == (
        "**outdated** (last vetted at commit ``abc1234`` by R. Viewer on 2025-01-02; "
        "reviewed: proof against code listing, cited lemmas)"
    )
    assert "reviewed" not in extensions.status.status_line("make_x", brief=True)
    reported.state, reported.commit, reported.reviewer, reported.date = "never vetted", *[None] * 3
    assert extensions.status.status_line("make_x") == "**never vetted**"


def test_a_plot_of_a_missing_constructor_fails(extensions):
    with pytest.raises(extensions.plots.PlotError, match="make_no_such_sum does not exist"):
        extensions.plots._transformation("make_no_such_sum")


def test_a_triple_map_is_shown_component_by_component(monkeypatch):
    """make_count_by's page bounds each of l0, l1, linf by d_in, not the triple by one number."""
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    import certdp_pages

    import certdp.prelude as dp

    constructor = dp.t.make_count_by
    section = certdp_pages._bound_section(
        contract_of(constructor),
        constructor.__certdp_contract_module__,
        "stability map",
        "make_count_by",
        "reference/transformations/make_count_by",
    )
    assert (
        r"\operatorname{map}(d_{in}) = (l_0, l_1, l_\infty),\quad l_0 \ge d_{in},"
        r"\quad l_1 \ge d_{in},\quad l_\infty \ge d_{in}" in section
    )
    assert r"\operatorname{map}(d_{in}) \ge d_{in}" not in section
    for symbol in ("l_0", "l_1", r"l_\infty", "d_{in}"):
        assert f"   * - :math:`{symbol}`" in section
    scalar = dp.t.make_count_distinct
    assert r"\operatorname{map}(d_{in}) \ge d_{in}" in certdp_pages._bound_section(
        contract_of(scalar),
        scalar.__certdp_contract_module__,
        "stability map",
        "make_count_distinct",
        "reference/transformations/make_count_distinct",
    )
