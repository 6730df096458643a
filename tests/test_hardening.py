"""Hostile input: encodings and line ends, sizes, and never losing a file.

Three groups of tests, each holding a guarantee of ``spec/guarantees.md``:

* encodings and line ends: the same record written with every line end, with
  and without a byte-order mark, gives the same positions (columns count
  characters) through the library and through ``lcn lint``, ``lcn fmt`` and
  ``lcn convert``; bytes that are not UTF-8 are reported (N001, with their
  byte offset) and the rest is still read;
* sizes: large inputs of every shape are read correctly, without deep
  recursion (the tests run them under a tight recursion limit); the timing
  is measured by ``bench/scaling.py``, not asserted here;
* no data lost: every command that rewrites a file does it atomically, keeps
  line ends and byte-order mark, refuses files with syntax errors unless
  forced, and leaves the corpus byte for byte alone when nothing changes.

The random side of the same guarantees is in ``tests/test_fuzz.py``.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import os
import re
import sys
import tracemalloc
from pathlib import Path
from typing import Iterator, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lcnotation import NotationError
from lcnotation.lostcities.style import first_discard_marker
from lcnotation.lostcities.text import messages
from lcnotation.core import files
from lcnotation.lostcities.text import parser as parser_module
from lcnotation.lostcities.game.checker import check
from lcnotation.cli import main
from lcnotation.lostcities.convert import convert_text, detect_dialect
from lcnotation.lostcities.text.dialects import ConversionError
from lcnotation.core.files import decode_source
from lcnotation.lostcities.text.formatter import format_games
from lcnotation.lostcities.jsonform import from_json
from lcnotation.tools.lint import lint_file, lint_text
from lcnotation.lostcities.text.parser import parser
from lcnotation.lostcities.text.reader import parse_game, parse_games, parse_move, read_games
from paths import read_game
from running import Ran
from strategies import PIECES, examples

CORPUS = Path(__file__).resolve().parent / "corpus"
VALID = sorted((CORPUS / "valid").glob("*.lcn"))
BOM = b"\xef\xbb\xbf"


# The fixture ``run`` (lcn in this process) is in conftest.py.


def where(item) -> Tuple[int, int]:
    return item.line, item.column


# ---------------------------------------------------------------- encodings and line ends

# A record with non-ASCII text (an accent, an emoji outside the BMP, a tab),
# trailing white space and one error of each family, written with LF.
RECORD = ('[Event "Caf\u00e9 \u2615"]\n'
          "\n"
          "1. R3-D {na\u00efve \U0001F600}\tR11-D  \n"
          "3. b4-d 4. G5-D\t \n"
          "5. R2-D")
# (code, line, column) of every finding of RECORD, counted by hand: the emoji
# is one column, and so is the tab.
RECORD_FINDINGS = [("N103", 3, 20), ("S102", 4, 4), ("R101", 5, 4), ("R110", 5, 8)]
RECORD_MOVES = [(3, 4), (4, 4), (4, 12), (5, 4)]


def spelt(text: str, newline: str, bom: bool) -> bytes:
    return (BOM if bom else b"") + text.replace("\n", newline).encode("utf-8")


LINE_ENDS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}
VARIANTS = [(name, bom) for name in LINE_ENDS for bom in (False, True)]


def variant_id(v) -> str:
    return f"{v[0]}{'+BOM' if v[1] else ''}"


def mixed(text: str) -> str:
    """``text`` with its line ends cycling through LF, CRLF and CR."""
    ends = iter(["\n", "\r\n", "\r"] * len(text))
    return re.sub("\n", lambda m: next(ends), text)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_every_line_end_and_bom_gives_the_same_positions_from_a_file(tmp_path, variant):
    name, bom = variant
    path = tmp_path / "r.lcn"
    path.write_bytes(spelt(RECORD, LINE_ENDS[name], bom))
    (game,) = read_games(path)
    assert [where(m.span) for m in game.moves] == RECORD_MOVES
    report = lint_file(str(path))
    assert [(d.code, d.line, d.column) for d in report.diagnostics] == RECORD_FINDINGS
    with open(path, "rb") as handle:
        (from_binary,) = read_games(handle)
    assert [m.span for m in from_binary.moves] == [m.span for m in game.moves]
    # Offsets count the characters of the decoded text (the BOM is not one).
    text = decode_source(path.read_bytes()).text
    assert [text[m.span.start:m.span.end] for m in game.moves] == ["R3-D", "b4-d", "G5-D",
                                                                  "R2-D"]


@pytest.mark.parametrize("newline", list(LINE_ENDS.values()) + ["mixed"],
                         ids=list(LINE_ENDS) + ["mixed"])
def test_every_line_end_gives_the_same_positions_from_a_string(newline):
    text = mixed(RECORD) if newline == "mixed" else RECORD.replace("\n", newline)
    game = parse_game(text)
    assert [where(m.span) for m in game.moves] == RECORD_MOVES
    assert [(e.code, e.line, e.column) for e in game.errors] == [RECORD_FINDINGS[0]]
    # The string's own offsets, whatever its line ends.
    assert [text[m.span.start:m.span.end] for m in game.moves] == ["R3-D", "b4-d", "G5-D",
                                                                  "R2-D"]
    assert [(d.code, d.line, d.column) for d in check(game).diagnostics] == [
        f for f in RECORD_FINDINGS if f[0] != "S102"]


def test_a_byte_order_mark_is_a_column_only_in_a_string():
    # Documented in spec/file-format.md section 1: files skip it, strings keep it.
    game = parse_game("\ufeffR3-D R11-D")
    assert where(game.moves[0].span) == (1, 2) and where(game.errors[0]) == (1, 8)
    (from_bytes,) = read_games(io.BytesIO(BOM + b"R3-D R11-D"))
    assert where(from_bytes.moves[0].span) == (1, 1) and where(from_bytes.errors[0]) == (1, 7)


@pytest.mark.parametrize("variant", VARIANTS + [("mixed", False), ("mixed", True)],
                         ids=variant_id)
def test_lcn_lint_reports_the_same_positions_for_every_line_end(run, tmp_path, variant):
    name, bom = variant
    data = (BOM if bom else b"") + (mixed(RECORD) if name == "mixed"
                                    else RECORD.replace("\n", LINE_ENDS[name])).encode()
    (tmp_path / "r.lcn").write_bytes(data)
    r = run("lint", "--ignore", "S107", "r.lcn")
    found = [tuple(line.split(" ")[:2]) for line in r.out.splitlines()[:-1]]
    assert found == [(f"r.lcn:{line}:{column}:", code) for code, line, column in
                     RECORD_FINDINGS]
    # A file of mixed line ends gets one finding more (S107), never one per line.
    mixes = [line for line in run("lint", "r.lcn").out.splitlines() if " S107 " in line]
    assert len(mixes) == (name == "mixed")
    assert r.status == 1


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_lcn_fmt_and_convert_keep_line_ends_and_bom(run, tmp_path, variant):
    name, bom = variant
    newline = LINE_ENDS[name]
    clean = RECORD.replace("R11-D", "R9-D")
    path = tmp_path / "r.lcn"
    path.write_bytes(spelt(clean, newline, bom))
    r = run("convert", "r.lcn", "--to", "lower", "--in-place")
    assert r == Ran(0, "", "")
    lower = clean
    for move in ("R3-D", "R9-D", "G5-D", "R2-D"):
        lower = lower.replace(move, move.lower())
    assert path.read_bytes() == spelt(lower, newline, bom)
    assert run("convert", "r.lcn", "--to", "v1").out.encode() == spelt(
        clean.replace("b4-d", "B4-D"), newline, bom)
    r = run("fmt", "r.lcn")
    assert (r.status, r.err) == (0, "reformatted r.lcn\n")
    canonical = format_games(parse_games(clean))
    assert path.read_bytes() == spelt(canonical, newline, bom)


def test_lcn_fmt_of_standard_input_keeps_line_ends_and_bom(run):
    messy = BOM + b"1.  r3-d\r\n2. G4-D\r\n"
    assert run("fmt", "-", stdin=messy).out.encode() == BOM + b"1. R3-D\r\n2. G4-D\r\n"
    # Standard output is written as UTF-8, not in the locale's encoding.
    assert run("fmt", "-", stdin="{\u00e9\u2615} R3-D".encode()).out == "{\u00e9\u2615}\n1. R3-D\n"


def test_lcn_fmt_of_a_file_of_mixed_line_ends(run, tmp_path):
    # Issue #11, defect 4: as lint --fix does (S107), the majority's line end.
    path = tmp_path / "m.lcn"
    path.write_bytes(b"1.  R3-D\r\n2. G4-D\r\n3. B4-D\n")
    assert run("fmt", "--check", "m.lcn") == Ran(1, "would reformat m.lcn\n", "")
    assert run("fmt", "m.lcn") == Ran(0, "", "reformatted m.lcn\n")
    assert path.read_bytes() == b"1. R3-D\r\n2. G4-D\r\n3. B4-D\r\n"


# Bytes that are not UTF-8 in the middle of a record: 0xff on line 2, after a
# CRLF, a BOM and a two-byte character.
NOT_UTF8 = BOM + b'[Event "\xc3\xa9"]\r\n1. R3-D \xff 2. R11-D\r\n3. G4-D\n'


def test_bytes_that_are_not_utf8_are_reported_and_the_rest_is_read(tmp_path):
    path = tmp_path / "bad.lcn"
    path.write_bytes(NOT_UTF8)
    offset = NOT_UTF8.index(b"\xff")
    (game,) = read_games(path)
    first = game.errors[0]
    assert (first.code, first.line, first.column) == ("N001", 2, 9)
    assert f"byte 0xff at byte offset {offset}" in first.message and first.path == str(path)
    # The rest is read, at the right places.
    assert [where(m.span) for m in game.moves] == [(2, 4), (3, 4)]
    assert [(e.code, e.line, e.column) for e in game.errors[1:]] == [("N101", 2, 9),
                                                                    ("N103", 2, 15)]


def test_lcn_commands_on_bytes_that_are_not_utf8(run, tmp_path):
    path = tmp_path / "bad.lcn"
    path.write_bytes(NOT_UTF8)
    offset = NOT_UTF8.index(b"\xff")
    r = run("lint", "bad.lcn")
    assert r.status == 1
    assert r.out.splitlines()[0] == (f"bad.lcn:2:9: N001 not UTF-8 text: byte 0xff at byte "
                                     f"offset {offset} cannot be decoded")
    assert "bad.lcn:2:15: N103" in r.out  # and the rest is still checked
    # Commands that would rewrite or convert the file cannot read it: exit 2,
    # one line naming the place, and the file untouched.
    message = (f"lcn: bad.lcn:2:9: cannot read: not UTF-8 text: byte 0xff at byte offset "
               f"{offset} cannot be decoded\n")
    for argv in (["fmt", "bad.lcn"], ["fmt", "--force", "bad.lcn"], ["score", "bad.lcn"],
                 ["convert", "bad.lcn", "--to", "lower", "--in-place"],
                 ["convert", "bad.lcn", "--to", "json"]):
        assert run(*argv) == Ran(2, "", message), argv
    assert run("lint", "--fix", "bad.lcn").status == 1
    assert path.read_bytes() == NOT_UTF8


def test_convert_of_a_bad_game_then_bytes_that_are_not_utf8(run, tmp_path):
    # Found by tests/test_fuzz.py: the streamed conversion stopped at the bad
    # first game, and listing every problem then met the undecodable byte.
    (tmp_path / "s.lcn").write_bytes(b"\x00\n[\n\xc2")
    assert run("convert", "s.lcn", "--to", "lower") == Ran(
        2, "", "lcn: s.lcn:3:1: cannot read: not UTF-8 text: byte 0xc2 at byte offset 4 "
        "cannot be decoded\n")


@pytest.mark.parametrize("data", [b"\xef", b"\xef\xbb", b"R3-D\n\xef\xbb"])
def test_convert_of_a_file_ending_in_part_of_a_bom(run, tmp_path, data):
    # Found by tests/test_fuzz.py: Python's utf-8-sig decoder drops these
    # bytes without a word, and the conversion printed nothing, exit 0.
    (tmp_path / "e.lcn").write_bytes(data)
    r = run("convert", "e.lcn", "--to", "v1")
    assert (r.status, r.out) == (2, "") and "not UTF-8 text: byte 0xef" in r.err


def test_nul_bytes_and_control_characters(run, tmp_path):
    game = parse_game("R3-D \x00 G4-D\x00B5-D")
    assert [(e.code, e.line, e.column) for e in game.errors] == [("N101", 1, 6),
                                                                ("N107", 1, 12)]
    assert [where(m.span) for m in game.moves] == [(1, 1), (1, 8), (1, 13)]
    # The command line shows control characters as escapes: one line per
    # finding, nothing for the terminal to obey.
    (tmp_path / "c.lcn").write_bytes(b"R3-D \x00 G4-D \x1b[2J\n")
    r = run("lint", "c.lcn")
    lines = r.out.splitlines()
    assert lines[0] == ("c.lcn:1:6: N101 unexpected '\\x00': expected a move (such as "
                        "'R3-D'), a move number or a comment")
    assert any(line.startswith("c.lcn:1:13: N101 unexpected '\\x1b[2J'") for line in lines)
    assert "\x00" not in r.out and "\x1b" not in r.out
    r = run("lint", "--format", "github", "c.lcn")
    assert "\x00" not in r.out and "\x1b" not in r.out and "\\x00" in r.out


def test_columns_count_characters_not_bytes_nor_utf16_units():
    text = "{\U0001F600\u00e9\u0301} R3-D R11-D"
    game = parse_game(text)
    # The emoji (4 bytes, 2 UTF-16 units), e and a combining accent: 4 characters.
    assert where(game.moves[0].span) == (1, 7) and where(game.errors[0]) == (1, 13)
    (from_file,) = read_games(io.BytesIO(text.encode()))
    assert where(from_file.moves[0].span) == (1, 7) and where(from_file.errors[0]) == (1, 13)


def test_no_final_newline_and_trailing_white_space():
    for text in ("R3-D G4-D", "R3-D G4-D \t ", "R3-D\nG4-D", "R3-D\r\nG4-D\r\n\t\r\n"):
        game = parse_game(text)
        assert not game.errors and len(game.moves) == 2, repr(text)
    (game,) = read_games(io.BytesIO(b"R3-D\r\nG4"))
    assert [(e.code, e.line, e.column) for e in game.errors] == [("N104", 2, 3)]


# ---------------------------------------------------------------- regressions found here


def test_a_brace_never_closed_before_a_header_line_is_n110_in_parse_game():
    # The comment cannot run across the header line, so it is never closed,
    # even though a '}' follows later.
    game = parse_game('R3-D {a note\n[Event "x"]\n} G4-D')
    assert [(e.code, e.line, e.column) for e in game.errors][0] == ("N110", 1, 6)
    game = parse_game("R3-D {open\r\nG4-D")
    assert (game.errors[0].code, game.errors[0].span.end_column) == ("N110", 11)


@given(st.lists(st.sampled_from(PIECES + ["{", "}", "\n[", "\n ["]), max_size=20).map("".join))
@examples(200)
def test_the_brace_comment_of_messages_is_the_grammar_terminal(text):
    grammar = next(t for t in parser().lark.terminals if t.name == "BRACE_COMMENT")
    terminal = re.compile(grammar.pattern.to_regexp())
    for start in [i for i, c in enumerate(text) if c == "{"]:
        ours, theirs = messages._BRACE_COMMENT.match(text, start), terminal.match(text, start)
        assert (ours and ours.end()) == (theirs and theirs.end())


def test_a_json_string_holding_half_a_surrogate_pair_is_refused(run, tmp_path):
    document = ('{"format": "lcnotation", "version": 1, "games": [{"comments": '
                '[{"kind": "brace", "text": "a\\ud800"}], "headers": [], "moves": []}]}')
    with pytest.raises(ConversionError) as caught:
        from_json(document)
    (err,) = caught.value.errors
    assert (err.code, err.line, err.column) == ("J105", 1, 90)
    assert "\\ud800" in err.message and "surrogate" in err.message
    for target in ("v1", "json"):
        with pytest.raises(ConversionError):
            convert_text(document, to=target)
    (tmp_path / "s.json").write_text(document)
    r = run("convert", "s.json", "--to", "json")
    assert (r.status, r.out) == (1, "") and "s.json:1:90: J105" in r.err


def test_lint_fix_refuses_a_file_with_syntax_errors_unless_forced(run, tmp_path):
    # The reader lost its way at the '{' never closed: "r4-d" is the author's
    # prose, which a fix would rewrite.
    path = tmp_path / "f.lcn"
    text = b"1. R3-D {why not play\nr4-d here? 2. g4-d\n"
    path.write_bytes(text)
    r = run("lint", "--fix", "f.lcn")
    assert r.status == 1 and path.read_bytes() == text
    assert r.err == ("lcn: f.lcn:1:9: not fixed: 2 syntax errors (first: comment '{' is "
                     "never closed: expected '}'); fix them or use --force\n")
    r = run("lint", "--fix", "--force", "f.lcn")
    assert path.read_bytes() == b"1. R3-D {why not play\nR4-D here? 2. G4-D\n"


@pytest.fixture
def odd_names(tmp_path):
    """Two files whose names are not UTF-8 (skipped where names must be)."""
    names = [b"caf\xe9.lcn", b"x\xff.lcn"]
    try:
        for name in names:
            with open(os.path.join(os.fsencode(tmp_path), name), "wb") as handle:
                handle.write(b"r3-d\n")
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 names")
    return [os.fsdecode(n) for n in names]


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_file_names_that_are_not_utf8(run, odd_names, monkeypatch, fmt):
    # Even on a strict UTF-8 standard output (the default outside the C locale).
    strict = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdout", strict)
    status = main(["lint", ".", "--format", fmt])
    strict.seek(0)
    out = strict.buffer.read().decode("utf-8")  # always valid UTF-8
    assert status == 0
    if fmt == "json":
        assert sorted(d["path"] for d in json.loads(out)) == sorted(
            list(odd_names) * 2)
    elif fmt == "sarif":
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in json.loads(out)["runs"][0]["results"]}
        assert uris == {"caf%E9.lcn", "x%FF.lcn"}
    else:
        assert "caf\\udce9.lcn" in out and "x\\udcff.lcn" in out
    assert strict.errors == "strict"  # put back as it was


def test_fmt_and_score_on_file_names_that_are_not_utf8(run, odd_names):
    r = run("fmt", ".")
    assert r.status == 0 and r.err.count("reformatted") == 2
    assert run("score", "--format", "json", ".").status == 0


def test_a_folder_that_cannot_be_listed_is_reported(run, tmp_path, monkeypatch):
    (tmp_path / "open").mkdir()
    (tmp_path / "open" / "a.lcn").write_text("R3-D\n")
    (tmp_path / "locked").mkdir()
    real = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    r = run("lint", ".")
    assert r.status == 2 and "lcn: locked: cannot read" in r.err
    assert "1 file, 1 game" in r.out


# ---------------------------------------------------------------- sizes


@contextlib.contextmanager
def shallow_stack(frames: int = 120) -> Iterator[None]:
    """Allow only ``frames`` more frames: deep recursion fails loudly."""
    depth = len(inspect.stack(0))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


MOVES = ["R3-D", "G4-D", "B5-D", "W6-R", "Y7-D"]


def test_a_game_of_20000_moves():
    n = 20_000
    text = "\n".join(f"{i + 1}. {MOVES[i % 5]}" for i in range(n)) + "\n"
    with shallow_stack():
        (game,) = read_games(io.BytesIO(text.encode()))
        report = check(game)
    assert len(game.moves) == n and not game.errors
    last = game.moves[-1]
    assert (last.turn, last.number, where(last.span)) == (n - 1, n, (n, len(str(n)) + 3))
    # The draw pile runs out: one R109 that counts the moves after the end.
    (r109,) = [d for d in report.diagnostics if d.code == "R109"]
    assert r109.message.endswith(f"({n - r109.turn - 1} more moves follow)")


def test_a_line_of_20000_moves_and_errors():
    n = 20_000
    text = " ".join(MOVES[i % 5] if i % 100 else "R11-D" for i in range(n))
    with shallow_stack():
        game = parse_game(text)
    assert len(game.moves) == n - n // 100 and len(game.errors) == n // 100
    assert game.errors[-1].column == text.rindex("R11-D") + 2
    assert game.moves[-1].turn == n - 1


def test_2000_games_in_one_file():
    n = 2_000
    text = "".join(f'[Round "{i}"]\n\n1. R3-D 2. G4-D\n\n' for i in range(n))
    with shallow_stack():
        games = list(read_games(io.BytesIO(text.encode())))
    assert len(games) == n
    assert [g.header("Round") for g in games] == [str(i) for i in range(n)]
    assert [g.moves[1].span.line for g in games[-2:]] == [4 * n - 5, 4 * n - 1]


def test_15000_comments_in_a_row():
    n = 15_000
    text = "R3-D " + "{c}" * n + " ;end\nG4-D" + "{d}" * n
    with shallow_stack():
        game = parse_game(text)
        report = lint_text(text)
        json_text = convert_text(text, to="json")
        back = convert_text(json_text, to="v1")
    assert not game.errors and [len(m.comments) for m in game.moves] == [n + 1, n]
    assert game.moves[1].comments[-1].span.end_column == 5 + 3 * n
    assert [d.code for d in report.diagnostics] == ["R110"]
    assert list(parse_games(back)) == [game]


def test_a_header_value_of_half_a_megabyte():
    value = "x\\\"y " * 100_000
    text = f'[Event "{value}"]\n[Deck "{"R3 " * 20_000}"]\nR3-D\n'
    with shallow_stack():
        (game,) = read_games(io.BytesIO(text.encode()))
        report = check(game)
    assert game.header("Event") == value.replace('\\"', '"') and not game.errors
    assert {d.code for d in report.diagnostics} >= {"R201"}
    assert format_games([game]).startswith(f'[Event "{value}"]\n')


@pytest.mark.parametrize("shape", ["header", "comment"])
def test_a_long_header_value_or_comment_takes_little_memory(shape):
    body = "x" * 500_000
    text = f'[Event "{body}"]\nR3-D\n' if shape == "header" else f"R3-D {{{body}}}\n"
    tracemalloc.start()
    try:
        (game,) = read_games(io.BytesIO(text.encode()))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not game.errors
    assert peak < 20 * len(body)  # the text, its copies, a few times over


def test_many_lines_that_open_a_comment_never_closed():
    # Each '{' is known unclosed without reading to the end (the lexer reads
    # a masked copy of the text): bench/scaling.py "open {" shows the time.
    with shallow_stack():
        game = parse_game("{\n" * 20_000 + "R3-D ; {a\n" + '[Event "{b"]\n')
    assert [(e.code, e.line) for e in game.errors[:2]] == [("N110", 1), ("N110", 2)]
    assert len(game.errors) == 20_001 and game.errors[-1].code == "N109"
    assert game.moves[0].comments[0].text == " {a"
    # A '}' after a header line closes none of them: each stops at that line.
    with shallow_stack():
        game = parse_game("{\n" * 20_000 + '[Event "x"]\n} R3-D\n')
    assert [e.code for e in game.errors[:3]] == ["N110"] * 3
    assert len([e for e in game.errors if e.code == "N110"]) == 20_000


@given(st.text(st.sampled_from("{}[]\";\n R3-D Event\x00x"), max_size=60))
def test_the_mask_of_unclosable_braces_changes_no_result(text):
    def read(mask):
        saved = parser_module._mask_unclosable_braces
        parser_module._mask_unclosable_braces = mask
        try:
            game = read_game(text, fast=False)
            try:
                move = parse_move(text)
            except NotationError as err:
                move = (err.code, str(err), err.span)
        finally:
            parser_module._mask_unclosable_braces = saved
        spans = [n.span for n in (*game.headers, *game.moves, *game.comments)]
        spans += [c.span for m in game.moves for c in m.comments]
        return game, spans, [(e.code, e.message, e.span) for e in game.errors], move

    assert read(parser_module._mask_unclosable_braces) == read(lambda t: t)


def test_a_line_of_200000_brackets_and_of_junk():
    with shallow_stack():
        (game,) = read_games(io.BytesIO(b"[" * 200_000 + b"\nR3-D\n"))
        assert [(e.code, e.line, e.column) for e in game.errors] == [("N108", 1, 1)]
        assert where(game.moves[0].span) == (2, 1)
        game = parse_game("}" * 10_000 + " R3-D")
        assert len(game.errors) == 10_000 and len(game.moves) == 1
        game = parse_game("R3-D!" * 5_000)
        assert len(game.moves) == 5_000 and {e.code for e in game.errors} == {"N107"}


def test_json_nested_deeply_is_refused_not_a_crash():
    for document in ("[" * 100_000, '{"games": ' + "[" * 100_000 + "]" * 100_000 + "}"):
        with pytest.raises(ConversionError) as caught:
            from_json(document)
        assert caught.value.errors[0].code == "J101"


# ---------------------------------------------------------------- no data lost


def canonical_as_the_file(path: Path) -> bytes:
    """The canonical text of a corpus record, with the record's line ends and BOM,
    its moves in the record's own dialect (the one lint expects, issue #11)."""
    source = decode_source(path.read_bytes())
    canonical = path.with_suffix(".canonical").read_text("utf-8")
    if first_discard_marker_of(source.text) == "X":
        canonical = re.sub(r"(?<=[0-9H])D-", "X-", canonical)
    return source.encode(canonical)


