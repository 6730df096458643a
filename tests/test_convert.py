"""Conversion between dialects: only move tokens change, and nothing is guessed.

The property tests write record files with an untidy layout (comments
everywhere, move numbers or none, tabs, CRLF, blank lines, every spelling)
and check what conversion keeps by parsing its output independently.
"""

from __future__ import annotations

import io
import re
from typing import List, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation.lostcities.convert import (JSON, MIXED, UNKNOWN, Detection, convert_file, convert_lines,
                                      convert_text,
                                detect_dialect, dialect_names)
from lcnotation.lostcities.text.dialects import DIALECTS, ConversionError, Dialect, get_dialect
from lcnotation.core.diagnostics import NotationError
from lcnotation.lostcities.text.formatter import format_games, format_move
from lcnotation.lostcities.text.reader import parse_games

TEXT_DIALECTS = list(DIALECTS)
DRAFT_COLORS = set("RGWBYK")


# ---------------------------------------------------------------- untidy files

_RANKS = ["H", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
blanks = st.sampled_from([" ", "  ", "\t", "\n", "\r\n", " \n\n", "\n\t ", "\r\n\r\n"])
line_ends = st.sampled_from(["\n", "\r\n", " \n", "\n\n"])
comment_texts = st.text(st.sampled_from(" a1-;[]\"\\\tü✓Rd"), max_size=8)


@st.composite
def move_tokens(draw, colors: str = "RGWBYKP", spelling: str = "any") -> str:
    """A move as someone might type it; ``spelling`` is a dialect name or 'any'."""
    parts = [draw(st.sampled_from(colors)), draw(st.sampled_from(_RANKS)),
             draw(st.sampled_from(["", "D", "X"])), "-", draw(st.sampled_from(colors + "D"))]
    if spelling != "any":
        d = get_dialect(spelling)
        parts[2] = parts[2] and d.discard
        parts = [p.lower() if d.lowercase else p for p in parts]
    else:
        case = draw(st.sampled_from(["upper", "lower", "each"]))
        if case == "lower":
            parts = [p.lower() for p in parts]
        elif case == "each":
            parts = [p.lower() if draw(st.booleans()) else p for p in parts]
    return "".join(parts)


@st.composite
def comment(draw) -> str:
    text = draw(comment_texts)
    if draw(st.booleans()):
        return "{" + text + draw(st.sampled_from(["", "\n", "\r\n"])) + "}"
    return ";" + text + draw(line_ends)


def _at_line_start(out: List[str], draw) -> None:
    if out and not out[-1].endswith("\n"):
        out.append(draw(line_ends))


@st.composite
def record_files(draw, colors: str = "RGWBYKP", spelling: str = "any") -> str:
    """The text of a file of one or more games, with an untidy layout."""
    out: List[str] = []
    n_games = draw(st.integers(1, 3))
    for g in range(n_games):
        if g == 0:
            for _ in range(draw(st.integers(0, 2))):
                out.append(draw(comment()))
                out.append(draw(blanks))
        for _ in range(draw(st.integers(0 if g == 0 else 1, 3))):
            _at_line_start(out, draw)
            out.append(draw(st.sampled_from(["", " ", "\t"])))
            out.append('[%s "%s"]' % (draw(st.sampled_from(["Event", "Site", "Round", "X_1"])),
                                      draw(st.sampled_from(["", "a b", 'q\\"', "{;}"]))))
            if draw(st.booleans()):
                out.append(" " + draw(comment()))
            _at_line_start(out, draw)
        out.append(draw(blanks))
        n_moves = draw(st.integers(0 if g == n_games - 1 else 1, 8))
        for i in range(n_moves):
            if draw(st.booleans()):
                out.append(f"{i + 1}.{draw(st.sampled_from(['', ' ', '  ']))}")
            out.append(draw(move_tokens(colors, spelling)))
            for _ in range(draw(st.integers(0, 1))):
                out.append(draw(st.sampled_from(["", " "])) + draw(comment()))
            out.append(draw(blanks))
    return "".join(out)


_SPACE = re.compile(r"[\s\ufeff]")
_NOT_SPACE = re.compile(r"[^\s\ufeff]")


def _moves_and_gaps(text: str) -> Tuple[list, List[str], List[str]]:
    """The moves of ``text``, their tokens, and the text around them."""
    games = list(parse_games(text))
    assert not [e for g in games for e in g.errors], [e for g in games for e in g.errors]
    moves = [m for g in games for m in g.moves]
    gaps, tokens, pos = [], [], 0
    for m in moves:
        gaps.append(text[pos:m.span.start])
        tokens.append(text[m.span.start:m.span.end])
        pos = m.span.end
    gaps.append(text[pos:])
    return games, tokens, gaps


def _colors_of(games) -> set:
    return {c for g in games for m in g.moves for c in (m.card.color, m.draw.color) if c}


# ---------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(record_files(), st.sampled_from(TEXT_DIALECTS))
def test_conversion_rewrites_only_the_move_tokens(text, to):
    games, tokens, gaps = _moves_and_gaps(text)
    if to == "v1-draft" and not _colors_of(games) <= DRAFT_COLORS:
        with pytest.raises(ConversionError) as info:
            convert_text(text, to)
        assert {e.code for e in info.value.errors} == {"C101"}
        return
    out = convert_text(text, to)
    out_games, out_tokens, out_gaps = _moves_and_gaps(out)
    assert out_gaps == gaps
    assert out_games == games  # the same moves, with the same comments and headers
    assert [_SPACE.sub("", t) for t in out_tokens] == [format_move(m, to)
                                                       for g in games for m in g.moves]
    # White space inside a move stays where it was.
    assert [_NOT_SPACE.sub(".", t) for t in out_tokens] == [_NOT_SPACE.sub(".", t)
                                                            for t in tokens]


@settings(max_examples=100, deadline=None)
@given(record_files(colors="RGWBYK"), st.sampled_from(TEXT_DIALECTS),
       st.sampled_from(TEXT_DIALECTS))
def test_a_to_b_to_a_is_the_identity_on_canonical_text(text, a, b):
    canonical = format_games(parse_games(text), a)
    there = convert_text(canonical, b)
    assert convert_text(there, a) == canonical
    assert there == format_games(parse_games(text), b)
    assert convert_text(canonical, a) == canonical


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(TEXT_DIALECTS[:3]).flatmap(
    lambda d: st.tuples(st.just(d), record_files(spelling=d))))
