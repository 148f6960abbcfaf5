"""The referee's attack on ``certdp crosscheck`` (issue 19, @ 445e36b), kept as regressions.

Each test builds its fake target (a module wrapping certdp.prelude) in tmp_path and runs the CLI
in a subprocess, as a user would.  ``test_gap_*`` failed on 445e36b (one gap each);
``test_ok_*`` are the referee's positive controls.  Changes from the referee's file: the
repository root is this checkout; the two suspect-only targets run with ``--fail-on-suspect``
(by default a suspect exits 0, as issue 19 asks; ``test_suspect_*_default`` pins that); the
hanging target runs with ``--timeout 5`` (the default 60 s would make this file slow); the
positive control on broken transformations compares claimed and actual distances on pair
violations only (an output-domain violation has no claimed distance) and checks the others
carry an input and a reproducer.
"""

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ElementTree
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BASE = '''
from types import SimpleNamespace
import certdp.prelude as _c
from certdp.prelude import *  # noqa: F403  (domains, metrics, enable_features)

class Wrap:
    """A certdp object with its function (fn) or map (mp) replaced."""
    def __init__(self, built, fn=None, mp=None):
        self._b, self._fn, self._mp = built, fn, mp
    def map(self, d):
        return self._mp(self._b, d) if self._mp else self._b.map(d)
    def __call__(self, x):
        return self._fn(self._b, x) if self._fn else self._b(x)
    def __getattr__(self, n):
        return getattr(self._b, n)

def ns(src, **over):
    s = SimpleNamespace(**{n: getattr(src, n) for n in dir(src) if not n.startswith("_")})
    for k, v in over.items():
        setattr(s, k, v)
    return s
'''

FAKES = {
    # (a) a transformation's map halved
    "fk_halfclamp": """
def make_clamp(*a, **k):
    return Wrap(_c.t.make_clamp(*a, **k), mp=lambda b, d: b.map(d) // 2)
t = ns(_c.t, make_clamp=make_clamp); m, c, numpy = _c.m, _c.c, _c.numpy
""",
    "fk_halfmean": """
def make_mean(*a, **k):
    return Wrap(_c.t.make_mean(*a, **k), mp=lambda b, d: b.map(d) / 2)
t = ns(_c.t, make_mean=make_mean); m, c, numpy = _c.m, _c.c, _c.numpy
""",
    # (b) non-stable functions
    "fk_oddsum": """
def make_sum(*a, **k):
    return Wrap(_c.t.make_sum(*a, **k), fn=lambda b, x: b(x) + (1 if len(x) % 2 else 0))
t = ns(_c.t, make_sum=make_sum); m, c, numpy = _c.m, _c.c, _c.numpy
""",
    "fk_clampup": """
def make_clamp(dom, met, bounds):
    b = _c.t.make_clamp(dom, met, bounds)
    lo, hi = bounds
    one = 1 if isinstance(hi, int) else 1.0
    return Wrap(b, fn=lambda b, x: [min(max(v, lo), hi + one) for v in x])
t = ns(_c.t, make_clamp=make_clamp); m, c, numpy = _c.m, _c.c, _c.numpy
""",
    # (c) a measurement whose privacy map is half the true epsilon
    "fk_halfeps": """
def make_laplace(*a, **k):
    return Wrap(_c.m.make_laplace(*a, **k), mp=lambda b, d: b.map(d) / 2)
t = _c.t; m = ns(_c.m, make_laplace=make_laplace); c, numpy = _c.c, _c.numpy
""",
    # (d) a sampler with a 5 % scale bias
    "fk_biased": """
def make_laplace(dom, met, scale, *a, **k):
    true = _c.m.make_laplace(dom, met, scale, *a, **k)
    biased = _c.m.make_laplace(dom, met, scale * 1.05, *a, **k)
    return Wrap(true, fn=lambda b, x: biased(x))
t = _c.t; m = ns(_c.m, make_laplace=make_laplace); c, numpy = _c.c, _c.numpy
""",
    # a transformation map that wraps past 2**31 (non-monotone, below d for clamp)
    "fk_mapwrap": """
def make_clamp(*a, **k):
    return Wrap(_c.t.make_clamp(*a, **k), mp=lambda b, d: b.map(d) % 2**31)
t = ns(_c.t, make_clamp=make_clamp); m, c, numpy = _c.m, _c.c, _c.numpy
""",
    # robustness
    "fk_hang": """
import time
def make_clamp(*a, **k):
    b = _c.t.make_clamp(*a, **k)
    def f(b, x):
        if len(x) == 3:
            time.sleep(10**6)
        return b(x)
    return Wrap(b, fn=f)
t = ns(_c.t, make_clamp=make_clamp); m, c, numpy = _c.m, _c.c, _c.numpy
""",
    "fk_exit0": """
def make_count(*a, **k):
    raise SystemExit(0)
t = ns(_c.t, make_count=make_count); m, c, numpy = _c.m, _c.c, _c.numpy
""",
    "fk_missing": """
t = ns(_c.t); del t.make_clamp; m, c, numpy = _c.m, _c.c, _c.numpy
""",
    "fk_badimport": """
t = ns(_c.t); m, c, numpy = _c.m, _c.c, _c.numpy
raise RuntimeError("this library is broken at import time")
""",
}


