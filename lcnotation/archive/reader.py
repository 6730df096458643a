"""Each game of a file as its bytes and byte offset, found without parsing moves.

:func:`scan` reads a file (or any binary stream) and yields one
:class:`GameEntry` per game: the game's bytes exactly as written (comments,
line ends and all), its byte offset, its line and its number in the file.
Nothing is parsed: an entry is parsed when asked (:meth:`GameEntry.game`,
the whole tree; :meth:`GameEntry.headers`, the headers alone, which does not
read the moves).  :func:`read_at` reads the game that begins at a byte
offset, as python-chess reads a game after ``seek``; ``scan(path, start=a,
end=b)`` yields the games that begin in the byte range ``[a, b)``, so that
ranges that cover a file split its games among them exactly once each.

Games are told apart by the package's own splitter
(:func:`lcnotation.lostcities.text.reader.split_games`), which reads text; here it reads
a *shadow* of the bytes: a string exactly as long as the bytes, in which
every ASCII byte stands for itself (a lone CR as LF, as the reader takes it)
and every other character is replaced by characters that play the same part
for the splitter (blank, blank before a header, or neither).  Its offsets
are therefore byte offsets, and the games are those :func:`read_games`
finds, with the same positions (``tests/test_archive_scan.py`` holds the two
to that).

>>> import io
>>> data = b'[Round "1"]\\r\\nR3-D {Zo\\xc3\\xab}\\r\\n[Round "2"]\\r\\nB4-D\\r\\n'
>>> [(e.offset, e.line, e.raw[:11]) for e in scan(io.BytesIO(data))]
[(0, 1, b'[Round "1"]'), (26, 3, b'[Round "2"]')]
>>> [h.value for e in scan(io.BytesIO(data)) for h in e.headers()]
['1', '2']
"""

from __future__ import annotations

import io
import os
import re
from typing import IO, Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union, cast

from ..lostcities.text.ast import Comment, Game, Header
from ..lostcities.text.builder import GameBuilder
from ..core.diagnostics import NotationError
from ..lostcities.text.lexical import LEXICON
from ..core.lineends import as_lf, byte_line_ends
from ..lostcities.text.parser import parser
from ..lostcities.text.reader import (BLANK, GameText, chars_read, decode_lines, line_blocks,
                                      parse_part, split_games)

__all__ = ["Source", "GameEntry", "scan", "read_at", "position_at", "BOM"]

#: What :func:`scan` reads: a path or a binary stream.
Source = Union[str, "os.PathLike[str]", IO[bytes]]

#: The UTF-8 byte-order mark: skipped at the start of a file, as the reader does.
BOM = b"\xef\xbb\xbf"

_new = tuple.__new__

#: How much is read at a time when looking back for a place to start.
_LOOK_BACK = 1 << 16


