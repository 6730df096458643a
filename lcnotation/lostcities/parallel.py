"""One large file in several processes, cut at game boundaries.

The main process reads and decodes the file (fast: the bytes are decoded and
counted in C) and cuts it into pieces of about a megabyte, each at a header
line that certainly starts a game: one whose last non-blank line before it is
plain movetext (a line with no ``{``, ``}``, ``;`` or ``[``; whatever came
before it, such a line holds moves, so the header line after it starts a new
game, see :func:`~lcnotation.lostcities.text.reader.split_games`).  Workers do
a piece each (:func:`mapped`, the one pool of ``lcn lint``, ``fmt``, ``score``
and ``convert``); the main process takes the results in the order of the
file, a piece at a time, so the output is the one of one process
(tests/test_parallel.py holds them equal).

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
from collections import deque
from typing import (IO, Any, Callable, Deque, Generator, Iterable, Iterator, List, Optional,
                    Tuple, TypeVar)

from ..core.findings import Finding
from ..core.lineends import CountingReader
from ..core.lint import FileReport, LintConfig
from .lint import Placing, line_end_finding_ahead, lint_piece
from .text.lexical import LEXICON
from ..core.diagnostics import Diagnostic, Severity
from .game.checker import check
from .game.scoring import GameScore
from .text.ast import Game
from .text.reader import BLANK, Piece, decoded_lines, parse_part, split_games

__all__ = ["pieces", "file_pieces", "mapped", "lint_stream_parallel", "checked_piece",
           "PIECE"]

#: About how many characters a piece holds.
PIECE = 1 << 20

_HEADER_LINE = LEXICON.header_line
_BLANK = LEXICON.blank_text
_NOT_PLAIN = frozenset("{};[")

#: A piece: its items (text ending at line ends, and decoding problems), and
#: the line and character where it starts in the file.
Cut = Tuple[List[Piece], int, int]


def _lf_count(text: str) -> int:
    return text.count("\n")


def _safe_cut(block: str, start: int) -> int:
    """The first place at or after ``start`` in ``block`` where a header line
    certainly starts a game (see the module docstring), or -1."""
    for m in _HEADER_LINE.finditer(block, start):
        end = m.start()  # the line end before the header line
        while end > 0:
            begin = block.rfind("\n", 0, end) + 1
            line = block[begin:end]
            if not _BLANK.match(line):
                if not _NOT_PLAIN.intersection(line):
                    return m.start() + 1
                break
            end = begin - 1
    return -1


def pieces(items: Iterator[Piece], size: Optional[int] = None,
           line_ends: Callable[[str], int] = _lf_count) -> Iterator[Cut]:
    """The decoded ``items`` of a file in pieces of about ``size`` characters
    (default :data:`PIECE`) that each start at a game boundary (a piece may be
    longer, where no safe place comes).  ``line_ends`` counts the lines a text
    ends (LF by default: decoded text; a converter that keeps CR counts it too)."""
    size = size or PIECE
    held: List[Piece] = []
    length = 0                   # characters held
    line, offset = 1, 0          # where the held piece starts
    held_lines = 0               # line ends in the held text
    for item in items:
        if not isinstance(item, str):
            held.append(item)
            continue
        at = 0  # what of the item is still to place
        while length + len(item) - at >= size:
            cut = _safe_cut(item, max(at, at + size - length - 1))
            if cut <= at:
                break
            head = item[at:cut]
            held.append(head)
            yield held, line, offset
            line += held_lines + line_ends(head)
            offset += length + len(head)
            held, length, held_lines = [], 0, 0
            at = cut
        if at < len(item):
            rest = item[at:] if at else item
            held.append(rest)
            length += len(rest)
            held_lines += line_ends(rest)
    if held:
        yield held, line, offset


def file_pieces(handle: IO[bytes], progress: Optional[Callable[[int], None]] = None
                ) -> Iterator[Cut]:
    """The pieces of the binary file ``handle``, decoded (LF line ends)."""
    return pieces(decoded_lines(CountingReader(handle, progress)))  # type: ignore[arg-type]


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
           extra: Any) -> Generator[Tuple[_J, _R], None, None]:
    """Each of ``cuts`` (pieces of a file) with ``work((cut, extra))``, done in
    ``jobs`` processes, in the order of ``cuts`` (at most two a process in
    flight).  ``work`` must be a module-level function.  When the caller
    stops early (an exception where it is, or it closes the iterator), the
    workers are ended at once: none outlives the run."""
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


def _lint_work(job: Tuple[Cut, Tuple[str, LintConfig]]) -> Tuple[FileReport, Optional[str]]:
    (items, line, offset), (path, config) = job
    return lint_piece(items, line, offset, path, config)


def lint_stream_parallel(handle: IO[bytes], path: str, config: LintConfig, jobs: int,
                         emit: Callable[[List[Finding]], object],
                         progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """As :func:`~lcnotation.lostcities.lint.lint_stream_emitting` for a
    regular file, in ``jobs`` worker processes; the findings go to ``emit``
    in the order of the file, a piece's at a time."""
    place = Placing(line_end_finding_ahead(handle, config, path), emit)
    report = FileReport(path)
    marker: Optional[str] = None  # the file's first discard marker, so far
    done_pieces = mapped(file_pieces(handle, progress), jobs, _lint_work, (path, config))
    with contextlib.closing(done_pieces):
        for cut, (done, left) in done_pieces:
            if marker is not None and left is not None and left != marker \
                    and config.dialect is None:
                # The piece's discards are not marked as the file's: lint it
                # again with the file's marker (its first discard is then S101).
                done, left = lint_piece(*cut, path, config, marker)
            if marker is None:
                marker = left
            report.games += done.games
            report.moves += done.moves
            if done.findings:
                place(done.findings)
    place.finish()
    return report


#: A game as ``lcn score`` shows it: the game (its headers and syntax errors
#: only), its score and its errors.
Checked = Tuple[Game, GameScore, List[Diagnostic]]


def checked_piece(cut: Cut, path: str, colors: Tuple[str, ...]) -> List[Checked]:
    """The games of a piece, checked as ``lcn score`` checks them (as
    :func:`~lcnotation.lostcities.text.reader.read_games` reads them)."""
    items, line, offset = cut
    found: List[Checked] = []
    for part in split_games(items, line, offset):
        if part.problems or not BLANK.match(part.text):
            game = parse_part(part, False, path)
            report = check(game, path=path, default_colors=colors)
            errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
            found.append((Game(game.headers, errors=game.errors), report.score, errors))
    return found

