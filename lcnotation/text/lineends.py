"""Line ends and bytes that are not UTF-8, as the reader and the file helpers
both count them: every line end (LF, CRLF or a lone CR) is one line end, and
a byte that cannot be decoded is named by its offset in the file."""

from __future__ import annotations

from typing import Tuple

__all__ = ["as_lf", "not_utf8"]


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
