"""Reading notation: single moves, single games, and files of many games.

Files are read as a stream, one game at a time: a game ends where a header
line follows its movetext, so a file of a million games never sits in memory.

>>> parse_move("bhd-d")
Move(placement=Placement(card=Card(color='B', rank=0), discard=True), draw=Draw(color=None), comments=())
>>> game = parse_game('[Player1 "Ann"]\\n1. R3-D {a start}\\n2. BHD-D')
>>> [format_move(m) for m in game.moves], game.moves[0].comments[0].text
(['R3-D', 'BHD-D'], 'a start')
>>> len(list(parse_games('[Round "1"]\\nR3-D\\n[Round "2"]\\nG4-D')))
2
"""

from __future__ import annotations

import errno
import io
import os
import re
from typing import (IO, AnyStr, Callable, Iterable, Iterator, List, NamedTuple, Optional, Tuple,
                    Union, cast)

from .ast import Game, Move, Span
from ...core.diagnostics import NotationError
from .lexical import LEXICON
from ...core.lineends import LineEndCounts, as_lf, lone_cr_as_lf, not_utf8
from .formatter import format_move  # noqa: F401 (the doctests use it)
from .parser import parser

__all__ = ["parse_move", "parse_game", "parse_games", "read_games", "GameText", "split_games",
           "parse_part", "decoded_lines", "BLANK", "Piece", "line_blocks", "byte_lines",
           "decode_lines", "decoded_at", "decoded_blocks", "chars_read", "holds_moves",
           "holds_moves_in"]

Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]
#: What the game splitting reads: pieces of text that end at a line end, and
#: the errors met while decoding them.
Piece = Union[str, NotationError]

_HEADER_TOKEN = LEXICON.header
_TRAILING_SPACE = LEXICON.trailing_blanks
_SPACES = LEXICON.ws
_INTERESTING = re.compile(r"[{};\[]")
# A line of white space, as the grammar's WS has it (a byte-order mark included).
#: Text of white space alone (a piece between games that holds no game).
BLANK = LEXICON.blank_text


class GameText(NamedTuple):
    """The text of one game in a file and where it starts there."""

    text: str
    line: int
    offset: int
    #: Problems met while decoding these lines (code, message, span).
    problems: Tuple[NotationError, ...] = ()


def parse_move(text: str) -> Move:
    """Parse a single move such as ``R3-D``, ``BHD-D`` or ``bhx-d``.

    Raises :class:`NotationError` for anything else.

    >>> parse_move("R10-B").card
    Card(color='R', rank=10)
    >>> parse_move("R11-D")
    Traceback (most recent call last):
    ...
    lcnotation.core.diagnostics.NotationError: line 1, column 2: expected a rank (2 to 10, or H) after the colour 'R', found '11' (N103)
    """
    b = parser().run("move", lone_cr_as_lf(text), strict=False)
    first = b.moves[0].span if b.moves else None
    if not b.errors:
        return b.moves[0]
    code, message, span = b.errors[0]
    if first is not None and span.start >= first.end:
        # The grammar's message would ask for another move, which is wrong
        # here: name all the text that follows the move instead.
        move = first
        start = LEXICON.skip_blanks(text, move.end)
        extra = _TRAILING_SPACE.sub("", text[start:])
        shown = " ".join(extra.split())  # the span points at the text itself
        shown = shown if len(shown) <= 24 else shown[:23] + "\u2026"
        code = "N107"
        message = (f"unexpected {shown!r} after the move {text[move.start:move.end]!r}: "
                   "parse_move reads one move")
        span = b.span_at(start, start + len(extra))
    elif code == "N109":
        message = "expected a move such as 'R3-D', found a header"
    raise NotationError(message, span, code=code)


