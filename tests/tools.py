"""Outside tools some tests need (a browser, a solver, npm packages), and the
package's optional C extensions.

``require("chromium")`` returns the tool's path, or skips the test with the
reason when it is missing; under ``CI=true`` a missing tool fails the test
instead, since CI installs every tool (``scripts/setup-tests.sh``) and must
run every test.  ``compiled(name, tables, what)`` does the same for a C
extension of the package (CI has a compiler); ``every_field(value)`` is what
the tests of an extension compare its answers by.
"""

from __future__ import annotations

import importlib
import os
import shutil
from typing import Any, Dict, Optional

import pytest

#: How the tests (and bench/view.py) start Debian's Chromium through Playwright:
#: headless, without a sandbox (tests run as root), and without any network
#: use of its own.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]


def require(command: str, why: str = "") -> str:
    """The path of ``command``; skip (or, on CI, fail) when it is not installed."""
    path = shutil.which(command)
    if path is None:
        message = (f"{command} is not installed (scripts/setup-tests.sh installs it)"
                   + (f": {why}" if why else ""))
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def compiled(name: str, tables: Optional[Dict[str, object]], what: str) -> Any:
    """The C extension ``name``, configured with ``tables``, whatever
    LCNOTATION_PURE_PYTHON says (its tests choose the path themselves); when
    it is not built, skip the calling test module (or, on CI, which has a
    compiler, fail it). ``what`` names it in the message."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{what} is not built, and CI has a compiler (pip install -e . "
                        "builds it)", pytrace=False)
        pytest.skip(f"{what} is not built", allow_module_level=True)
    assert tables is not None, f"the tables no longer have the shape {what} reads"
    module.configure(**tables)
    return module


def every_field(value: Any) -> Any:
    """A value with every field of its nodes (their == leaves spans out), and
    the name of each node's type."""
    if isinstance(value, tuple):
        return (type(value).__name__,) + tuple(map(every_field, value))
    if isinstance(value, list):
        return list(map(every_field, value))
    return value
