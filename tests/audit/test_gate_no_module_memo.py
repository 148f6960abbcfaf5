"""The gate checks every file of a constructor's proof at every constructor's first call of a
process made outside a covering construction (inside one, gate.tex Lemma prop:covered takes the
outer check, made in the same call), loaded modules included: a code file edited after an
earlier check is refused at the next such first call, however the edited code comes to run (refstartup's findings against the
withdrawn memo of loaded modules: ``exec_module`` of the same module and spec, or nothing run
again at all).  Each case runs in a fresh process of a vetted copy of the package
(``conftest.repo``); clearing the gate's per-name caches stands for a second constructor that
shares the file."""

from pathlib import Path

from .conftest import run_script

MODULE = "certdp.transformations.is_equal.make_is_equal"

SCRIPT = """
import importlib, sys
from pathlib import Path
import certdp.prelude as dp
from certdp.audit import gate, status
print(status.vetting_status("make_is_equal").state)
module = sys.modules[{module!r}]
path = Path(module.__file__)
text = path.read_text()
body = text.index("\\n", text.index("def ", text.index("# proof: begin")))
path.write_text(text[: body + 1] + "    _ = 0\\n" + text[body + 1 :])
{load}
status.vetting_status.cache_clear()
gate._up_to_date.clear()
print(status.vetting_status("make_is_equal").state)
try:
    gate.require_vetted_or_contrib("make_is_equal")
except Exception as error:
    print(type(error).__name__)
else:
    print("passed")
"""

REFUSED = ["up to date", "outdated", "FeatureNotEnabledError"]


def gate_after(root: Path, load: str) -> list[str]:
    return run_script(root, SCRIPT.format(module=MODULE, load=load), 3)


def test_an_edit_after_the_first_check_is_refused_without_a_reload(repo):
    assert gate_after(repo, "") == REFUSED


def test_an_edit_run_by_exec_module_in_the_same_module_is_refused(repo):
    assert gate_after(repo, "module.__spec__.loader.exec_module(module)") == REFUSED