def first_discard_marker_of(text: str):
    for game in parse_games(text):
        marker = first_discard_marker(game, text)
        if marker is not None:
            return marker
    return None


def with_past_mtime(path: Path) -> int:
    stamp = path.stat().st_mtime_ns - 10**9
    os.utime(path, ns=(stamp, stamp))
    return stamp


CANONICAL = [p for p in VALID if p.with_suffix(".canonical").exists()]


def test_fmt_leaves_canonical_files_byte_for_byte(run, tmp_path):
    for source in CANONICAL:
        path = tmp_path / source.name
        path.write_bytes(canonical_as_the_file(source))
    stamps = {p: with_past_mtime(p) for p in tmp_path.glob("*.lcn")}
    r = run("fmt", ".")
    assert (r.status, r.out) == (0, "")
    for path, stamp in stamps.items():
        assert path.stat().st_mtime_ns == stamp, path.name  # not even rewritten
    r = run("fmt", "--check", ".")
    assert (r.status, r.out, r.err) == (0, "", f"fmt: 0 files would change, {len(stamps)} "
                                        "files unchanged\n")


def test_fmt_of_the_corpus_gives_the_canonical_text_in_the_files_own_line_ends(run, tmp_path):
    for source in CANONICAL:
        (tmp_path / source.name).write_bytes(source.read_bytes())
    assert run("fmt", ".").status == 0
    for source in CANONICAL:
        assert (tmp_path / source.name).read_bytes() == canonical_as_the_file(source)


