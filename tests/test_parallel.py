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


# ---------------------------------------------------------------- lcn fmt -j N


def _formatted_both_ways(path, dialect=None, force=False):
    """format_stream and format_stream_parallel of ``path``: what each wrote
    and found, or the exception each raised (its type and message)."""
    import io

    from lcnotation.lostcities.reformat import format_stream, format_stream_parallel

    outcomes = []
    for run in (lambda h, w: format_stream(h, "a.lcn", dialect, force, w),
                lambda h, w: format_stream_parallel(h, "a.lcn", dialect, force, 2, w)):
        out = io.BytesIO()
        with open(path, "rb") as handle:
            try:
                found = run(handle, out.write)
                outcomes.append((found, out.getvalue()))
            except (ValueError, OSError) as exc:
                outcomes.append((type(exc), str(exc), getattr(exc, "span", None)))
    return outcomes


@pytest.mark.parametrize("dialects", [["v1"] * 8, ["x-discard"] * 8, ["lower"] * 8,
                                      ["v1", "x-discard"] * 4, ["x-discard", "v1"] * 4])
@pytest.mark.parametrize("dialect", [None, "x-discard"])
def test_fmt_of_a_file_in_pieces_writes_what_one_process_writes(tmp_path, small_pieces,
                                                                 dialects, dialect):
    path = tmp_path / "games.lcn"
    text = _games(range(8), dialects)
    path.write_text(text.replace("\n\n", "\n\n\n").replace("\n", "\r\n"), encoding="utf-8")
    assert len(list(parallel.pieces(iter([text])))) > 4
    one, two = _formatted_both_ways(path, dialect)
    assert two == one and one[0].changed


@pytest.mark.parametrize("force", [False, True])
def test_fmt_in_pieces_refuses_and_keeps_what_one_process_does(tmp_path, small_pieces, force):
    games = _games(range(8), ["v1"] * 8).split("\n\n[")
    games[3] = games[3].replace("\n1. ", "\n1. R99-D ", 1)       # a syntax error in game 4
    games[6] = games[6].replace("\n1. ", "\n1. {open ", 1)       # and in game 7
    path = tmp_path / "games.lcn"
    path.write_text("\n\n[".join(games), encoding="utf-8")
    one, two = _formatted_both_ways(path, None, force)
    assert two == one
    if force:
        assert [note.split(":")[2] for note in one[0].kept] == [" game 4 kept as written",
                                                                " game 7 kept as written"]
    else:
        assert "not formatted: 1 syntax error" in one[1]
    path.write_bytes(path.read_bytes().replace(b"R99-D", b"R\xff", 1))
    assert _formatted_both_ways(path, None, True)[1] == _formatted_both_ways(path, None,
                                                                            True)[0]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(mutated(), min_size=1, max_size=4), st.booleans(),
       st.sampled_from([None, "x-discard", "lower"]))
def test_fmt_of_mutated_files_in_pieces(tmp_path, small_pieces, texts, force, dialect):
    path = tmp_path / "mutated.lcn"
    path.write_text("\n".join(texts), encoding="utf-8")
    one, two = _formatted_both_ways(path, dialect, force)
    assert two == one


def test_lcn_fmt_j2_does_what_j1_does(run, tmp_path, small_pieces):
    text = _games(range(10), ["v1", "lower"] * 5)
    for args in (["--check"], ["--diff"], []):
        results = []
        for jobs in ("1", "2"):
            path = tmp_path / f"games-{jobs}.lcn"
            path.write_text(text, encoding="utf-8")
            ran = run("fmt", "-j", jobs, *args, str(path))
            results.append((ran.status, ran.out.replace(f"games-{jobs}", "games"),
                            ran.err.replace(f"games-{jobs}", "games"), path.read_bytes()))
        assert results[1] == results[0]
    assert results[0][3] != text.encode("utf-8")  # the file was rewritten


# ---------------------------------------------------------------- lcn convert -j N