def parse_game(text: str, *, strict: bool = False, path: Optional[str] = None,
               fast_path: bool = True) -> Game:
    """Parse the text of one game.

    Lax by default: syntax errors are collected on ``game.errors`` and the
    rest of the game is still read.  With ``strict=True`` the first syntax
    error is raised as :class:`NotationError`.  ``fast_path=False`` reads
    with the full parser only (the result is the same, only slower: tests
    compare the two).

    >>> game = parse_game("1. R3-D 2. R11-D 3. R4-B")
    >>> [format_move(m) for m in game.moves], [e.code for e in game.errors]
    (['R3-D', 'R4-B'], ['N103'])
    >>> game.moves[1].turn
    2
    """
    return parse_part(GameText(lone_cr_as_lf(text), 1, 0), strict, path, fast_path)


def parse_games(text: str, *, strict: bool = False, path: Optional[str] = None,
                fast_path: bool = True) -> Iterator[Game]:
    """Parse a text that may hold several games, one after another
    (``fast_path`` as for :func:`parse_game`)."""
    yield from _games_of([lone_cr_as_lf(text)], strict, path, fast_path)


def read_games(source: Source, *, strict: bool = False,
               path: Optional[str] = None) -> Iterator[Game]:
    """Read the games of a file one at a time.

    ``source`` is a path or an open file (text or binary).  Files are read as
    UTF-8 (a byte-order mark is skipped); CRLF and CR line ends read as LF.
    Positions in errors are those of the file.

    >>> import io
    >>> games = read_games(io.StringIO('[Round "1"]\\nR3-D\\n\\n[Round "2"]\\nB4-D\\n'))
    >>> [(g.header("Round"), g.moves[0].span.line) for g in games]
    [('1', 2), ('2', 5)]
    """
    if isinstance(source, (str, os.PathLike)):
        path = path if path is not None else os.fspath(source)
        with open(source, "rb") as handle:
            yield from _games_of(decoded_lines(handle), strict, path)
        return
    if path is None:
        name = getattr(source, "name", None)
        path = name if isinstance(name, str) else None
    if isinstance(source, io.TextIOBase) or isinstance(source.read(0), str):
        yield from _games_of(_universal(cast(IO[str], source)), strict, path)
    else:
        yield from _games_of(decoded_lines(cast(IO[bytes], source)), strict, path)


def _games_of(lines: Iterable[Piece], strict: bool, path: Optional[str],
              fast: bool = True) -> Iterator[Game]:
    for part in split_games(lines):
        if part.problems or not BLANK.match(part.text):
            yield parse_part(part, strict, path, fast)


def parse_part(part: GameText, strict: bool, path: Optional[str], fast: bool = True) -> Game:
    """The tree of one game of a file (a piece from :func:`split_games`); with
    ``strict``, its first error is raised."""
    if strict and part.problems:
        raise _with_path(part.problems[0], path)
    try:
        result = parser().run("game", part.text, strict=strict, first_line=part.line,
                              first_offset=part.offset, fast=fast)
    except NotationError as err:
        raise _with_path(err, path) from None
    game = result.game(path)
    if part.problems:
        errors = tuple(_with_path(p, path) for p in part.problems) + game.errors
        game = Game(game.headers, game.moves, game.comments,
                    tuple(sorted(errors, key=lambda e: e.span.start)), game.span)
    return game


def _with_path(err: NotationError, path: Optional[str]) -> NotationError:
    if err.path != path:
        err = NotationError(err.message, err.span, code=err.code, path=path)
    return err


# ---------------------------------------------------------------- lines


def _lines_of(text: str) -> Iterator[str]:
    start = 0
    n = len(text)
    while start < n:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end + 1]
        start = end + 1


#: The most a game's text may hold, in characters, and a line read from a
#: file, in bytes (or characters from a text file): past it, reading stops
#: with OSError (EFBIG, "file too large": the input, not its notation, is
#: at fault), so that endless input (/dev/zero, ``yes``) ends and one
#: game's memory has a bound (about 70 bytes a character of moves).
MAX_GAME = 1 << 24


