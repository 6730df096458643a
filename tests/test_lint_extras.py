"""What users of ruff and black expect of ``lcn lint``: ``--add-noqa``,
``--show-settings``, ``extend-exclude`` and ``--watch``, each end to end
through the command line (a subprocess that runs this tree's code), and the
property of ``--add-noqa``: a record means what it meant, and reports only
what was left."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import List, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lcnotation import freecell
from lcnotation.core.diagnostics import NotationError
from lcnotation.core.files import decode_source
from lcnotation.core.lint import LintConfig
from lcnotation.lostcities.text.ast import Game, Header, Move
from lcnotation.lostcities.text.reader import parse_games
from lcnotation.tools.lint import lint_text
from lcnotation.tools.noqa import SYNTAX, UNSUPPRESSIBLE, add_noqa_bytes
from strategies import examples, record_files
from test_notations import toy  # noqa: F401  (the fixture: a third notation, registered)

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "freecell"


def lcn(*args: str, cwd: Path, stdin: Optional[str] = None) -> "subprocess.CompletedProcess[str]":
    """``lcn`` in a subprocess, running this tree's code."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "lcnotation", *args], cwd=cwd, env=env,
                          input=stdin, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def codes(path: Path, *options: str) -> List[str]:
    out = lcn("lint", "--output-format", "json", *options, str(path), cwd=path.parent).stdout
    return [f["code"] for f in json.loads(out)]


def solved(n: int) -> str:
    return (DATA / f"deal-{n}.txt").read_text()


# ---------------------------------------------------------------- --add-noqa

