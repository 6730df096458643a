"""The lint path's and the importers' tests once more with the C extensions off.

``LCNOTATION_PURE_PYTHON=1`` makes the package run in pure Python, as it
does where no compiler built the extension: the reports, positions,
messages, scores and fixes must not depend on which path made them, so the
tests of the lint path run again in a child pytest with it set (the README's
one test command then covers both modes, as CI runs it). One child a file,
so that the suite's workers share them out; each child runs in one process
(``-n 0``), beside the suite's own workers.

Four files of that path are not run again, since their second run would
run the same code: each test of tests/test_speedups.py,
tests/test_freecell_speedups.py, tests/test_chikinn_compiled.py and
tests/test_metapyziks_compiled.py chooses
the path itself (the extension's, Python's, or both to compare), whatever
``LCNOTATION_PURE_PYTHON`` says, and tests/test_style.py's style checks never
reach the accelerator (it is asked only by lint's fused path).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The tests of what the accelerators may touch (the importers' tests: the
#: compiled chikinn reader and metapyziks decoder).
LINT_PATH = ["tests/test_fused.py", "tests/test_parallel.py", "tests/test_speed.py",
             "tests/test_cli.py", "lcnotation/lostcities", "tests/test_formats.py",
             # and of the FreeCell check's clean path (lcnotation/freecell/_speedups.c)
             "tests/test_freecell_cli.py", "tests/test_freecell.py"]


@pytest.mark.slow
@pytest.mark.parametrize("tests", LINT_PATH)
def test_the_lint_path_gives_the_same_results_in_pure_python(tests: str) -> None:
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("PYTEST_XDIST_")}  # the child is no worker of this run
    env["LCNOTATION_PURE_PYTHON"] = "1"
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-n", "0", tests], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=1800)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    assert " passed" in ran.stdout