def _too_long(what: str, unit: str, line: int, offset: int) -> OSError:
    return OSError(errno.EFBIG, f"{what} longer than {MAX_GAME:,} {unit} (from line {line}): "
                   "the reader stops here (see 'Limits' in spec/file-format.md)")


def _joined(pieces: List[AnyStr]) -> AnyStr:
    """The pieces (all text or all bytes) joined."""
    # mypy checks AnyStr as str, then as bytes; pyright needs the casts.
    if isinstance(pieces[0], str):
        return cast(AnyStr, "".join(cast(List[str], pieces)))  # type: ignore[redundant-cast]
    return cast(AnyStr, b"".join(cast(List[bytes], pieces)))  # type: ignore[redundant-cast]


def line_blocks(handle: IO[AnyStr], size: int = 1 << 20,
                line_ends: Optional[Callable[[bytes], LineEndCounts]] = None) -> Iterator[AnyStr]:
    """Read ``handle`` (text or binary) in pieces of about ``size`` that end at a
    line end (the last one may not), so that a CRLF is never cut in two.

    A line longer than :data:`MAX_GAME` raises OSError (EFBIG).  ``line_ends``
    counts the line ends of bytes (for that message) where a faster function
    than the counts of Python's bytes is at hand.
    """
    pending: List[AnyStr] = []
    text = isinstance(handle.read(0), str)
    lf = cast(AnyStr, "\n" if text else b"\n")
    cr = cast(AnyStr, "\r" if text else b"\r")
    crlf = cast(AnyStr, "\r\n" if text else b"\r\n")
    waiting = 0   # the length of the line still open
    lines = 1     # the line it is on
    while True:
        data = handle.read(size)
        if not data:
            if pending:
                yield _joined(pending)
            return
        # The last line end: a LF, or a lone CR (one that is not the last
        # character read, which may be the first half of a CRLF).
        cut = max(data.rfind(lf), data.rfind(cr, 0, len(data) - 1)) + 1
        if not cut:
            pending.append(data)
            waiting += len(data)
            if waiting > MAX_GAME:
                raise _too_long("a line", "characters" if text else "bytes", lines, -1)
            continue
        if line_ends is not None:
            crlf_n, cr_n, lf_n = line_ends(data if cut == len(data) else data[:cut])  # type: ignore[arg-type]
            lines += crlf_n + cr_n + lf_n
        else:
            lines += data.count(lf, 0, cut)  # (one count, not three, without a CR)
            if data.find(cr, 0, cut) >= 0:
                lines += data.count(cr, 0, cut) - data.count(crlf, 0, cut)
        waiting = len(data) - cut
        pending.append(data[:cut])
        yield _joined(pending)
        pending = [data[cut:]] if cut < len(data) else []


def _universal(handle: IO[str]) -> Iterator[str]:
    """A text file in blocks of lines, with CRLF and lone CR read as LF.

    A file object that cannot decode its own bytes stops the reading with a
    NotationError (N001) at the first line it did not give.
    """
    line = 1
    chars = 0
    blocks = line_blocks(handle)
    while True:
        try:
            text = next(blocks)
        except StopIteration:
            return
        except UnicodeDecodeError as exc:
            bad = exc.object[exc.start:exc.start + 1]
            raise NotationError(
                f"the file cannot be decoded as {exc.encoding}: byte 0x{bad.hex() or '??'} "
                f"after line {line - 1}; open it in binary mode to have every line read",
                Span(line, 1, line, 1, chars, chars), code="N001") from None
        text = as_lf(text)
        line += text.count("\n")
        chars += len(text)
        yield text