def test_add_noqa_suppresses_todays_findings_and_merges(tmp_path: Path) -> None:
    a = tmp_path / "a.lcn"
    a.write_bytes(b"1. R3-D 2. r4-d\r\n3. R2-D ; lcn: ignore[S1]\r\n")
    b = tmp_path / "b.lcn"
    b.write_text("1. R3-D 2. Q9\n")
    clean = tmp_path / "clean.lcn"
    clean.write_text("1. R3-D ; lcn: ignore\n")
    before = clean.read_bytes()
    r = lcn("lint", "--add-noqa", ".", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "added 3 suppressions in 2 files" in r.stderr
    # one comment per line, codes merged into the line's suppression, CRLF kept
    assert a.read_bytes() == (b"1. R3-D 2. r4-d ; lcn: ignore[S102]\r\n"
                              b"3. R2-D ; lcn: ignore[S1, R101, R110]\r\n")
    assert clean.read_bytes() == before
    # what no comment silences is left, and said: the syntax error, S100
    assert "b.lcn:1:14: N104 not suppressed: syntax errors are always reported" in r.stdout
    assert "a.lcn:2:9: S100 not suppressed" in r.stdout
    assert sorted(codes(tmp_path / "a.lcn")) == ["S100"]
    assert codes(b) == ["N104"]
    again = lcn("lint", "--add-noqa", ".", cwd=tmp_path)
    assert "added 0 suppressions in 0 files" in again.stderr
    (tmp_path / "bin.lcn").write_bytes(b"1. R3-D\n2. \xff\n")  # never rewritten
    r = lcn("lint", "--add-noqa", "bin.lcn", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "bin.lcn").read_bytes() == b"1. R3-D\n2. \xff\n"
    assert "bin.lcn:1:8: R110 not suppressed: the file is not UTF-8 text" in r.stdout
    assert "bin.lcn:2:4: N001 not suppressed: syntax errors" in r.stdout


def test_add_noqa_on_freecell_only_where_a_comment_can_go(tmp_path: Path) -> None:
    text = solved(1)
    record = freecell.parse(text)
    span = record.moves[2].span
    (tmp_path / "bad.sfn").write_text(text[:span.start] + " 11" + text[span.end:])
    (tmp_path / "broken.sfn").write_text("Game #1\nJD 6X\n")
    r = lcn("lint", "--add-noqa", ".", cwd=tmp_path)
    assert r.returncode == 0 and "added 1 suppression in 1 file" in r.stderr
    line = (tmp_path / "bad.sfn").read_text().splitlines()[9]
    assert line.endswith("  lcn: ignore[F306]")
    assert codes(tmp_path / "bad.sfn") == []
    # a column line cannot carry a comment: the card is left, and said
    assert (tmp_path / "broken.sfn").read_text() == "Game #1\nJD 6X\n"
    assert "broken.sfn:2:4: F101 not suppressed: no comment can go on its line" in r.stdout


def test_add_noqa_follows_select_and_refuses_what_it_cannot_rewrite(tmp_path: Path) -> None:
    a = tmp_path / "a.lcn"
    a.write_text("1. R3-D 2. r4-d\n")
    r = lcn("lint", "--add-noqa", "--select", "S", "a.lcn", cwd=tmp_path)
    assert r.returncode == 0 and a.read_text() == "1. R3-D 2. r4-d ; lcn: ignore[S102]\n"
    for extra in (["-"], ["--fix", "a.lcn"], ["--diff", "a.lcn"]):
        r = lcn("lint", "--add-noqa", *extra, cwd=tmp_path, stdin="")
        assert r.returncode == 2 and "--add-noqa" in r.stderr and "\n" == r.stderr[-1]


def test_add_noqa_offers_no_comment_to_a_notation_without_them(toy: object, run,
                                                               tmp_path: Path) -> None:
    (tmp_path / "a.toy").write_text("+1\n-2\n")
    ran = run("lint", "--add-noqa", "a.toy")
    assert ran.status == 0 and "added 0 suppressions in 0 files" in ran.err
    assert "a.toy:2:1: T201 not suppressed: this notation has no suppression comments" in ran.out
    assert (tmp_path / "a.toy").read_text() == "+1\n-2\n"


def _meaning(games: List[Game]) -> List[Game]:
    """The games without their comments (a suppression is a comment)."""
    return [Game(tuple(Header(h.name, h.value) for h in g.headers),
                 tuple(Move(m.placement, m.draw) for m in g.moves)) for g in games]


@examples(150)
@given(record_files())
def test_add_noqa_keeps_the_meaning_of_lost_cities_records(data: bytes) -> None:
    done = add_noqa_bytes(data, "p.lcn", LintConfig())
    try:
        source = decode_source(data)
    except NotationError:  # not UTF-8: never rewritten, every finding left
        assert done.data is data and done.added == 0
        assert done.report is not None
        assert [x.finding for x in done.left] == done.report.findings
        return
    after = decode_source(done.data)
    assert (after.newline, after.bom) == (source.newline, source.bom)
    assert _meaning(list(parse_games(after.text))) == _meaning(list(parse_games(source.text)))
    left = Counter((x.finding.diagnostic.code, x.finding.diagnostic.line) for x in done.left)
    again = Counter((d.code, d.line) for d in lint_text(done.data.decode("utf-8-sig"),
                                                        "p.lcn").diagnostics)
    assert again == left  # no new S100, nothing suppressed comes back
    for x in done.left:
        code = x.finding.diagnostic.code
        assert code.startswith("N") == (x.reason == SYNTAX)
        assert (code in ("S100", "S107")) == (x.reason == UNSUPPRESSIBLE)


_FREECELL_EDITS = st.lists(st.tuples(st.integers(0, 2000), st.sampled_from(
    [" 11", " 5a", "x", "  note", " lcn: ignore[F3]", "\n", "  ", "6X ", " 1h"])), max_size=3)


@examples(60)
@given(st.sampled_from([1, 4, 617]), _FREECELL_EDITS)
def test_add_noqa_keeps_the_meaning_of_freecell_records(deal: int, edits) -> None:
    text = solved(deal)
    for at, piece in edits:
        at = min(at, len(text))
        text = text[:at] + piece + text[at:]
    done = add_noqa_bytes(text.encode(), "p.sfn", LintConfig())
    before, after = freecell.parse(text), freecell.parse(done.data.decode())
    assert (after.game, after.home, after.columns, after.marker) == (
        before.game, before.home, before.columns, before.marker)
    assert [(str(m), m.single) for m in after.moves] == [(str(m), m.single)
                                                         for m in before.moves]
    left = Counter((x.finding.diagnostic.code, x.finding.diagnostic.line) for x in done.left)
    again = Counter((d.code, d.line) for d in lint_text(done.data.decode(), "p.sfn").diagnostics)
    assert again == left


# ---------------------------------------------------------------- extend-exclude

def _tree(tmp_path: Path, table: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.lcnotation]\n" + table)
    for name in ("keep/a.lcn", "drafts/b.lcn", "old/c.lcn", "d.sfn"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("1. r3-d\n" if name.endswith(".lcn") else "Game #1\n")


def _linted(r: "subprocess.CompletedProcess[str]") -> List[str]:
    assert r.returncode in (0, 1), r.stderr
    return sorted({os.path.normpath(f["path"]).replace(os.sep, "/") for f in json.loads(r.stdout)})


def test_extend_exclude_adds_to_exclude_and_exclude_replaces(tmp_path: Path) -> None:
    _tree(tmp_path, 'exclude = ["drafts"]\nextend-exclude = ["old/*"]\n')
    lint = ("lint", "--output-format", "json", ".")
    assert _linted(lcn(*lint, cwd=tmp_path)) == ["d.sfn", "keep/a.lcn"]
    assert _linted(lcn(*lint, "--extend-exclude", "*.sfn", cwd=tmp_path)) == ["keep/a.lcn"]
    # --exclude replaces the configuration's exclude, not its extend-exclude
    assert _linted(lcn(*lint, "--exclude", "keep", cwd=tmp_path)) == ["d.sfn", "drafts/b.lcn"]
    (tmp_path / "pyproject.toml").write_text('[tool.lcnotation]\nextend-exclude = "old"\n')
    r = lcn(*lint, cwd=tmp_path)
    assert r.returncode == 2 and "'extend-exclude' must be a list" in r.stderr


# ---------------------------------------------------------------- --show-settings

def test_show_settings_says_what_a_file_is_held_to_and_why(tmp_path: Path) -> None:
    _tree(tmp_path, 'select = ["R", "S"]\nignore = ["S103"]\nexclude = ["drafts"]\n'
          'extend-exclude = ["old/*"]\n[tool.lcnotation.per-file-ignores]\n"keep/*" = ["S1"]\n')
    r = lcn("lint", "--show-settings", "keep/a.lcn", "--extend-ignore", "R110", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "Resolved settings for: keep/a.lcn"
    assert lines[1] == f"Settings path: {tmp_path / 'pyproject.toml'}"
    shown = {line.split(" = ")[0].strip(): line.split(" = ", 1)[1] for line in lines[3:]
             if " = " in line}
    assert shown["notation"] == '"lostcities"  (the extension .lcn)'
    assert shown["select"] == f'["R", "S"]  ({tmp_path / "pyproject.toml"})'
    assert shown["extend-ignore"] == '["R110"]  (command line)'
    assert shown["per-file-ignores-matched"] == '["S1"]'
    assert shown["excluded"] == "no"
    assert shown["reported"].startswith('select ["R", "S"], ignore ["S103", "S1", "R110"]')
    j = json.loads(lcn("lint", "--show-settings", "old/c.lcn", "--output-format", "json",
                       "--select", "N", cwd=tmp_path).stdout)
    assert (j["notation"], j["select"], j["sources"]["select"]) == ("lostcities", ["N"],
                                                                   "command line")
    assert (j["excluded"], j["excluded_by"]) == (True, str(tmp_path / "pyproject.toml"))
    j = json.loads(lcn("lint", "--show-settings", "d.sfn", "--output-format", "json",
                       cwd=tmp_path).stdout)
    assert j["notation"] == "freecell" and j["sources"]["notation"] == "the extension .sfn"
    none = lcn("lint", "--show-settings", "a.lcn", "b.lcn", cwd=tmp_path)
    assert none.returncode == 2 and "one file" in none.stderr


# ---------------------------------------------------------------- --watch

def _wait_for(stream_lines: List[str], proc: "subprocess.Popen[str]", needle: str,
              timeout: float = 60) -> str:
    """Read ``proc``'s output (into ``stream_lines``) until a line holds ``needle``."""
    assert proc.stdout is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        stream_lines.append(line)
        if needle in line:
            return line
    raise AssertionError(f"{needle!r} never came: {''.join(stream_lines)}")


@pytest.mark.parametrize("stop, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_watch_lints_again_when_a_file_changes(tmp_path: Path, stop: int, status: int) -> None:
    (tmp_path / "games").mkdir()
    a = tmp_path / "games" / "a.lcn"
    a.write_text("1. R3-D\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "lcnotation", "lint", "--watch",
                             "--output-format", "concise", "games"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: List[str] = []
    try:
        _wait_for(seen, proc, "run 1 at")
        _wait_for(seen, proc, "watching for changes")
        assert not any("S102" in line for line in seen)
        time.sleep(0.1)
        a.write_text("1. R3-D 2. r4-d\n")
        _wait_for(seen, proc, "run 2 at")
        assert "S102" in _wait_for(seen, proc, "S102")
        _wait_for(seen, proc, "watching for changes")
        (tmp_path / "games" / "b.lcn").write_text("1. Q9\n")  # a new file counts too
        _wait_for(seen, proc, "run 3 at")
        assert "b.lcn" in _wait_for(seen, proc, "N10")
        _wait_for(seen, proc, "watching for changes")
        proc.send_signal(stop)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == status
    assert "Traceback" not in err and ("interrupted" in err or "SIGTERM" in err)


def test_fmt_check_watch_checks_again_and_fmt_skips_what_extend_exclude_names(
        tmp_path: Path) -> None:
    a = tmp_path / "a.lcn"
    a.write_text("1. R3-D\n")
    (tmp_path / "b.lcn").write_text("1. r3-d   2. B4-D\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    r = lcn("fmt", "--check", "--extend-exclude", "b.lcn", ".", cwd=tmp_path)
    assert r.returncode == 0 and "b.lcn" not in r.stdout + r.stderr
    assert lcn("fmt", "--watch", ".", cwd=tmp_path).returncode == 2
    proc = subprocess.Popen([sys.executable, "-m", "lcnotation", "fmt", "--check", "--watch",
                             "a.lcn"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seen: List[str] = []
    try:
        _wait_for(seen, proc, "exit status 0; watching")
        time.sleep(0.1)
        a.write_text("1. R3-D   2. B4-D\n")
        assert "a.lcn" in _wait_for(seen, proc, "would reformat")
        _wait_for(seen, proc, "exit status 1; watching")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143 and "Traceback" not in err
