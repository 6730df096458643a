"""Test configuration shared by the whole suite.

``slow`` marks tests that take seconds (building a wheel, a fresh virtual
environment).  They run by default; ``-m "not slow"`` leaves them out.
"""

from __future__ import annotations

import pytest

from running import in_process


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: takes seconds (a wheel build, a fresh venv); deselect with "
        "-m 'not slow'")


@pytest.fixture
def run(capsys, monkeypatch, tmp_path):
    """``run(*argv, stdin=b"")`` -> Ran: ``lcn`` in this process, with ``tmp_path``
    as the working folder."""
    monkeypatch.chdir(tmp_path)
    return in_process(capsys, monkeypatch)
