"""One large file in several processes, cut at game boundaries.

The main process finds the cuts in bytes
(:func:`~lcnotation.lostcities.text.ranges.ranges`, which reads only a
little around each cut, about every :data:`PIECE` bytes) and hands each
piece out as soon as its cut is found.  A piece must know what the pieces
before it hold: the line and the character where it starts.  For ``lcn
fmt``, ``score`` and ``convert`` the main process reads the file once, a
piece ahead of the workers, for them (:func:`cuts`: line ends counted in C,
and the length of the decoded text where it is not ASCII); for ``lcn lint``
it does not read the file at all: each worker counts its own piece and tells
the others on a board in shared memory (:class:`_Board`,
:func:`lint_stream_parallel`).  A worker reads and decodes its piece's bytes
itself (by the file's path: :class:`Source`, which also tells a file put in
its place meanwhile) and does it (:func:`mapped`, the one pool of ``lcn
lint``, ``fmt``, ``score`` and ``convert``); the main process takes the
results in the order of the file, a piece at a time, so the output is the
one of one process (tests/test_parallel.py holds them equal).  A file that
cannot be opened again by its name (a handle without one) is done in this
process.

Linting: what one game tells the next is the file's first discard marker: a
worker starts without it and says the one it leaves; a piece whose first
discard is not marked as the file's is linted again here with the file's
(rare: a file whose discard marker changes).  At most two pieces a worker are
in flight, so memory holds a few megabytes whatever the size of the file.

Workers ignore SIGINT (Ctrl-C reaches the whole process group: the main
process alone decides) and die of SIGTERM; when the main process stops
early (an interrupt, SIGTERM, an error, a refusal), it ends its workers
before it goes on, so none outlives it.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import struct
from collections import deque
from typing import (IO, Any, Callable, Deque, Dict, Generator, Iterable, Iterator, List,
                    NamedTuple, Optional, Tuple, TypeVar)

from ..core.files import BOM, Identity, identity_of
from ..core.findings import Finding
from ..core.lineends import CountingReader
from ..core.lint import FileReport, LintConfig
from . import accel
from .lint import (Placing, line_end_finding, line_end_finding_ahead, lint_piece,
                   lint_stream_emitting)
from ..core.diagnostics import Diagnostic, Severity
from .game.checker import check
from .game.scoring import GameScore
from .text.ast import Game
from .text.ranges import Range, ranges
from .text.reader import (BLANK, MAX_GAME, Piece, chars_read, decoded_at, parse_part,
                          split_games)

__all__ = ["Cut", "Source", "source_of", "cuts", "cut_bytes", "cut_items", "without_bom",
           "mapped", "readable_at_a_glance", "lint_stream_parallel", "checked_piece", "PIECE",
           "HELD"]

#: About how many bytes a piece holds.
PIECE = 1 << 20


class Cut(NamedTuple):
    """Bytes ``start`` to ``end`` of a file, from the start of a game, and
    where they stand in its text: the line they start on, and the characters
    before them as the reader counts them (``offset``: every line end one,
    the byte-order mark none) and as written (``written``: a CRLF two, for
    ``lcn convert``, which keeps the line ends)."""

    start: int
    end: int
    line: int
    offset: int
    written: int


class Source(NamedTuple):
    """A regular file as a worker opens it: its path, and what tells it from
    another file put there meanwhile (see :func:`~lcnotation.core.files.identity_of`)."""

    path: str
    identity: Identity

    @property
    def size(self) -> int:
        return self.identity[2]


def source_of(handle: IO[bytes], start: Optional[int] = None) -> Optional[Source]:
    """The file that ``handle`` reads, as workers can open it again (a regular
    file, its name still naming it), or None; None too when ``handle`` was
    not read from the file's start (``start``: where it stood; by default,
    where it stands)."""
    name = getattr(handle, "name", None)
    if not isinstance(name, str):
        return None
    try:
        if (handle.tell() if start is None else start) != 0:
            return None
        mine = os.fstat(handle.fileno())
        theirs = os.stat(name)
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return None
    if not stat.S_ISREG(mine.st_mode) or identity_of(mine) != identity_of(theirs):
        return None
    return Source(os.path.abspath(name), identity_of(mine))


def cuts(handle: IO[bytes], size: int, counted: Optional[CountingReader] = None,
         read: Optional[Callable[[int], bytes]] = None,
         seen: Optional[Callable[[bytes], object]] = None) -> Iterator[Cut]:
    """The pieces of the regular file ``handle`` (``size`` bytes), placed; the
    file is read once, a piece at a time as they are asked for, through
    ``read`` (by default ``counted.read``, where ``counted`` counts the line
    ends of ``handle``: one of its own if None), and each piece's bytes,
    after the byte-order mark, go to ``seen``."""
    counted = counted if counted is not None else CountingReader(handle)
    read = read or counted.read
    chars = written = 0
    for start, end in ranges(handle, size, PIECE):
        crlf, cr, lf = counted.counts
        handle.seek(start)
        data = _read(read, end - start)
        yield Cut(start, end, crlf + cr + lf + 1, chars, written)
        data = without_bom(data, start)
        read_chars = chars_read(data)
        chars += read_chars
        written += read_chars + counted.counts[0] - crlf
        if seen is not None:
            seen(data)


def without_bom(data: bytes, start: int) -> bytes:
    """The bytes ``data`` of a piece that starts at byte ``start`` of a file,
    without the file's byte-order mark (which only the first piece can hold)."""
    return data[len(BOM):] if not start and data.startswith(BOM) else data


