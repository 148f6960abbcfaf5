"""OpenDP 0.16's own docstring examples of the Context helpers (``space_of``, ``domain_of``,
``loss_of``, ``unit_of``) and of its compositors, run against certdp with only the import line
changed: read live from the installed OpenDP's sources (skipped without it), each example's
output compared as doctest does.  The examples certdp refuses on purpose are listed, and must be
refused with a typed error."""

from __future__ import annotations

import doctest

import pytest

import certdp.prelude as dp

odp_context = pytest.importorskip("opendp.context")
odp_combinators = pytest.importorskip("opendp.combinators")

OURS = "import certdp.prelude as dp"

#: Examples certdp refuses on purpose: none since domain_of builds map_domain and option_domain
#: as OpenDP does (dict[str, int], 'Option<int>'); they now run with the others.
REFUSED: set[str] = set()
#: An example whose expected output is OpenDP's own exception (certdp refuses it too, typed, with
#: its own error class, which doctest compares by name).
BOTH_REFUSE = {"dp.domain_of(list[list[int]])"}


def _examples(module, name):
    tests = [
        t for t in doctest.DocTestFinder().find(module) if t.name == f"{module.__name__}.{name}"
    ]
    assert len(tests) == 1 and tests[0].examples, name
    return tests[0]


def _run(test, skip=()):
    kept = []
    for example in test.examples:
        source = example.source.replace("import opendp.prelude as dp", OURS)
        if source.split("#")[0].strip() in skip:
            continue
        example.source = source
        kept.append(example)
    test.examples, test.globs = kept, {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    lines = []
    result = runner.run(test, out=lines.append)
    assert result.failed == 0, "".join(lines)
    return result.attempted


@pytest.mark.parametrize("name", ["space_of", "loss_of", "unit_of"])
def test_context_helper_examples_run_unchanged(name):
    assert _run(_examples(odp_context, name)) >= 3


def test_domain_of_examples_run_unchanged_except_the_refused_domains():
    test = _examples(odp_context, "domain_of")
    sources = {example.source.split("#")[0].strip() for example in test.examples}
    assert REFUSED | BOTH_REFUSE <= sources  # the docstring still has them
    skipped, total = REFUSED | BOTH_REFUSE, len(test.examples)
    assert _run(test, skip=skipped) == total - len(skipped)
    for source in skipped:
        with pytest.raises(dp.DPError) as caught:
            eval(source, {"dp": dp})  # noqa: S307 - a fixed OpenDP example
        assert caught.value.parameter == "T"


def test_the_compositor_docstrings_have_no_other_examples():
    """OpenDP 0.16's combinators carry one docstring example (make_select_private_candidate,
    with stop_probability=0, which certdp refuses: a run may never end; its own tests cover it);
    the interactive compositors (adaptive, fully adaptive, filter) have none to run."""
    with_examples = sorted(
        t.name.rsplit(".", 1)[-1]
        for t in doctest.DocTestFinder().find(odp_combinators)
        if t.examples and t.name != odp_combinators.__name__
    )
    assert with_examples == ["make_select_private_candidate"]
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    dp.enable_features("contrib", "honest-but-curious")
    mock = space >> dp.m.then_user_measurement(
        dp.max_divergence(),
        lambda x: (x, "candidate"),
        lambda d_in: d_in,
        TO="(f64, ExtrinsicObject)",
    )
    # the example's mock measurement (its TO names a tuple holding an ExtrinsicObject) converts
    # its release as OpenDP does
    assert mock(20.0) == (20.0, "candidate") and mock.map(1.0) == 1.0
    with pytest.raises(dp.DPError) as caught:
        dp.c.make_select_private_candidate(mock, threshold=23, stop_probability=0)
    assert caught.value.parameter == "stop_probability"


def test_a_tuple_output_type_may_hold_extrinsic_objects():
    dp.enable_features("honest-but-curious")
    pair = dp.new_function(lambda y: (y, [y]), TO="(f64, ExtrinsicObject)")
    value = pair(2)
    assert value == (2.0, [2]) and type(value[0]) is float
    with pytest.raises(dp.FailedFunctionError) as caught:
        dp.new_function(lambda y: (y,), TO="Tuple<f64, ExtrinsicObject>")(2)
    assert caught.value.parameter == "TO"
    with pytest.raises(dp.DPError) as caught:
        dp.new_function(lambda y: y, TO="HashMap<ExtrinsicObject, f64>")
    assert caught.value.parameter == "TO"
