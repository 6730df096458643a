"""The lint path's tests once more with the C accelerator off.

``LCNOTATION_PURE_PYTHON=1`` makes the package run in pure Python, as it
does where no compiler built the extension: the reports, positions,
messages, scores and fixes must not depend on which path made them, so the
tests of the lint path run again in a child pytest with it set (the README's
one test command then covers both modes, as CI runs it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The tests of what the accelerator may touch.
LINT_PATH = ["tests/test_fused.py", "tests/test_speedups.py", "tests/test_parallel.py",
             "tests/test_speed.py", "tests/test_style.py", "tests/test_cli.py",
             "lcnotation/lostcities"]


def test_the_lint_path_gives_the_same_results_in_pure_python() -> None:
    env = {**os.environ, "LCNOTATION_PURE_PYTHON": "1"}
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          *LINT_PATH], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=1800)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    assert " passed" in ran.stdout
