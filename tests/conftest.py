"""Test configuration shared by the whole suite.

``slow`` marks tests that take seconds (building a wheel, a fresh virtual
environment).  They run by default; ``-m "not slow"`` leaves them out.
"""

from __future__ import annotations


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: takes seconds (a wheel build, a fresh venv); deselect with "
        "-m 'not slow'")