class GameEntry(NamedTuple):
    """One game of a file, found by :func:`scan`: its bytes and where they are.

    ``raw`` is the game's text exactly as written, from the first byte of its
    first line to the first byte of the next game (so the entries of a file
    laid end to end give the file back, after its byte-order mark).
    ``offset`` is the byte offset of ``raw`` in the file, ``line`` its first
    line, ``char_offset`` its first character's offset in the file's text
    as the reader counts it (UTF-8 decoded, line ends as LF), ``number`` its
    number in the file (from 1; 0 in a scan that begins after the file's
    first game, which does not split the games before it) and ``path`` the
    name given to the file.
    """

    raw: bytes
    offset: int
    line: int
    char_offset: int
    number: int
    path: Optional[str] = None

    @property
    def end(self) -> int:
        """The byte offset just past the game: where the next one begins."""
        return self.offset + len(self.raw)

    def text(self) -> GameText:
        """The game's text as the reader reads it (UTF-8, LF line ends), with the
        problems met decoding it (N001, for bytes that are not UTF-8)."""
        raw = self.raw
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            pieces = decode_lines(raw, self.offset, self.char_offset, self.line)
            return GameText("".join(p for p in pieces if isinstance(p, str)), self.line,
                            self.char_offset,
                            tuple(p for p in pieces if isinstance(p, NotationError)))
        if "\r" in text:
            text = as_lf(text)
        return GameText(text, self.line, self.char_offset)

    def game(self, *, strict: bool = False) -> Game:
        """The game's syntax tree, exactly as :func:`read_games` reads it from the
        file (positions included)."""
        return parse_part(self.text(), strict, self.path)

    def headers(self) -> Tuple[Header, ...]:
        """The game's headers (with their comments), read without the moves:
        the headers :meth:`game` would give."""
        return self.head()[0]

    def tags(self) -> Dict[str, str]:
        """The game's headers as a dict, name to value (the first of a repeated
        name wins, as :attr:`Game.tags`), read without the moves: quicker
        than :meth:`headers`, which gives positions and comments too."""
        raw = self.raw
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return _first_wins((h.name, h.value) for h in self.headers())
        # The usual game: its first lines are headers in the canonical layout
        # and no "[" follows them.
        found: Dict[str, str] = {}
        match = _PLAIN_TAG.match
        m = match(text)
        pos = 0
        while m is not None:
            found.setdefault(*m.groups())
            pos = m.end()
            m = match(text, pos)
        if text.find("[", pos) < 0:
            if "\\" in text[:pos]:
                found = {n: _UNESCAPE.sub(r"\1", v) for n, v in found.items()}
            return found
        block = _TAG_BLOCK.match(text)
        end = block.end()  # type: ignore[union-attr]  # it matches the empty text
        rest = _WS.match(text, end)
        after = rest.end() if rest is not None else end
        if after < len(text) and text[after] in "{;" or text.find("[", end) >= 0:
            return _first_wins((h.name, h.value) for h in self.headers())
        pairs = _TAG.findall(text, 0, end)
        if "\\" in text[:end]:
            pairs = [(n, _UNESCAPE.sub(r"\1", v)) for n, v in pairs]
        pairs.reverse()
        return dict(pairs)

    def head(self) -> Tuple[Tuple[Header, ...], Tuple[Comment, ...]]:
        """The game's headers and the comments before them, read without the moves."""
        part = self.text()
        quick = None if part.problems else _quick_headers(part)
        if quick is not None:
            return quick, ()
        cut = None if part.problems else _headers_end(part.text)
        if cut is None or part.text.find("[", cut) >= 0:
            # Not clean before the first move, or a "[" after it (a header out
            # of place is still a header of the game): the whole parse says.
            game = parse_part(part, False, self.path)
            return game.headers, game.comments
        result = parser().run("game", part.text[:cut], strict=False, first_line=part.line,
                              first_offset=part.offset)
        game = result.game(self.path)
        return game.headers, game.comments


_HEADER = LEXICON.header
_UNESCAPE = re.compile(r'\\(["\\])')


def _grouped_header(plain: bool = False) -> str:
    """The grammar's HEADER with the name and the value (between the quotes) as
    groups; ``plain``: written as the canonical layout writes it (no blank but
    one space between the name and the value)."""
    whole, name = LEXICON.terminals["HEADER"], LEXICON.terminals["HEADER_NAME"]
    before, after = whole.split(name, 1)
    first, last = after.index('"'), after.rindex('"')
    value = after[first + 1:last]
    if plain:
        return f'\\[({name}) "({value})"\\]'
    return f"{before}({name}){after[:first + 1]}({value}){after[last:]}"


_LINE_BLANKS = LEXICON.line_blank_class + "*"
_AFTER_HEADER = LEXICON.line_blank_class[:-1] + r"\r]*(?:\n|\Z)"
# Header lines, each a header alone, with white space between them.
_TAG_BLOCK = re.compile(f"(?:{LEXICON.blank_class}*{_LINE_BLANKS}{LEXICON.terminals['HEADER']}"
                        f"{_AFTER_HEADER})*")
_TAG = re.compile(_grouped_header())
# A header line in the canonical layout: the grammar's header with one space
# and no other blank, and its line end.
_PLAIN_TAG = re.compile(_grouped_header(plain=True) + r"\r?\n")


def _first_wins(pairs: Iterable[Tuple[str, str]]) -> Dict[str, str]:
    found: Dict[str, str] = {}
    for name, value in pairs:
        found.setdefault(name, value)
    return found
_WS = LEXICON.ws
# The rest of a header's line, when it is blank.
_LINE_END = re.compile(LEXICON.line_blank_class[:-1] + r"\r]*(?:\n|\Z)")


