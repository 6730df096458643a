"""One large file linted in several processes gives what one process gives.

The file is cut at game boundaries (lcnotation/lostcities/parallel.py); these
tests cut small files into many small pieces, so that every kind of place a
cut can fall is met, and compare the findings, their order, positions,
messages and fixes, and the counts with lint_file's.
"""

from __future__ import annotations

from typing import List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lcnotation import format_game, generate_game
from lcnotation.core.lint import LintConfig
from lcnotation.lostcities import parallel
from lcnotation.lostcities.text.reader import split_games
from lcnotation.tools.lint import lint_file, lint_file_emitting
from test_fused import mutated


def _both(path, config=None, jobs=2):
    whole = lint_file(str(path), config)
    emitted: List = []
    report = lint_file_emitting(str(path), config, emitted.extend, jobs=jobs)
    return whole, report, emitted


def _same(whole, report, emitted):
    assert [(f.diagnostic, f.diagnostic.span, f.diagnostic.path, f.fix) for f in emitted] == [
        (f.diagnostic, f.diagnostic.span, f.diagnostic.path, f.fix) for f in whole.findings]
    assert (report.games, report.moves, report.unreadable) == (
        whole.games, whole.moves, whole.unreadable)


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of a few hundred characters, and every file parallel."""
    from lcnotation.core import notation

    monkeypatch.setattr(parallel, "PIECE", 300)
    monkeypatch.setattr(notation, "PARALLEL_BYTES", 0)


def _games(seeds, dialects) -> str:
    return "\n".join(format_game(generate_game(s, deal=s % 2 == 0), d)
                     for s, d in zip(seeds, dialects))


@pytest.mark.parametrize("dialects", [["v1"] * 8, ["x-discard"] * 8, ["lower"] * 8,
                                      ["v1", "x-discard"] * 4, ["x-discard", "v1"] * 4])
def test_a_file_cut_in_pieces_gives_the_findings_of_one_process(tmp_path, small_pieces,
                                                                  dialects):
    path = tmp_path / "games.lcn"
    text = _games(range(8), dialects).replace("\n7. ", "\n8. ", 3) + "\n1. r3-d\r\n"
    path.write_bytes(text.encode("utf-8") + b"\n[Event \"\xff\"]\n")
    cuts = list(parallel.pieces(iter([text]), 300))
    assert len(cuts) > 4  # the file is really cut
    _same(*_both(path))
    _same(*_both(path, LintConfig(dialect="x-discard", select=("S",))))


def test_the_pieces_are_the_games_split_whole(small_pieces):
    text = _games(range(6), ["v1"] * 6)
    whole = [(g.text, g.line, g.offset) for g in split_games([text])]
    cut = [(g.text, g.line, g.offset) for items, line, offset in parallel.pieces(iter([text]), 300)
           for g in split_games(items, line, offset)]
    assert cut == whole


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(mutated(), min_size=1, max_size=4))
def test_mutated_files_in_pieces(tmp_path, small_pieces, texts):
    path = tmp_path / "mutated.lcn"
    path.write_text("\n".join(texts), encoding="utf-8")
    _same(*_both(path))


def test_lcn_lint_j2_on_one_file_prints_what_j1_prints(run, tmp_path, small_pieces):
    path = tmp_path / "games.lcn"
    path.write_text(_games(range(10), ["v1", "lower"] * 5), encoding="utf-8")
    one = run("lint", "--no-progress", "-j", "1", str(path))
    two = run("lint", "--no-progress", "-j", "2", str(path))
    assert two == one and "S102" in one.out
    for fmt in ("json", "github", "sarif"):
        assert run("lint", "-j", "2", "--output-format", fmt, str(path)) == run(
            "lint", "-j", "1", "--output-format", fmt, str(path))


def test_lcn_score_j2_prints_what_j1_prints(run, tmp_path, small_pieces):
    path = tmp_path / "games.lcn"
    text = _games(range(9), ["v1", "lower", "x-discard"] * 3)
    text = text.replace("\n5. ", "\n5. R11-D ", 1).replace('[Result "', '[Result "7', 1)
    path.write_text(text, encoding="utf-8")
    for fmt in ("text", "json"):
        one = run("score", "-j", "1", "--format", fmt, str(path))
        two = run("score", "-j", "2", "--format", fmt, str(path))
        assert two == one and one.status == 1 and "game 1 is not a result" in one.err
    assert "game 9" in run("score", "-j", "2", str(path)).out