def readable_at_a_glance(handle: IO[bytes], size: int) -> bool:
    """Whether the regular file ``handle`` (``size`` bytes, read from its
    start) can be read game by game to its end, as far as a quick pass over
    its bytes tells: every piece is UTF-8 and shorter than the reader's
    bound on a game (each game and each line lies within one piece).  False
    says only that a closer look is needed (the reader's own pass)."""
    bad = False

    def seen(data: bytes) -> None:
        nonlocal bad
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            bad = True

    for cut in cuts(handle, size, seen=seen):
        if bad or cut.end - cut.start >= MAX_GAME:
            return False
    return not bad


def _read(read: Callable[[int], bytes], size: int) -> bytes:
    """``size`` bytes from ``read`` (fewer at the end of the file)."""
    data = read(size)
    while len(data) < size:
        more = read(size - len(data))
        if not more:
            break
        data += more
    return data


def cut_bytes(source: Source, cut: "Cut | Range") -> bytes:
    """The bytes of a piece of the file ``source`` (in a worker); OSError
    when it cannot be read, or is no longer the file it was."""
    with open(source.path, "rb") as handle:
        if identity_of(os.fstat(handle.fileno())) != source.identity:
            raise OSError(errno.ESTALE, "the file changed while lcn was reading it; run lcn "
                          "again", source.path)
        handle.seek(cut.start)
        return _read(handle.read, cut.end - cut.start)


def cut_items(source: Source, cut: Cut) -> List[Piece]:
    """A piece of the file ``source``, decoded as the reader decodes it there."""
    return list(decoded_at(cut_bytes(source, cut), cut.start, cut.offset, cut.line))


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the main process and dies of SIGTERM (the
    main process's handlers, inherited by a forked worker, would turn it
    into an exception that the pool hands back)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)


_J = TypeVar("_J")
_R = TypeVar("_R")


