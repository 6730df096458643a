"""Positions in a document as LSP clients count them.

lcnotation counts lines and characters (code points); an LSP position is a
0-based line and a column in the *code units* the client and server agreed
on: UTF-16 by default, UTF-8 or UTF-32 when negotiated.  Lines end at
``\\n``, ``\\r\\n`` or a lone ``\\r`` (as the reader reads them, and as the
LSP specification says: no other character ends a line).

>>> index = LineIndex("ab\\r\\n{\\U0001F600} R3-D\\n", "utf-16")
>>> index.position(8)            # the R, after the emoji (two UTF-16 units)
(1, 5)
>>> index.offset(1, 5), LineIndex(index.text, "utf-8").position(8)
(8, (1, 7))
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Dict, List, Optional, Tuple

__all__ = ["ENCODINGS", "LineIndex", "units"]

#: The position encodings the server speaks, in the order it prefers them.
ENCODINGS = ("utf-32", "utf-16", "utf-8")

_LINE_END = re.compile(r"\r\n|\r|\n")


def units(text: str, encoding: str) -> int:
    """How many code units ``text`` takes in ``encoding``.

    >>> units("a\\u00e9\\U0001F600", "utf-8"), units("a\\u00e9\\U0001F600", "utf-16")
    (7, 4)
    """
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


#: How many characters apart a long line's checkpoints are (see :class:`LineIndex`).
_STEP = 256


class LineIndex:
    """Where each line of ``text`` starts, to turn offsets into positions and back.

    Each position costs at most :data:`_STEP` characters of counting, however
    long its line: a line of non-ASCII text gets, when first asked about,
    the code units before every 256th character.  :meth:`edit` changes the
    text and the index with it, reading again only the lines it touches.

    >>> index = LineIndex("ab\\ncd\\r\\nef", "utf-16")
    >>> index.edit(1, 4, "X\\r")       # "aX\\r" + "d\\r\\nef": a line end more
    >>> index.text, index.starts, index.position(len(index.text))
    ('aX\\rd\\r\\nef', [0, 3, 6], (2, 2))
    """

    __slots__ = ("text", "encoding", "starts", "ends", "_marks")

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        self.starts, self.ends = _lines(text, 0, len(text))
        self.starts.insert(0, 0)
        self.ends.append(len(text))
        #: Each long non-ASCII line's checkpoints, by its start offset.
        self._marks: Dict[int, List[int]] = {}

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        """The 0-based line that holds ``offset``."""
        return bisect_right(self.starts, offset) - 1

    def edit(self, start: int, end: int, new: str) -> None:
        """Replace the characters ``start`` to ``end`` of the text by ``new``."""
        old = self.text
        start = max(0, min(start, len(old)))
        end = max(start, min(end, len(old)))
        text = old[:start] + new + old[end:]
        delta = len(new) - (end - start)
        # The lines read again: from the line before the edit's (a "\\r" there
        # may meet a "\\n" put at the start) to the line after its end's (one
        # may meet a "\\r" put at the end).
        first = max(0, self.line_of(start) - 1)
        last = self.line_of(end) + 1
        lo = self.starts[first]
        if last + 1 < len(self.starts):
            hi_old = self.starts[last + 1]
            starts, ends = _lines(text, lo, hi_old + delta)
            tail_starts = [s + delta for s in self.starts[last + 1:]]
            tail_ends = [e + delta for e in self.ends[last:]]
            # the scan ends with the line end before the next kept line
            self.starts = self.starts[:first + 1] + starts[:-1] + tail_starts
            self.ends = self.ends[:first] + ends + tail_ends[1:]
        else:
            starts, ends = _lines(text, lo, len(text))
            self.starts = self.starts[:first + 1] + starts
            self.ends = self.ends[:first] + ends + [len(text)]
        self.text = text
        self._marks = {}

    def position(self, offset: int) -> Tuple[int, int]:
        """The (line, column in code units) of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.starts[line]
        if offset - start <= _STEP or self.encoding == "utf-32":
            return line, units(self.text[start:offset], self.encoding)
        marks = self._checkpoints(line)
        if marks is None:
            return line, offset - start
        k = (offset - start) // _STEP
        return line, marks[k] + units(self.text[start + k * _STEP:offset], self.encoding)

    def _checkpoints(self, line: int) -> Optional[List[int]]:
        """The code units before every :data:`_STEP`-th character of a long
        line; None for a line of ASCII (units are characters)."""
        start, end = self.starts[line], self.ends[line]
        marks = self._marks.get(start)
        if marks is None:
            text = self.text
            if text.isascii() or text[start:end].isascii():
                return None
            marks = [0]
            for at in range(start, end, _STEP):
                marks.append(marks[-1] + units(text[at:min(at + _STEP, end)], self.encoding))
            self._marks[start] = marks
        return marks

    def offset(self, line: int, column: int) -> int:
        """The character offset of an LSP position.

        A line past the end means the end of the text; a column past the end
        of its line means the end of the line (before its line end), as the
        LSP specification says.  A column inside a character counts as its
        start.
        """
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start, end = self.starts[line], self.ends[line]
        column = max(column, 0)
        if self.encoding == "utf-32":
            return min(start + column, end)
        i = start
        count = 0
        if end - start > _STEP:
            marks = self._checkpoints(line)
            if marks is None:
                return min(start + column, end)
            k = bisect_right(marks, column) - 1  # the last checkpoint not past the column
            k = min(k, (end - start) // _STEP)
            i, count = start + k * _STEP, marks[k]
        elif self.text[start:end].isascii():
            return min(start + column, end)
        text = self.text
        while i < end:
            step = units(text[i], self.encoding)
            if count + step > column:
                break
            count += step
            i += 1
        return i


def _lines(text: str, lo: int, hi: int) -> Tuple[List[int], List[int]]:
    """The starts of the lines after each line end in ``text[lo:hi]``, and
    where those line ends are."""
    starts: List[int] = []
    ends: List[int] = []
    for m in _LINE_END.finditer(text, lo, hi):
        ends.append(m.start())
        starts.append(m.end())
    return starts, ends
