"""Fuzzing: whatever the input, the library raises nothing but NotationError
and the command line never prints a traceback.

Inputs are arbitrary text and bytes, and (to get past the first character
more often) bytes built from pieces of the notation, and real records
mutated: records of tests/corpus and generated games, cut short, with bytes
deleted, repeated or inserted (NUL, a byte-order mark, a lone CR, bytes that
are not UTF-8), their line ends changed.  JSON documents of real records are
mutated as well, by value.

Each property runs few examples by default, to keep the suite fast; set
``LCN_FUZZ_SCALE`` (a whole number) to run that many times more, e.g.
``LCN_FUZZ_SCALE=200 python -m pytest tests/test_fuzz.py``.  For runs of
hours there is the atheris harness in ``fuzz/``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lcnotation.lostcities.text.ast import Game
from lcnotation.lostcities.game.checker import check, score
from lcnotation.lostcities.convert import convert_lines, convert_text, detect_dialect, dialect_names
from lcnotation.core.diagnostics import NotationError
from lcnotation.core.files import decode_source
from lcnotation.lostcities.text.formatter import format_game, format_games
from lcnotation.lostcities.game.generator import generate_game, generate_match
from lcnotation.lostcities.jsonform import from_json, to_json
from lcnotation.tools.lint import fix_text, lint_text
from lcnotation.lostcities.text.reader import parse_game, parse_games, parse_move, read_games
from strategies import PIECES


def _load_fuzz_targets():
    spec = importlib.util.spec_from_file_location(
        "lcn_fuzz_targets", Path(__file__).resolve().parent.parent / "fuzz" / "targets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: fuzz/targets.py, what the atheris harness runs.
FUZZ_TARGETS = _load_fuzz_targets()

SCALE = int(os.environ.get("LCN_FUZZ_SCALE", "1"))
CORPUS = Path(__file__).resolve().parent / "corpus"


def fuzz(n: int) -> settings:
    """``n`` examples (times LCN_FUZZ_SCALE), no deadline: inputs vary in size."""
    return settings(max_examples=n * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------- inputs

RECORDS: List[bytes] = sorted(p.read_bytes() for p in CORPUS.glob("*/*.lcn"))
RECORDS += [format_game(generate_game(seed, deal=bool(seed % 2), turns=30)).encode()
            for seed in range(4)]
RECORDS.append(format_games(generate_match(3, rounds=2, turns=12)).encode())

VALID = [r for r in RECORDS
         if not any(g.errors for g in read_games(io.BytesIO(r)))]
DOCUMENTS = [to_json(read_games(io.BytesIO(r))) for r in VALID]

# Pieces of notation as bytes, and bytes that notation never holds.
BYTE_PIECES = [p.encode() for p in PIECES] + [
    b"\x00", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf0\x9f\x98\x80",
    b"\r", b"\r\n", b"\n", b"\t", b"\x0b", b"\x0c", b"\x1b[2J", b"\xc2\x85", b"\xe2\x80\xa8",
    b'[Colors "RGWBYK"]\n', b'[Hand1 "R3 BH W10 G2 Y4 B5 R6 K7"]\n', b'[Deck "R2 R2"]\n',
    b'[Result "87-42"]\n', b'[Player1 "\xc3\xa9"]\n', b"lcn: ignore[R101]", b"; lcn: ignore\n",
]

notation_bytes = st.lists(st.sampled_from(BYTE_PIECES), max_size=40).map(b"".join)


@st.composite
def mutated_records(draw) -> bytes:
    """A real record, damaged a few times over."""
    data = bytearray(draw(st.sampled_from(RECORDS)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["cut", "delete", "insert", "repeat", "byte", "ends"]))
        if kind == "cut":
            del data[at:]
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 12))]
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(BYTE_PIECES))
        elif kind == "repeat":
            data[at:at] = data[at:at + draw(st.integers(1, 40))] * draw(st.integers(1, 4))
        elif kind == "byte":
            data[at:at] = bytes([draw(st.integers(0, 255))])
        else:
            newline = draw(st.sampled_from([b"\r\n", b"\r", b"\n"]))
            data = bytearray(bytes(data).replace(b"\r\n", b"\n").replace(b"\n", newline))
    return bytes(data)


any_bytes = st.one_of(st.binary(max_size=200), notation_bytes, mutated_records())
any_text = st.one_of(st.text(max_size=200), any_bytes.map(
    lambda b: b.decode("utf-8", "replace")))

# Values a JSON document may hold in the wrong place.
ODD_VALUES = [None, True, False, 0, -1, 2.0, 1e308, 11, "", "R3-D", "r3-d", "RH-D", "D", "X",
              "H", "brace", "line", "}", "a\nb", "\ud800", "\u0000", [], {}, [[]], {"": 1},
              "lcnotation", 1, "Colors", 2 ** 70]


@st.composite
def mutated_documents(draw) -> str:
    """A JSON form document of a real record, with values swapped, keys added
    or dropped, or its text cut short."""
    data = json.loads(draw(st.sampled_from(DOCUMENTS)))
    holders = []

    def walk(value):
        if isinstance(value, (dict, list)):
            holders.append(value)
            for item in (value.values() if isinstance(value, dict) else value):
                walk(item)

    walk(data)
    for _ in range(draw(st.integers(1, 4))):
        holder = draw(st.sampled_from(holders))
        odd = draw(st.sampled_from(ODD_VALUES))
        if isinstance(holder, dict):
            keys = list(holder) + ["extra", "text", "kind", "rank", "draw", "comments"]
            key = draw(st.sampled_from(keys))
            if draw(st.booleans()) and key in holder:
                del holder[key]
            else:
                holder[key] = odd
        elif holder and draw(st.booleans()):
            holder[draw(st.integers(0, len(holder) - 1))] = odd
        else:
            holder.append(odd)
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        text = text[:draw(st.integers(0, len(text)))]
    return text


# ---------------------------------------------------------------- the library


def only_notation_errors(call, *args, **kwargs):
    """``call(...)``, with NotationError (and subclasses) as a normal outcome."""
    try:
        return call(*args, **kwargs)
    except NotationError:
        return None


def assert_positions_inside(text: str, diagnostics) -> None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for d in diagnostics:
        span = d.span
        assert 1 <= span.line <= span.end_line <= len(lines), d
        assert 1 <= span.column and span.end_column <= len(lines[span.end_line - 1]) + 1, d
        assert span.start <= span.end <= len(text), d


def described(errors) -> list:
    return [(e.code, e.message, e.span) for e in errors]


def exercise_text(text: str) -> None:
    """Every entry point that takes text."""
    game = parse_game(text)
    assert_positions_inside(text, game.errors)
    only_notation_errors(parse_game, text, strict=True)
    games = list(parse_games(text))
    only_notation_errors(lambda: list(parse_games(text, strict=True)))
    for g in games[:4]:
        report = check(g)
        assert_positions_inside(text, report.diagnostics)
        score(g)
    report = lint_text(text)
    assert_positions_inside(text, report.diagnostics)
    fix_text(text)
    detect_dialect(text)
    list(read_games(io.StringIO(text)))
    for dialect in dialect_names():
        only_notation_errors(convert_text, text, to=dialect)
        only_notation_errors(convert_text, text, to="v1", source=dialect)
        only_notation_errors(lambda: list(convert_lines(io.StringIO(text, newline=""),
                                                        to=dialect)))
    only_notation_errors(from_json, text)
    only_notation_errors(parse_move, text)


@given(any_text)
@fuzz(60)
def test_the_library_raises_only_notation_errors_on_any_text(text):
    exercise_text(text)


@given(any_bytes)
@fuzz(60)
def test_reading_any_bytes_raises_only_notation_errors(data):
    games = list(read_games(io.BytesIO(data)))
    with contextlib.suppress(NotationError):
        list(read_games(io.BytesIO(data), strict=True))
    try:
        source = decode_source(data)
    except NotationError as err:
        # Not UTF-8: a lax read reports it, with the same position.
        assert err.code == "N001"
        first = [e for g in games for e in g.errors if e.code == "N001"][0]
        assert (first.line, first.column, first.message) == (err.line, err.column, err.message)
        return
    # UTF-8: a file reads as its decoded text does.
    assert [described(g.errors) for g in games] == [described(g.errors)
                                                     for g in parse_games(source.text)]
    assert games == list(parse_games(source.text))
    exercise_text(source.text)


@given(mutated_records())
@fuzz(40)
def test_reading_a_damaged_file_from_a_path(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "r.lcn"
    path.write_bytes(data)
    by_path = list(read_games(path))
    with open(path, "rb") as handle:
        assert list(read_games(handle)) == by_path
    for game in by_path:
        check(game)
        assert all(e.path == str(path) for e in game.errors)
    with contextlib.suppress(NotationError):
        list(read_games(path, strict=True))


@given(mutated_documents())
@fuzz(60)
def test_a_damaged_json_document_raises_only_notation_errors(text):
    games = only_notation_errors(from_json, text)
    for dialect in dialect_names():
        out = only_notation_errors(convert_text, text, to=dialect)
        if out is not None:
            out.encode("utf-8")  # whatever is accepted can be written
    if games is not None:
        # A document accepted is one that a file can hold (a lone empty game
        # is an empty file, which holds no game).
        assert list(parse_games(format_games(games))) == ([] if games == [Game()] else games)


def test_a_text_file_that_cannot_decode_its_bytes():
    handle = io.TextIOWrapper(io.BytesIO(b"R3-D\nG4-D \xff\n"), encoding="utf-8")
    with pytest.raises(NotationError) as caught:
        list(read_games(handle))
    assert caught.value.code == "N001" and "0xff" in caught.value.message


# ---------------------------------------------------------------- the command line


# lcn in this process, on strict UTF-8 streams: the runner of the atheris
# targets (fuzz/targets.py), which checks the exit status and that no
# traceback is printed.
lcn = FUZZ_TARGETS.run_lcn


def utf8(data: bytes) -> Optional[str]:
    try:
        return decode_source(data).text
    except NotationError:
        return None


@given(any_bytes, st.sampled_from(dialect_names()))
@fuzz(40)
def test_the_command_line_on_any_bytes(tmp_path_factory, data, dialect):
    folder = tmp_path_factory.mktemp("cli")
    path = folder / "r.lcn"
    path.write_bytes(data)
    text = utf8(data)
    status, out, err = lcn("lint", "--no-progress", str(path))
    # Bytes that are not UTF-8 are an error (N001), unless a comment on
    # their line silences it (lcn: ignore).
    assert status == 1 if text is None and b"lcn:" not in data else status in (0, 1)
    linted = status
    for fmt in ("json", "sarif"):
        json.loads(lcn("lint", "--format", fmt, str(path))[1])
    assert lcn("lint", "-", stdin=data)[0] == status
    status, out, err = lcn("score", "--allow-errors", "--format", "json", str(path))
    assert status == (2 if text is None else 0)
    status, out, err = lcn("convert", str(path), "--to", dialect)
    if text is None:
        assert (status, out) == (2, b"") and "byte offset" in err
    elif status == 1:
        assert out == b"" and "not converted" in err
    # Rewriting commands: the file is either left alone or still says the same.
    before = list(read_games(path)) if text is not None else None
    for argv in (["fmt", str(path)], ["lint", "--fix", str(path)],
                 ["convert", str(path), "--to", "lower", "--in-place"]):
        status, out, err = lcn(*argv)
        if text is None:
            assert status == (linted if argv[0] == "lint" else 2) and path.read_bytes() == data
        elif path.read_bytes() != data:
            # Written only when the file had no syntax errors; what it says is kept.
            assert status in (0, 1) and not any(g.errors for g in before)
            assert list(read_games(path)) == before
        data = path.read_bytes()
        before = list(read_games(path)) if text is not None else None


@given(mutated_documents())
@fuzz(25)
def test_the_command_line_on_damaged_json(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("json") / "d.json"
    path.write_text(text, "utf-8", errors="surrogatepass")
    for target in ("v1", "json"):
        status, out, err = lcn("convert", str(path), "--to", target, "--from", "json")
        if status == 0:
            out.decode("utf-8")
        else:
            assert out == b"" and err


def test_the_real_command_on_hostile_files(tmp_path):
    """A few runs of the installed command (a real process, real streams)."""
    files = {
        "junk.lcn": bytes(range(256)) * 4,
        "nul.lcn": b"R3-D\x00G4-D\n" * 50,
        "half.lcn": RECORDS[0][: len(RECORDS[0]) // 2] + b"\xe2\x82",
        "brackets.lcn": b"[" * 100_000,
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    runs = {
        "lint": [sys.executable, "-m", "lcnotation", "lint", "--format", "sarif", "."],
        "fmt": [sys.executable, "-m", "lcnotation", "fmt", "--check", "."],
        "convert": [sys.executable, "-m", "lcnotation", "convert", "junk.lcn", "--to", "json"],
        "score": [sys.executable, "-m", "lcnotation", "score", "nul.lcn", "half.lcn"],
    }
    procs = {k: subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE) for k, argv in runs.items()}
    results = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=120)
        results[name] = proc.returncode, out, err
    for name, (status, out, err) in results.items():
        assert b"Traceback" not in err, (name, err)
    assert results["lint"][0] == 1 and json.loads(results["lint"][1])["runs"][0]["results"]
    # fmt: junk and half are not UTF-8 (2), nul and brackets have syntax errors.
    assert results["fmt"][0] == 2 and results["fmt"][2].count(b"cannot read") == 2
    assert (results["convert"][0], results["convert"][1]) == (2, b"")
    assert b"byte 0x80 at byte offset 128" in results["convert"][2]
    assert results["score"][0] == 2 and b"half.lcn" in results["score"][2]
    for name, data in files.items():
        assert (tmp_path / name).read_bytes() == data


# ---------------------------------------------------------------- the atheris targets


@given(st.binary(min_size=2, max_size=120))
@fuzz(15)
def test_numbers_of_any_length(data):
    """Huge numbers in a Result, a move number, a Round and a JSON document
    (fuzz/targets.py numbers_target; issue 17)."""
    FUZZ_TARGETS.numbers_target(data)


@given(st.binary(min_size=1, max_size=120))
@fuzz(20)
def test_hostile_file_names_and_header_values(data):
    """File names and header values of control characters, line breaks and
    bytes that are not UTF-8 reach no output raw (fuzz/targets.py names_target)."""
    FUZZ_TARGETS.names_target(data)


@pytest.mark.parametrize("name", ["read", "convert", "cli"])
def test_the_atheris_targets_run_on_the_corpus(name):
    """fuzz/targets.py (what fuzz/fuzz.py runs) works, and the corpus passes it."""
    target = FUZZ_TARGETS.TARGETS[name]
    for record in RECORDS[:: 1 if name != "cli" else 4]:
        target(record)
    target(b"")
