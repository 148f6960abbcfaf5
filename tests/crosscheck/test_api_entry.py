"""``certdp.crosscheck`` is reachable from ``import certdp`` alone, and loading it imports no
target library."""

import subprocess
import sys


def test_crosscheck_is_callable_after_import_certdp_alone_and_imports_no_target():
    code = (
        "import sys, certdp\n"
        "assert 'certdp.crosscheck' not in sys.modules\n"
        "run = certdp.crosscheck\n"
        "assert callable(run)\n"
        "assert 'opendp' not in sys.modules\n"
        "report = run('certdp.prelude', ['make_is_equal'], quick=True)\n"
        "assert report.checked and not report.violations, report.violations\n"
        "assert 'opendp' not in sys.modules\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
