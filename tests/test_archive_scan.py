"""The archive's reader (lcnotation/archive/reader.py) and visitors: every game of a
file with its bytes and byte offset, found as the package's reader finds it.

The property tests hold the scan to ``read_games`` on any bytes made of the
notation's pieces (line ends of every kind, byte-order marks, non-ASCII and
non-UTF-8 bytes, unclosed comments): the same games, the same positions, the
same errors; the headers read without the moves are those of the full parse;
byte ranges that cover a file share its games out exactly once.
"""

from __future__ import annotations

import io
from typing import Iterable, Iterator, List, Tuple

import pytest
from hypothesis import given, strategies as st

from lcnotation import format_games, generate_games, read_games
from lcnotation.archive import (BOM, SKIP, BaseVisitor, HeadersOnly, SkipGame, TreeBuilder,
                                WriteBack, position_at, read_at, scan, visit)
from lcnotation.archive.reader import GameEntry, shadow
from lcnotation.lostcities.text.ast import Comment, Game, Header, Move
from lcnotation.core.diagnostics import NotationError
from lcnotation.core.span import Span
from lcnotation.lostcities.text.lexical import LEXICON
from lcnotation.lostcities.text.reader import (MAX_GAME, GameText, Piece, _GameStart, _HEADER_ALONE,
                                    _HEADER_FIRST, _HEADER_NEXT, _too_long, split_games)

from strategies import examples, notation_text

# Pieces of bytes beyond the notation's: what files in the wild hold.
_BYTES = st.sampled_from([b"\r", b"\r\n", b"\n", BOM, b"\xc2\xa0", b"\xe2\x80\xa8", b"\xff",
                          b"\xc3", b"\xc3\xa9", b"Zo\xc3\xab", b"\x85", b"\xe3\x80\x80",
                          b"\n[Event \"\xc3\xa9\"]\n", b"\n\xc2\xa0[Round \"2\"]\n",
                          b"\n\xef\xbb\xbf[Round \"3\"]\n", b"{\n", b"}\n"])


@st.composite
def files(draw: st.DrawFn) -> bytes:
    parts = draw(st.lists(st.one_of(notation_text.map(lambda t: t.encode("utf-8")), _BYTES),
                          max_size=12))
    return draw(st.sampled_from([b"", BOM])) + b"".join(parts)


def _errors(game: Game) -> List[Tuple[str, str, object, object]]:
    return [(e.code, e.message, e.span, e.path) for e in game.errors]


def _deep(game: Game) -> object:
    """Everything of a game, positions and errors included."""
    return (game, game.span, _errors(game), [h.span for h in game.headers],
            [h.value_span for h in game.headers], [(m.span, m.turn, m.number) for m in game.moves],
            [c.span for c in game.comments],
            [c.span for x in (*game.headers, *game.moves) for c in x.comments])


def _stream(data: bytes) -> io.BytesIO:
    stream = io.BytesIO(data)
    stream.name = "a.lcn"  # type: ignore[misc]
    return stream


@given(files())
@examples(300)
def test_scan_finds_the_games_read_games_finds_with_the_same_positions(data: bytes) -> None:
    want = list(read_games(_stream(data)))
    found = list(scan(_stream(data)))
    assert [_deep(e.game()) for e in found] == [_deep(g) for g in want]
    assert [e.number for e in found] == list(range(1, len(found) + 1))
    # Laid end to end, the games are the file (after its byte-order mark).
    body = data[len(BOM):] if data.startswith(BOM) else data
    if found:
        assert b"".join(e.raw for e in found) == body[found[0].offset - (len(data) - len(body)):]
        assert body[:found[0].offset - (len(data) - len(body))].strip(b" \t\r\n\xef\xbb\xbf") \
            == b""
    for e in found:
        assert data[e.offset:e.end] == e.raw
        assert (e.line, e.char_offset) == position_at(_stream(data), e.offset)


@given(files())
@examples(300)
def test_headers_read_without_the_moves_are_those_of_the_full_parse(data: bytes) -> None:
    for entry, game in zip(scan(_stream(data)), read_games(_stream(data))):
        headers, leading = entry.head()
        assert headers == game.headers and leading == game.comments
        assert [(h.span, h.value_span) for h in headers] == \
            [(h.span, h.value_span) for h in game.headers]
        assert [c.span for h in headers for c in h.comments] == \
            [c.span for h in game.headers for c in h.comments]
        assert entry.tags() == game.tags


