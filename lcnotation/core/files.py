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
import io
import filecmp
import os
import re
import shutil
import stat
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Callable, Iterator, List, Optional, Set, Tuple

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

from ..core.span import Span
from .diagnostics import NotationError
from .lineends import LineEndCounts, as_lf, newline_of, newline_style, not_utf8
from .lineends import CountingReader, majority_line_end_of

__all__ = ["BOM", "LineEndCounter", "TextWriter", "WriteFailed", "guarded", "NotRegularFile",
           "not_regular", "SourceFile", "SourceKind", "decode_text", "decode_source", "read_source",
           "atomic_writer", "write_atomic", "Identity", "identity_of", "ChangedMeanwhile",
           "display_path"]


def display_path(path: str) -> str:
    """A path as every message, annotation and log shows it: as the user wrote
    it (or as it was found in a folder the user named), less a leading ``./``;
    ``-`` (standard input) stays ``-``.

    >>> display_path("./a.lcn"), display_path(".//g/a.lcn"), display_path("../a.lcn")
    ('a.lcn', 'g/a.lcn', '../a.lcn')
    >>> display_path("./"), display_path("/abs/a.lcn"), display_path("-")
    ('.', '/abs/a.lcn', '-')
    """
    seps = ("/", os.sep)
    while path.startswith(tuple("." + s for s in seps)):
        rest = path[2:]
        while rest.startswith(seps):
            rest = rest[1:]
        if not rest:
            return "."
        path = rest
    return path

#: The UTF-8 byte-order mark.
BOM = b"\xef\xbb\xbf"

_DEVICE_FOLDERS = ("/dev/", "/proc/")


class NotRegularFile(str):
    """The path of something found in a folder walk that is not a regular file
    (a FIFO, a socket, a device): reading it could wait forever, so it is
    reported instead (see :func:`not_regular`)."""

    kind = "not a file"

    @classmethod
    def of(cls, path: str, mode: int) -> "NotRegularFile":
        found = cls(path)
        found.kind = next((kind for test, kind in _KINDS if test(mode)), "not a file")
        return found


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISDIR, "a folder"))


def not_regular(path: str) -> Optional[str]:
    """Why ``path`` is not read, when a folder walk found it not to be a regular file."""
    if isinstance(path, NotRegularFile):
        return f"not a regular file ({path.kind})"
    return None


@dataclass(frozen=True)
class SourceFile:
    """A file's text (LF line ends) and how to write it back."""

    text: str
    #: "\n", "\r\n" or "\r"; None when the file mixes them.
    newline: Optional[str]
    bom: bool
    #: The line end most lines use (the same as ``newline`` unless mixed).
    majority: str = "\n"
    #: The file as it was read (:func:`identity_of`), for a rewrite to check
    #: that it is still that file; None for standard input.
    identity: "Optional[Identity]" = field(default=None, compare=False, repr=False)

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
    lcnotation.core.diagnostics.NotationError: line 2, column 2: not UTF-8 text: byte 0xff at byte offset 6 cannot be decoded (N001)
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


@dataclass(frozen=True)
class SourceKind:
    """How a file is written, found without holding it: see :class:`LineEndCounter`."""

    #: "\n", "\r\n" or "\r"; None when the file mixes them.
    newline: Optional[str]
    bom: bool


class LineEndCounter(io.RawIOBase):
    """A binary file read through, its line ends counted (by
    :class:`~lcnotation.core.lineends.CountingReader`) and its byte-order mark
    noted as the bytes pass: how to write the file back, known without
    holding it (:attr:`kind`, final once the file is read)."""

    def __init__(self, handle: IO[bytes]) -> None:
        super().__init__()
        self._counted = CountingReader(handle)
        self._start = b""   # the first bytes, for the byte-order mark

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: "WriteableBuffer") -> int:
        view = memoryview(buffer).cast("B")
        data = self._counted.read(len(view))
        view[:len(data)] = data
        if len(self._start) < len(BOM):
            self._start += data[:len(BOM) - len(self._start)]
        return len(data)

    @property
    def counted(self) -> CountingReader:
        """What counts the line ends of the bytes read through."""
        return self._counted

    @property
    def _counts(self) -> LineEndCounts:
        return self._counted.counts

    def newline_so_far(self) -> str:
        """The line end of the file, judged from what was read so far (a CR
        read last may be half a CRLF; a file that mixes them is found out by
        :attr:`kind` at the end)."""
        crlf, cr, lf = self._counts
        return "\r\n" if crlf else "\n" if lf or not cr else "\r"

    @property
    def kind(self) -> SourceKind:
        """The line ends and byte-order mark of what was read so far."""
        return SourceKind(newline_of(self._counts), self._start == BOM)


class WriteFailed(Exception):
    """Writing failed (the OSError is the cause): told apart from reading,
    which raises OSError itself, where both happen in one call."""


def guarded(write: Callable[[bytes], object]) -> Callable[[bytes], object]:
    """``write``, raising :class:`WriteFailed` from its OSError."""
    def write_or_fail(data: bytes) -> object:
        try:
            return write(data)
        except OSError as exc:
            raise WriteFailed() from exc
    return write_or_fail


class TextWriter:
    """Text with LF line ends, written as the bytes of the file ``counter``
    reads: in its line ends (as far as read when the first text comes; see
    :meth:`LineEndCounter.newline_so_far`) and after its byte-order mark."""

    def __init__(self, counter: LineEndCounter, write: Callable[[bytes], object]) -> None:
        self._counter, self._write = counter, write
        #: The line end written; None until the first text.
        self.newline: Optional[str] = None

    def __call__(self, text: str) -> None:
        if self.newline is None:
            self.newline = self._counter.newline_so_far()
            if self._counter.kind.bom:
                self._write(BOM)
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        self._write(text.encode("utf-8"))

    @property
    def faithful(self) -> bool:
        """Whether all that was written is in the file's own line ends (once the
        file is read: False when it mixes them)."""
        kind = self._counter.kind
        return kind.newline is not None and self.newline in (None, kind.newline)


