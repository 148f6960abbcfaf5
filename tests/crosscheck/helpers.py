"""Running a finding's reproducer script the way a user would: a fresh Python process."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_reproducer(script: str, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "reproducer.py"
    path.write_text(script)
    return subprocess.run(
        [sys.executable, str(path)],
        cwd=tmp_path,
        env={"PYTHONPATH": f"{ROOT}{':'}{ROOT / 'src'}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
    )