@pytest.mark.parametrize("source", VALID, ids=lambda p: p.stem)
def test_convert_to_the_same_dialect_and_back_is_byte_for_byte(run, tmp_path, source):
    data = source.read_bytes()
    path = tmp_path / "r.lcn"
    path.write_bytes(data)
    stamp = with_past_mtime(path)
    dialect = detect_dialect(decode_source(data).text).dialect
    if dialect in ("v1", "x-discard", "lower"):
        assert run("convert", "r.lcn", "--to", dialect, "--in-place") == Ran(0, "", "")
        assert path.read_bytes() == data and path.stat().st_mtime_ns == stamp
        other = "lower" if dialect != "lower" else "v1"
        assert run("convert", "r.lcn", "--to", other, "--in-place").status == 0
        assert run("convert", "r.lcn", "--to", dialect, "--in-place").status == 0
        assert path.read_bytes() == data
    # Through the JSON form and back: the same games.
    assert run("convert", "r.lcn", "--to", "json", "-o", "r.json").status == 0
    back = run("convert", "r.json", "--to", "v1")
    assert back.status == 0
    assert list(read_games(io.BytesIO(back.out.encode()))) == list(read_games(source))


def test_lint_fix_leaves_clean_files_byte_for_byte(run, tmp_path):
    for source in VALID:
        (tmp_path / source.name).write_bytes(source.read_bytes())
    stamps = {p: with_past_mtime(p) for p in tmp_path.glob("*.lcn")}
    r = run("lint", "--fix", ".")
    fixed = {line.split(": ")[1] for line in r.err.splitlines()}
    assert r.err == "".join(f"lcn: {name}: applied {n} fix{'es' if n != 1 else ''}\n"
                            for name, n in re.findall(r"lcn: (\S+): applied (\d+)", r.err)
                            for n in [int(n)])
    for path, stamp in stamps.items():
        name = path.name
        if name in fixed:
            # Fixed: the same games, and the file's line ends and BOM.
            assert list(read_games(path)) == list(read_games(CORPUS / "valid" / path.name))
            before = decode_source((CORPUS / "valid" / path.name).read_bytes())
            after = decode_source(path.read_bytes())
            assert (after.newline, after.bom) == (before.newline, before.bom)
        else:
            assert path.read_bytes() == (CORPUS / "valid" / path.name).read_bytes()
            assert path.stat().st_mtime_ns == stamp, path.name


