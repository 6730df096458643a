"""A copy of the source tree, for the tests that build or install it.

setuptools writes into the tree it builds (build/, the egg-info, and for an
editable install the accelerator compiled in place, over the one the tests'
processes have loaded), and a stale build/lib would put files that no longer
exist into a wheel: these tests build a copy, never the checkout itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def copy_of_tree(folder: Path) -> Path:
    """The source tree copied into ``folder`` (as ``folder/lcnotation``), without
    what a build, a run or git left in it, the tests and any accelerator built."""
    source = folder / "lcnotation"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", ".hypothesis", ".pytest_cache",
        "__pycache__", "tests", ".venv", "venv", "*.so", "*.pyd", "_build", "node_modules",
        ".benchmarks"))
    return source
