"""lcn fmt and lcn score stream (issue 11, defect 11; issue 17): they read a
file game by game and write as they go, so memory holds one game, not the
file.  Shown without measuring memory: the output has begun before the
input is read to its end (a command that reads the file whole, then works,
writes nothing until every read is done).  bench/memory.py measures."""

from __future__ import annotations

import builtins
import io
import os
import sys
from pathlib import Path
from typing import Callable, List

import pytest

from lcnotation.cli import main
from lcnotation.game.generator import generate_games
from lcnotation.text.formatter import format_games


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> bytes:
    """About 3 MB of lower-case games: well beyond the readers' 1 MiB blocks."""
    block = (format_games(generate_games(40, seed=3), "lower") + "\n\n").encode()
    return block * (3_000_000 // len(block) + 1)


def _watch_reads(monkeypatch, path: Path, seen: Callable[[], int]) -> List[int]:
    """At each read of the file ``path``, what ``seen()`` says then (how much
    output there is)."""
    real_open = builtins.open
    marks: List[int] = []

    class Watched(io.BufferedReader):
        def read(self, size=-1):  # type: ignore[no-untyped-def]
            marks.append(seen())
            return super().read(size)

        def read1(self, size=-1):  # type: ignore[no-untyped-def]
            marks.append(seen())
            return super().read1(size)

        def readinto(self, buffer):  # type: ignore[no-untyped-def]
            marks.append(seen())
            return super().readinto(buffer)

    def watching_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(file, (str, os.PathLike)) and os.path.abspath(file) == str(path) \
                and mode == "rb":
            return Watched(io.FileIO(file, "rb"))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", watching_open)
    return marks


def test_fmt_writes_the_new_file_while_it_reads_the_old(tmp_path, monkeypatch, archive):
    path = tmp_path / "big.lcn"
    path.write_bytes(archive)

    def written() -> int:
        return sum(e.stat().st_size for e in os.scandir(tmp_path) if e.name.endswith(".tmp"))

    marks = _watch_reads(monkeypatch, path, written)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main(["fmt", "-q", str(path)]) == 0
    monkeypatch.undo()
    assert path.read_bytes().startswith(b"[")  # formatted: upper case moves
    assert b"-d\n" not in path.read_bytes()
    assert marks[-1] > 0, "nothing was written before the last read of the file"


def test_score_prints_while_it_reads(tmp_path, monkeypatch, archive):
    path = tmp_path / "big.lcn"
    path.write_bytes(archive)
    out = io.StringIO()
    marks = _watch_reads(monkeypatch, path, out.tell)
    monkeypatch.setattr(sys, "stdout", out)
    main(["score", "--allow-errors", str(path)])
    monkeypatch.undo()
    assert "match totals" in out.getvalue()
    assert marks[-1] > 0, "nothing was printed before the last read of the file"


def test_fmt_check_formats_games_while_it_reads(tmp_path, monkeypatch, archive):
    from lcnotation.tools import reformat

    path = tmp_path / "big.lcn"
    path.write_bytes(archive)
    formatted = []
    real = reformat.format_game
    monkeypatch.setattr(reformat, "format_game",
                        lambda *a, **k: formatted.append(1) or real(*a, **k))
    marks = _watch_reads(monkeypatch, path, formatted.__len__)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["fmt", "--check", str(path)]) == 1
    monkeypatch.undo()
    assert out.getvalue() == f"would reformat {path}\n"
    assert path.read_bytes() == archive
    assert marks[-1] > 0, "no game was formatted before the last read of the file"