@pytest.fixture
def fakes(tmp_path):
    for name, body in FAKES.items():
        (tmp_path / f"{name}.py").write_text(BASE + textwrap.dedent(body))
    return tmp_path


def cli(fakes, *args, timeout=600):
    return subprocess.run(
        [sys.executable, "-m", "certdp", "crosscheck", *args, "--jobs", "1"],
        cwd=fakes,
        env={"PYTHONPATH": f"{fakes}:{ROOT / 'src'}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def report(result):
    return json.loads(result.stdout)


# -- missed violations --------------------------------------------------------------------------
def test_gap_clamp_to_upper_plus_one_is_missed(fakes):
    """make_clamp that clamps to U+1 leaves its output outside its own output domain
    (bounds U), which breaks every bounded sum built on it; crosscheck reports nothing
    (--quick and full grid both exit 0): no check looks at output-domain membership."""
    for extra in (["--quick"], []):
        result = cli(fakes, "fk_clampup", "make_clamp", "--json", *extra)
        assert result.returncode == 1, (extra, result.stdout[-400:])


def test_gap_measurement_claiming_half_epsilon_passes(fakes):
    """A Laplace mechanism whose privacy map is half its true epsilon: only SUSPECT
    findings, exit status 0.  A CI gate on the exit status passes this library."""
    result = cli(fakes, "fk_halfeps", "make_laplace", "--quick", "--json", "--fail-on-suspect")
    data = report(result)
    assert any(f["severity"] == "suspect" for f in data["findings"])  # it is seen ...
    assert result.returncode == 1  # ... but does not fail the run


def test_suspect_on_measurement_exits_0_by_default_and_says_so(fakes):
    """Without --fail-on-suspect a suspect is reported, the run exits 0, and the summary line
    says that a suspect on a measurement is an under-reported privacy loss."""
    result = cli(fakes, "fk_halfeps", "make_laplace", "--quick")
    assert result.returncode == 0, result.stdout[-400:]
    assert "under-reported privacy loss" in result.stdout
    assert "by default the run exits 0 on suspects" in result.stdout


def test_gap_transformation_map_wrapping_past_2_31_passes(fakes):
    """clamp's map(d) = d mod 2**31: map(2**53+1) = 1.  Suspect only, exit 0."""
    result = cli(fakes, "fk_mapwrap", "make_clamp", "--quick", "--json", "--fail-on-suspect")
    assert result.returncode == 1


def test_suspect_on_transformation_exits_0_by_default(fakes):
    result = cli(fakes, "fk_mapwrap", "make_clamp", "--quick", "--json")
    data = report(result)
    assert any(f["severity"] == "suspect" for f in data["findings"])
    assert result.returncode == 0 and data["exit_status"] == 0


# -- robustness ---------------------------------------------------------------------------------
def test_gap_hanging_target_has_no_timeout(fakes):
    """A target function that blocks on one input hangs the whole run: no per-call timeout."""
    try:
        result = cli(
            fakes, "fk_hang", "make_clamp", "--quick", "--json", "--timeout", "5", timeout=240
        )
    except subprocess.TimeoutExpired:
        pytest.fail("crosscheck hung on a target that blocks (no timeout)")
    assert result.returncode in (1, 2) and report(result)


def test_gap_systemexit_in_target_is_a_silent_pass(fakes):
    """A constructor raising SystemExit(0) ends crosscheck with exit 0 and no report."""
    result = cli(fakes, "fk_exit0", "make_count", "make_clamp", "--quick", "--json")
    assert result.stdout.strip(), "no JSON report at all"
    assert result.returncode != 0


def test_gap_target_failing_import_with_non_importerror_exits_2(fakes):
    """A target whose import raises RuntimeError: a traceback and exit 1 (= 'violation'),
    not exit 2 with a clear message."""
    result = cli(fakes, "fk_badimport", "make_clamp", "--quick", "--json")
    assert result.returncode == 2, result.stderr[-300:]
    assert "Traceback" not in result.stderr


def test_gap_missing_constructor_is_named(fakes):
    """A target without make_clamp: the twin shows '0/6 built' exactly as for a target that
    refuses every point; nothing says the constructor does not exist."""
    result = cli(fakes, "fk_missing", "make_clamp", "make_count", "--quick", "--json")
    data = report(result)
    clamp = next(t for t in data["twins"] if t["twin"] == "make_clamp")
    assert "make_clamp" in json.dumps(clamp.get("notes", [])) + clamp.get("error", "")


# -- positive controls (passed on 445e36b) ------------------------------------------------------
@pytest.mark.parametrize(
    "fake, name",
    [("fk_halfclamp", "make_clamp"), ("fk_halfmean", "make_mean"), ("fk_oddsum", "make_sum")],
)
def test_ok_broken_transformation_is_a_violation(fakes, fake, name):
    result = cli(fakes, fake, name, "--quick", "--json")
    assert result.returncode == 1
    found = [f for f in report(result)["findings"] if f["severity"] == "violation"]
    pairs = [f for f in found if f["check"] != "domain"]
    assert pairs and all(
        Fraction(f["actual"]) > Fraction(f["claimed"]) for f in pairs if f["actual"] != "inf"
    )
    # an output outside the output domain (the odd-length sum + 1 on f32 is no f32) has no
    # claimed distance: it carries its input and a reproducer instead
    assert all(
        f["x"] and "output_domain.member" in f["reproducer"]
        for f in found
        if f["check"] == "domain"
    )


def test_ok_five_percent_scale_bias_is_a_deviation(fakes):
    result = cli(fakes, "fk_biased", "make_laplace", "--quick", "--json")
    assert result.returncode == 1
    assert any(f["severity"] == "deviation" for f in report(result)["findings"])


def test_ok_unknown_target_and_unknown_name_exit_2(fakes):
    assert cli(fakes, "no_such_module_xyz", "--quick").returncode == 2
    assert cli(fakes, "fk_missing", "make_nosuch", "--quick").returncode == 2
    assert cli(fakes, "fk_missing", "make_clamp", "--quick").returncode == 2


def test_ok_import_certdp_does_not_import_opendp():
    code = (
        "import sys, certdp, certdp.prelude, certdp.crosscheck, certdp.crosscheck.run;"
        "print([m for m in sys.modules if m.split('.')[0] == 'opendp'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.strip() == "[]", out.stderr


def test_ok_no_opendp_exits_2_with_message():
    code = (
        "import sys, runpy; sys.modules['opendp'] = None;"
        "sys.argv = ['certdp', 'crosscheck', 'opendp', 'make_clamp', '--quick'];"
        "runpy.run_module('certdp', run_name='__main__')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 2 and "cannot import 'opendp'" in out.stderr


@pytest.mark.skipif(
    subprocess.run([sys.executable, "-c", "import opendp"]).returncode != 0,
    reason="needs opendp==0.16.0",
)
def test_ok_opendp_violations_reproduce_without_certdp(tmp_path):
    names = [
        "make_sum",
        "make_resize",
        "make_sized_bounded_float_ordered_sum",
        "make_clamp",
        "make_count",
        "make_mean",
    ]
    junit = tmp_path / "j.xml"
    result = cli(
        tmp_path,
        "opendp",
        *names,
        "--quick",
        "--json",
        "--junit",
        str(junit),
        "--reproducers",
        str(tmp_path / "r"),
    )
    data = report(result)
    ElementTree.parse(junit)
    violations = [f for f in data["findings"] if f["severity"] == "violation"]
    assert {f["twin"] for f in violations} == {
        "make_resize",
        "make_sized_bounded_float_ordered_sum",
    }
    for f in violations:
        script = tmp_path / "repro.py"
        # a fresh Python in which certdp cannot be imported at all
        script.write_text("import sys; sys.modules['certdp'] = None\n" + f["reproducer"])
        out = subprocess.run(
            [sys.executable, "-I", str(script)], capture_output=True, text=True, timeout=300
        )
        assert out.returncode == 1 and "REPRODUCED" in out.stdout, out.stdout + out.stderr
