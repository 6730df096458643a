"""Formatting whole files, game by game, as ``lcn fmt`` does.

Each game is written in the canonical layout (:func:`~lcnotation.lostcities.text.formatter.format_game`)
in the dialect :func:`~lcnotation.lostcities.style.resolve_dialect` chooses for the
file: the configured one, else the file's own spelling, so that ``lcn fmt``
and ``lcn lint`` always expect the same text.

A suppression comment (``; lcn: ignore[S102]``) is honoured as ``lcn lint
--fix`` honours it: on its line, what it suppresses is not fixed (the
letter case for S102, the discard marker for S101, the move number for
S103), and what stands on its line stays on one line, so that it goes on
suppressing what it suppressed and ``lcn fmt``'s output is as clean under
``lcn lint`` as the record was (no S100 appears).

A game with syntax errors is never rewritten: the formatter cannot know
what its unreadable text meant, and dropping it would hand every later move
to the other player.  Unless ``force`` is given such a file is refused
(:class:`FormatRefused`); with ``force`` the game is kept exactly as written
(only its trailing white space goes) and a note says so.

>>> text = '[Round "1"]\\n1. r3-d 2. bhx-d\\n'
>>> print(format_source(text).text, end="")
[Round "1"]
<BLANKLINE>
1. R3-D
2. BHX-D
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from typing import IO, TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from ..core.diagnostics import NotationError
from ..core.suppression import MARK, Suppression
from .lint import suppressions
from .text.ast import Game, Move
from .text.dialects import Dialect
from .text.formatter import format_comment, format_game, format_move, head_lines
from .text.reader import BLANK, GameText, decoded_lines, parse_move, parse_part, split_games
from ..core.files import LineEndCounter, TextWriter
from ..core.notation import FormatRefused, Formatted, Streamed
from .style import first_discard_marker, resolve_dialect

if TYPE_CHECKING:  # pragma: no cover
    from .parallel import Cut, Source

__all__ = ["FormatRefused", "Formatted", "Streamed", "format_source", "format_parts",
           "format_stream", "format_stream_parallel", "format_piece"]


def format_source(text: str, path: str = "<string>", dialect: Optional[str] = None,
                  force: bool = False) -> Formatted:
    """Format the text of a record (LF line ends); see the module docstring.

    ``dialect`` is the configured dialect (None: the file's own spelling).
    """
    kept: List[str] = []
    pieces = format_parts(split_games([text]), path, dialect, force, kept)
    return Formatted("".join(pieces), kept)


def format_parts(parts: Iterable[GameText], path: str, dialect: Optional[str], force: bool,
                 kept: List[str]) -> Iterator[str]:
    """The formatted text of the games ``parts`` (from :func:`split_games`),
    piece by piece, so that a large file can be written as it is read.

    Raises :class:`FormatRefused` at the first game that cannot be formatted;
    appends to ``kept`` a note for each game kept as written.
    """
    return _written(_formatted(parts, path, dialect, force, _Marker()), kept)


#: What formatting made of a game: ``(kind, has_moves, ...)``; the kinds
#: ``text`` (its canonical text), ``kept`` (where, why, the text as written),
#: ``syntax`` (where, how many errors, the first's message: refused) and
#: ``unwritable`` (its line, why).  A game's number (in the notes) is given
#: by :func:`_written`, which sees every game of the file.
Done = Tuple[Any, ...]


class _Marker:
    """The file's first discard marker so far, and whether a game was
    formatted before it was known (a piece of a file does not know it)."""

    def __init__(self, value: Optional[str] = None) -> None:
        self.value = value
        self.unknown_used = False


def _formatted(parts: Iterable[GameText], path: str, dialect: Optional[str], force: bool,
               marker: _Marker) -> Iterator[Done]:
    for part in parts:
        if not part.problems and BLANK.match(part.text):
            continue  # white space alone is not a game
        game = parse_part(part, False, path)
        has_moves = bool(game.moves)
        if game.errors:
            first = game.errors[0]
            where = f"{first.line}:{first.column}"
            if not force:
                yield "syntax", has_moves, where, len(game.errors), first.message
                return
            yield "kept", has_moves, where, first.message, part.text.rstrip() + "\n"
            continue
        if marker.value is None:
            marker.value = first_discard_marker(game, part.text, part.offset)
            marker.unknown_used |= marker.value is None
        try:
            chosen = resolve_dialect(dialect, marker.value)
            yield "text", has_moves, (_format_suppressed(game, part.text, part.offset, chosen)
                                      if MARK in part.text else format_game(game, chosen))
        except ValueError as exc:
            yield "unwritable", has_moves, game.span.line if game.span.known else part.line, \
                str(exc)
            return


def _written(done: Iterable[Done], kept: List[str]) -> Iterator[str]:
    """The text of the games ``done``, with a blank line between two; raises
    :class:`FormatRefused` at the first that cannot be formatted."""
    previous_moves = True
    index = 0
    for kind, has_moves, *what in done:
        index += 1
        if index > 1:
            if not previous_moves:
                raise FormatRefused(f"not formatted: game {index - 1} has no moves and is "
                                    "followed by another game")
            yield "\n"
        previous_moves = has_moves
        if kind == "syntax":
            where, count, message = what
            raise FormatRefused(f"{where}: not formatted: {count} syntax error{'s' if count != 1 else ''}"
                                f" (first: {message}); fix them or use --force")
        if kind == "kept":
            where, message, text = what
            kept.append(f"{where}: game {index} kept as written: it has a syntax error "
                        f"({message})")
            yield text
        elif kind == "unwritable":
            line, why = what
            raise FormatRefused(f"{line}:1: not formatted: game {index} cannot be written: "
                                f"{why}")
        else:
            yield what[0]


def _readable(parts: Iterable[GameText], old: Any) -> Iterator[GameText]:
    """``parts``; the first with bytes that are not UTF-8 raises its N001;
    each part's text goes into the digest ``old``."""
    for part in parts:
        unreadable = next((p for p in part.problems if p.code == "N001"), None)
        if unreadable is not None:
            raise unreadable
        old.update(part.text.encode("utf-8", "surrogatepass"))
        yield part


def format_piece(job: Tuple[Cut, Tuple[Source, str, Optional[str], bool, Optional[str]]]
                 ) -> Tuple[List[Done], Optional[str], bool, Optional[NotationError]]:
    """Format a piece of the file ``source`` (in a worker of ``lcn fmt -j N``),
    as if the games before it had left the file's first discard marker
    ``marker``: what was made of its games, the marker it leaves, whether a
    game was formatted before any marker was known, and the N001 that stopped
    it (or None)."""
    cut, (source, path, dialect, force, marker) = job
    from .parallel import cut_items

    state = _Marker(marker)
    done: List[Done] = []
    parts = split_games(cut_items(source, cut), cut.line, cut.offset)
    try:
        done.extend(_formatted(_readable(parts, _NoDigest()), path, dialect, force, state))
    except NotationError as unreadable:
        return done, state.value, state.unknown_used, unreadable
    return done, state.value, state.unknown_used, None


class _NoDigest:
    def update(self, data: bytes) -> None:
        pass


def format_stream_parallel(handle: IO[bytes], path: str, dialect: Optional[str], force: bool,
                           jobs: int, write: Optional[Callable[[bytes], object]] = None
                           ) -> Streamed:
    """:func:`format_stream` of a regular file, its pieces formatted in
    ``jobs`` processes (:mod:`~lcnotation.lostcities.parallel`): the same
    text, notes and refusals.  A piece whose games were formatted with another
    discard marker than the file's (one that is not known to the worker) is
    formatted again here with the file's.  This process reads the file once
    for its line ends and the digest of its text (the text of valid UTF-8 is
    its bytes, line ends as LF; a file that is not is refused)."""
    from .parallel import cuts, mapped, source_of

    source = source_of(handle)
    if source is None:
        return format_stream(handle, path, dialect, force, write)
    counter = LineEndCounter(handle)
    old, new = hashlib.blake2b(), hashlib.blake2b()

    def seen(data: bytes) -> None:
        old.update(data.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in data
                   else data)

    def done() -> Iterator[Done]:
        marker: Optional[str] = None
        results = mapped(cuts(handle, source.size, counter.counted, counter.read, seen), jobs, format_piece,
                         (source, path, dialect, force, None), forked=True)
        with contextlib.closing(results):
            for cut, (games, left, unknown_used, unreadable) in results:
                if dialect is None and marker is not None and (unknown_used or left != marker):
                    games, left, unknown_used, unreadable = format_piece(
                        (cut, (source, path, dialect, force, marker)))
                if marker is None:
                    marker = left
                yield from games
                if unreadable is not None:
                    raise unreadable

    return _streamed(counter, done(), old, new, write)

def _format_suppressed(game: Game, text: str, offset: int, dialect: Dialect) -> str:
    """:func:`format_game`, honouring the game's suppression comments (see
    the module docstring); ``text`` is the game's source from file offset
    ``offset``."""
    found: Dict[int, List[Suppression]] = {}
    for sup in suppressions(game):
        found.setdefault(sup.line, []).append(sup)
    if not found:
        return format_game(game, dialect)

    def covers(line: int, code: str) -> bool:
        return any(s.codes is None or any(code.startswith(c) for c in s.codes)
                   for s in found.get(line, ()))

    out = head_lines(game)
    current: Optional[str] = None  # the line being written
    source = -1  # the source line of the last thing written on it
    for i, move in enumerate(game.moves, 1):
        line = move.span.line if move.span.known else -1
        number = i
        if line in found and covers(line, "S103") and move.number is not None:
            number = move.number
        written = f"{number}. {_spelt(move, text, offset, dialect, line, covers)}"
        if current is not None and line == source and line in found:
            current += " " + written  # a suppression's line stays one line
        else:
            if current is not None:
                out.append(current)
            current = written
        source = line
        for c in move.comments:
            start = c.span.line if c.span.known else -1
            comment = format_comment(c)
            if current is None or (start in found and start != source):
                # A comment that opens a suppression's line opens it here too.
                if current is not None:
                    out.append(current)
                current = comment
            else:
                current += " " + comment
            source = start
            if c.kind == "line":
                out.append(current)
                current = None
    if current is not None:
        out.append(current)
    return "".join(line + "\n" for line in out)


def _spelt(move: Move, text: str, offset: int, dialect: Dialect, line: int,
           covers: Callable[[int, str], bool]) -> str:
    """``move`` in ``dialect``, but as written where a suppression on its
    ``line`` covers its letter case (S102) or its discard marker (S101)."""
    canonical = format_move(move, dialect)
    case, marker = covers(line, "S102"), covers(line, "S101")
    if not (case or marker) or not move.span.known:
        return canonical
    written = text[move.span.start - offset:move.span.end - offset]
    if not case:
        written = written.lower() if dialect.lowercase else written.upper()
    if not marker and move.placement.discard:
        at = written.index("-") - 1
        wanted = dialect.discard.upper() if written[at].isupper() else dialect.discard.lower()
        written = written[:at] + wanted + written[at + 1:]
    try:
        again = parse_move(written)
    except NotationError:
        return canonical
    same = (again.placement, again.draw) == (move.placement, move.draw)
    return written if same else canonical


def format_stream(handle: IO[bytes], path: str, dialect: Optional[str], force: bool,
                  write: Optional[Callable[[bytes], object]] = None) -> Streamed:
    """Format the binary file ``handle`` game by game, as :func:`format_source`
    formats its whole text: memory holds one game, not the file.

    Each game's canonical text goes to ``write`` as soon as it is made, in
    the file's line ends (as far as read; see
    :class:`~lcnotation.core.files.TextWriter`) and after its byte-order
    mark.  Whether the file changed is found by comparing digests of the text
    read and the text made.  Raises :class:`FormatRefused` as
    :func:`format_parts` does, NotationError at bytes that are not UTF-8 and
    OSError when reading fails (the reader's bounds included).

    >>> out = io.BytesIO()
    >>> found = format_stream(io.BytesIO(b"r3-d  b4-d\\r\\n"), "a.lcn", None, False, out.write)
    >>> found.changed, found.faithful, out.getvalue()
    (True, True, b'1. R3-D\\r\\n2. B4-D\\r\\n')
    """
    counter = LineEndCounter(handle)
    lines = decoded_lines(io.BufferedReader(counter, 1 << 16))
    old, new = hashlib.blake2b(), hashlib.blake2b()
    done = _formatted(_readable(split_games(lines), old), path, dialect, force, _Marker())
    return _streamed(counter, done, old, new, write)


def _streamed(counter: LineEndCounter, done: Iterable[Done], old: Any, new: Any,
              write: Optional[Callable[[bytes], object]]) -> Streamed:
    """Write the games ``done`` of the file that ``counter`` reads; what was found."""
    writer = TextWriter(counter, write) if write is not None else None
    kept: List[str] = []
    for piece in _written(done, kept):
        new.update(piece.encode("utf-8", "surrogatepass"))
        if writer is not None:
            writer(piece)
    if writer is not None and writer.newline is None:
        writer("")  # nothing written: the byte-order mark alone
    faithful = writer.faithful if writer is not None else counter.kind.newline is not None
    return Streamed(old.digest() != new.digest(), counter.kind, faithful, kept)