class _Decoder:
    """Decode a binary file as UTF-8, in blocks of whole lines.

    CRLF and lone CR are turned into LF, and a byte-order mark at the start is
    skipped.  A block that is not valid UTF-8 is decoded line by line instead:
    each such line is decoded with replacement characters and preceded by a
    NotationError (N001) that names the byte offset.
    """

    def __init__(self) -> None:
        self.offset = 0      # bytes read
        self.chars = 0       # characters given out
        self.line_no = 1
        self.first = True

    def _skip_bom(self, raw: bytes) -> bytes:
        if self.first:
            self.first = False
            if raw.startswith(b"\xef\xbb\xbf"):
                self.offset = 3
                return raw[3:]
        return raw

    def _taken(self, raw: bytes, text: str) -> str:
        """Count ``raw`` (decoded as ``text``) as read; ``text`` with LF line ends."""
        self.offset += len(raw)
        text = as_lf(text)
        self.chars += len(text)
        self.line_no += text.count("\n")
        return text

    def block(self, raw: bytes) -> Iterator[Piece]:
        """Decode ``raw``, whole lines that follow those decoded before."""
        raw = self._skip_bom(raw)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield from self.lines(byte_lines(raw))
            return
        yield self._taken(raw, text)

    def lines(self, handle: Iterable[bytes]) -> Iterator[Piece]:
        """Decode ``handle``'s lines (each with its line end) one at a time."""
        for raw in handle:
            raw = self._skip_bom(raw)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                text = raw.decode("utf-8", errors="replace")
                message, line, col, chars = not_utf8(raw, exc, self.offset)
                line += self.line_no - 1
                at = self.chars + chars
                yield NotationError(message, Span(line, col, line, col + 1, at, at + 1),
                                    code="N001")
            yield self._taken(raw, text)


# After each line end: LF, CRLF, or a CR alone.
_AFTER_LINE_END = re.compile(rb"(?<=\n)|(?<=\r)(?!\n)")


def byte_lines(raw: bytes) -> List[bytes]:
    r"""The lines of ``raw``, each with its line end (LF, CRLF or a lone CR).

    >>> byte_lines(b"a\rb\r\nc\nd")
    [b'a\r', b'b\r\n', b'c\n', b'd']
    """
    lines = _AFTER_LINE_END.split(raw)
    if lines and not lines[-1]:
        lines.pop()
    return lines


def chars_read(raw: bytes) -> int:
    """How many characters the reader reads from ``raw`` (whole lines, after
    any byte-order mark): every line end counts one, a byte that is not
    UTF-8 as its replacement.

    >>> chars_read(b"R3-D\\r\\nB\\xc3\\xa9\\r"), chars_read(b"\\xff\\n")
    (8, 2)
    """
    if raw.isascii():
        return len(raw) - raw.count(b"\r\n") if b"\r" in raw else len(raw)
    return len(as_lf(raw.decode("utf-8", "replace")))


def _placed(offset: int, chars: int, line: int) -> _Decoder:
    """A decoder that goes on from byte ``offset`` of a file, after its
    byte-order mark, where the reader has read ``chars`` characters and is at
    line ``line``."""
    decoder = _Decoder()
    decoder.offset, decoder.chars, decoder.line_no, decoder.first = offset, chars, line, False
    return decoder


def decoded_at(raw: bytes, offset: int, chars: int, line: int) -> Iterator[Piece]:
    """Whole lines of a file, ``raw``, decoded as :func:`decoded_lines` decodes
    them there (in blocks), placed as for :func:`decode_lines`; from offset 0,
    as the start of a file (a byte-order mark skipped).

    >>> [p if isinstance(p, str) else (p.code, p.span.line)
    ...  for p in decoded_at(b"R3-D\\r\\n\\xff\\n", 9, 4, 3)][:2]
    ['R3-D\\n', ('N001', 4)]
    """
    return decoded_blocks(line_blocks(io.BytesIO(raw)), offset, chars, line)


def decoded_blocks(blocks: Iterable[bytes], offset: int, chars: int, line: int
                   ) -> Iterator[Piece]:
    """Blocks of whole lines of a file (as :func:`line_blocks` reads them),
    decoded as :func:`decoded_lines` decodes them, placed as for
    :func:`decoded_at`."""
    decoder = _placed(offset, chars, line) if offset else _Decoder()
    for raw in blocks:
        yield from decoder.block(raw)


