"""Byte ranges of a file that begin at game boundaries, found without reading the file.

:func:`split_ranges` cuts a file into ranges of about a given size, reading
only a little around each cut: each cut moves forward to the start of a game
(a header line that follows movetext, as
:func:`~lcnotation.lostcities.text.reader.split_games` decides).  Each range
can then be read on its own, in another process (``lcn lint -j N``, see
:mod:`lcnotation.lostcities.parallel`) or on another machine
(:mod:`lcnotation.dask`).

>>> import io
>>> data = b'[Round "1"]\\r\\nR3-D\\r\\n[Round "2"]\\r\\nB4-D\\r\\n[Round "3"]\\r\\nG5-D\\r\\n'
>>> [r.start for r in split_ranges(io.BytesIO(data), len(data), step=19)]
[0, 38]
"""

from __future__ import annotations

import re
from typing import IO, Iterator, List, NamedTuple, Optional, Tuple, cast

from .lexical import LEXICON
from .reader import holds_moves_in, line_blocks

__all__ = ["Range", "Slice", "split_ranges", "ranges", "next_boundary", "RANGE_SIZE"]

#: The size of a range, in bytes, when none is asked for.
RANGE_SIZE = 64 << 20

_HEADER_FIRST = LEXICON.header_first
# One line of bytes with its line end (LF, CRLF or a lone CR), or the last one.
_RAW_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


class Range(NamedTuple):
    """Bytes ``start`` to ``end`` (exclusive) of a file, from a game's start."""

    start: int
    end: int


class Slice:
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
    return list(ranges(handle, size, step))


def ranges(handle: IO[bytes], size: int, step: int = RANGE_SIZE) -> Iterator[Range]:
    """:func:`split_ranges`, a range at a time: each cut is looked for only
    when the range before it is asked for (``handle`` may be read and moved
    between them).  No range starts less than ``step`` bytes after the one
    before it, so there are at most ``size // step + 1``."""
    if step < 1:
        raise ValueError(f"a range must hold at least one byte, not {step}")
    start = 0
    at = step
    while at < size:
        cut = next_boundary(handle, at, size)
        if cut >= size:
            break
        yield Range(start, cut)
        start = cut
        at = max(cut + 1, at + step)
    yield Range(start, size)


def next_boundary(handle: IO[bytes], at: int, size: int) -> int:
    """A game boundary after byte ``at`` (``size`` when there is none): the
    start of a header line, after ``at``, that follows movetext, where
    "follows" is judged from the header line before it (also after ``at``),
    as :func:`~lcnotation.lostcities.text.reader.split_games` judges it.

    Whether a header line begins a game depends only on the text since the
    header line before it (a ``{`` comment never runs across a header line,
    and at each header line the game under way has no move yet, or this is a
    boundary), so the splitter's own rule
    (:func:`~lcnotation.lostcities.text.reader.holds_moves`) decides it from
    there; the search reads on only as far as the boundary.
    """
    segment: Optional[List[bytes]] = None
    for offset, raw in _lines_after(handle, at):
        if _HEADER_FIRST.match(raw.decode("utf-8", errors="replace")):
            if segment is not None and holds_moves_in(b"".join(segment)):
                return offset
            segment = []
        if segment is not None:
            segment.append(raw)
    return size


def _lines_after(handle: IO[bytes], at: int) -> Iterator[Tuple[int, bytes]]:
    """The lines that start at byte ``at`` or after it, with their offsets (the
    line ``at`` falls inside of is skipped)."""
    start = max(at - 1, 0)
    source = cast(IO[bytes], Slice(handle, start, None))
    offset = start
    skip = at > 0
    for block in line_blocks(source, 1 << 12):
        for m in _RAW_LINE.finditer(block):
            if skip:
                skip = False
            else:
                yield offset + m.start(), m.group()
        offset += len(block)