def _converted_both_ways(path, to, source=None):
    from lcnotation.lostcities.convert import convert_file

    outcomes = []
    for jobs in (1, 2):
        with open(path, "rb") as data:
            try:
                outcomes.append(b"".join(convert_file(data, to, source=source, path="a.lcn",
                                                      jobs=jobs)))
            except ValueError as exc:
                outcomes.append((type(exc), str(exc), [(e.code, e.span, e.message, e.path)
                                                       for e in getattr(exc, "errors", [])]))
    return outcomes


@pytest.mark.parametrize("to", ["x-discard", "lower", "v1", "json"])
@pytest.mark.parametrize("ends", ["\n", "\r\n", "\r"])
def test_convert_of_a_file_in_pieces_gives_what_one_process_gives(tmp_path, small_pieces, to,
                                                                   ends):
    path = tmp_path / "games.lcn"
    text = _games(range(8), ["v1", "x-discard"] * 4).replace("\n", ends)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    one, two = _converted_both_ways(path, to)
    assert two == one
    # Games that cannot be converted: every problem of the file, in its order.
    bad = text.replace(f"{ends}1. ", f"{ends}1. R99-D ", 2).replace("[Hand1", "[Hand1 x", 1)
    path.write_text(bad, encoding="utf-8", newline="")
    one, two = _converted_both_ways(path, to, "v1")
    assert two == one and len(one[2]) > 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(mutated(), min_size=1, max_size=4), st.sampled_from(["x-discard", "json"]))
def test_convert_of_mutated_files_in_pieces(tmp_path, small_pieces, texts, to):
    path = tmp_path / "mutated.lcn"
    path.write_text("\n".join(texts), encoding="utf-8")
    one, two = _converted_both_ways(path, to)
    assert two == one


def test_lcn_convert_j2_does_what_j1_does(run, tmp_path, small_pieces):
    path = tmp_path / "games.lcn"
    path.write_text(_games(range(10), ["v1", "lower"] * 5), encoding="utf-8")
    for to in ("x-discard", "json"):
        one = run("convert", "-j", "1", "--to", to, str(path))
        two = run("convert", "-j", "2", "--to", to, str(path))
        assert two == one and one.status == 0 and one.out
    path.write_text(_games(range(10), ["v1", "lower"] * 5), encoding="utf-8")
    one = run("convert", "-j", "1", "--to", "v1", "--from", "v1", str(path))
    assert run("convert", "-j", "2", "--to", "v1", "--from", "v1", str(path)) == one
    assert one.status == 1 and "not converted" in one.err


# ---------------------------------------------------------------- interrupted


def _children(pid):
    """The processes whose parent is ``pid``."""
    import os

    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not __import__("os").path.isdir("/proc"), reason="needs /proc")
@pytest.mark.parametrize("command", [["lint", "--no-progress"], ["fmt", "--check"], ["score"],
                                     ["convert", "--to", "x-discard"]])
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_signal_while_workers_run_ends_them_all(tmp_path, command, how):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or
    SIGTERM to lcn alone, while two workers run: exit 130 or 143, and no
    worker outlives it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from lcnotation.core.notation import PARALLEL_BYTES

    path = tmp_path / "large.lcn"
    games = _games(range(40), ["v1"] * 40) + "\n"
    # lint is the quickest of the four: it gets a larger file, to be still at work
    size = (8 if command[0] == "lint" else 2) * PARALLEL_BYTES
    path.write_text(games * (size // len(games) + 1), encoding="utf-8")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "lcnotation", *command, "-j", "2", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            # pure Python: with the C accelerator the file may be
                            # linted before the signal comes
                            env={**os.environ, "PYTHONPATH": root, "LCNOTATION_PURE_PYTHON": "1"},
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers = []
        while len(workers) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(0.1)  # they are at work
        if how == "SIGINT":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == (130 if how == "SIGINT" else 143), err
    assert b"Traceback" not in err
    assert (b"interrupted" if how == "SIGINT" else b"terminated by SIGTERM") in err
    deadline = time.monotonic() + 5
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if _alive(w)]
