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
from typing import List, Tuple

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
        return len(text) + sum(1 for c in text if c > "\uffff")
    return len(text.encode("utf-8", "surrogatepass"))


class LineIndex:
    """Where each line of ``text`` starts, to turn offsets into positions and back."""

    __slots__ = ("text", "encoding", "starts", "ends")

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        starts: List[int] = [0]
        ends: List[int] = []
        for m in _LINE_END.finditer(text):
            ends.append(m.start())
            starts.append(m.end())
        ends.append(len(text))
        self.starts = starts
        #: Where each line's text ends (before its line end).
        self.ends = ends

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        """The 0-based line that holds ``offset``."""
        return bisect_right(self.starts, offset) - 1

    def position(self, offset: int) -> Tuple[int, int]:
        """The (line, column in code units) of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.starts[line]
        return line, units(self.text[start:offset], self.encoding)

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
        if self.encoding == "utf-32" or self.text[start:end].isascii():
            return min(start + max(column, 0), end)
        count = 0
        i = start
        while i < end:
            step = units(self.text[i], self.encoding)
            if count + step > column:
                break
            count += step
            i += 1
        return i