def mapped(cuts: Iterable[_J], jobs: int, work: Callable[[Tuple[_J, Any]], _R],
           extra: Any, forked: bool = False) -> Generator[Tuple[_J, _R], None, None]:
    """Each of ``cuts`` (pieces of a file) with ``work((cut, extra))``, done in
    ``jobs`` processes, in the order of ``cuts`` (at most two a process in
    flight; each is handed out as soon as ``cuts`` gives it).  ``work`` must
    be a module-level function.  ``forked``: where processes can be
    forked, the workers are forked from this process (:class:`_Forked`: no
    multiprocessing), ``extra`` is theirs from the start (it may hold what
    cannot be pickled) and each of ``cuts`` must be small
    (:data:`_Forked.RECORD`).  When the caller stops early (an
    exception where it is, or it closes the iterator), the workers are ended
    at once: none outlives the run."""
    if forked and hasattr(os, "fork"):
        yield from _forked_mapped(cuts, jobs, work, extra)
        return
    from concurrent.futures import Future, ProcessPoolExecutor

    waiting: Deque[Tuple[_J, "Future[_R]"]] = deque()
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start)
    try:
        for cut in cuts:
            waiting.append((cut, pool.submit(work, (cut, extra))))
            if len(waiting) >= 2 * jobs:
                cut, future = waiting.popleft()
                yield cut, future.result()
        while waiting:
            cut, future = waiting.popleft()
            yield cut, future.result()
    except BaseException:
        _end(pool)
        raise
    pool.shutdown()


def _end(pool: Any) -> None:
    """Stop ``pool`` now: cancel what waits, end the workers, reap them."""
    pool.shutdown(wait=False, cancel_futures=True)
    workers = list((getattr(pool, "_processes", None) or {}).values())
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    for worker in workers:
        worker.join(5)
        if worker.is_alive():  # pragma: no cover  (SIGTERM is not ignored in a worker)
            worker.kill()
            worker.join()