def _quick_headers(part: GameText) -> Optional[Tuple[Header, ...]]:
    """The headers of the usual game: header lines (blank lines between them
    allowed), then a move the fast path reads (or nothing), and no other
    ``[``; None for any other game."""
    text = part.text
    b = GameBuilder(text, part.line, part.offset)
    pos, line, line_start = 0, 1, 0
    size = len(text)
    while True:
        blank = _WS.match(text, pos)
        if blank is not None:
            end = blank.end()
            newlines = text.count("\n", pos, end)
            if newlines:
                line += newlines
                line_start = text.rindex("\n", pos, end) + 1
            pos = end
        if pos >= size or text[pos] != "[":
            break
        header = _HEADER.match(text, pos)
        if header is None or _LINE_END.match(text, header.end()) is None:
            return None
        b.add_header(header.group(), pos, line, pos - line_start + 1)
        pos = header.end()
    if text.find("[", pos) >= 0 or b.errors:
        return None
    if pos < size:  # a move the fast path reads must come next (not a comment, nor junk)
        first = parser().fast.match(text, pos)
        if first is None or first.group("move") is None:
            return None
    return tuple(b.headers)


def _headers_end(text: str) -> Optional[int]:
    """Where the headers of a game's text end (at the first move, or the end),
    when the fast path reads all that comes before; None otherwise."""
    for m in parser().fast.finditer(text):
        if m.group("move") is not None or m.group("end") is not None:
            return m.start()
        if m.group("bad") is not None:
            return None
    return None


# ---------------------------------------------------------------- the shadow

# Characters that stand for others in the shadow: one blank that may stand
# before a header's "[" on its line, one blank that may not, and one that is
# not blank (and can be neither part of a header's name nor of a move).
_LINE_BLANK, _OTHER_BLANK, _NOT_BLANK = " ", "\x1f", "\x00"
_LINE_BLANK_RE = re.compile(LEXICON.line_blank_class)
_LONE_CR = re.compile(r"\r(?!\n)")
# A UTF-8 character of more than one byte, or a byte that begins none.
_NON_ASCII = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}|[\x80-\xff]")
_SHADOWS: Dict[bytes, bytes] = {}


def _shadow_of(m: "re.Match[bytes]") -> bytes:
    written = m.group()
    shadow = _SHADOWS.get(written)
    if shadow is None:
        if len(written) == 1:
            char = "\ufffd"  # not UTF-8: the reader decodes it as a replacement character
        else:
            char = written.decode("utf-8")
        if _LINE_BLANK_RE.fullmatch(char):
            stand_in = _LINE_BLANK
        elif LEXICON.ws.fullmatch(char):
            stand_in = _OTHER_BLANK
        else:
            stand_in = _NOT_BLANK
        shadow = _SHADOWS[written] = stand_in.encode("ascii") * len(written)
    return shadow


def shadow(raw: bytes) -> str:
    """The shadow of ``raw`` (see the module's docstring): as long as ``raw``.

    >>> shadow(b'R3-D\\r\\n{\\xc2\\xa0caf\\xc3\\xa9}\\rB4-D')
    'R3-D\\r\\n{\\x1f\\x1fcaf\\x00\\x00}\\nB4-D'
    """
    if not raw.isascii():
        raw = _NON_ASCII.sub(_shadow_of, raw)
    text = raw.decode("ascii")
    if "\r" in text:
        text = _LONE_CR.sub("\n", text)
    return text


# ---------------------------------------------------------------- scanning


class _Blocks:
    """A binary stream in blocks of lines, kept until the games in them are taken."""

    def __init__(self, handle: IO[bytes], offset: int) -> None:
        self.handle = handle
        self.start = offset      # the offset of the first byte read
        self.kept: List[Tuple[int, bytes]] = []
        self.bom = False

    def shadows(self, skip_bom: bool) -> Iterator[str]:
        at = self.start
        for raw in line_blocks(self.handle):
            if skip_bom:
                skip_bom = False
                if raw.startswith(BOM):
                    self.bom = True
                    raw = raw[len(BOM):]
                    at += len(BOM)
                    self.start = at
            self.kept.append((at, raw))
            at += len(raw)
            yield shadow(raw)

    def take(self, start: int, end: int) -> bytes:
        """The bytes ``start:end`` of the stream; what comes before ``start`` is let go."""
        kept = self.kept
        at, raw = kept[0]
        while at + len(raw) <= start and len(kept) > 1:
            kept.pop(0)
            at, raw = kept[0]
        if end <= at + len(raw):  # the usual case: the game lies in one block
            return raw[start - at:end - at]
        pieces = []
        for at, raw in kept:
            if at >= end:
                break
            if at + len(raw) > start:
                pieces.append(raw[max(0, start - at):end - at])
        return b"".join(pieces)


