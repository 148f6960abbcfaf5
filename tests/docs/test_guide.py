"""The pages a newcomer reads: install, tutorial, feature flags, the API of the core objects,
the proofs index's vetting status and the constructor pages' bounds.

Each test reads the site the ``site`` fixture built (``conftest.py``) and compares what the pages
say with what the library computes now, independently of the code that wrote the pages.
"""

from __future__ import annotations

import ast
import csv
import html
import re
import tomllib
import types
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

import certdp.prelude as dp
from certdp.audit.status import vetting_status
from certdp.contracts import contract_of
from certdp.core.features import KNOWN_FEATURES
from certdp.registry import certified_constructors

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SURVEY = DOCS / "guide" / "data" / "survey.csv"
OUTPUT_BLOCK = re.compile(r'<div class="certdp-output[^"]*">.*?<pre>(.*?)</pre>', re.DOTALL)
MATH_ALT = re.compile(r'<img [^>]*src="[^"]*_images/math/[^"]*"[^>]*alt="([^"]*)"')


def _text(fragment: str) -> str:
    """The text of an HTML fragment: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _outputs(page: Path) -> list[str]:
    """What each executed example on ``page`` printed, in order."""
    return [_text(block) for block in OUTPUT_BLOCK.findall(page.read_text(encoding="utf-8"))]


def _formulas(page: Path) -> list[str]:
    return [html.unescape(alt) for alt in MATH_ALT.findall(page.read_text(encoding="utf-8"))]


def _page_text(page: Path) -> str:
    return _text(page.read_text(encoding="utf-8"))


# -- install ---------------------------------------------------------------------------------------
def _make_targets() -> set[str]:
    targets = set()
    for makefile in [ROOT / "Makefile", *ROOT.glob("*/*.mk"), *ROOT.glob("src/certdp/proofs/*.mk")]:
        for line in makefile.read_text().splitlines():
            match = re.match(r"^([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)*)\s*:(?!=)", line)
            if match:
                targets.update(match.group(1).split())
    return targets


def test_install_page_names_real_commands_extras_and_says_when_latex_is_optional(site):
    page = site / "guide" / "install.html"
    text = _page_text(page)
    assert "pip wheel" in text and "pip install" in text and "make install" in text
    named_targets = set(re.findall(r"\bmake (\w[\w-]*)", text))
    assert {"install", "proofs", "docs", "audit", "test"} <= named_targets
    assert named_targets <= _make_targets(), named_targets - _make_targets()
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    named_extras = {
        extra for group in re.findall(r"\[([\w,]+)\]", text) for extra in group.split(",")
    }
    assert {"dev", "docs"} <= named_extras and named_extras <= set(extras), named_extras - set(
        extras
    )
    latex = text[text.index("What LaTeX is for") :]
    assert "optional" in latex and "certdp audit" in latex and "--build" in latex
    for package in ("latexmk", "dvisvgm"):
        assert package in latex
        assert package in (ROOT / "Makefile").read_text() + (DOCS / "docs.mk").read_text()


# -- the tutorial ----------------------------------------------------------------------------------
def _survey_hours() -> list[float]:
    with open(SURVEY, newline="") as file:
        return [float(row["hours_per_week"]) for row in csv.DictReader(file)]


def _printed(outputs: list[str], label: str) -> list[str]:
    """The rest of every printed line that starts with ``label``."""
    return [
        line[len(label) :].strip()
        for output in outputs
        for line in output.splitlines()
        if line.startswith(label)
    ]


def test_tutorial_prints_the_epsilon_the_library_computes(site):
    page = site / "guide" / "tutorial-sum-mean.html"
    outputs = _outputs(page)
    assert not any("Traceback" in output for output in outputs)

    hours = _survey_hours()
    n = len(hours)
    assert outputs[0].strip() == f"{n} respondents"
    space = dp.vector_domain(dp.atom_domain(T="f64", nan=False), size=n), dp.symmetric_distance()
    clamp = dp.t.make_clamp(*space, bounds=(0.0, 80.0))
    summed = dp.t.make_sum(clamp.output_domain, clamp.output_metric)
    sensitivity = summed.map(clamp.map(2))

    assert _printed(outputs, "sum: d_in 2 -> d_out") == [repr(sensitivity)]
    rounding = float(_printed(outputs, "of which rounding:")[0])
    assert rounding == sensitivity - 80.0 and rounding > 0  # the float sum's rounding term

    epsilons = []
    for scale in (80.0, 80.01):
        laplace = dp.m.make_laplace(summed.output_domain, summed.output_metric, scale=scale)
        epsilons.append(laplace.map(sensitivity))
    assert _printed(outputs, "epsilon =") == [repr(epsilon) for epsilon in epsilons]
    assert _printed(outputs, "composed by hand:") == [repr(epsilons[1])]
    # the rounding term is in epsilon: at scale U - L it exceeds 1, by what rounding adds
    assert epsilons[0] > 1.0 and Fraction(epsilons[0]) >= Fraction(sensitivity) / 80
    assert _printed(outputs, "within epsilon 1?") == ["False", "True"]

    released = _printed(outputs, "DP sum of hours:")
    mean = _printed(outputs, "DP mean:")
    assert len(released) == 1 and len(mean) == 1
    assert float(released[0]) / n == pytest.approx(float(mean[0].split()[0]), abs=0.01)


def test_tutorial_ships_its_csv_and_shows_the_refused_unbounded_sum(site):
    page = site / "guide" / "tutorial-sum-mean.html"
    downloads = re.findall(r'href="([^"]+survey\.csv)"', page.read_text(encoding="utf-8"))
    assert downloads
    for href in downloads:
        assert (page.parent / href).read_bytes() == SURVEY.read_bytes()
    with pytest.raises(dp.MakeTransformationError) as refused:
        dp.t.make_sum(
            dp.vector_domain(dp.atom_domain(T="f64", nan=False), size=3), dp.symmetric_distance()
        )
    assert any(
        output.strip() == f"MakeTransformationError: {refused.value}" for output in _outputs(page)
    )


# -- feature flags ---------------------------------------------------------------------------------
def _feature_uses_by_scan() -> dict[str, set[str]]:
    """Modules whose code calls feature_enabled / assert_features with each feature's name."""
    package = ROOT / "src" / "certdp"
    uses: dict[str, set[str]] = {feature: set() for feature in KNOWN_FEATURES}
    for source in package.rglob("*.py"):
        module = ".".join(("certdp", *source.relative_to(package).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        for node in ast.walk(ast.parse(source.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in ("feature_enabled", "assert_features"):
                for argument in node.args:
                    if isinstance(argument, ast.Constant) and argument.value in uses:
                        uses[argument.value].add(module)
    return uses


def test_feature_page_covers_every_feature_and_where_the_code_tests_it(site):
    page = site / "guide" / "features.html"
    source = page.read_text(encoding="utf-8")
    headings = [_text(h) for h in re.findall(r"<h2>(.*?)</h2>", source, re.DOTALL)]
    for feature in KNOWN_FEATURES:
        assert any(heading.startswith(feature) for heading in headings), feature
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", source, re.DOTALL)
    table = {}
    for row in rows:
        cells = [_text(cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row, re.DOTALL)]
        if len(cells) == 2 and cells[0] in KNOWN_FEATURES:
            table[cells[0]] = cells[1]
    assert set(table) == set(KNOWN_FEATURES)
    for feature, modules in _feature_uses_by_scan().items():
        if modules:
            assert {m.strip() for m in table[feature].split(",")} == modules, feature
        else:
            assert table[feature] == "nowhere in this version", feature
    assert {"contrib", "idealized-numerics"} <= {f for f, m in _feature_uses_by_scan().items() if m}

    default = _printed(_outputs(page), "default:")
    idealized = _printed(_outputs(page), "idealized-numerics:")
    assert len(default) == len(idealized) == 1 and float(default[0]) > float(idealized[0])


def test_feature_page_lists_the_constructors_that_need_contrib(site):
    outputs = _outputs(site / "guide" / "features.html")
    needing = [
        c.__name__
        for c in certified_constructors()
        if vetting_status(c.__name__).state != "up to date"
    ]
    expected = str(needing) if needing else "none: every constructor's proof is vetted"
    assert any(output.startswith(expected) for output in outputs)


# -- API reference ---------------------------------------------------------------------------------
def test_api_reference_documents_map_check_call_and_chaining(site):
    source = (site / "reference" / "prelude.html").read_text(encoding="utf-8")
    documented = set(re.findall(r'id="certdp\.prelude\.([\w.]+)"', source))
    for cls in ("Transformation", "Measurement"):
        for member in ("map", "check", "invoke", "__call__"):
            assert f"{cls}.{member}" in documented, f"{cls}.{member}"
    assert "Transformation.__rshift__" in documented
    assert "PartialConstructor.__rrshift__" in documented
    assert "_Mapped" not in source  # a private base is an implementation detail
    entry = source[source.index('id="certdp.prelude.Transformation.__rshift__"') :]
    entry = _text(entry[: entry.index("</dd>")])
    assert "DomainMismatchError" in entry and "other.map(t.map(d_in))" in entry


# -- proofs index ----------------------------------------------------------------------------------
def test_proofs_index_shows_each_constructors_vetting_status(site):
    source = (site / "reference" / "proofs.html").read_text(encoding="utf-8")
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", source, re.DOTALL):
        cells = [_text(cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row, re.DOTALL)]
        if cells:
            rows[cells[0]] = cells
    for constructor in certified_constructors():
        name = constructor.__name__
        assert name in rows, f"the proofs index has no row for {name}"
        status = vetting_status(name)
        assert rows[name][2].startswith(status.state), (name, rows[name][2])
        if status.commit:
            assert status.commit in rows[name][2]


# -- constructor pages: bounds ---------------------------------------------------------------------
def _constructor_page(site: Path, name: str) -> Path:
    constructor = next(c for c in certified_constructors() if c.__name__ == name)
    folder = constructor.__module__.split(".")[1]
    return site / "reference" / folder / f"{name}.html"


def test_every_constructor_page_explains_the_symbols_of_its_bound(site):
    for constructor in certified_constructors():
        page = _constructor_page(site, constructor.__name__)
        source = page.read_text(encoding="utf-8")
        assert "Symbol" in source and "Meaning" in source, page.name
        in_cells = re.findall(r'<td><p><img class="math"[^>]*alt="([^"]*)"', source)
        explained = {html.unescape(alt) for alt in in_cells}
        for symbol in contract_of(constructor).bound.free_symbols:
            if symbol.name in ("sized", "float", "known"):  # named as cases, in words
                continue
            shown = {
                "algorithm": "S",
                "d_in": "d_{in}",
                "d_out": "d_{out}",
                "S1": "S_{1}",
                "rho": r"\rho",
            }
            shown.update({"epsilon": r"\epsilon", "delta": r"\delta", "alpha": r"\alpha"})
            shown["sum_i map_i(d_in)"] = r"\sum_i \operatorname{map}_i(d_{in})"
            shown["sum_i d_mids_i"] = r"\sum_i \mathrm{d\_mids}_i"
            shown["map_1(map_0(d_in))"] = r"\operatorname{map}_1(\operatorname{map}_0(d_{in}))"
            shown["map_0(d_in)"] = r"\operatorname{map}_0(d_{in})"
            shown.update({"epsilon0": r"\varepsilon_0", "delta0": r"\delta_0"})
            # as the page's renderer (certdp_bounds._word_symbols) shows it: a given form, else
            # sympy's (l_2 -> l_{2}), a run of letters in \mathit
            latex = shown.get(symbol.name) or sympy.latex(symbol)
            if len(symbol.name) > 1 and latex == symbol.name:
                latex = rf"\mathit{{{symbol.name}}}"
            assert latex in explained, (page.name, symbol.name, explained)


def test_float_sum_pages_show_the_rounding_error_by_algorithm(site):
    page = _constructor_page(site, "make_sized_bounded_float_checked_sum")
    formulas = _formulas(page)
    bound = next(f for f in formulas if f.startswith(r"\operatorname{map}(d_{in}) \ge"))
    assert r"2 \cdot \operatorname{err}_S(n)" in bound and r"\left(U - L\right)" in bound
    error = next(f for f in formulas if f.startswith(r"\operatorname{err}_S(n) ="))
    for algorithm in ("Sequential", "Pairwise", "Exact"):
        assert rf"S = \mathrm{{{algorithm}}}" in error
    assert r"\log_2 n" in error and r"\log{" not in error
    assert "float_summation.pdf" in _page_text(page)


def test_make_sum_page_adds_the_rounding_term_its_contract_omits(site):
    # The page adds the float rounding term because make_sum's contract bound omits it (its
    # float branch is checked by the float sums' contracts); if the contract gains the term,
    # this test must change with it.
    contract_bound = contract_of(dp.t.make_sum).bound
    assert all(symbol.name != "k" for symbol in contract_bound.free_symbols), contract_bound
    formulas = _formulas(_constructor_page(site, "make_sum"))
    with_rounding = [f for f in formulas if r"\operatorname{err}_{\mathrm{Pairwise}}(n)" in f]
    assert any(f.startswith(r"\operatorname{map}(d_{in}) \ge") for f in with_rounding)
    assert any(f.startswith(r"\operatorname{err}_{\mathrm{Pairwise}}(n) =") for f in with_rounding)


def test_long_outputs_wrap(site):
    css = (site / "_static" / "certdp.css").read_text()
    rule = css[css.index("div.certdp-output pre,") :]
    rule = rule[: rule.index("}")]
    assert "white-space: pre-wrap" in rule and "overflow-wrap: anywhere" in rule
    page = (site / "guide" / "getting-started.html").read_text(encoding="utf-8")
    assert 'class="certdp-output' in page


# -- the extensions, without a build ---------------------------------------------------------------
@pytest.fixture
def ext(monkeypatch):
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    import certdp_bounds
    import certdp_rounding

    return types.SimpleNamespace(bounds=certdp_bounds, rounding=certdp_rounding)


def test_a_bound_with_an_unexplained_symbol_is_reported(ext):
    zeta = sympy.Symbol("zeta")
    rendered = ext.bounds.render_bound(zeta * sympy.Symbol("d_in", nonnegative=True))
    assert rendered.unexplained == ["zeta"]


def test_a_contract_module_may_explain_its_own_symbols(ext):
    zeta = sympy.Symbol("zeta")
    rendered = ext.bounds.render_bound(zeta, meanings={"zeta": "the zeta argument"})
    assert rendered.unexplained == [] and ("\\zeta", "the zeta argument") in rendered.symbols


def test_rendering_names_cases_and_orders_differences(ext):
    L, U, d = sympy.symbols("L U d_in")
    algorithm = sympy.Symbol("algorithm")
    bound = sympy.Piecewise((U - L, sympy.Eq(algorithm, 0)), (sympy.log(d, 2), True))
    latex = ext.bounds.render_bound(bound).latex
    assert r"U - L" in latex and r"S = \mathrm{Sequential}" in latex
    assert r"\log_2 d_{in}" in latex
    assert r"\text{otherwise}" in latex  # Pairwise and Exact both remain: no single name


def test_the_make_sum_rounding_check_finds_a_map_below_the_stated_bound(ext, monkeypatch):
    assert ext.rounding.check_make_sum_float_bound() == []
    true_bound = ext.rounding.make_sum_float_bound()
    monkeypatch.setattr(ext.rounding, "make_sum_float_bound", lambda: true_bound + 1)
    problems = ext.rounding.check_make_sum_float_bound()
    assert problems and all("below the bound" in problem for problem in problems)