class _Forked:
    """``jobs`` workers forked from this process, each doing ``work((cut,
    extra))`` for the cuts it takes.  The cuts go down one pipe that every
    worker reads, in records of :data:`RECORD` bytes (a pipe writes that
    much at once, and a read of it takes one whole record), so that they
    are taken in order, each by the first worker free; each worker sends
    its results back on a pipe of its own (a length, then the pickled
    result), read here as they come.  This spares the import and the
    threads of a ``ProcessPoolExecutor`` (multiprocessing, its queues), and
    the pickling of ``extra`` with every cut."""

    RECORD = 512
    #: How many cuts may wait in the pipe at most (what its buffer holds
    #: everywhere, so that handing one out never waits).
    AHEAD = (16 << 10) // RECORD

    def __init__(self, jobs: int, work: Callable[[Tuple[Any, Any]], Any], extra: Any) -> None:
        import gc

        self.pids: List[int] = []
        self.results: Dict[int, int] = {}  # a worker's pipe: its pid
        self.buffers: Dict[int, bytearray] = {}
        self.done: Dict[int, Tuple[bool, Any]] = {}
        self.sent = 0
        tasks, self.tasks = os.pipe()
        frozen = gc.get_freeze_count() == 0
        gc.freeze()  # the workers' collections leave this process's objects (and pages) alone
        try:
            for _ in range(jobs):  # (an error, or Ctrl-C, ends those started: see end)
                read, write = os.pipe()
                pid = os.fork()
                if pid == 0:  # pragma: no cover  (the worker: never returns)
                    code = 1
                    try:
                        os.close(self.tasks)
                        os.close(read)
                        for other in self.results:
                            os.close(other)
                        _worker_start()
                        _serve(tasks, write, work, extra)
                        code = 0
                    finally:
                        os._exit(code)
                os.close(write)
                self.pids.append(pid)
                self.results[read] = pid
                self.buffers[read] = bytearray()
        except BaseException:
            self.end()
            raise
        finally:
            os.close(tasks)
            if frozen:
                gc.unfreeze()

    def send(self, cut: Any) -> int:
        """Hand ``cut`` out; its number."""
        import pickle

        data = pickle.dumps((self.sent, cut), pickle.HIGHEST_PROTOCOL)
        if len(data) > self.RECORD - 2:
            raise ValueError(f"a cut of {len(data)} bytes pickled does not fit a record")
        _write_all(self.tasks, (len(data).to_bytes(2, "little") + data).ljust(self.RECORD,
                                                                               b"\0"))
        self.sent += 1
        return self.sent - 1

    def result(self, number: int) -> Any:
        """The result of cut ``number`` (its exception raised here)."""
        import select

        while number not in self.done:
            ready, _, _ = select.select(list(self.results), [], [])
            for fd in ready:
                data = os.read(fd, 1 << 16)
                if not data:
                    raise OSError(errno.ECHILD, f"worker process {self.results[fd]} ended "
                                  "before it was done; run lcn again")
                self._take(fd, data)
        ok, value = self.done.pop(number)
        if not ok:
            raise value
        return value

    def _take(self, fd: int, data: bytes) -> None:
        import pickle

        buffer = self.buffers[fd]
        buffer += data
        while len(buffer) >= 8:
            size = int.from_bytes(buffer[:8], "little")
            if len(buffer) < 8 + size:
                break
            number, ok, value = pickle.loads(buffer[8:8 + size])
            self.done[number] = (ok, value)
            del buffer[:8 + size]

    def close(self) -> None:
        """No more cuts: the workers end when they have done theirs; reap them."""
        os.close(self.tasks)
        for fd in self.results:
            os.close(fd)
        for pid in self.pids:
            os.waitpid(pid, 0)

    def end(self) -> None:
        """Stop now: end the workers, reap them."""
        import signal
        import time

        for fd in [self.tasks, *self.results]:
            with contextlib.suppress(OSError):
                os.close(fd)
        for pid in self.pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        for pid in self.pids:
            deadline = time.monotonic() + 5
            with contextlib.suppress(ChildProcessError):
                self._reap(pid, deadline)

    @staticmethod
    def _reap(pid: int, deadline: float) -> None:
        import signal
        import time

        while os.waitpid(pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:  # pragma: no cover  (SIGTERM kills a worker)
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return
            time.sleep(0.001)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _serve(tasks: int, results: int, work: Callable[[Tuple[Any, Any]], Any],
           extra: Any) -> None:  # pragma: no cover  (runs in a worker)
    """A forked worker's loop: take a cut, do it, send its result back, until
    the cuts end."""
    import pickle

    while True:
        record = b""
        while len(record) < _Forked.RECORD:
            more = os.read(tasks, _Forked.RECORD - len(record))
            if not more:
                return
            record += more
        number, cut = pickle.loads(record[2:2 + int.from_bytes(record[:2], "little")])
        try:
            done: Tuple[int, bool, Any] = (number, True, work((cut, extra)))
        except BaseException as exc:  # handed back, raised in the main process
            done = (number, False, exc)
        try:
            data = pickle.dumps(done, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an exception that cannot be pickled
            data = pickle.dumps((number, False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        _write_all(results, len(data).to_bytes(8, "little") + data)


def _forked_mapped(cuts: Iterable[_J], jobs: int, work: Callable[[Tuple[_J, Any]], _R],
                   extra: Any) -> Generator[Tuple[_J, _R], None, None]:
    """:func:`mapped` in workers forked by :class:`_Forked`."""
    pool = _Forked(jobs, work, extra)
    waiting: Deque[Tuple[_J, int]] = deque()
    ahead = min(2 * jobs, _Forked.AHEAD)
    try:
        for cut in cuts:
            waiting.append((cut, pool.send(cut)))
            if len(waiting) >= ahead:
                cut, number = waiting.popleft()
                yield cut, pool.result(number)
        while waiting:
            cut, number = waiting.popleft()
            yield cut, pool.result(number)
    except BaseException:
        pool.end()
        raise
    pool.close()


class _Board:
    """What each piece of a file tells the pieces after it (its line ends
    and the characters the reader reads in it), in memory that the forked
    workers share: a worker says its piece's as soon as it has counted them
    and waits for those of the pieces before its own, which the other
    workers count first thing too (pieces are taken in the order of the
    file, so each one before is being counted or is counted).  A slot is
    written figures first and check last, and read check first: a slot whose
    check does not match its figures is not written yet (-1: the piece could
    not be read)."""

    _SLOT = struct.Struct("qqq")

    def __init__(self, pieces: int) -> None:
        import mmap

        self.memory = mmap.mmap(-1, self._SLOT.size * max(pieces, 1))
        self.parent = os.getpid()
        self.known: List[Tuple[int, int]] = [(0, 0)]  # lines and chars before piece i

    @staticmethod
    def _check(index: int, lines: int, chars: int) -> int:
        return ((lines * 0x9E3779B1 + chars * 0x85EBCA77 + index) & 0x3FFFFFFFFFFFFFFF) | 1

    def tell(self, index: int, lines: int, chars: int) -> None:
        """Piece ``index`` holds ``lines`` line ends and ``chars`` characters."""
        slot = self._SLOT.size * index
        struct.pack_into("qq", self.memory, slot, lines, chars)
        struct.pack_into("q", self.memory, slot + 16, self._check(index, lines, chars))

    def fail(self, index: int) -> None:
        """Piece ``index`` could not be read."""
        struct.pack_into("q", self.memory, self._SLOT.size * index + 16, -1)

    def before(self, index: int) -> Tuple[int, int]:
        """The line ends and characters of the file before piece ``index``,
        once the pieces before it have said theirs."""
        known = self.known
        while len(known) <= index:
            lines, chars = self._wait(len(known) - 1)
            done_lines, done_chars = known[-1]
            known.append((done_lines + lines, done_chars + chars))
        return known[index]

    def _wait(self, index: int) -> Tuple[int, int]:
        import time

        waited = 0
        while True:
            lines, chars, check = self._SLOT.unpack_from(self.memory, self._SLOT.size * index)
            if check == self._check(index, lines, chars):
                return lines, chars
            if check == -1:
                raise OSError(errno.EIO, f"piece {index} of the file could not be read")
            waited += 1
            if waited > 100:
                if os.getppid() != self.parent:  # the main process is gone: so is this one
                    os._exit(1)
                time.sleep(0.0005)


class _Told(NamedTuple):
    """What a worker found of its piece for the main process: its line ends
    (``counts``, and ``first``: the line of the piece where each kind first
    ends one) and how many characters the reader reads in it."""

    counts: Tuple[int, int, int]
    first: Dict[str, int]
    chars: int


def _lint_placed(job: Tuple[Tuple[int, Range], Tuple[Source, str, LintConfig, _Board]]
                 ) -> Tuple[FileReport, Optional[str], _Told]:
    """Lint piece ``index`` of a file in a forked worker: its line ends and
    characters counted and told first, then linted from where the pieces
    before it end."""
    (index, piece), (source, path, config, board) = job
    try:
        data = cut_bytes(source, piece)
        counted = CountingReader(io.BytesIO(data), line_ends=accel.line_end_counter())
        counted.read()
        told = _Told(counted.counts, counted.first, chars_read(without_bom(data, piece.start)))
    except BaseException:
        board.fail(index)
        raise
    board.tell(index, sum(told.counts), told.chars)
    lines, chars = board.before(index)
    report, left = lint_piece(data, (piece.start, lines + 1, chars), path, config)
    return report, left, told


#: Findings are held until S107's place is known (the end of the file), up
#: to this many; past it, the file's line ends are counted ahead.
HELD = 10_000


class _Held:
    """Gives findings to ``emit`` through :class:`Placing`, once S107 (about
    the whole file, known at its end) is known; until then holds them, at
    most :data:`HELD` (past it, ``ahead()`` says S107, from the file read
    for its line ends alone, as one process does)."""

    def __init__(self, emit: Callable[[List[Finding]], object],
                 ahead: Callable[[], Optional[Finding]]) -> None:
        self.emit, self.ahead = emit, ahead
        self.place: Optional[Placing] = None
        self.held: List[List[Finding]] = []
        self.count = 0

    def __call__(self, findings: List[Finding]) -> None:
        if self.place is not None:
            self.place(findings)
            return
        self.held.append(findings)
        self.count += len(findings)
        if self.count > HELD:
            self.settle(self.ahead())

    def settle(self, mixed: Optional[Finding]) -> None:
        """S107 is ``mixed`` (or none): what is held goes, in its order."""
        if self.place is None:
            self.place = Placing(mixed, self.emit)
            for findings in self.held:
                self.place(findings)
            self.held = []

    def finish(self, mixed: Optional[Finding]) -> None:
        self.settle(mixed)
        assert self.place is not None
        self.place.finish()


def lint_stream_parallel(handle: IO[bytes], path: str, config: LintConfig, jobs: int,
                         emit: Callable[[List[Finding]], object],
                         progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """As :func:`~lcnotation.lostcities.lint.lint_stream_emitting` for a
    regular file, in ``jobs`` forked worker processes; the findings go to
    ``emit`` in the order of the file, a piece's at a time.

    The main process only finds the cuts (a few KB read around each), and
    hands each piece out as soon as it is found; each worker reads its piece,
    counts its line ends and characters, tells them (:class:`_Board`), and
    lints it from where the pieces before it end.  S107 (about the whole
    file) is made of the pieces' counts at the end; the findings wait for it
    (:class:`_Held`).  Where processes cannot be forked, the file is linted
    in this process."""
    source = source_of(handle)
    if source is None or not hasattr(os, "fork"):
        return lint_stream_emitting(handle, path, config, emit, progress)
    board = _Board(source.size // PIECE + 2)

    def ahead() -> Optional[Finding]:
        handle.seek(0)
        return line_end_finding_ahead(handle, config, path)

    held = _Held(emit, ahead)
    counted = CountingReader(io.BytesIO())  # the line ends of the pieces so far
    report = FileReport(path)
    marker: Optional[str] = None  # the file's first discard marker, so far
    chars = 0
    pieces = enumerate(ranges(handle, source.size, PIECE))
    done_pieces = mapped(pieces, jobs, _lint_placed, (source, path, config, board), forked=True)
    with contextlib.closing(done_pieces):
        for (_, piece), (done, left, told) in done_pieces:
            if marker is not None and left is not None and left != marker \
                    and config.dialect is None:
                # The piece's discards are not marked as the file's: lint it
                # again with the file's marker (its first discard is then S101).
                at = (piece.start, sum(counted.counts) + 1, chars)
                done, left = lint_piece(cut_bytes(source, piece), at, path, config, marker)
            if marker is None:
                marker = left
            counted.follow(told.counts, told.first)
            chars += told.chars
            report.games += done.games
            report.moves += done.moves
            if done.findings:
                held(done.findings)
            if progress is not None:
                progress(piece.end)
    held.finish(line_end_finding(counted, config, path))
    return report


#: A game as ``lcn score`` shows it: the game (its headers and syntax errors
#: only), its score and its errors.
Checked = Tuple[Game, GameScore, List[Diagnostic]]


def checked_piece(cut: Cut, source: Source, path: str, colors: Tuple[str, ...]
                  ) -> List[Checked]:
    """The games of a piece of the file ``source`` (named ``path``), checked
    as ``lcn score`` checks them (as
    :func:`~lcnotation.lostcities.text.reader.read_games` reads them)."""
    found: List[Checked] = []
    for part in split_games(cut_items(source, cut), cut.line, cut.offset):
        if part.problems or not BLANK.match(part.text):
            game = parse_part(part, False, path)
            report = check(game, path=path, default_colors=colors)
            errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
            found.append((Game(game.headers, errors=game.errors), report.score, errors))
    return found