def test_a_file_already_in_the_dialect_is_unchanged(case):
    dialect, text = case
    assert convert_text(text, dialect) == text
    assert convert_text(text, dialect, source=dialect) == text
    assert detect_dialect(text).dialect in (dialect, "v1")
    assert dialect in detect_dialect(text).candidates


@settings(max_examples=75, deadline=None)
@given(record_files(colors="RGWBYK"), st.sampled_from(TEXT_DIALECTS))
def test_streaming_gives_the_same_text(text, to):
    lines = list(io.StringIO(text, newline=""))
    assert "".join(lines) == text
    assert "".join(convert_lines(lines, to)) == convert_text(text, to)


# ---------------------------------------------------------------- layout, by example

UNTIDY = ('; a club record\r\n[Event "Club"]  {the usual}\r\n[Round "1"]\r\n\r\n'
          '1.  rh-d {a wager}\t2. BHX-D ;why?\r\n3.R4-b\r\n\r\n'
          '[Round "2"]\r\ng2-D  w10x-G\r\n')


def test_every_line_end_space_and_comment_stays():
    assert convert_text(UNTIDY, "v1") == (
        '; a club record\r\n[Event "Club"]  {the usual}\r\n[Round "1"]\r\n\r\n'
        '1.  RH-D {a wager}\t2. BHD-D ;why?\r\n3.R4-B\r\n\r\n'
        '[Round "2"]\r\nG2-D  W10D-G\r\n')
    assert convert_text(UNTIDY, "lower").count("\r\n") == UNTIDY.count("\r\n")