def decode_lines(raw: bytes, offset: int, chars: int, line: int) -> List[Piece]:
    """Whole lines of a file, ``raw``, decoded as the reader decodes them: the
    text (LF line ends) and, before each line that is not UTF-8, its N001
    error.  ``offset`` (bytes), ``chars`` (characters) and ``line`` place
    ``raw`` in its file, after its byte-order mark.

    >>> [p if isinstance(p, str) else p.code for p in decode_lines(b"R3-D\\r\\n\\xff\\n", 0, 0, 1)]
    ['R3-D\\n', 'N001', '\\ufffd\\n']
    """
    return list(_placed(offset, chars, line).lines(byte_lines(raw)))


def decoded_lines(handle: IO[bytes]) -> Iterator[Piece]:
    """The text of a binary file, decoded (see :class:`_Decoder`), in blocks of lines."""
    return decoded_blocks(line_blocks(handle), 0, 0, 1)


# ---------------------------------------------------------------- splitting


# A line that begins with "[" (blanks before it allowed): the one at the start
# of a piece, and those after a line end.  Searching for the line end first
# lets the regular expression engine skip ahead to each "\n" instead of
# trying a match at every character (as "^" with re.M would).
_HEADER_FIRST = LEXICON.header_first
_HEADER_NEXT = LEXICON.header_line
_HEADER_ALONE = LEXICON.header_alone


def split_games(items: Iterable[Piece], first_line: int = 1,
                first_offset: int = 0) -> Iterator[GameText]:
    """Split a stream of text into the texts of its games.

    ``items`` are pieces of the text that each end at a line end (lines, or
    blocks of lines; the last may lack its line end), and NotationErrors met
    while decoding, which go to the game that holds their position.

    A game ends where a header line (one whose first non-blank character is
    ``[``) follows a move or move number; a ``{`` comment never runs across
    such a line (see BRACE_COMMENT in ``grammar/lcnotation.lark``).  Header
    lines are found with one regular expression over each piece; single
    lines are only looked at while the current game has no move yet.  Text of
    white space alone is yielded too (a converter must keep it); readers skip
    it: it is not a game.  ``first_line`` and ``first_offset`` place the first
    item in its file (the rest of a file cut at a game boundary).
    """
    pieces: List[str] = []  # the text of the game so far, from the items before this one
    size = 0                # its length
    problems: List[NotationError] = []
    line_no = first_line
    offset = first_offset
    scan = _GameStart()
    for item in items:
        if isinstance(item, NotationError):
            problems.append(item)
            continue
        begin = 0     # where the game under way begins in this item
        pos = 0       # how far this item has been looked at
        counted = 0
        line_at = line_no
        starts = [m.start() + 1 for m in _HEADER_NEXT.finditer(item)]
        if _HEADER_FIRST.match(item):
            starts.insert(0, 0)
        for h in starts:
            if h > pos:
                # The usual text between two header lines is one header line,
                # before any move and outside any comment, which tells nothing
                # (see _GameStart.feed): it is matched in place, not copied.
                if not scan.has_moves and (scan.in_brace
                                           or not _HEADER_ALONE.match(item, pos, h)):
                    scan.feed(item[pos:h])
                if size + h - begin > MAX_GAME:
                    raise _too_long("a game", "characters", first_line, first_offset)
            # A header line begins a game after a move (header_line() also
            # looks again at the lines after a "{" left open).
            if scan.has_moves or (scan.in_brace and scan.header_line()):
                line_at += item.count("\n", counted, h)
                counted = h
                end = offset + h
                mine: Tuple[NotationError, ...] = ()
                if problems:
                    mine = tuple(p for p in problems if p.span.start < end)
                    problems = [p for p in problems if p.span.start >= end]
                text = "".join(pieces) + item[begin:h] if pieces else item[begin:h]
                yield GameText(text, first_line, first_offset, mine)
                pieces = []
                size = 0
                begin = h
                first_line, first_offset = line_at, end
                scan = _GameStart()
            pos = h
        if pos < len(item) and not scan.has_moves:
            scan.feed(item[pos:])
        if begin < len(item):
            pieces.append(item[begin:] if begin else item)
            size += len(item) - begin
            if size > MAX_GAME:
                raise _too_long("a game", "characters", first_line, first_offset)
        line_no += item.count("\n")
        offset += len(item)
    if pieces or problems:
        yield GameText("".join(pieces), first_line, first_offset, tuple(problems))


