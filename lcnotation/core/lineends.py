"""Line ends and bytes that are not UTF-8, as every module counts them: every
line end (LF, CRLF or a lone CR) is one line end, and a byte that cannot be
decoded is named by its offset in the file.  Every decision about line ends
is made here: the reader, the formatter, the messages, the JSON form and the
conversion ask these functions rather than looking for CR and LF themselves.

A stream is counted as it is read (:class:`CountingReader`), so that a file
whose lines end in different ways can be named and written back with the
line end most of its lines use:

>>> import io
>>> counted = CountingReader(io.BytesIO(b"R3-D\\r\\nB4-D\\nG5-D\\n"))
>>> while counted.read(5): pass  # the CRLF is read in two
>>> counted.counts, majority_line_end(*counted.counts), counted.bytes_read
((1, 0, 2), '\\n', 16)
"""

from __future__ import annotations

import re
from typing import IO, Callable, Dict, Iterator, NamedTuple, Optional, Tuple

__all__ = ["as_lf", "lone_cr_as_lf", "not_utf8", "has_line_break", "line_end",
           "lines_with_ends", "newline_style", "LONE_CR", "LINE_END_NAMES", "ProgressReader",
           "CountingReader",
           "majority_line_end", "majority_line_end_of", "Mixed", "mixed", "lf_lines",
           "byte_line_ends"]

#: A CR that is not part of a CRLF: it ends a line too (old Mac files).
LONE_CR = re.compile(r"\r(?!\n)")
# A line with its end (LF, CRLF or a lone CR), or the last line without one.
_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")
_BREAK = re.compile(r"[\r\n]")


def lone_cr_as_lf(text: str) -> str:
    """``text`` with every lone CR as LF, CRLF kept: the same length, so
    offsets into it are those of ``text``.

    >>> lone_cr_as_lf("a\\rb\\r\\nc")
    'a\\nb\\r\\nc'
    """
    return LONE_CR.sub("\n", text) if "\r" in text else text


def has_line_break(text: str) -> bool:
    """Whether ``text`` holds a line end of any kind (LF or CR).

    >>> has_line_break("a b"), has_line_break("a\\rb")
    (False, True)
    """
    return _BREAK.search(text) is not None


def line_end(text: str, pos: int) -> int:
    """The offset where the line holding ``pos`` ends, before its line end
    (``text`` has LF or CRLF line ends).

    >>> line_end("ab\\r\\ncd", 0), line_end("ab\\ncd", 3), line_end("ab\\r\\n", 2)
    (2, 5, 2)
    """
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    if end > pos and text[end - 1] == "\r":
        end -= 1
    return end