def test_lone_cr_line_ends_read_as_line_ends_and_stay():
    text = '[Event "a"]\r[Site "b"]\r\r1. R3-D {x\ry}\r[Event "c"]\rG4-D'
    assert convert_text(text, "x-discard") == text
    assert convert_text(text, "lower") == text.replace("R3-D", "r3-d").replace("G4-D", "g4-d")
    lines = list(io.StringIO(text, newline=""))
    assert "".join(convert_lines(lines, "lower")) == convert_text(text, "lower")


def test_a_byte_order_mark_and_a_missing_final_line_end_stay():
    text = "\ufeff1. R3-D 2. BHD-D"
    assert convert_text(text, "x-discard") == "\ufeff1. R3-D 2. BHX-D"


def test_empty_and_blank_texts():
    for text in ("", "\n", "  \r\n\t", "{only a comment}", "{}"):
        for to in TEXT_DIALECTS:
            assert convert_text(text, to) == text


def test_white_space_inside_a_move_is_refused_not_guessed():
    with pytest.raises(ConversionError) as caught:
        convert_text("1. R3 -d  2. B H x - d\n", "lower")
    assert [(e.code, e.line, e.column) for e in caught.value.errors] == [
        ("N112", 1, 4), ("N112", 1, 14)]


def test_mixed_spellings_are_normalised():
    assert convert_text("1. R3D-D 2. bhx-d 3. Gh-d", "v1") == "1. R3D-D 2. BHD-D 3. GH-D"


# ---------------------------------------------------------------- refusals


def test_syntax_errors_are_refused_with_all_their_positions():
    text = ('[Event "a"]\n\n1. R3-D 2. R11-D\n3. Q3-D\n'
            '[Event "b"]\nR4-Z R5-1\n')
    with pytest.raises(ConversionError) as info:
        convert_text(text, "x-discard", path="club.lcn")
    errors = info.value.errors
    assert [(e.code, e.line, e.column) for e in errors] == [("N103", 3, 13), ("N105", 6, 9)]
    assert all(e.path == "club.lcn" for e in errors)
    assert str(info.value).startswith("club.lcn, line 3, column 13: ")
    assert "(and 1 more problem)" in str(info.value)


def test_an_unclosed_comment_is_refused_not_dropped():
    with pytest.raises(ConversionError) as info:
        convert_text("1. R3-D {never closed\n2. G4-D\n", "lower")
    assert info.value.code == "N110"


def test_colours_the_target_cannot_write():
    text = '[Colors "RGWBYP"]\n[Hand1 "R3 p4 BH"]\n\n1. R3-D\n2. R4-p {x}\n3. P5-D\n'
    with pytest.raises(ConversionError) as info:
        convert_text(text, "v1-draft")
    found = [(e.code, e.line, e.column) for e in info.value.errors]
    assert found == [("C101", 1, 15), ("C101", 2, 12), ("C101", 5, 4), ("C101", 6, 4)]
    assert info.value.message == ("the Colors header lists the colour P, which the v1-draft "
                                  "dialect cannot write (its colours: R G W B Y K)")
    assert "the move R4-P uses the colour P" in info.value.errors[2].message
    assert "the Hand1 header holds P4" in info.value.errors[1].message


def test_a_malformed_header_value_is_left_to_the_linter():
    text = '[Colors "RGW?"]\n[Deck "R3 Q"]\n\n1. R3-D\n'
    assert convert_text(text, "v1-draft") == text


def test_comments_a_dialect_cannot_write():
    plain = Dialect("plain", "v1 without comments", comments=False)
    text = "{lead}\n[Event \"a\"] {on a header}\n\n1. R3-D {on a move} ;and more\n2. G4-D\n"
    with pytest.raises(ConversionError) as info:
        convert_text(text, plain)
    assert [(e.code, e.line, e.column) for e in info.value.errors] == [
        ("C102", 1, 1), ("C102", 2, 13), ("C102", 4, 9), ("C102", 4, 21)]
    assert "plain dialect cannot write comments" in info.value.message
    assert convert_text("1. R3-D 2. BHD-D\n", plain) == "1. R3-D 2. BHD-D\n"


