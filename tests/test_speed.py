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


def _peak_of(call) -> int:
    """The most memory ``call()`` held at once (tracemalloc), in bytes."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_render_holds_one_game_not_the_file(run, tmp_path):
    """lcn render of the last game of a file held every game of it (issue 26,
    item 17: 5.5 GB on a 200 MB file); it reads up to the game it draws,
    holding one (fails on the code before this test)."""
    path = _clean_file(tmp_path, games=400, name="many.lcn")
    out = tmp_path / "last.svg"
    run("render", str(path), "--game", "1", "-o", str(out))  # warm up: Lark's tables
    peak = _peak_of(lambda: run("render", str(path), "--game", "400", "-o", str(out)))
    assert out.read_text(encoding="utf-8").startswith("<svg")
    # A game's tree is some tens of kilobytes, the file's 400 of them megabytes.
    assert peak < 3_000_000, f"render held {peak:,} bytes"
    ran = run("render", str(path), "--game", "401")
    assert ran.status == 2 and "no game 401 (the file has 400)" in ran.err


def test_render_draws_the_game_before_a_bad_byte_after_it(run, tmp_path):
    path = _clean_file(tmp_path, games=3, name="bad.lcn")
    path.write_bytes(path.read_bytes() + b'\n[Event "\xff"]\n1. R3-D\n')
    assert run("render", str(path), "--game", "2").status == 0
    ran = run("render", str(path), "--game", "4")
    assert ran.status == 2 and "cannot read" in ran.err and "0xff" in ran.err


@pytest.mark.parametrize("fmt", ["concise", "full", "github"])
def test_lint_writes_findings_as_it_finds_them(run, tmp_path, fmt):
    """Plain lcn lint of a file of many findings held them all until the file
    was done (1.5 GB for 1.78 million); they are written a game's at a time
    (fails on the code before this test)."""
    path = tmp_path / "many.lcn"
    path.write_text('[Round "1"]\nr3-d\n\n' * 6000, encoding="utf-8")  # S102, R110 each
    out = tmp_path / "findings.txt"
    run("lint", "--no-progress", str(path), "-o", str(out), "--output-format", fmt)
    peak = _peak_of(lambda: run("lint", "--no-progress", str(path), "-o", str(out),
                                "--output-format", fmt))
    written = out.read_text(encoding="utf-8")
    assert written.count("S102") == 6000 and written.count("R110") == 6000
    assert peak < 4_000_000, f"lint held {peak:,} bytes"


def test_findings_written_as_found_are_those_of_the_report(tmp_path):
    """S107 in its place, suppressions, every finding in the order of the report."""
    from lcnotation.tools.lint import lint_file, lint_file_emitting

    text = ('[Round "1"]\r\nr3-d ; lcn: ignore[S102]\r\n\r\n[Round "2"]\nR3-D 1. b4-d\n'
            '[Round "3"]\r\nk5-d\n')
    path = tmp_path / "mixed.lcn"
    path.write_bytes(text.encode("utf-8"))
    emitted: list = []
    report = lint_file_emitting(str(path), None, emitted.extend)
    whole = lint_file(str(path))
    assert emitted == whole.findings and report.findings == []
    assert "S107" in [f.diagnostic.code for f in emitted]
    assert (report.games, report.moves) == (whole.games, whole.moves)