@given(files(), st.lists(st.integers(0, 400), max_size=6))
@examples(300)
def test_byte_ranges_share_the_games_out_exactly_once(data: bytes, cuts: List[int]) -> None:
    whole = [(e.offset, e.raw, e.line, e.char_offset) for e in scan(_stream(data))]
    bounds = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    parts = []
    for start, end in zip(bounds, bounds[1:]):
        parts += [(e.offset, e.raw, e.line, e.char_offset)
                  for e in scan(_stream(data), start=start, end=end)]
    assert parts == whole
    for offset, raw, line, chars in whole:
        entry = read_at(_stream(data), offset)
        assert (entry.raw, entry.line, entry.char_offset) == (raw, line, chars)


def test_the_shadow_stands_for_each_byte_with_one_character() -> None:
    # Blanks the splitter takes for blanks before a header, other blanks, and
    # everything else as neither; lone CR as a line end.
    data = b"\xef\xbb\xbf\xc2\xa0\xe2\x80\xa8\xc3\xa9\xff\rR\r\n"
    text = shadow(data)
    assert len(text) == len(data)
    assert text == "   \x1f\x1f\x1f\x1f\x1f\x00\x00\x00\nR\r\n"
    assert LEXICON.ws.fullmatch("\x1f") and not LEXICON.line_blank_class.count("\\x1f")
    assert not LEXICON.ws.match("\x00") and not LEXICON.header_name.match("\x00")


def test_offsets_are_bytes_and_read_at_reads_the_game_there(tmp_path) -> None:
    text = format_games(generate_games(5, seed=4)).replace('"Ada"', '"Zoë"')
    path = tmp_path / "a.lcn"
    path.write_bytes(BOM + text.replace("\n", "\r\n").encode("utf-8"))
    entries = list(scan(path))
    assert entries[0].offset == 3 and len(entries) == 5
    data = path.read_bytes()
    for e in entries:
        assert data[e.offset:e.offset + 8] == b'[Event "'
        again = read_at(str(path), e.offset)
        assert again._replace(number=e.number) == e and again.game() == e.game()
        assert again.number in (0, 1)
    with pytest.raises(ValueError, match="no game begins at byte 5"):
        read_at(path, 5)


def test_a_range_that_begins_after_the_first_game_does_not_number_its_games(tmp_path) -> None:
    path = tmp_path / "a.lcn"
    path.write_text(format_games(generate_games(4, seed=1)), "utf-8")
    entries = list(scan(path))
    later = list(scan(path, start=entries[1].offset))
    assert [e.offset for e in later] == [e.offset for e in entries[1:]]
    assert {e.number for e in later} == {0}


def test_an_unreadable_file_raises_oserror(tmp_path) -> None:
    with pytest.raises(OSError):
        list(scan(tmp_path / "missing.lcn"))


# ---------------------------------------------------------------- visitors


class Events(BaseVisitor[List[str]]):
    """Every call, in order."""

    def __init__(self) -> None:
        self.seen: List[str] = []

    def begin_game(self, entry: GameEntry) -> None:
        self.seen.append(f"begin {entry.number}")

    def visit_header(self, header: Header) -> None:
        self.seen.append(f"header {header.name}")

    def end_headers(self) -> None:
        self.seen.append("end headers")

    def visit_move(self, move: Move) -> None:
        self.seen.append(f"move {move.turn}")

    def visit_comment(self, comment: Comment) -> None:
        self.seen.append(f"comment {comment.text}")

    def visit_error(self, error: NotationError) -> None:
        self.seen.append(f"error {error.code}")

    def end_game(self) -> None:
        self.seen.append("end")

    def result(self) -> List[str]:
        return self.seen


def test_the_visitor_is_called_in_the_order_of_the_game() -> None:
    data = b'{before}\n[Event "x"] {after event}\n[Round "1"]\nR3-D {good} R11-D B4-D\n'
    (events,) = visit(io.BytesIO(data), Events)
    assert events == ["begin 1", "comment before", "header Event", "comment after event",
                      "header Round", "end headers", "move 0", "comment good", "move 2",
                      "error N103", "end"]


def test_skipping_the_moves_does_not_parse_them(monkeypatch) -> None:
    class Quick(Events):
        def end_headers(self):  # type: ignore[override]
            super().end_headers()
            return SKIP

    def no_parse(self: GameEntry, strict: bool = False) -> Game:
        raise AssertionError("the moves were parsed")

    monkeypatch.setattr(GameEntry, "game", no_parse)
    (events,) = visit(io.BytesIO(b'[Event "x"]\nR3-D\n'), Quick)
    assert events == ["begin 1", "header Event", "end headers", "end"]