def test_a_declared_source_is_checked_not_assumed():
    text = "1. r3-d 2. bhx-d\n3. g4-d"
    assert convert_text(text, "v1", source=None) == "1. R3-D 2. BHD-D\n3. G4-D"
    with pytest.raises(ConversionError) as info:
        convert_text(text, "v1", source="lower")
    (err,) = info.value.errors
    assert (err.code, err.line, err.column) == ("C103", 1, 12)
    assert err.message == "'bhx-d' is not spelt as the lower dialect spells it ('bhd-d')"
    with pytest.raises(ConversionError, match="C103"):
        convert_text("P3-D", "v1", source="v1-draft")


def test_unknown_dialects_are_usage_errors():
    with pytest.raises(ValueError, match="unknown dialect 'v2'; known dialects: v1, "):
        convert_text("R3-D", "v2")
    with pytest.raises(ValueError, match="unknown dialect"):
        convert_text("R3-D", "v1", source="klingon")
    with pytest.raises(ValueError):
        list(convert_lines(["R3-D"], "v2"))


def test_nothing_is_written_when_anything_is_refused():
    # Every game is read and every problem reported, but no text comes back.
    text = '[Event "a"]\nR3-D\n[Event "b"]\nR11-D\n[Event "c"]\nP3-D\n'
    with pytest.raises(ConversionError) as info:
        convert_text(text, "v1-draft")
    assert [e.code for e in info.value.errors] == ["N103", "C101"]


def test_streaming_stops_at_the_first_game_it_cannot_convert():
    lines = ['[Event "a"]\n', 'r3-d\n', '[Event "b"]\n', 'R11-D G2-Q7\n', '[Event "c"]\n',
             'g4-d\n']
    pieces = convert_lines(iter(lines), "v1", path="x.lcn")
    assert next(pieces) == '[Event "a"]\nR3-D\n'
    with pytest.raises(ConversionError) as info:
        next(pieces)
    assert [(e.code, e.line) for e in info.value.errors] == [("N103", 4), ("N107", 4)]
    assert info.value.path == "x.lcn"


def test_streaming_a_file_keeps_its_bytes(tmp_path):
    path = tmp_path / "club.lcn"
    path.write_bytes(UNTIDY.encode("utf-8"))
    with open(path, encoding="utf-8", newline="") as handle:
        out = "".join(convert_lines(handle, "x-discard"))
    assert out == convert_text(UNTIDY, "x-discard")
    assert convert_text(out, "lower") == convert_text(UNTIDY, "lower")


# ---------------------------------------------------------------- detection


@pytest.mark.parametrize("text, dialect", [
    ("1. R3-D 2. BHD-D", "v1"),
    ("1. R3-D 2. BHX-D", "x-discard"),
    ("1. r3-d 2. bhd-d", "lower"),
    ("1. R3-D 2. G4-D", "v1"),        # no discard: v1 and x-discard both fit; v1 first
    ("", "v1"),
    ("1. R3D-D 2. BHX-D", MIXED),
    ("1. R3-D 2. r4-d", MIXED),
    ("1. bhx-d", UNKNOWN),
    ("1. R3-D 2. Bh-D", UNKNOWN),
])
def test_detection(text, dialect):
    assert detect_dialect(text).dialect == dialect


def test_detection_says_where_and_how_much():
    d = detect_dialect("1. R3-D 2. G4-D\n3. BHX-D 4. r2-d\n5. Kh-D")
    assert d == Detection(UNKNOWN, (), {"v1": 2, "x-discard": 3, "lower": 1, "v1-draft": 2},
                          5, d.conflict)
    assert (d.conflict.line, d.conflict.column) == (3, 4)
    mixed = detect_dialect("1. R3-D 2. G4-D\n3. BHX-D 4. r2-d\n")
    assert (mixed.dialect, mixed.conflict.line, mixed.conflict.column) == (MIXED, 2, 13)
    assert detect_dialect("1. R3-D 2. P4-D").candidates == ("v1", "x-discard")


