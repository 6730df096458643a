"""Test configuration shared by the whole suite.

``slow`` marks tests that take seconds (building a wheel, a fresh virtual
environment, a type checker's run).  They run by default, first;
``-m "not slow"`` leaves them out.

The suite runs in worker processes, one per core (pytest-xdist, configured in
pyproject.toml; ``-n 0`` runs it in this process). Tests that share a
fixture of a module's or a class's scope (a browser, a built site, a wheel, a
cluster) are sent to one worker together, so that it is set up once, not once
per worker; every other test goes to whichever worker is free. The groups
start first, the biggest first, then the ``slow`` tests, so that no long test
starts when the others are done.

Before the tests start, the package's byte-code is written (``compileall``):
hundreds of tests run ``lcn`` in a child process, and where the environment
sets ``PYTHONDONTWRITEBYTECODE`` (this project's machines do) each child would otherwise
compile every module it imports again (about a fifth of those tests' time).
"""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest

from running import in_process

PACKAGE = Path(__file__).resolve().parent.parent / "lcnotation"


#: The fixture scopes wider than one test but narrower than the session, whose
#: tests are kept on one worker.
_SHARED_SCOPES = {"class", "module", "package"}


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: takes seconds (a wheel build, a fresh venv, a type checker); "
        "runs first; deselect with -m 'not slow'")
    if not hasattr(config, "workerinput"):  # once, in the process that starts the workers
        compileall.compile_dir(str(PACKAGE), quiet=1)


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the groups
def pytest_collection_modifyitems(config, items):
    """Each test that uses a fixture of a module's, a class's or a package's
    scope is put in its module's group (``xdist_group``), which ``--dist
    loadgroup`` runs on one worker; a group named in the test is kept. The
    ``slow`` tests are put first (the same order in every worker, as xdist
    wants)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        if any(definition.scope in _SHARED_SCOPES
               for name in info.names_closure
               for definition in info.name2fixturedefs.get(name, ())):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def run(capsys, monkeypatch, tmp_path):
    """``run(*argv, stdin=b"")`` -> Ran: ``lcn`` in this process, with ``tmp_path``
    as the working folder."""
    monkeypatch.chdir(tmp_path)
    return in_process(capsys, monkeypatch)
