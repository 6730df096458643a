"""Linting one large file in several processes, cut at game boundaries.

The main process reads and decodes the file (fast: the bytes are decoded and
counted in C) and cuts it into pieces of about a megabyte, each at a header
line that certainly starts a game: one whose last non-blank line before it is
plain movetext (a line with no ``{``, ``}``, ``;`` or ``[``; whatever came
before it, such a line holds moves, so the header line after it starts a new
game, see :func:`~lcnotation.lostcities.text.reader.split_games`).  Workers
lint the pieces (:func:`~lcnotation.lostcities.lint.lint_piece`); the main
process gives their findings in the order of the file, a piece at a time,
with S107 in its place, so the report is the one :func:`~lcnotation.lostcities.lint.lint_stream`
makes (tests/test_parallel.py holds them equal).

What one game tells the next is the file's first discard marker: a worker
starts without it and says the one it leaves; a piece whose first discard is
not marked as the file's is linted again here with the file's (rare: a file
whose discard marker changes).  At most two pieces a worker are in flight,
so memory holds a few megabytes whatever the size of the file.
"""

from __future__ import annotations

from collections import deque
from typing import IO, Any, Callable, Deque, Iterator, List, Optional, Tuple, TypeVar

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

__all__ = ["pieces", "mapped", "lint_stream_parallel", "checked_games", "PIECE"]

#: About how many characters a piece holds.
PIECE = 1 << 20

_HEADER_LINE = LEXICON.header_line
_BLANK = LEXICON.blank_text
_NOT_PLAIN = frozenset("{};[")

#: A piece: its items (text ending at line ends, and decoding problems), and
#: the line and character where it starts in the file.
Cut = Tuple[List[Piece], int, int]


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


def pieces(items: Iterator[Piece], size: int = PIECE) -> Iterator[Cut]:
    """The decoded ``items`` of a file in pieces of about ``size`` characters
    that each start at a game boundary (a piece may be longer, where no safe
    place comes)."""
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
            line += held_lines + head.count("\n")
            offset += length + len(head)
            held, length, held_lines = [], 0, 0
            at = cut
        if at < len(item):
            rest = item[at:] if at else item
            held.append(rest)
            length += len(rest)
            held_lines += rest.count("\n")
    if held:
        yield held, line, offset


def _work(job: Tuple[Cut, str, LintConfig]) -> Tuple[FileReport, Optional[str]]:
    (items, line, offset), path, config = job
    return lint_piece(items, line, offset, path, config)


def lint_stream_parallel(handle: IO[bytes], path: str, config: LintConfig, jobs: int,
                         emit: Callable[[List[Finding]], object],
                         progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """As :func:`~lcnotation.lostcities.lint.lint_stream_emitting` for a
    regular file, in ``jobs`` worker processes; the findings go to ``emit``
    in the order of the file, a piece's at a time."""
    from concurrent.futures import Future, ProcessPoolExecutor

    place = Placing(line_end_finding_ahead(handle, config, path), emit)
    report = FileReport(path)
    marker: Optional[str] = None  # the file's first discard marker, so far
    in_flight: Deque[Tuple[Cut, "Future[Tuple[FileReport, Optional[str]]]"]] = deque()

    def settle() -> None:
        nonlocal marker
        cut, future = in_flight.popleft()
        done, left = future.result()
        if marker is not None and left is not None and left != marker \
                and config.dialect is None:
            # The piece's discards are not marked as the file's: lint it again
            # with the file's marker (its first discard is then S101).
            done, left = lint_piece(*cut, path, config, marker)
        if marker is None:
            marker = left
        report.games += done.games
        report.moves += done.moves
        if done.findings:
            place(done.findings)

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for cut in pieces(decoded_lines(CountingReader(handle, progress))):  # type: ignore[arg-type]
            in_flight.append((cut, pool.submit(_work, (cut, path, config))))
            if len(in_flight) >= 2 * jobs:
                settle()
        while in_flight:
            settle()
    place.finish()
    return report


_R = TypeVar("_R")


def mapped(handle: IO[bytes], jobs: int, work: Callable[[Tuple[Cut, Any]], _R], extra: Any,
           progress: Optional[Callable[[int], None]] = None) -> Iterator[_R]:
    """``work((piece, extra))`` for each piece of the file ``handle``, in
    ``jobs`` processes, the results in the order of the file (at most two
    pieces a process in flight).  ``work`` must be a module-level function."""
    from concurrent.futures import Future, ProcessPoolExecutor

    waiting: Deque["Future[_R]"] = deque()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for cut in pieces(decoded_lines(CountingReader(handle, progress))):  # type: ignore[arg-type]
            waiting.append(pool.submit(work, (cut, extra)))
            if len(waiting) >= 2 * jobs:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()


#: A game as ``lcn score`` shows it: the game (headers and syntax errors
#: only, when checked in another process), its score and its errors.
Checked = Tuple[Game, GameScore, List[Diagnostic]]


def checked_piece(job: Tuple[Cut, Tuple[str, Tuple[str, ...]]]) -> List[Checked]:
    """The games of a piece, checked as ``lcn score`` checks them (as
    :func:`~lcnotation.lostcities.text.reader.read_games` reads them)."""
    (items, line, offset), (path, colors) = job
    found: List[Checked] = []
    for part in split_games(items, line, offset):
        if part.problems or not BLANK.match(part.text):
            game = parse_part(part, False, path)
            report = check(game, path=path, default_colors=colors)
            errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
            found.append((Game(game.headers, errors=game.errors), report.score, errors))
    return found


def checked_games(handle: IO[bytes], path: str, colors: Tuple[str, ...],
                  jobs: int) -> Iterator[Checked]:
    """Every game of the file ``handle`` checked, in ``jobs`` processes, in
    the order of the file."""
    for found in mapped(handle, jobs, checked_piece, (path, colors)):
        yield from found