def read_source(path: str) -> SourceFile:
    """Read and decode a record file (OSError and NotationError propagate)."""
    with open(path, "rb") as handle:
        return decode_source(handle.read())


#: What tells a file from the same file changed: its device and inode (a save
#: by rename makes a new one), size and modification time in nanoseconds.
Identity = Tuple[int, int, int, int]


def identity_of(info: os.stat_result) -> Identity:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


class ChangedMeanwhile(OSError):
    """The file to replace changed after it was read (another program saved
    it): it is left as that program wrote it."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.EBUSY, "it changed while lcn was rewriting it (another "
                         "program saved it); not rewritten, run lcn again", path)


def _check_unchanged(path: str, expected: Optional[Identity]) -> None:
    if expected is None:
        return
    try:
        now: Optional[Identity] = identity_of(os.stat(path))
    except FileNotFoundError:
        now = None
    if now != expected:
        raise ChangedMeanwhile(path)


@contextmanager
def atomic_writer(path: str, since: Optional[Identity] = None) -> Iterator[IO[bytes]]:
    """A binary file to write the new content of ``path`` to.

    The file at ``path`` is replaced (keeping its mode) only when the block
    ends normally; on an exception it is left as it was.  When the new
    content is the same as the old, the file is not touched at all.  A
    symbolic link is followed (the file it points to is replaced, the link
    stays); a file we may not write is refused (PermissionError), as
    ``open`` would; something that is not a regular file (a pipe,
    ``/dev/stdout``) is written to at the end, as there is nothing to replace.
    The new file keeps the old one's owner and group, or is refused
    (PermissionError); a file with hard links is refused (OSError, EMLINK),
    as a new file would split it from its other names.

    A file that changes while it is written (an editor saves it) is left as
    it then is: :class:`ChangedMeanwhile` (an OSError) is raised instead of
    replacing it.  ``since`` is the file's :func:`identity_of` when it was
    read, for a caller that read it before this writer was opened; else the
    file as this writer found it counts.
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
    expected = since if since is not None else (identity_of(info) if info is not None
                                                else None)
    _check_unchanged(path, expected)
    directory = os.path.dirname(path)
    remove_stale_temporaries(directory)
    fd, tmp = tempfile.mkstemp(prefix=_TMP_PREFIX, suffix=_TMP_SUFFIX, dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            if info is not None and filecmp.cmp(tmp, path, shallow=False):
                os.unlink(tmp)  # the same content: the file is not touched
                return
            os.fsync(handle.fileno())
        if info is not None:
            _keep_identity(tmp, info)
        # A new file gets what open() would have given it.
        os.chmod(tmp, stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask())
        _check_unchanged(path, expected)  # as late as can be: then the rename
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _sync_directory(directory)


def _keep_identity(tmp: str, info: os.stat_result) -> None:
    """Give the new file ``tmp`` the owner and group of the file it replaces,
    or refuse to replace a file with hard links or whose owner we cannot keep."""
    if info.st_nlink > 1:
        raise OSError(errno.EMLINK, f"it has {info.st_nlink} hard links, which a new file "
                      "would split apart; not rewritten")
    mine = os.stat(tmp)
    if (mine.st_uid, mine.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.chown(tmp, info.st_uid if info.st_uid != mine.st_uid else -1,
                 info.st_gid if info.st_gid != mine.st_gid else -1)
    except PermissionError:
        raise PermissionError(errno.EPERM, f"its owner and group ({info.st_uid}:"
                              f"{info.st_gid}) cannot be kept; not rewritten") from None


#: Temporary files are named ``.lcn-XXXXXXXX.tmp`` (eight characters of mkstemp's).
_TMP_PREFIX, _TMP_SUFFIX = ".lcn-", ".tmp"
_OUR_TEMPORARY = re.compile(r"\.lcn-[a-z0-9_]{8}\.tmp\Z")
#: How old a temporary file of ours must be to count as left behind by a killed
#: run (a run that is writing one touches it all the time).
STALE_AFTER = 3600.0
_cleaned: Set[str] = set()


def remove_stale_temporaries(directory: str, now: Optional[float] = None) -> List[str]:
    """Remove the temporary files a killed ``lcn`` (SIGKILL, a power cut)
    left in ``directory``: only ours (named as we name them, regular files
    that belong to this user, not symbolic links) and only old ones (not
    changed for :data:`STALE_AFTER` seconds).  Each folder is looked at once
    per process.  Returns the paths removed; never raises."""
    key = os.path.abspath(directory)
    if now is None:
        if key in _cleaned:
            return []
        _cleaned.add(key)
    now = time.time() if now is None else now
    removed = []
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if not _OUR_TEMPORARY.match(entry.name):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                    if (stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid()
                            and now - info.st_mtime > STALE_AFTER):
                        os.unlink(entry.path)
                        removed.append(entry.path)
                except OSError:
                    continue
    except OSError:
        pass
    return removed


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


def write_atomic(path: str, data: bytes, since: Optional[Identity] = None) -> None:
    """Replace the file at ``path`` with ``data`` atomically, keeping its mode
    (``since``: see :func:`atomic_writer`)."""
    with atomic_writer(path, since) as handle:
        handle.write(data)
