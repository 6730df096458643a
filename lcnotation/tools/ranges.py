"""Byte ranges of a file that begin at game boundaries, and the games of a range
with their bytes.

A large file is cut into ranges of about a given size without being read
first: :func:`split_ranges` reads only a little around each cut, and moves
the cut forward to the start of a game (a header line that follows movetext,
as :func:`lcnotation.text.reader.split_games` decides).  Each range can then
be read on its own (:func:`read_range`), in another process or on another
machine, and gives exactly the games, texts, positions and problems that
reading the whole file gives, once it is told where it starts in the file as
read (:class:`Base`: its line and character offset, which
:func:`measure_range` counts for each range).

>>> import io
>>> data = b'[Round "1"]\\r\\nR3-D\\r\\n[Round "2"]\\r\\nB4-D\\r\\n[Round "3"]\\r\\nG5-D\\r\\n'
>>> [r.start for r in split_ranges(io.BytesIO(data), len(data), step=20)]
[0, 19, 38]
>>> first, = read_range(io.BytesIO(data), 19, 38, Base(3, 17))
>>> first.start, first.end, first.raw, first.part.line, first.part.offset
(19, 38, b'[Round "2"]\\r\\nB4-D\\r\\n', 3, 17)
"""

from __future__ import annotations

import functools
import re
from collections import deque
from typing import IO, Deque, Iterator, List, NamedTuple, Optional, Pattern, Tuple

from ..text.ast import Span
from ..text.errors import NotationError
from ..text.lexical import LEXICON
from ..text.lineends import as_lf
from ..text.reader import (GameText, Piece, _Decoder, _GameStart, _line_blocks,
                           split_games)
from .newlines import CountingReader

__all__ = ["Base", "Range", "Record", "RangeCounts", "split_ranges", "next_boundary",
           "read_range", "measure_range", "RANGE_SIZE"]

#: The size of a range, in bytes, when none is asked for.
RANGE_SIZE = 64 << 20

_HEADER_FIRST = LEXICON.header_first
# One line of bytes with its line end (LF, CRLF or a lone CR), or the last one.
_RAW_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


class Base(NamedTuple):
    """Where a range starts in the file as read: its first line (from 1) and
    its character offset in the text (line ends read as LF, as spans count)."""

    line: int = 1
    char: int = 0


class Range(NamedTuple):
    """Bytes ``start`` to ``end`` (exclusive) of a file, from a game's start."""

    start: int
    end: int


class Record(NamedTuple):
    """One game of a range: its text as the reader splits it (positions those
    of the file), and its bytes in the file, ``start`` to ``end``, from the
    start of its first line to the start of the next game (or the range's
    end), so that the records of a file, one after another, are the file."""

    part: GameText
    start: int
    end: int
    raw: bytes

    @property
    def blank(self) -> bool:
        """True for text of white space alone (a file that holds no game)."""
        return not self.part.problems and LEXICON.blank_text.match(self.part.text) is not None


class RangeCounts(NamedTuple):
    """What a range holds, counted: its lines and characters as read (to make
    the :class:`Base` of the next range), and its line ends by kind (CRLF,
    lone CR, LF) with the line (within the range, from 1) where each kind
    first ends one (for S107, which is about the whole file)."""

    lines: int
    chars: int
    line_ends: Tuple[int, int, int]
    first: Tuple[Tuple[str, int], ...]


class _Slice:
    """Bytes ``start`` to ``end`` of a binary file, read as a file of their own."""

    def __init__(self, handle: IO[bytes], start: int, end: Optional[int]) -> None:
        handle.seek(start)
        self.handle = handle
        self.left = end - start if end is not None else None

    def read(self, size: int = -1) -> bytes:
        if self.left is None:
            return self.handle.read(size)
        if size < 0 or size > self.left:
            size = self.left
        data = self.handle.read(size)
        self.left -= len(data)
        return data


# ---------------------------------------------------------------- cutting


def split_ranges(handle: IO[bytes], size: int, step: int = RANGE_SIZE) -> List[Range]:
    """Cut a file of ``size`` bytes into ranges of about ``step`` bytes (more when
    a game is longer) that each begin at a game boundary; they cover the file."""
    if step < 1:
        raise ValueError(f"a range must hold at least one byte, not {step}")
    cuts = [0]
    at = step
    while at < size:
        cut = next_boundary(handle, at, size)
        if cut >= size:
            break
        cuts.append(cut)
        at = max(cut + 1, at + step)
    return [Range(a, b) for a, b in zip(cuts, cuts[1:] + [size])]


def next_boundary(handle: IO[bytes], at: int, size: int) -> int:
    """A game boundary after byte ``at`` (``size`` when there is none): the start
    of the first header line, after ``at``, that follows movetext, where
    "follows" is judged from the header line before it (also after ``at``).

    Whether a header line starts a game depends only on the text since the
    header line before it (a ``{`` comment never runs across a header line),
    so the reader's own rule (:class:`~lcnotation.text.reader._GameStart`)
    decides it from there.
    """
    scan: Optional[_GameStart] = None
    for offset, raw in _lines_after(handle, at):
        line = as_lf(raw.decode("utf-8", errors="replace"))
        if _HEADER_FIRST.match(line):
            if scan is not None and scan.header_line():
                return offset
            scan = _GameStart()
        if scan is not None and not scan.has_moves:
            scan.feed(line)
    return size


