"""Line ends and bytes that are not UTF-8, as every module counts them: every
line end (LF, CRLF or a lone CR) is one line end, and a byte that cannot be
decoded is named by its offset in the file.  Every decision about line ends
is made here: the reader, the formatter, the messages, the JSON form and the
conversion ask these functions rather than looking for CR and LF themselves.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional, Tuple

__all__ = ["as_lf", "lone_cr_as_lf", "not_utf8", "has_line_break", "line_end",
           "lines_with_ends", "newline_style", "LONE_CR"]

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
    crlf = text.count("\r\n")
    return crlf, text.count("\r") - crlf, text.count("\n") - crlf


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
