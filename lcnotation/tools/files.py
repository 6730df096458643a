"""Reading whole files and writing them back without damage.

Records are read as UTF-8 with their line ends normalised to LF (the
positions the parser reports are those an editor shows).  Writing puts back
the file's own line ends and byte-order mark and replaces the file
atomically: a crash leaves either the old file or the new one, never half.

>>> source = decode_source(b"\\xef\\xbb\\xbfR3-D\\r\\nB4-D\\r\\n")
>>> source.text, source.encode("R4-D\\n")
('R3-D\\nB4-D\\n', b'\\xef\\xbb\\xbfR4-D\\r\\n')
"""

from __future__ import annotations

import errno
import filecmp
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Iterator, Optional, Tuple

from ..text.ast import Span
from ..text.errors import NotationError
from ..text.lineends import as_lf, newline_style, not_utf8
from .newlines import majority_line_end_of

__all__ = ["BOM", "SourceFile", "decode_text", "decode_source", "read_source",
           "atomic_writer", "write_atomic"]

#: The UTF-8 byte-order mark.
BOM = b"\xef\xbb\xbf"

_DEVICE_FOLDERS = ("/dev/", "/proc/")


@dataclass(frozen=True)
class SourceFile:
    """A file's text (LF line ends) and how to write it back."""

    text: str
    #: "\n", "\r\n" or "\r"; None when the file mixes them.
    newline: Optional[str]
    bom: bool
    #: The line end most lines use (the same as ``newline`` unless mixed).
    majority: str = "\n"

    def encode(self, text: str, newline: Optional[str] = None) -> bytes:
        """``text`` (LF line ends) as this file's bytes; ``newline`` chooses the
        line end of a file that mixes them (see S107)."""
        newline = newline if newline is not None else self.newline
        if newline is None:
            raise ValueError("the file mixes line ends; it is not rewritten")
        if newline != "\n":
            text = text.replace("\n", newline)
        return (BOM if self.bom else b"") + text.encode("utf-8")


def decode_text(data: bytes) -> Tuple[str, bool]:
    """The text of a record's bytes, line ends as they are, and whether a
    byte-order mark (not part of the text) came first.

    Raises NotationError (N001) for bytes that are not UTF-8, at the line and
    column the reader reports for them (a lone CR ends a line too).

    >>> decode_text(b"R3-D\\r\\n")
    ('R3-D\\r\\n', False)
    >>> decode_text(b"R3-D\\rG\\xff")
    Traceback (most recent call last):
    ...
    lcnotation.text.errors.NotationError: line 2, column 2: not UTF-8 text: byte 0xff at byte offset 6 cannot be decoded (N001)
    """
    bom = data.startswith(BOM)
    skipped = len(BOM) if bom else 0
    try:
        return data[skipped:].decode("utf-8"), bom
    except UnicodeDecodeError as exc:
        message, line, column, at = not_utf8(data[skipped:], exc, skipped)
        raise NotationError(message, Span(line, column, line, column + 1, at, at + 1),
                            code="N001") from None


def decode_source(data: bytes) -> SourceFile:
    """Decode the bytes of a record; raises NotationError (N001) for non-UTF-8 data.

    >>> decode_source(b"R3-D\\r\\nB4-D\\r\\n")
    SourceFile(text='R3-D\\nB4-D\\n', newline='\\r\\n', bom=False, majority='\\r\\n')
    >>> decode_source(b"R3-D\\nB4-D\\r\\n").newline is None
    True
    """
    text, bom = decode_text(data)
    newline = newline_style(text)
    majority = newline if newline is not None else majority_line_end_of(text)
    return SourceFile(as_lf(text), newline, bom, majority)


def read_source(path: str) -> SourceFile:
    """Read and decode a record file (OSError and NotationError propagate)."""
    with open(path, "rb") as handle:
        return decode_source(handle.read())


@contextmanager
def atomic_writer(path: str) -> Iterator[IO[bytes]]:
    """A binary file to write the new content of ``path`` to.

    The file at ``path`` is replaced (keeping its mode) only when the block
    ends normally; on an exception it is left as it was.  When the new
    content is the same as the old, the file is not touched at all.  A
    symbolic link is followed (the file it points to is replaced, the link
    stays); a file we may not write is refused (PermissionError), as
    ``open`` would; something that is not a regular file (a pipe,
    ``/dev/stdout``) is written to at the end, as there is nothing to replace.
    """
    try:
        info: Optional[os.stat_result] = os.stat(path)
    except FileNotFoundError:
        info = None
    given, path = path, os.path.realpath(path)
    # /dev/stdout is written to even when it resolves to a regular file (the
    # shell redirected it), as the shell's own "> /dev/stdout" would.
    if info is not None and (not stat.S_ISREG(info.st_mode)
                             or os.path.abspath(given).startswith(_DEVICE_FOLDERS)):
        # Nothing to replace, nor to undo once written: keep it all until the end.
        with tempfile.SpooledTemporaryFile(max_size=1 << 22) as buffer:
            yield buffer
            buffer.seek(0)
            with open(given, "wb") as handle:
                shutil.copyfileobj(buffer, handle)
        return
    if info is not None and not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".lcn-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if info is not None and filecmp.cmp(tmp, path, shallow=False):
            os.unlink(tmp)
            return
        # A new file gets what open() would have given it.
        os.chmod(tmp, stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _sync_directory(directory)


def _sync_directory(directory: str) -> None:
    """Make the rename itself durable (best effort: not every system can)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def write_atomic(path: str, data: bytes) -> None:
    """Replace the file at ``path`` with ``data`` atomically, keeping its mode."""
    with atomic_writer(path) as handle:
        handle.write(data)