def holds_moves_in(raw: bytes) -> bool:
    """:func:`holds_moves` of lines of a file as bytes (decoded as the reader
    decodes them).

    >>> holds_moves_in(b'[Event "x"]\\r\\n{R3-D}\\r\\n'), holds_moves_in(b'\\xff\\n')
    (False, True)
    """
    return holds_moves(as_lf(raw.decode("utf-8", errors="replace")))


def holds_moves(text: str) -> bool:
    """Whether the text of a game (or its start) holds a move as the splitter
    sees it: whether a header line after it would begin another game.

    >>> holds_moves('[Event "x"]\\n{R3-D}\\n'), holds_moves('[Event "x"]\\nR3-D\\n')
    (False, True)
    """
    start = _GameStart()
    start.feed(text)
    return start.header_line()


class _GameStart:
    """Whether a game has a move yet, from its lines, with ``{`` comments tracked."""

    def __init__(self) -> None:
        self.has_moves = False
        self.lines: List[str] = []   # kept while there is no move, for rescans
        self.in_brace = False
        self.brace_at = 0            # the line where the open "{" is

    def feed(self, text: str) -> None:
        """Read ``text``, lines that follow those fed before.  A header line
        alone outside a comment may be left out: it is skipped here too (and
        rescans start after an open ``{``)."""
        for line in _lines_of(text):
            self.lines.append(line)
            if not self.in_brace and _HEADER_ALONE.match(line):
                continue  # the usual header line: neither a move nor a comment
            if self.in_brace or _INTERESTING.search(line):
                was_open = self.in_brace
                self.in_brace, moves_here = _scan(line, self.in_brace)
                if self.in_brace and (not was_open or "}" in line):
                    self.brace_at = len(self.lines) - 1
                if moves_here:
                    self.has_moves = True
            elif not BLANK.match(line):
                self.has_moves = True
            if self.has_moves:
                return

    def header_line(self) -> bool:
        """A header line comes: does it start a new game?"""
        if self.in_brace and not self.has_moves:
            # That "{" is never closed: the parser skips the rest of its line
            # and reads the lines after it as movetext.  None of them holds a
            # "}" (it would have closed the comment), so each "{" in them is
            # never closed either, and each line is movetext up to its first
            # "{" (one pass: going back to each "{" in turn would be quadratic).
            self.in_brace = False
            for line in self.lines[self.brace_at + 1:]:
                if _scan(line, False)[1]:
                    self.has_moves = True
                    break
        return self.has_moves


def _scan(line: str, in_brace: bool) -> Tuple[bool, bool]:
    """Scan one line: is a ``{`` comment open at its end, and does it hold movetext?"""
    i = 0
    n = len(line)
    moves = False
    while i < n:
        if in_brace:
            j = line.find("}", i)
            if j < 0:
                return True, moves
            in_brace = False
            i = j + 1
            continue
        c = line[i]
        if c == "{":
            in_brace = True
            i += 1
        elif c == ";":
            break
        elif c == "[":
            m = _HEADER_TOKEN.match(line, i)
            if m is None:
                break  # a malformed header: the parser skips the rest of the line
            i = m.end()
        else:
            blanks = _SPACES.match(line, i)
            if blanks is not None:
                i = blanks.end()
            else:
                moves = True
                i += 1
    return in_brace, moves
