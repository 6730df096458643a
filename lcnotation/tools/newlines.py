"""Files that mix line ends (S107), and counting what a stream has read.

A file whose lines end in different ways (LF, CRLF, a lone CR) reads the
same, but it cannot be written back as it was: ``lcn lint`` reports it once
(S107), and ``lcn lint --fix`` and ``lcn fmt`` write every line end as the
one most lines use.

>>> import io
>>> counted = CountingReader(io.BytesIO(b"R3-D\\r\\nB4-D\\nG5-D\\n"))
>>> while counted.read(5): pass  # the CRLF is read in two
>>> counted.counts, majority_line_end(*counted.counts), counted.bytes_read
((1, 0, 2), '\\n', 16)
>>> mixed_line_ends(counted).diagnostic.message
'the file mixes line ends (1 CRLF, 2 LF): line 1 is the first not to end with LF, as most lines do'
"""

from __future__ import annotations

from typing import IO, Callable, Dict, Optional, Tuple

from ..text.ast import Span
from ..text.errors import Diagnostic
from .style import STYLE_CODES, Finding, Fix

__all__ = ["CountingReader", "majority_line_end", "majority_line_end_of", "mixed_line_ends",
           "LINE_END_NAMES"]

LINE_END_NAMES = {"\n": "LF", "\r\n": "CRLF", "\r": "CR"}


def majority_line_end(crlf: int, cr: int, lf: int) -> str:
    """The line end most lines use (LF, then CRLF, on a tie; LF for none)."""
    return max((lf, 2, "\n"), (crlf, 1, "\r\n"), (cr, 0, "\r"))[2]


def majority_line_end_of(text: str) -> str:
    """The line end most lines of ``text`` use (see :func:`majority_line_end`).

    >>> majority_line_end_of("a\\r\\nb\\nc\\r\\n")
    '\\r\\n'
    """
    crlf = text.count("\r\n")
    return majority_line_end(crlf, text.count("\r") - crlf, text.count("\n") - crlf)


class CountingReader:
    """A binary file that counts, as it is read, its bytes and line ends
    (``counts``: CRLF, lone CR, LF) and the line where each kind first ends
    a line; ``progress(bytes_read)`` is called after each read."""

    def __init__(self, handle: IO[bytes],
                 progress: Optional[Callable[[int], None]] = None) -> None:
        self.handle = handle
        self.progress = progress
        self.bytes_read = 0
        self.crlf = self.cr = self.lf = 0
        self.first: Dict[str, int] = {}
        self._cr_at_end = False

    @property
    def counts(self) -> Tuple[int, int, int]:
        return self.crlf, self.cr, self.lf

    def read(self, size: int = -1) -> bytes:
        data = self.handle.read(size)
        if data:
            self._count(data)
            self.bytes_read += len(data)
            if self.progress is not None:
                self.progress(self.bytes_read)
        return data

    def _count(self, data: bytes) -> None:
        lines_before = self.crlf + self.cr + self.lf
        if self._cr_at_end and data.startswith(b"\n"):
            # A CRLF cut in two: its CR was counted as a lone CR.
            self.cr -= 1
            self.crlf += 1
            data = data[1:]
            if self.first.get("\r") == lines_before and self.cr == 0:
                del self.first["\r"]
                self.first.setdefault("\r\n", lines_before)
        crlf = data.count(b"\r\n")
        cr = data.count(b"\r") - crlf
        lf = data.count(b"\n") - crlf
        self._cr_at_end = data.endswith(b"\r")
        finders: Tuple[Tuple[str, int, Callable[[bytes], int]], ...] = (
            ("\r\n", crlf, _crlf), ("\r", cr, _lone_cr), ("\n", lf, _lone_lf))
        for kind, count, find in finders:
            if count and kind not in self.first:
                at = find(data)
                before = data[:at]
                self.first[kind] = (self.crlf + self.cr + self.lf + before.count(b"\n")
                                    + before.count(b"\r") - before.count(b"\r\n") + 1)
        self.crlf += crlf
        self.cr += cr
        self.lf += lf


def _crlf(data: bytes) -> int:
    return data.find(b"\r\n")


def _lone_cr(data: bytes) -> int:
    at = data.find(b"\r")
    while at >= 0 and data[at + 1:at + 2] == b"\n":
        at = data.find(b"\r", at + 2)
    return at


def _lone_lf(data: bytes) -> int:
    at = data.find(b"\n")
    while at > 0 and data[at - 1:at] == b"\r":
        at = data.find(b"\n", at + 1)
    return at


def mixed_line_ends(counted: CountingReader) -> Optional[Finding]:
    """The S107 finding of a file read through ``counted``, or None when its
    lines all end the same way.  It points at the first line that ends
    otherwise than most do; its fix writes every line end as the majority's."""
    kinds = [kind for kind, count in zip(("\r\n", "\r", "\n"), counted.counts) if count]
    if len(kinds) < 2:
        return None
    majority = majority_line_end(*counted.counts)
    line = min(counted.first[kind] for kind in kinds if kind != majority)
    ends = ", ".join(f"{count} {LINE_END_NAMES[kind]}" for kind, count
                     in zip(("\r\n", "\r", "\n"), counted.counts) if count)
    name = LINE_END_NAMES[majority]
    span = Span(line, 1, line, 1, -1, -1)
    return Finding(Diagnostic("S107", f"the file mixes line ends ({ends}): line {line} is "
                              f"the first not to end with {name}, as most lines do",
                              span, STYLE_CODES["S107"][0]),
                   Fix(f"end every line with {name}", (), newline=majority))
