"""Hostile input, third round (issue 26): writes that eat their input, inputs
that grow badly, and the smaller breaks of the same fault round.

Each test holds a promise of ``spec/guarantees.md`` ("Writes and growth");
the growth itself is measured by ``bench/scaling.py``, never timed here.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lcnotation import NotationError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MATCH = EXAMPLES / "match.lcn"

# The fixture ``run`` (lcn in this process, tmp_path the working folder) is in
# conftest.py.


def _record(tmp_path: Path, name: str = "m.lcn") -> Path:
    target = tmp_path / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(MATCH, target)
    return target


# -- 1, 2: no command writes over one of its inputs ---------------------------

@pytest.mark.parametrize("spelling", ["m.lcn", "./m.lcn", "link.lcn", "{abs}"])
@pytest.mark.parametrize("fix", [False, True])
def test_lint_output_file_that_is_an_input_is_refused(run, tmp_path, spelling, fix):
    record = _record(tmp_path)
    before = record.read_bytes()
    os.symlink("m.lcn", tmp_path / "link.lcn")
    output = spelling.format(abs=record)
    ran = run("lint", "m.lcn", *(["--fix"] if fix else []), "-o", output)
    assert ran.status == 2
    assert len(ran.err.strip().splitlines()) == 1
    assert "is the input" in ran.err and "never writes over an input" in ran.err
    assert record.read_bytes() == before


def test_lint_output_file_inside_a_folder_linted_is_refused(run, tmp_path):
    record = _record(tmp_path, "games/m.lcn")
    before = record.read_bytes()
    ran = run("lint", "games", "-o", "games/m.lcn")
    assert ran.status == 2 and "is the input" in ran.err
    assert record.read_bytes() == before


def test_lint_output_file_that_is_no_input_is_written(run, tmp_path):
    _record(tmp_path)
    ran = run("lint", "m.lcn", "-o", "report.txt")
    assert ran.status in (0, 1)
    assert "All clear" in (tmp_path / "report.txt").read_text()


@pytest.mark.parametrize("spelling", ["m.lcn", "./m.lcn", "link.lcn"])
def test_convert_output_file_that_is_the_input_is_refused(run, tmp_path, spelling):
    record = _record(tmp_path)
    before = record.read_bytes()
    os.symlink("m.lcn", tmp_path / "link.lcn")
    ran = run("convert", "m.lcn", "--to", "v1", "-o", spelling)
    assert ran.status == 2 and "is the input" in ran.err
    assert record.read_bytes() == before


def test_convert_into_a_folder_never_writes_over_an_input(run, tmp_path):
    lcn = _record(tmp_path, "d/x.lcn")
    assert run("convert", "d/x.lcn", "--to", "json", "-o", "d/x.json").status == 0
    js = tmp_path / "d" / "x.json"
    before = {p: p.read_bytes() for p in (lcn, js)}
    ran = run("convert", "d/x.lcn", "d/x.json", "--to", "json", "-o", "d/")
    assert ran.status == 2
    assert "is the input" in ran.err
    assert {p: p.read_bytes() for p in (lcn, js)} == before


def test_convert_into_a_folder_refuses_two_inputs_of_one_name(run, tmp_path):
    _record(tmp_path, "a/x.lcn")
    _record(tmp_path, "b/x.lcn")
    ran = run("convert", "a/x.lcn", "b/x.lcn", "--to", "json", "-o", "out")
    assert ran.status == 2
    assert len(ran.err.strip().splitlines()) == 1
    assert "a/x.lcn" in ran.err and "b/x.lcn" in ran.err
    assert not (tmp_path / "out" / "x.json").exists()  # refused before anything is written


@pytest.mark.parametrize("command", [
    ["view", "m.lcn", "-o", "link.lcn"],
    ["render", "m.lcn", "-o", "link.svg"],
    ["export", "m.lcn", "--to", "metapyziks", "-o", "link.lcn"],
    ["import", "m.lcn", "-o", "link.lcn"],
])
def test_every_command_that_writes_refuses_an_input_through_a_link(run, tmp_path, command):
    record = _record(tmp_path)
    before = record.read_bytes()
    os.symlink("m.lcn", tmp_path / "link.lcn")
    os.symlink("m.lcn", tmp_path / "link.svg")
    ran = run(*command)
    assert ran.status == 2
    assert "is the input" in ran.err and "never writes over an input" in ran.err
    assert record.read_bytes() == before


# -- 13, 14, 15: inputs that grow badly ------------------------------------------
#
# Each shape is read at a size where the quadratic reading took minutes to hours
# (bench/scaling.py has the figures); a linear one takes a fraction of a second.
# The guard only stops a test that would otherwise hang: it asserts no speed.

@contextlib.contextmanager
def _ends_at_last(seconds: int = 120) -> Iterator[None]:
    def stop(signum, frame):  # pragma: no cover - only on a regression
        raise AssertionError(f"still reading after {seconds} s: the reading is not linear")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


CHIKINN = sorted((Path(__file__).resolve().parent / "data" / "formats" / "chikinn")
                 .glob("*.txt"))[0]


def _chikinn_with(replace: str, line: str) -> str:
    lines = CHIKINN.read_text(encoding="utf-8").split("\n")
    if replace == "winner":
        index = max(k for k, text in enumerate(lines) if text.startswith("Winner:"))
    else:
        index = next(k for k, text in enumerate(lines) if ":" in text and "ROUND" not in text)
    lines[index] = line
    return "\n".join(lines)


def test_chikinn_winner_line_of_spaces_is_read_in_linear_time():
    from lcnotation.formats import chikinn

    text = _chikinn_with("winner", "Winner: " + " " * 1_000_000 + "x")
    with _ends_at_last(), pytest.raises(NotationError) as caught:
        chikinn.read(text)
    assert caught.value.code == "I104"
    assert len(caught.value.message) < 300  # the name is shown shortened


def test_chikinn_hand_line_of_spaces_is_read_in_linear_time():
    from lcnotation.formats import chikinn

    text = _chikinn_with("hand", "a" + " " * 1_000_000 + "b")
    with _ends_at_last(), pytest.raises(NotationError) as caught:
        chikinn.read(text)
    assert caught.value.code == "I101"


def test_chikinn_names_and_winner_are_read_as_before():
    from lcnotation.formats import chikinn

    games = chikinn.read(CHIKINN.read_text(encoding="utf-8"))
    original = CHIKINN.read_text(encoding="utf-8").split("\n")
    # Spaces before the colon and after the winner's name are not part of them.
    spaced = [re.sub(r"^(\w+):", r"\1   :", text) if re.match(r"\w+: [bgprwy][0-9]", text)
              else (text + "     " if text.startswith("Winner:") else text)
              for text in original]
    again = chikinn.read("\n".join(spaced))
    assert [g.header("Player1") for g in again] == [g.header("Player1") for g in games]
    assert [g.header("Player2") for g in again] == [g.header("Player2") for g in games]


def test_json_form_with_many_unknown_members_is_refused_in_linear_time():
    from lcnotation.lostcities.jsonform import from_json
    from lcnotation.lostcities.text.dialects import ConversionError

    n = 100_000
    doc = ('{"format": "lcnotation", "version": 1, "games": [{"headers": [], "moves": [],\n'
           + ",\n".join(f'"x{i}": 1' for i in range(n)) + "}]}")
    with _ends_at_last(30), pytest.raises(ConversionError) as caught:
        from_json(doc)
    errors = caught.value.errors
    assert len(errors) == n
    # Each problem at its own line and column, as before.
    assert [(e.line, e.column) for e in errors[:2]] == [(2, 7), (3, 7)]
    assert (errors[-1].line, errors[-1].column) == (n + 1, len(f'"x{n - 1}": ') + 1)


@functools.lru_cache(maxsize=None)
def _freecell_peak(line: str) -> int:
    from lcnotation.freecell.parser import parse

    text = "Game #1\n  -  -  -  +\nJD\n" + line + "\n"
    parse(text[:40])  # the grammar built, outside the count
    tracemalloc.start()
    try:
        record = parse(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(record.moves) == 60_000 + line.endswith(" 5a ; lcn: ignore[F110]")
    return peak


@pytest.mark.parametrize("end", [" zz", "[??] x", " 5a ; lcn: ignore[F110]"])
def test_freecell_long_solution_line_costs_what_its_moves_do(end):
    # 60,000 moves on one line, then a comment: memory holds the moves (with
    # their spans), as for the same line without the comment, not a parse
    # tree of the whole line (more than twice as much before).
    moves = " 5a" * 60_000
    assert _freecell_peak(moves + end) < 1.25 * _freecell_peak(moves)


@given(st.lists(st.sampled_from([" 5a", ".5a", " 1h", "[ 2b]", "[??]", "[.3c]", " 9z", "x",
                                 " ", "[", "]", "5a", " ab"]), min_size=1, max_size=12))
def test_freecell_solution_line_reads_as_its_grammar_rule(pieces):
    # The step-at-a-time reader gives what the grammar's solution_line gives.
    from lark import Token

    from lcnotation.freecell import parser as fc

    text = "".join(pieces).rstrip(" \t")
    if not text or text[0] not in fc.SOLUTION_STARTS:
        return
    tree = fc._lark().parse(text, start="solution_line")
    expected = [(t.type, str(t), t.column) for t in tree.scan_values(
        lambda v: isinstance(v, Token))]
    record = fc.parse("Game #1\n  -  -  -  +\nJD\n" + text + "\n")
    line = record.body[-1] if record.body else None
    got = []
    for s in getattr(line, "steps", ()):
        got.append(s.span.column)
    comment = getattr(line, "comment", "")
    assert got == [c for kind, _, c in expected if kind != "SOLUTION_COMMENT"]
    assert comment == next((t for kind, t, _ in expected if kind == "SOLUTION_COMMENT"), "")


# -- 16: a pyproject.toml that cannot be read is one line, exit 2 ----------------

DEEP_TOML = b"[tool.lcnotation]\nselect = " + b"[" * 5000 + b"]" * 5000 + b"\n"
LATIN1_TOML = b'[tool.lcnotation]\nselect = ["N"] # caf\xe9\n'


@pytest.mark.parametrize("content,says", [(DEEP_TOML, "nested too deeply"),
                                          (LATIN1_TOML, "not UTF-8")], ids=["deep", "latin1"])
@pytest.mark.parametrize("command", [["lint", "m.lcn"], ["fmt", "--check", "m.lcn"],
                                     ["view", "m.lcn", "-o", "m.html"],
                                     ["render", "m.lcn", "-o", "m.svg"]])
def test_configuration_that_cannot_be_read_is_one_line(run, tmp_path, command, content, says):
    _record(tmp_path)
    (tmp_path / "pyproject.toml").write_bytes(content)
    ran = run(*command)
    assert ran.status == 2, ran.err
    lines = ran.err.strip().splitlines()
    assert len(lines) == 1, ran.err
    assert "pyproject.toml" in lines[0] and says in lines[0]
    assert "too long" not in lines[0]


# -- 17: render reads up to its game, and holds one game at a time ---------------

def _games(n: int) -> bytes:
    """``n`` copies of the example match (three games each)."""
    return MATCH.read_bytes() * n


def _render_peak(tmp_path: Path, n: int) -> int:
    """The peak memory (bytes) of ``lcn render`` of the last game of ``n``
    copies of the match, in a process of its own."""
    (tmp_path / "many.lcn").write_bytes(_games(n))
    # VmHWM, not ru_maxrss: that one keeps the high-water mark of the process
    # that started this one (exec does not reset it).
    script = ("import sys; from lcnotation.cli import main; "
              f"status = main(['render', 'many.lcn', '--game', '{3 * n}', '-o', 'last.svg']); "
              "print(next(line.split()[1] for line in open('/proc/self/status') "
              "if line.startswith('VmHWM'))); sys.exit(status)")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    ran = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    return int(ran.stdout.split()[-1]) * 1024


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc (Linux)")
def test_render_of_the_last_game_holds_one_game_at_a_time(tmp_path):
    # 4 MB and 16 MB of games: memory holds a game and the blocks read, not
    # the games before the one drawn (those took about 27 bytes a byte).
    small, large = _render_peak(tmp_path, 2_000), _render_peak(tmp_path, 8_000)
    assert large < small + 8 * 1024 * 1024


def test_render_reads_the_file_only_up_to_its_game(run, tmp_path):
    # Bytes that are not UTF-8 after the game drawn are never read.
    (tmp_path / "m.lcn").write_bytes(_games(2) + b'[Event "caf\xe9"]\n\n1. R3-D\n')
    assert run("render", "m.lcn", "--game", "6", "-o", "six.svg").status == 0
    ran = run("render", "m.lcn", "--game", "7", "-o", "seven.svg")
    assert ran.status == 2 and "cannot read" in ran.err


# -- 18, 19: names that are not UTF-8, numbers of any length ----------------------

LATIN1_NAME = os.fsdecode(b"caf\xe9.lcn")


@pytest.mark.parametrize("title", [None, os.fsdecode(b"t\xff")])
def test_view_of_a_file_or_title_that_is_not_utf8_escapes_it(run, tmp_path, title):
    shutil.copyfile(MATCH, os.fsencode(tmp_path) + b"/caf\xe9.lcn")
    ran = run("view", LATIN1_NAME, *(["--title", title] if title else []), "-o", "page.html")
    assert ran.status == 0, ran.err
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert ("t\\udcff" if title else "caf\\udce9.lcn") in page  # as the messages show it


def test_render_of_a_file_that_is_not_utf8_is_drawn(run, tmp_path):
    shutil.copyfile(MATCH, os.fsencode(tmp_path) + b"/caf\xe9.lcn")
    assert run("render", LATIN1_NAME, "-o", "end.svg").status == 0


LONG_NUMBER = "9" * 5_000


@pytest.mark.parametrize("argv", [
    ["render", "m.lcn", "--game", LONG_NUMBER], ["render", "m.lcn", "--move", LONG_NUMBER],
    ["render", "m.lcn", "--game", "-" + LONG_NUMBER], ["lint", "m.lcn", "-j", LONG_NUMBER],
    ["server", "--tcp", "--port", LONG_NUMBER], ["score", "m.lcn", "--game", LONG_NUMBER],
    ["split", "m.lcn", "-o", "out", "--games", LONG_NUMBER],
])
def test_a_number_of_5000_digits_is_echoed_shortened(run, tmp_path, argv):
    _record(tmp_path)
    ran = run(*argv)
    assert ran.status == 2
    assert len(ran.err.strip().splitlines()) == 1
    assert len(ran.err) < 300, ran.err
    assert "99999999999999999999" in ran.err  # its first digits, so that it can be found


# -- 20, 21: FreeCell deal numbers and fc-solve's output ---------------------------

FC_SOLVE_617 = Path(__file__).resolve().parent / "data" / "freecell" / "fc-solve-617.snx.txt"


def _bare_moves() -> list:
    """The moves lines of fc-solve's solution of deal 617, without its other lines
    (as ``fc-solve ... | grep`` or a copy of the moves alone gives them)."""
    return [line for line in FC_SOLVE_617.read_text().splitlines(keepends=True)
            if re.match(r"^(?:[1-8a-d][1-8a-dh]\S* )+$", line)]


@pytest.mark.parametrize("keep", [9, 8, 3])  # after a move and its space, after a move
def test_a_bare_list_of_moves_cut_in_the_middle_of_a_line_is_truncated(keep):
    from lcnotation.freecell import import_fc_solve

    lines = _bare_moves()
    cut = "".join(lines[:5]) + lines[5][:keep]
    with pytest.raises(NotationError) as caught:
        import_fc_solve(cut, 617)
    assert caught.value.code == "F401" and "truncated" in caught.value.message
    assert (caught.value.line, caught.value.column) == (6, len(lines[5][:keep].rstrip()) + 1)


def test_the_import_command_says_a_cut_list_is_truncated(run, tmp_path):
    lines = _bare_moves()
    (tmp_path / "cut.txt").write_text("".join(lines[:5]) + lines[5][:9])
    ran = run("import", "--from", "fc-solve", "cut.txt", "--deal", "617")
    assert ran.status == 1 and ran.out == ""
    assert "F401" in ran.err and "truncated" in ran.err


def test_a_whole_bare_list_of_moves_still_imports():
    from lcnotation.freecell import import_fc_solve

    assert "Game #617" in import_fc_solve("".join(_bare_moves()), 617)


@pytest.mark.parametrize("digits", [11, 19, 5000])
def test_a_negative_deal_number_of_any_length_is_a_cookie_deal(run, tmp_path, digits):
    (tmp_path / "c.sfn").write_text("Game #-" + "9" * digits
                                    + "\n  -  -  -  +KC KD JH KS\nQH\nKH\n 1a\n")
    ran = run("lint", "c.sfn", "--output-format", "concise")
    assert "F208" in ran.out and "F103" not in ran.out


# -- 22, 23: in-place rewrites never replace a newer save; write failures say so ------

NEW_SAVE = b'[Event "saved by the editor"]\n\n1. R3-D\n'


def _save_by_rename(path: Path) -> None:
    """What an editor does: write the new text beside the file, rename it over."""
    beside = path.with_name(path.name + ".editor~")
    beside.write_bytes(NEW_SAVE)
    os.replace(beside, path)


def _messy(tmp_path: Path, name: str = "m.lcn", newline: bytes = b"\n") -> Path:
    # Badly formatted (fmt and lint --fix both change it).
    record = tmp_path / name
    record.write_bytes(b'[Event "x"]\n\n1.  r3-d   2. g4-d\n'.replace(b"\n", newline))
    return record


@pytest.mark.parametrize("argv", [["fmt", "m.lcn"], ["lint", "--fix", "m.lcn"]])
def test_a_save_while_the_file_is_rewritten_is_kept(run, tmp_path, monkeypatch, argv):
    # The save lands while lcn writes the new text (after it read the file).
    from lcnotation.core import files

    record = _messy(tmp_path)
    real = files.tempfile.mkstemp

    def mkstemp(*args, **kwargs):
        _save_by_rename(record)
        return real(*args, **kwargs)

    monkeypatch.setattr(files.tempfile, "mkstemp", mkstemp)
    ran = run(*argv)
    assert ran.status == 2, ran.err
    assert "changed while lcn was rewriting it" in ran.err
    assert record.read_bytes() == NEW_SAVE


@pytest.mark.parametrize("newline", [b"\n", b"\r\n\n"], ids=["stream", "whole"])
def test_fmt_keeps_a_save_made_between_its_reading_and_its_writing(run, tmp_path, monkeypatch,
                                                                   newline):
    # A file that mixes line ends is formatted whole: read, then written.
    from lcnotation.cli import fmt

    record = _messy(tmp_path, newline=newline)
    real_deliver = fmt.deliver_formatted

    def deliver(path, source, *args, **kwargs):
        _save_by_rename(record)
        return real_deliver(path, source, *args, **kwargs)

    monkeypatch.setattr(fmt, "deliver_formatted", deliver)
    ran = run("fmt", "m.lcn")
    if newline == b"\n":  # the stream's way never reaches deliver_formatted
        assert ran.status == 0 and record.read_bytes() != NEW_SAVE
        return
    assert ran.status == 2, ran.err
    assert "changed while lcn was rewriting it" in ran.err
    assert record.read_bytes() == NEW_SAVE


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
@pytest.mark.parametrize("argv", [["lint", "--fix", "d/m.lcn"], ["fmt", "d/m.lcn"]])
def test_a_write_that_fails_says_cannot_write(run, tmp_path, argv):
    folder = tmp_path / "d"
    folder.mkdir()
    _messy(folder)
    folder.chmod(0o555)
    try:
        ran = run(*argv)
    finally:
        folder.chmod(0o755)
    assert ran.status == 2
    assert "cannot write" in ran.err and "cannot read" not in ran.err


@pytest.mark.parametrize("argv", [["lint", "--fix", "m.lcn"], ["fmt", "m.lcn"]])
def test_a_write_that_fails_to_start_says_cannot_write(run, tmp_path, monkeypatch, argv):
    # As in a read-only folder or on a full disk, as root too.
    from lcnotation.core import files

    record = _messy(tmp_path)
    before = record.read_bytes()

    def mkstemp(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.tempfile, "mkstemp", mkstemp)
    ran = run(*argv)
    assert ran.status == 2, ran.err
    assert "cannot write" in ran.err and "cannot read" not in ran.err
    assert record.read_bytes() == before


# -- the fuzz targets gain the importers' line readers -----------------------------

def _fuzz_targets():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "lcn_fuzz_targets_h3", Path(__file__).resolve().parent.parent / "fuzz" / "targets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FUZZ = _fuzz_targets()
DATA = Path(__file__).resolve().parent / "data"
TRANSCRIPTS = [p.read_bytes() for p in sorted((DATA / "formats").glob("*/*.txt"))[:3]
               + [FC_SOLVE_617]]


def test_the_importers_target_runs_on_the_samples():
    for data in TRANSCRIPTS + [b"", b"\n", b"Winner: \n", b"5a 5b\n"]:
        FUZZ.importers_target(data)


@given(st.sampled_from(range(len(TRANSCRIPTS))), st.lists(st.tuples(
    st.sampled_from(["drop", "repeat", "cut", "spaces", "byte", "swap"]),
    st.integers(0, 10_000), st.integers(0, 200)), min_size=1, max_size=4))
def test_importers_line_readers_on_mutated_transcripts(which, mutations):
    """Transcripts and solutions with lines dropped, repeated, cut, padded,
    damaged or swapped: every line reader answers, with NotationError at worst
    (fuzz/targets.py importers_target)."""
    lines = TRANSCRIPTS[which].split(b"\n")
    for kind, at, n in mutations:
        i = at % len(lines)
        if kind == "drop":
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "cut":
            lines[i] = lines[i][:n % (len(lines[i]) + 1)]
        elif kind == "spaces":
            lines[i] = lines[i] + b" " * n
        elif kind == "byte":
            line = lines[i]
            k = n % (len(line) + 1)
            lines[i] = line[:k] + bytes([n % 256]) + line[k:]
        else:
            j = (at + n) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        if not lines:
            lines = [b""]
    FUZZ.importers_target(b"\n".join(lines))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_json_form_problems_are_placed_with_every_line_end(newline):
    # LF, CRLF and a lone CR end a line, as everywhere in lcnotation.
    from lcnotation.lostcities.jsonform import from_json
    from lcnotation.lostcities.text.dialects import ConversionError

    doc = newline.join(['{"format": "lcnotation", "version": 1, "games": [{"headers": [],',
                        ' "moves": [], "x": 1}]}'])
    with pytest.raises(ConversionError) as caught:
        from_json(doc)
    assert [(e.line, e.column) for e in caught.value.errors] == [(2, 20)]


def test_metapyziks_long_replay_member_costs_little_memory():
    # The JSON output's "Replay" member, 2 MB long (never closed, and closed):
    # found without a repeated alternation, whose stack took about 150 bytes a
    # byte in Python's re.
    from lcnotation.formats import metapyziks

    for end in ('', '"}'):
        text = '{"Replay": "' + "A" * 2_000_000 + end
        metapyziks.detect(text)
        tracemalloc.start()
        try:
            with contextlib.suppress(NotationError):
                metapyziks.read(text)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 20 * len(text), f"{peak / len(text):.0f} bytes a byte"


@pytest.mark.parametrize("tail", ["", " x"])
def test_fc_solve_long_board_line_costs_little_memory(tail):
    # A board line of 600,000 cards (or one that is not a board line at its
    # end): read a card at a time, not by a repeated alternation.
    from lcnotation.freecell import import_fc_solve

    text = ("Foundations: H-0 C-0 D-0 S-0\nFreecells:\n:" + " 2C" * 600_000 + tail
            + "\n5a\n")
    tracemalloc.start()
    try:
        with contextlib.suppress(NotationError):
            import_fc_solve(text, 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 30 * len(text), f"{peak / len(text):.0f} bytes a byte"