def test_detection_reuses_games_already_read():
    text = '[Event "a"]\nR3-D\n[Event "b"]\nbhx-d\n'
    assert detect_dialect(text, parse_games(text)) == detect_dialect(text)
    assert detect_dialect(text).dialect == UNKNOWN


def test_dialect_names():
    assert dialect_names() == [*DIALECTS, JSON]
    assert "json" not in DIALECTS


# ---------------------------------------------------------------- convert_file


class CountingFile(io.BytesIO):
    """A seekable file that counts the bytes read from it."""

    def __init__(self, data: bytes, seekable: bool = True) -> None:
        super().__init__(data)
        self.bytes_read = 0
        self._seekable = seekable

    def seekable(self) -> bool:
        return self._seekable

    def read(self, size=-1):
        data = super().read(size)
        self.bytes_read += len(data)
        return data

    def read1(self, size=-1):
        data = super().read1(size)
        self.bytes_read += len(data)
        return data

    def readinto(self, buffer):
        n = super().readinto(buffer)
        self.bytes_read += n
        return n


def _big_record(*bad_games: int, games: int = 400) -> bytes:
    lines = []
    for i in range(games):
        moves = "R11-D G2-D" if i in bad_games else "r3-d bhd-d g4-b"
        lines.append(f'[Event "{i}"]\r\n1. {moves}\r\n\r\n')
    return "".join(lines).encode()


def _convert_file(data: bytes, to: str, **kw) -> Tuple[bytes, CountingFile]:
    f = CountingFile(data, **kw)
    return b"".join(convert_file(f, to, path="big.lcn")), f


def test_convert_file_is_convert_text_with_bytes() -> None:
    data = _big_record(-1)
    out, f = _convert_file(b"\xef\xbb\xbf" + data, "v1")
    assert out == b"\xef\xbb\xbf" + convert_text(data.decode(), "v1").encode()
    assert f.bytes_read <= len(data) + 3 + 4096  # a stream: the head is read twice
    piped, g = _convert_file(data, "v1", seekable=False)  # read whole
    assert piped == out[3:] and g.bytes_read == len(data)
    # Into and out of the JSON form, a byte-order mark is dropped.
    document, _ = _convert_file(b"\xef\xbb\xbf" + data, "json")
    assert document == convert_text(data.decode(), "json").encode()
    back, _ = _convert_file(b"\xef\xbb\xbf" + document, "v1")
    assert back == convert_text(document.decode(), "v1").encode()


@pytest.mark.parametrize("bad_games", [(0,), (150, 151, 398), (399,)])
def test_a_failed_streamed_conversion_reads_on_instead_of_again(bad_games: Tuple[int, ...]
                                                                ) -> None:
    data = _big_record(*bad_games)
    with pytest.raises(ConversionError) as whole:
        convert_text(data.decode(), "lower", path="big.lcn")
    f = CountingFile(data)
    with pytest.raises(ConversionError) as streamed:
        b"".join(convert_file(f, "lower", path="big.lcn"))
    facts = [[(e.code, e.line, e.column, e.message, e.path) for e in caught.value.errors]
             for caught in (streamed, whole)]
    assert facts[0] == facts[1]
    assert [(e.code, e.line) for e in streamed.value.errors] == [("N103", 2 + 3 * i)
                                                                 for i in bad_games]
    assert f.bytes_read <= len(data) + 4096
    assert not f.closed


def test_bytes_that_are_not_utf8_are_found_with_one_more_read() -> None:
    data = _big_record(3) + b"R3-D \xff\r\n"
    f = CountingFile(data)
    with pytest.raises(NotationError) as caught:
        b"".join(convert_file(f, "lower", path="big.lcn"))
    assert caught.value.code == "N001" and (caught.value.line, caught.value.column) == (1201, 6)
    assert f.bytes_read <= 2 * len(data) + 4096
