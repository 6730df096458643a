"""The golden corpus: every record in tests/corpus/ read and checked against
the golden files beside it (see tests/golden.py for their format)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from golden import (CORPUS, canonical, describe_game, describe_invalid, describe_valid,
                    read_expected, source_lines)
from lcnotation.core.diagnostics import NotationError
from lcnotation.lostcities.text.formatter import format_games
from lcnotation.lostcities.text.reader import parse_game, parse_games, read_games

VALID = sorted((CORPUS / "valid").glob("*.lcn"))
INVALID = sorted((CORPUS / "invalid").glob("*.lcn"))


def where(span) -> tuple:
    return span.line, span.column, span.end_line, span.end_column


def ids(paths):
    return [p.stem for p in paths]


def test_the_corpus_is_there():
    assert len(VALID) >= 15 and len(INVALID) >= 20
    for path in VALID:
        assert path.with_suffix(".expected.json").exists(), path.name
    for path in INVALID:
        assert read_expected(path.with_suffix(".expected")), path.name


# ---------------------------------------------------------------- valid


@pytest.mark.parametrize("path", VALID, ids=ids(VALID))
def test_valid_record_reads_as_its_golden_file(path: Path):
    expected = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
    assert describe_valid(path) == expected


@pytest.mark.parametrize("path", VALID, ids=ids(VALID))
def test_valid_record_reads_in_strict_mode(path: Path):
    games = list(read_games(path, strict=True))
    assert all(not g.errors for g in games)


@pytest.mark.parametrize("path", VALID, ids=ids(VALID))
def test_valid_record_reads_alike_from_every_kind_of_source(path: Path):
    """A path, a binary file, a text file and a string give the same games,
    at the same lines and columns."""
    lines = source_lines(path)
    expected = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))["games"]
    data = path.read_bytes()
    text = data.decode("utf-8-sig")
    with open(path, encoding="utf-8-sig", newline="") as handle:
        from_text_file = list(read_games(handle))
    sources = {
        "binary file": list(read_games(io.BytesIO(data))),
        "text file": from_text_file,
        "universal-newline text file": list(read_games(io.StringIO(text, newline=None))),
        # parse_games takes a string as it is (a CRLF stays inside a comment's
        # text); test_reader checks that.  Here: the string as a text file reads.
        "string": list(parse_games(io.StringIO(text, newline=None).read())),
    }
    for name, games in sources.items():
        assert [describe_game(g, lines) for g in games] == expected, name
        assert all(not g.errors for g in games), name


@pytest.mark.parametrize("path", VALID, ids=ids(VALID))
def test_valid_record_writes_its_canonical_text(path: Path):
    golden = path.with_suffix(".canonical")
    if not golden.exists():
        pytest.skip("format_games cannot write these games (see tests/golden.py)")
    expected = golden.read_text("utf-8")
    assert canonical(path) == expected
    # The canonical text means the same, and is a fixed point of formatting.
    again = list(parse_games(expected))
    assert again == list(read_games(path))
    assert format_games(again) == expected
    assert all(not g.errors for g in again)


@pytest.mark.parametrize("path", [p for p in VALID
                                  if len(json.loads(p.with_suffix(".expected.json")
                                                    .read_text("utf-8"))["games"]) == 1],
                         ids=lambda p: p.stem)
def test_a_one_game_record_reads_alike_with_parse_game(path: Path):
    games = list(read_games(path))
    game = parse_game(path.read_bytes().decode("utf-8-sig"))
    assert game == games[0]
    assert [where(m.span) for m in game.moves] == [where(m.span) for m in games[0].moves]


# ---------------------------------------------------------------- invalid


@pytest.mark.parametrize("path", INVALID, ids=ids(INVALID))
def test_invalid_record_gives_its_golden_diagnostics(path: Path):
    expected = read_expected(path.with_suffix(".expected"))
    assert any(item.startswith("error ") for item in expected)
    assert describe_invalid(read_games(path)) == expected


@pytest.mark.parametrize("path", INVALID, ids=ids(INVALID))
def test_invalid_record_reads_alike_from_every_kind_of_source(path: Path):
    """Syntax errors, and the moves read around them, whatever the source."""
    by_path = describe_invalid(read_games(path), header_values=False)
    data = path.read_bytes()
    text = data.decode("utf-8")
    assert describe_invalid(read_games(io.BytesIO(data)), False) == by_path
    assert describe_invalid(read_games(io.StringIO(text)), False) == by_path
    assert describe_invalid(parse_games(text), False) == by_path


@pytest.mark.parametrize("path", INVALID, ids=ids(INVALID))
def test_strict_reading_raises_the_first_syntax_error(path: Path):
    expected = read_expected(path.with_suffix(".expected"))
    syntax = [i.split() for i in expected if i.startswith("error ") and
              not i.startswith("error N12")]
    if not syntax:
        # Only header values are wrong: the syntax is fine, strict reading too.
        assert all(not g.errors for g in read_games(path, strict=True))
        return
    _, code, where = syntax[0]
    line, column = map(int, where.split("-")[0].split(":"))
    with pytest.raises(NotationError) as caught:
        list(read_games(path, strict=True))
    err = caught.value
    assert (err.code, err.line, err.column, err.path) == (code, line, column, str(path))
    assert str(path) in str(err) and f"line {line}, column {column}" in str(err)