def scan(source: Source, *, path: Optional[str] = None, start: int = 0,
         end: Optional[int] = None) -> Iterator[GameEntry]:
    """The games of ``source`` (a path or a binary stream), one
    :class:`GameEntry` at a time, memory holding about one game.

    With ``start`` and ``end`` (byte offsets; a path or a seekable stream):
    the games that begin at or after ``start`` and before ``end``.  Their
    lines and character offsets are those of the whole file (counted by a
    quick pass over the bytes before ``start``), their ``number`` is 0 unless
    the range starts in the first game.  Text of white space alone is no
    game, as for the reader.

    Raises OSError when the file cannot be read (or holds a game longer than
    the reader's bound, EFBIG).
    """
    if isinstance(source, (str, os.PathLike)):
        name = path if path is not None else os.fspath(source)
        with open(source, "rb") as handle:
            yield from _scan(handle, name, start, end)
        return
    if path is None:
        given = getattr(source, "name", None)
        path = given if isinstance(given, str) else None
    yield from _scan(source, path, start, end)


def _scan(handle: IO[bytes], path: Optional[str], start: int,
          end: Optional[int]) -> Iterator[GameEntry]:
    line, chars, number, at = 1, 0, 0, 0
    if start > 0:
        at = _sync_point(handle, start)
        if at > 0:
            line, chars = _count_before(handle, at)
        handle.seek(at)
    counting = at == 0   # from a later sync point, the games before are not counted
    blocks = _Blocks(handle, at)
    base_line = line - 1
    blank = BLANK.match
    take = blocks.take
    for part in split_games(blocks.shadows(skip_bom=at == 0)):
        offset = blocks.start + part.offset
        if end is not None and offset >= end:
            return
        text = part.text
        raw = take(offset, offset + len(text))
        if part.problems or not blank(text):
            number += counting
            if offset >= start:
                yield _new(GameEntry, (raw, offset, part.line + base_line, chars, number, path))
        chars += chars_read(raw)


def _sync_point(handle: IO[bytes], start: int) -> int:
    """A byte offset before ``start`` from which the splitter finds every game
    boundary that follows: the start of the last line before ``start`` that
    begins with ``[``, or 0.  (At such a line no comment is open and the
    game under way has no move yet, whether or not the line begins a game;
    so the splitter, begun there, splits what follows as it would have.)"""
    stop = start
    size = _LOOK_BACK
    while stop > 0:
        begin = max(0, stop - size)
        handle.seek(begin)
        window = shadow(handle.read(stop - begin))
        found = None
        for m in LEXICON.header_line.finditer(window):
            if begin + m.start() + 1 < start:
                found = begin + m.start() + 1
        if found is not None:
            return found
        if begin == 0:
            break
        # Look further back: the windows overlap by a byte, for a line end
        # just before a "[" at the start of the last window.
        stop = begin + 1
        size *= 2
    return 0


def _count_before(handle: IO[bytes], stop: int) -> Tuple[int, int]:
    """The line and the character offset (as the reader counts them) of byte
    ``stop``, which begins a line: one quick pass over the bytes before it."""
    handle.seek(0)
    line, chars = 1, 0
    first = True
    for raw in line_blocks(cast(IO[bytes], _Limited(handle, stop))):
        if first:
            first = False
            if raw.startswith(BOM):
                raw = raw[len(BOM):]
        line += sum(byte_line_ends(raw))
        chars += chars_read(raw)
    return line, chars


class _Limited(io.RawIOBase):
    """The first ``stop`` bytes of a stream (from where it stands)."""

    def __init__(self, handle: IO[bytes], stop: int) -> None:
        super().__init__()
        self._handle, self._left = handle, stop

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        size = self._left if size < 0 else min(size, self._left)
        data = self._handle.read(size)
        self._left -= len(data)
        return data


def position_at(source: Source, offset: int) -> Tuple[int, int]:
    """The line and character offset (as the reader counts them) of byte
    ``offset`` of a file, which must begin a line (as a game's offset does)."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as handle:
            return _count_before(handle, offset)
    return _count_before(source, offset)


def read_at(source: Source, offset: int, *, path: Optional[str] = None) -> GameEntry:
    """The game that begins at byte ``offset`` of ``source`` (a path or a
    seekable binary stream), as a :class:`GameEntry` (``.game()`` parses it):
    the offsets :func:`scan` gives are where games begin.

    Raises ValueError when no game begins there.
    """
    for entry in scan(source, path=path, start=offset, end=offset + 1):
        return entry
    raise ValueError(f"no game begins at byte {offset}")