@pytest.mark.parametrize("argv", [["fmt", "e.lcn"], ["convert", "e.lcn", "--to", "lower",
                                                      "--in-place"],
                                  ["lint", "--fix", "e.lcn"]], ids=["fmt", "convert", "fix"])
def test_no_command_rewrites_a_file_with_syntax_errors(run, tmp_path, argv):
    data = b"\xef\xbb\xbf1. r3-d 2. R11-D {open\r\n3. g4-d\r\n"
    path = tmp_path / "e.lcn"
    path.write_bytes(data)
    r = run(*argv)
    assert r.status == 1 and path.read_bytes() == data
    assert "e.lcn:1:" in r.err and list(tmp_path.iterdir()) == [path]


def failing(exc: BaseException):
    def fail(*args, **kwargs):
        raise exc
    return fail


WRITES = [["fmt", "w.lcn"], ["convert", "w.lcn", "--to", "lower", "--in-place"],
          ["lint", "--fix", "w.lcn"]]


@pytest.mark.parametrize("argv", WRITES, ids=["fmt", "convert", "fix"])
@pytest.mark.parametrize("broken", ["replace", "fsync", "write"])
def test_a_failure_while_writing_leaves_the_original_intact(run, tmp_path, monkeypatch,
                                                            argv, broken):
    data = b"1.  r3-d\r\n2. G4-D\r\n"
    path = tmp_path / "w.lcn"
    path.write_bytes(data)
    full = OSError(28, "No space left on device")
    if broken == "replace":
        monkeypatch.setattr(os, "replace", failing(full))
    elif broken == "fsync":
        monkeypatch.setattr(os, "fsync", failing(full))
    else:
        real_fdopen = os.fdopen

        class Full:
            """A file that takes nothing: the disk is full."""

            def __init__(self, handle):
                self.handle = handle

            def write(self, data):
                raise full

            def __getattr__(self, name):
                return getattr(self.handle, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.handle.close()

        def fdopen(fd, mode="r", *args, **kwargs):
            handle = real_fdopen(fd, mode, *args, **kwargs)
            return Full(handle) if "w" in mode else handle

        monkeypatch.setattr(os, "fdopen", fdopen)
    r = run(*argv)
    assert r.status == 2 and "w.lcn: cannot write: No space left on device" in r.err
    assert path.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["w.lcn"]  # no temporary file left


def test_an_interruption_while_writing_leaves_the_original_intact(run, tmp_path,
                                                                  monkeypatch):
    data = b"1.  r3-d\n"
    path = tmp_path / "w.lcn"
    path.write_bytes(data)
    monkeypatch.setattr(os, "replace", failing(KeyboardInterrupt()))
    assert run("fmt", "w.lcn") == Ran(130, "", "lcn: interrupted\n")
    assert path.read_bytes() == data and [p.name for p in tmp_path.iterdir()] == ["w.lcn"]


def test_writes_keep_the_mode_and_follow_symbolic_links(run, tmp_path):
    target = tmp_path / "real.lcn"
    target.write_bytes(b"1.  R3-D\n")
    target.chmod(0o640)
    try:
        (tmp_path / "link.lcn").symlink_to("real.lcn")
    except OSError:
        pytest.skip("no symbolic links here")
    assert run("fmt", "link.lcn").status == 0
    assert (tmp_path / "link.lcn").is_symlink()
    assert target.read_bytes() == b"1. R3-D\n" and target.stat().st_mode & 0o777 == 0o640


def test_a_file_we_may_not_write_is_refused(run, tmp_path, monkeypatch):
    # os.access stands in for a read-only file (tests may run as root).
    path = tmp_path / "ro.lcn"
    path.write_bytes(b"1.  R3-D\n")
    monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK)
    r = run("fmt", "ro.lcn")
    assert r.status == 2 and "ro.lcn: cannot write: Permission denied" in r.err
    assert path.read_bytes() == b"1.  R3-D\n"


