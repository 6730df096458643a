"""Issue 25's promises that are not about speed alone: work done once, memory
bounded, parallel work that gives what one process gives.

No test here measures a time: memory is measured with tracemalloc, or in a
child process under ``resource`` limits; "done once" by counting calls.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import lcnotation.cli.lint as cli_lint
from lcnotation import format_games, generate_games


def _clean_file(tmp_path: Path, games: int = 40, name: str = "clean.lcn") -> Path:
    path = tmp_path / name
    path.write_text(format_games(list(generate_games(games, seed=7, deal=True))),
                    encoding="utf-8")
    return path


def test_lint_fix_of_a_file_with_nothing_to_fix_reads_it_once(run, tmp_path, monkeypatch):
    """lint --fix used to lint the file again after a fix pass that changed
    nothing (fails on the code before this test)."""
    path = _clean_file(tmp_path)
    before = path.read_bytes()

    def second_reading(*args, **kwargs):
        raise AssertionError("the file was linted a second time")

    monkeypatch.setattr(cli_lint, "lint_file", second_reading)
    ran = run("lint", "--fix", "--no-progress", str(path))
    assert ran.status == 0, ran.err
    assert "All clear: 1 file, 40 games" in ran.out
    assert path.read_bytes() == before


def test_lint_fix_of_a_file_with_findings_and_nothing_to_fix_reports_them(run, tmp_path):
    path = tmp_path / "cut.lcn"
    path.write_text("1. R3-D 2. B4-D\n", encoding="utf-8")  # R110, not fixable
    ran = run("lint", "--fix", "--no-progress", "--output-format", "concise", str(path))
    assert ran.status == 0
    assert f"{path}:1:16: R110 " in ran.out
    assert path.read_text(encoding="utf-8") == "1. R3-D 2. B4-D\n"
