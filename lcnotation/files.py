"""Reading whole files and writing them back without damage.

Records are read as UTF-8 with their line ends normalised to LF (the
positions the parser reports are those an editor shows).  Writing puts back
the file's own line ends and byte-order mark and replaces the file
atomically: a crash leaves either the old file or the new one, never half.
"""

from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass
from typing import Optional

from .ast import Span
from .errors import NotationError

__all__ = ["SourceFile", "read_source", "decode_source", "write_atomic"]


@dataclass(frozen=True)
class SourceFile:
    """A file's text (LF line ends) and how to write it back."""

    text: str
    #: "\n", "\r\n" or "\r"; None when the file mixes them.
    newline: Optional[str]
    bom: bool

    def encode(self, text: str) -> bytes:
        """``text`` (LF line ends) as this file's bytes."""
        if self.newline is None:
            raise ValueError("the file mixes line ends; it is not rewritten")
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return (b"\xef\xbb\xbf" if self.bom else b"") + text.encode("utf-8")


def decode_source(data: bytes) -> SourceFile:
    """Decode the bytes of a record; raises NotationError (N001) for non-UTF-8 data.

    >>> decode_source(b"R3-D\\r\\nB4-D\\r\\n")
    SourceFile(text='R3-D\\nB4-D\\n', newline='\\r\\n', bom=False)
    """
    bom = data.startswith(b"\xef\xbb\xbf")
    if bom:
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        col = len(data[line_start:exc.start].decode("utf-8", errors="replace")) + 1
        offset = exc.start + (3 if bom else 0)
        raise NotationError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} at byte offset "
                            f"{offset} cannot be decoded",
                            Span(line, col, line, col + 1, -1, -1), code="N001") from None
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [(crlf, "\r\n"), (cr, "\r"), (lf, "\n")]
    used = [nl for count, nl in kinds if count]
    newline = "\n" if not used else (used[0] if len(used) == 1 else None)
    if crlf or cr:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return SourceFile(text, newline, bom)


def read_source(path: str) -> SourceFile:
    """Read and decode a record file (OSError and NotationError propagate)."""
    with open(path, "rb") as handle:
        return decode_source(handle.read())


def write_atomic(path: str, data: bytes) -> None:
    """Replace the file at ``path`` with ``data`` atomically, keeping its mode."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".lcn-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        except FileNotFoundError:
            pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