def lines_with_ends(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its line end (LF, CRLF or a lone CR).

    >>> list(lines_with_ends("a\\r\\nb\\rc\\nd"))
    ['a\\r\\n', 'b\\r', 'c\\n', 'd']
    """
    return (m.group() for m in _LINE.finditer(text))


def newline_style(text: str) -> Optional[str]:
    """The line end ``text`` uses: ``"\\n"``, ``"\\r\\n"`` or ``"\\r"`` (``"\\n"``
    when it has none), or None when it mixes them.

    >>> newline_style("a\\r\\nb\\r\\n"), newline_style("a"), newline_style("a\\nb\\r\\n")
    ('\\r\\n', '\\n', None)
    """
    return newline_of(line_end_counts(text))


#: How many CRLF, lone CR and LF line ends a text has.
LineEndCounts = Tuple[int, int, int]


def line_end_counts(text: str) -> LineEndCounts:
    r"""The CRLF, lone CR and LF line ends of ``text``, counted.

    >>> line_end_counts("a\r\nb\rc\nd\r\n")
    (2, 1, 1)
    """
    if "\r" not in text:  # the usual case: one count instead of three
        return 0, 0, text.count("\n")
    crlf = text.count("\r\n")
    return crlf, text.count("\r") - crlf, text.count("\n") - crlf


def byte_line_ends(data: bytes) -> LineEndCounts:
    r"""The CRLF, lone CR and LF line ends of ``data`` (bytes), counted (a
    CRLF cut in two at its end counts as a lone CR).

    >>> byte_line_ends(b"a\r\nb\rc\nd\r\n"), byte_line_ends(b"a\nb\n")
    ((2, 1, 1), (0, 0, 2))
    """
    if b"\r" not in data:  # the usual case: one count instead of three
        return 0, 0, data.count(b"\n")
    crlf = data.count(b"\r\n")
    return crlf, data.count(b"\r") - crlf, data.count(b"\n") - crlf


def newline_of(counts: LineEndCounts) -> Optional[str]:
    """The line end of a text with these counts (see :func:`newline_style`)."""
    used = [nl for count, nl in zip(counts, ("\r\n", "\r", "\n")) if count]
    return "\n" if not used else (used[0] if len(used) == 1 else None)


def as_lf(text: str) -> str:
    """``text`` with CRLF and lone CR line ends as LF.

    >>> as_lf("a\\r\\nb\\rc\\n")
    'a\\nb\\nc\\n'
    """
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def not_utf8(data: bytes, exc: UnicodeDecodeError, offset: int) -> Tuple[str, int, int, int]:
    """What to say of the first byte of ``data`` that is not UTF-8 (``exc`` is
    the error of decoding ``data``; ``offset`` is where ``data`` starts in the
    file): the message (N001), and the byte's line (from 1), column and
    character offset within ``data``, with every line end counted as one."""
    before = as_lf(data[:exc.start].decode("utf-8", errors="replace"))
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    message = (f"not UTF-8 text: byte 0x{data[exc.start]:02x} at byte offset "
               f"{offset + exc.start} cannot be decoded")
    return message, line, column, len(before)


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


class ProgressReader:
    """A binary file that counts its bytes as it is read, and calls
    ``progress(bytes_read)`` after each read."""

    def __init__(self, handle: IO[bytes],
                 progress: Optional[Callable[[int], None]] = None) -> None:
        self.handle = handle
        self.progress = progress
        self.bytes_read = 0

    def read(self, size: int = -1) -> bytes:
        data = self.handle.read(size)
        if data:
            self._count(data)
            self.bytes_read += len(data)
            if self.progress is not None:
                self.progress(self.bytes_read)
        return data

    def _count(self, data: bytes) -> None:
        """What a reader that counts more counts of ``data``."""


class CountingReader(ProgressReader):
    """A binary file that counts, as it is read, its bytes and line ends
    (``counts``: CRLF, lone CR, LF) and the line where each kind first ends
    a line; ``progress(bytes_read)`` is called after each read.  The line ends
    of what is read are counted by ``line_ends`` (:func:`byte_line_ends`, or
    a faster function that counts the same)."""

    def __init__(self, handle: IO[bytes],
                 progress: Optional[Callable[[int], None]] = None,
                 line_ends: Callable[[bytes], LineEndCounts] = byte_line_ends) -> None:
        super().__init__(handle, progress)
        self.line_ends = line_ends
        self.crlf = self.cr = self.lf = 0
        self.first: Dict[str, int] = {}
        self._cr_at_end = False

    @property
    def counts(self) -> Tuple[int, int, int]:
        return self.crlf, self.cr, self.lf

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
        crlf, cr, lf = self.line_ends(data)
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

    def follow(self, counts: LineEndCounts, first: Dict[str, int]) -> None:
        """Count, after what this reader has read, the line ends of text that
        comes next in the same file and starts a line (a CRLF is never cut in
        two between them): ``counts`` and ``first`` as a reader of that text
        alone counts them.

        >>> import io
        >>> whole = CountingReader(io.BytesIO(b"a\\nb\\n"))
        >>> more = CountingReader(io.BytesIO(b"c\\r\\nd\\r"))
        >>> _ = whole.read(), more.read()
        >>> whole.follow(more.counts, more.first)
        >>> whole.counts, whole.first
        ((1, 1, 2), {'\\n': 1, '\\r\\n': 3, '\\r': 4})
        """
        before = self.crlf + self.cr + self.lf
        for kind, line in first.items():
            self.first.setdefault(kind, before + line)
        self.crlf += counts[0]
        self.cr += counts[1]
        self.lf += counts[2]


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


class Mixed(NamedTuple):
    """How a text mixes its line ends: the first line that does not end as most
    do, the line end most lines use, and what was counted ("1 CRLF, 2 LF")."""

    line: int
    majority: str
    counts: str


def mixed(counted: CountingReader) -> Optional[Mixed]:
    """How the text ``counted`` read mixes line ends, or None when every line
    ends the same way.

    >>> import io
    >>> counted = CountingReader(io.BytesIO(b"a\\r\\nb\\nc\\n"))
    >>> while counted.read(): pass
    >>> mixed(counted)
    Mixed(line=1, majority='\\n', counts='1 CRLF, 2 LF')
    """
    kinds = [kind for kind, count in zip(_KINDS, counted.counts) if count]
    if len(kinds) < 2:
        return None
    majority = majority_line_end(*counted.counts)
    line = min(counted.first[kind] for kind in kinds if kind != majority)
    counts = ", ".join(f"{count} {LINE_END_NAMES[kind]}"
                       for kind, count in zip(_KINDS, counted.counts) if count)
    return Mixed(line, majority, counts)


#: The kinds of line end in the order :attr:`CountingReader.counts` gives them.
_KINDS = ("\r\n", "\r", "\n")


def lf_lines(text: str) -> Iterator[Tuple[str, str]]:
    """Each line of ``text`` as written and as the reader sees it: a lone CR
    read as LF (the same length, so offsets do not move).

    >>> list(lf_lines("a\\rb\\r\\nc"))
    [('a\\r', 'a\\n'), ('b\\r\\n', 'b\\r\\n'), ('c', 'c')]
    """
    if "\r" not in text:
        yield text, text
        return
    for line in lines_with_ends(text):
        yield line, (line[:-1] + "\n" if line.endswith("\r") else line)
