"""Formatting a whole file as a stream: memory holds one game, not the file.

:func:`format_stream` reads a binary file game by game, writes the canonical
text of each game as it goes (in the file's own line ends and byte-order
mark) and says at the end whether the file changed, and what stands in the
way of rewriting it (bytes that are not UTF-8, syntax errors, a game with no
moves before another, mixed line ends).  ``lcn fmt`` decides from that.

>>> import io
>>> out = io.BytesIO()
>>> result = format_stream(io.BytesIO(b"r3-d  b4-d\\r\\n"), "a.lcn", "v1", out.write)
>>> result.changed, out.getvalue()
(True, b'1. R3-D\\r\\n2. B4-D\\r\\n')
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from typing import IO, Callable, List, Optional

from ..text.ast import Game
from ..text.errors import NotationError
from ..text.formatter import format_game
from ..text.reader import _BLANK, _decoded_lines, _parse, split_games
from .files import BOM, LineEndCounter, SourceKind, TextWriter

__all__ = ["FormatResult", "format_stream", "as_file_writes"]


@dataclass
class FormatResult:
    """What :func:`format_stream` found."""

    #: The canonical text differs from the file's text.
    changed: bool = False
    #: The first bytes that are not UTF-8 (reading stopped there).
    unreadable: Optional[NotationError] = None
    #: The syntax errors of every game, in order.
    error_count: int = 0
    first_error: Optional[NotationError] = None
    #: The number (from 1) of a game with no moves that another game follows.
    empty_game: Optional[int] = None
    #: The file's line ends and byte-order mark (newline None: mixed).
    kind: SourceKind = SourceKind("\n", False)
    #: Whether what was written is the whole canonical text in the file's own
    #: line ends (False when a refusal stopped the writing, or line ends mix).
    complete: bool = False
    #: With ``keep``: the file's text and the canonical text (LF line ends).
    old_text: List[str] = field(default_factory=list)
    new_text: List[str] = field(default_factory=list)


def format_stream(handle: IO[bytes], path: str, dialect: str,
                  write: Optional[Callable[[bytes], object]] = None, *, force: bool = False,
                  keep: bool = False, as_read: bool = True) -> FormatResult:
    """Format the games of the binary file ``handle`` one at a time.

    Each game's canonical text goes to ``write`` (bytes, in the file's line
    ends, after its byte-order mark) as long as nothing stands in the way:
    writing stops at bytes that are not UTF-8, at a syntax error (unless
    ``force``: the unreadable parts are then dropped) and at a game with no
    moves followed by another.  With ``as_read=False`` the text is written
    with LF line ends and no byte-order mark (see :func:`as_file_writes`).
    OSError from reading propagates, as does NotationError N002 (a game
    beyond the reader's bound).
    """
    result = FormatResult()
    counter = LineEndCounter(handle)
    reader = io.BufferedReader(counter, 1 << 16)
    old, new = hashlib.sha256(), hashlib.sha256()
    out: Optional[Callable[[str], object]] = None
    if write is not None:
        out = TextWriter(counter, write) if as_read else _as_lf(write)
    previous: Optional[Game] = None
    index = 0
    for part in split_games(_decoded_lines(reader)):
        unreadable = next((p for p in part.problems if p.code == "N001"), None)
        if unreadable is not None:
            result.unreadable = unreadable
            return result
        old.update(part.text.encode("utf-8"))
        if keep:
            result.old_text.append(part.text)
        if not part.problems and _BLANK.match(part.text):
            continue  # white space between or after games: not a game
        game = _parse(part, False, path)
        if game.errors:
            result.error_count += len(game.errors)
            result.first_error = result.first_error or game.errors[0]
        if previous is not None and not previous.moves and result.empty_game is None:
            result.empty_game = index
        index += 1
        previous = game
        piece = ("\n" if index > 1 else "") + format_game(game, dialect)
        new.update(piece.encode("utf-8"))
        if keep:
            result.new_text.append(piece)
        if out is not None and _may_write(result, force):
            out(piece)
    result.kind = counter.kind
    if write is not None and isinstance(out, TextWriter) and out.newline is None \
            and result.kind.bom:
        write(BOM)  # a file of nothing but its byte-order mark
    result.changed = old.digest() != new.digest()
    result.complete = _may_write(result, force) and (
        out.faithful if isinstance(out, TextWriter) else result.kind.newline is not None)
    return result


def as_file_writes(lf_text: IO[bytes], kind: SourceKind, write: Callable[[bytes], object],
                   size: int = 1 << 20) -> None:
    """Copy ``lf_text`` (UTF-8 with LF line ends, as ``format_stream`` writes
    with ``as_read=False``) to ``write`` in the line ends and byte-order mark of
    ``kind``; a file that mixes line ends gets LF and no mark."""
    if kind.newline is not None and kind.bom:
        write(BOM)
    while True:
        data = lf_text.read(size)
        if not data:
            return
        if kind.newline not in (None, "\n"):
            data = data.replace(b"\n", kind.newline.encode("ascii"))
        write(data)


def _as_lf(write: Callable[[bytes], object]) -> Callable[[str], object]:
    return lambda text: write(text.encode("utf-8"))


def _may_write(result: FormatResult, force: bool) -> bool:
    return (force or not result.error_count) and result.empty_game is None
