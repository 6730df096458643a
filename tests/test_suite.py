"""The suite's own running (tests/conftest.py): a test of a shared fixture is
in its module's group, which one worker runs; the slow tests come first; the
package's byte-code is there for the ``lcn`` child processes."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Iterator

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "lcnotation"


@pytest.fixture(scope="module")
def shared() -> Iterator[object]:
    yield object()


def _groups(item: pytest.Item) -> list:
    return [mark.args[0] for mark in item.iter_markers("xdist_group")]


def test_a_test_of_a_module_fixture_is_in_its_modules_group(shared, request) -> None:
    assert _groups(request.node) == ["tests/test_suite.py"]


def test_a_test_of_test_scoped_fixtures_is_in_no_group(tmp_path, request) -> None:
    assert _groups(request.node) == []


def test_the_slow_tests_come_first(request) -> None:
    slow = [item.get_closest_marker("slow") is not None for item in request.session.items]
    assert slow == sorted(slow, reverse=True)


def test_the_package_byte_code_is_written() -> None:
    modules = [path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts]
    assert modules
    compiled = [Path(importlib.util.cache_from_source(str(path))) for path in modules]
    stale = [str(path) for path, pyc in zip(modules, compiled)
             if not pyc.is_file() or pyc.stat().st_mtime < path.stat().st_mtime]
    assert stale == []
