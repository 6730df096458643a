"""Byte ranges of a file that begin at game boundaries, and what each holds.

A large file is cut into ranges of about a given size without being read
first (:func:`~lcnotation.lostcities.text.ranges.split_ranges`, which
``lcn lint -j N`` uses too).  Each range can then be read on its own, in
another process or on another machine
(``lcnotation.archive.scan(path, start=, end=)`` gives its games, with the
positions of the whole file), and :func:`measure_range` counts what a range
holds that the ranges after it need to know: its games (to number theirs)
and its line ends (S107 is about the whole file).

>>> import io
>>> data = b'[Round "1"]\\r\\nR3-D\\r\\n[Round "2"]\\r\\nB4-D\\r\\n[Round "3"]\\r\\nG5-D\\r\\n'
>>> [r.start for r in split_ranges(io.BytesIO(data), len(data), step=19)]
[0, 38]
>>> measure_range(io.BytesIO(data), 19, 38)
RangeCounts(games=1, lines=2, line_ends=(2, 0, 0), first=(('\\r\\n', 1),))
"""

from __future__ import annotations

from typing import IO, NamedTuple, Optional, Tuple, cast

from ..lostcities.text.reader import BLANK, decoded_lines, split_games
from ..lostcities.text.ranges import RANGE_SIZE, Range, Slice, next_boundary, split_ranges
from ..core.lineends import CountingReader

__all__ = ["Range", "RangeCounts", "split_ranges", "next_boundary", "measure_range",
           "RANGE_SIZE"]

class RangeCounts(NamedTuple):
    """What a range holds, counted: its games (to number those of the next
    range), its lines, and its line ends by kind (CRLF, lone CR, LF) with the
    line (within the range, from 1) where each kind first ends one (for S107,
    which is about the whole file)."""

    games: int
    lines: int
    line_ends: Tuple[int, int, int]
    first: Tuple[Tuple[str, int], ...]


# ---------------------------------------------------------------- counting


def measure_range(handle: IO[bytes], start: int = 0, end: Optional[int] = None) -> RangeCounts:
    """Count the games, lines and line ends of bytes ``start`` to ``end`` (a
    range that begins at a game boundary) as the reader reads them: the games
    are split, not parsed."""
    counted = CountingReader(cast(IO[bytes], Slice(handle, start, end)))
    games = sum(1 for part in split_games(decoded_lines(cast(IO[bytes], counted)))
                if part.problems or not BLANK.match(part.text))
    return RangeCounts(games, sum(counted.counts), counted.counts,
                       tuple(sorted(counted.first.items())))