def test_the_ready_made_visitors(tmp_path) -> None:
    text = format_games(generate_games(3, seed=8))
    path = tmp_path / "a.lcn"
    path.write_text(text.replace("\n\n1.", "\n\n{a comment}\n1."), "utf-8")
    games = list(read_games(path))
    built = list(visit(path, TreeBuilder))
    assert [_deep(g) for g in built] == [_deep(g) for g in games]
    headers = list(visit(path, HeadersOnly))
    assert [h for _, h in headers] == [g.headers for g in games]
    assert [e.offset for _, e in []] == []
    skipped = list(visit(path, SkipGame))
    assert [e.offset for e in skipped] == [e.offset for e, _ in headers]
    out = io.BytesIO()
    sizes = list(visit(path, WriteBack.factory(out)))
    assert out.getvalue() == path.read_bytes() and sum(sizes) == len(out.getvalue())
    lower = io.BytesIO()
    list(visit(path, WriteBack.factory(lower, "lower")))
    assert list(read_games(io.BytesIO(lower.getvalue()))) == games
    assert b"r10" in lower.getvalue().lower() and b"{a comment}" in lower.getvalue()


def test_visit_takes_entries_too(tmp_path) -> None:
    path = tmp_path / "a.lcn"
    path.write_text(format_games(generate_games(4, seed=2)), "utf-8")
    chosen = [e for e in scan(path) if e.number % 2 == 0]
    assert [g.header("Event") for g in visit(iter(chosen), TreeBuilder)] == \
        [g.header("Event") for i, g in enumerate(read_games(path), 1) if i % 2 == 0]


def test_each_line_that_is_not_utf8_is_reported_whatever_its_line_end() -> None:
    # Written before the fix: with CR line ends, the reader decoded the bad
    # lines of a block as one line and reported only the first (line 2 here).
    data = b'[E "a"]\r\xff\r\xff\rR3-D\r'
    (game,) = read_games(io.BytesIO(data))
    assert [(e.code, e.line) for e in game.errors if e.code == "N001"] == [("N001", 2),
                                                                            ("N001", 3)]
    (entry,) = scan(io.BytesIO(data))
    assert _errors(entry.game()) == _errors(game)


# ---------------------------------------------------------------- the splitter


def _split_games_before(items: Iterable[Piece]) -> Iterator[GameText]:
    """split_games as it was before the rework of issue 21 (the oracle below)."""
    pieces: List[str] = []
    size = 0  # characters of the game so far (and of the item being split)
    problems: List[NotationError] = []
    first_line = line_no = 1
    first_offset = offset = 0
    scan = _GameStart()
    for item in items:
        if isinstance(item, NotationError):
            problems.append(item)
            continue
        pos = 0
        counted = 0
        line_at = line_no
        starts = [m.start() + 1 for m in _HEADER_NEXT.finditer(item)]
        if _HEADER_FIRST.match(item):
            starts.insert(0, 0)
        for h in starts:
            if h > pos:
                piece = item[pos:h]
                # The usual piece: one header line, before any move and outside
                # any comment, which tells nothing (see _GameStart.feed).
                if not scan.has_moves and (scan.in_brace or not _HEADER_ALONE.match(piece)):
                    scan.feed(piece)
                pieces.append(piece)
                size += len(piece)
                if size > MAX_GAME:
                    raise _too_long("a game", "characters", first_line, first_offset)
            if scan.header_line():
                line_at += item.count("\n", counted, h)
                counted = h
                end = offset + h
                mine = [p for p in problems if p.span.start < end]
                problems = [p for p in problems if p.span.start >= end]
                yield GameText("".join(pieces), first_line, first_offset, tuple(mine))
                pieces = []
                size = 0
                first_line, first_offset = line_at, end
                scan = _GameStart()
            pos = h
        if pos < len(item):
            if not scan.has_moves:
                scan.feed(item[pos:])
            pieces.append(item[pos:])
            size += len(item) - pos
            if size > MAX_GAME:
                raise _too_long("a game", "characters", first_line, first_offset)
        line_no += item.count("\n")
        offset += len(item)
    if pieces or problems:
        yield GameText("".join(pieces), first_line, first_offset, tuple(problems))


@st.composite
def pieces(draw: st.DrawFn) -> List[Piece]:
    """A text cut into pieces that end at line ends, with decoding errors among them."""
    text = draw(notation_text).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.splitlines(keepends=True)
    out: List[Piece] = []
    at = 0
    i = 0
    while i < len(lines):
        k = draw(st.integers(1, 4))
        chunk = "".join(lines[i:i + k])
        if draw(st.integers(0, 5)) == 0:
            where = at + draw(st.integers(0, max(0, len(chunk) - 1)))
            out.append(NotationError("bad", Span(1, 1, 1, 2, where, where + 1), code="N001"))
        out.append(chunk)
        at += len(chunk)
        i += k
    return out


@given(pieces())
@examples(500)
def test_the_reworked_splitter_splits_as_the_one_before(items: List[Piece]) -> None:
    def shown(parts: Iterable[GameText]) -> list:
        return [(p.text, p.line, p.offset, [(e.code, e.span) for e in p.problems])
                for p in parts]

    assert shown(split_games(items)) == shown(_split_games_before(items))