def _lines_after(handle: IO[bytes], at: int) -> Iterator[Tuple[int, bytes]]:
    """The lines that start after byte ``at`` - 1 (a line that starts at ``at``
    included), with their offsets; the line ``at`` falls in is skipped."""
    start = max(at - 1, 0)
    source = _Slice(handle, start, None)
    offset = start
    skip = at > 0
    for block in _line_blocks(source, 1 << 16):
        for m in _RAW_LINE.finditer(block):
            if skip:
                skip = False
            else:
                yield offset + m.start(), m.group()
        offset += len(block)


# ---------------------------------------------------------------- reading


def read_range(handle: IO[bytes], start: int = 0, end: Optional[int] = None,
               base: Base = Base()) -> Iterator[Record]:
    """The records of bytes ``start`` to ``end`` of a binary file (to its end
    when None), which begin at a game boundary at ``base`` in the file as read.

    Text of white space alone is a record too (:attr:`Record.blank`), so that
    nothing of the range is left out; readers skip it, as
    :func:`~lcnotation.text.reader.read_games` does.
    """
    source = _Slice(handle, start, end)
    decoder = _Decoder()
    decoder.first = start == 0  # a byte-order mark is skipped at the file's start only
    decoder.offset = start      # N001 names the byte offset in the file
    lines = _LineBytes(start)

    def pieces() -> Iterator[Piece]:
        for raw in _line_blocks(source):
            lines.add(raw)
            yield from decoder._block(raw)

    pending: Optional[Tuple[GameText, int]] = None
    for part in split_games(pieces()):
        at = lines.byte_of(part.line)
        if pending is not None:
            yield _record(pending[0], pending[1], at, lines, base)
        pending = (part, at)
    if pending is not None:
        yield _record(pending[0], pending[1], lines.end, lines, base)


def _record(part: GameText, start: int, end: int, lines: "_LineBytes", base: Base) -> Record:
    raw = lines.take(start, end)
    if base != (1, 0):
        part = GameText(part.text, part.line + base.line - 1, part.offset + base.char,
                        tuple(_moved(p, base) for p in part.problems))
    return Record(part, start, end, raw)


def _moved(err: NotationError, base: Base) -> NotationError:
    s = err.span
    span = Span(s.line + base.line - 1, s.column, s.end_line + base.line - 1, s.end_column,
                s.start + base.char, s.end + base.char)
    return NotationError(err.message, span, code=err.code, path=err.path)


@functools.lru_cache(maxsize=64)
def _lines_of(count: int) -> Pattern[bytes]:
    """``count`` lines of bytes, each with its line end."""
    return re.compile(rb"(?:[^\r\n]*(?:\r\n|\r|\n)){%d}" % count)


def _line_ends(raw: bytes, pos: int = 0) -> int:
    return raw.count(b"\n", pos) + raw.count(b"\r", pos) - raw.count(b"\r\n", pos)


class _LineBytes:
    """The blocks of bytes read so far that a record may still need, and where
    each line (counted from 1 at the range's start) begins in the file.
    Lines are asked for in order, so the search only moves forward."""

    def __init__(self, start: int) -> None:
        self.blocks: Deque[Tuple[int, bytes]] = deque()  # (byte offset, bytes)
        self.end = start          # the offset just past the bytes read
        self.index = 0            # the block the cursor is in
        self.pos = 0              # the cursor, within that block
        self.line = 1             # the line that starts at the cursor

    def add(self, raw: bytes) -> None:
        self.blocks.append((self.end, raw))
        self.end += len(raw)

    def byte_of(self, line: int) -> int:
        """The offset in the file where ``line`` begins."""
        while self.line < line:
            if self.index >= len(self.blocks):
                raise AssertionError(f"line {line} was never read")
            offset, raw = self.blocks[self.index]
            want = line - self.line
            m = _lines_of(min(want, 64)).match(raw, self.pos)
            if m is not None:
                self.pos = m.end()
                self.line += min(want, 64)
            else:
                self.line += _line_ends(raw, self.pos)
                self.pos = len(raw)
            if self.pos >= len(raw):
                self.index += 1
                self.pos = 0
        if self.index < len(self.blocks):
            return self.blocks[self.index][0] + self.pos
        return self.end

    def take(self, start: int, end: int) -> bytes:
        """Bytes ``start`` to ``end``, which have been read; the blocks wholly
        before ``end`` are let go (records are taken in order)."""
        parts = []
        for offset, raw in self.blocks:
            if offset >= end:
                break
            if offset + len(raw) > start:
                parts.append(raw[max(start - offset, 0):end - offset])
        while self.blocks and self.blocks[0][0] + len(self.blocks[0][1]) <= end \
                and self.index > 0:
            self.blocks.popleft()
            self.index -= 1
        return b"".join(parts)


def measure_range(handle: IO[bytes], start: int = 0, end: Optional[int] = None) -> RangeCounts:
    """Count the lines, characters and line ends of bytes ``start`` to ``end``
    as the reader reads them, without splitting them into games."""
    counted = CountingReader(_Slice(handle, start, end))  # type: ignore[arg-type]
    decoder = _Decoder()
    decoder.first = start == 0
    decoder.offset = start
    for raw in _line_blocks(counted):  # type: ignore[type-var]
        for _ in decoder._block(raw):
            pass
    return RangeCounts(decoder.line_no - 1, decoder.chars, counted.counts,
                       tuple(sorted(counted.first.items())))