def test_output_to_a_device_is_written_not_replaced(run, tmp_path):
    (tmp_path / "a.lcn").write_bytes(b"R3-D\n")
    assert run("convert", "a.lcn", "--to", "lower", "-o", os.devnull) == Ran(0, "", "")
    assert not Path(os.devnull).is_file()
    # A refused conversion writes nothing there either.
    (tmp_path / "k.lcn").write_bytes(b"P3-D\n")
    assert run("convert", "k.lcn", "--to", "v1-draft", "-o", os.devnull).status == 1


def test_atomic_writer_leaves_nothing_behind_on_any_exception(tmp_path):
    path = tmp_path / "f.lcn"
    path.write_bytes(b"old")
    for exc in (ValueError("bad"), KeyboardInterrupt()):
        with pytest.raises(type(exc)):
            with files.atomic_writer(str(path)) as handle:
                handle.write(b"new, half")
                raise exc
        assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["f.lcn"]
    with files.atomic_writer(str(tmp_path / "new.lcn")) as handle:
        handle.write(b"R3-D\n")
    assert (tmp_path / "new.lcn").read_bytes() == b"R3-D\n"



# ---------------------------------------------------------------- the guarantees page


def test_every_test_named_in_spec_guarantees_exists():
    page = (Path(__file__).resolve().parent.parent / "spec" / "guarantees.md").read_text()
    here = Path(__file__).resolve().parent
    defined = {name: {m for m in re.findall(r"^def (test_\w+)", (here / name).read_text(),
                                            re.M)}
               for name in sorted(p.name for p in here.glob("test_*.py"))}
    named = re.findall(r"`(?:(test_\w+\.py)::)?(test_\w+)\b(?!\.)", page)
    assert len(named) > 30
    for module, test in named:
        where = [module] if module else list(defined)
        assert any(test in defined[m] for m in where), f"{test} is not a test of {where}"
