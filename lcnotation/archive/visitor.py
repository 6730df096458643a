"""A streaming visitor API, in the spirit of python-chess's.

:func:`visit` reads a file game by game and, for each game, calls a fresh
visitor (made by the factory it is given) for the game's start, its headers,
its moves, its comments, its errors and its end, then yields the visitor's
:meth:`~Visitor.result`.  A visitor that returns :data:`SKIP` from
:meth:`~Visitor.begin_game` costs nothing more than finding the game; one
that returns it from :meth:`~Visitor.end_headers` has the headers read and
the moves not parsed.

The ready-made visitors: :class:`TreeBuilder` (the game's syntax tree, as
:func:`read_games` gives it), :class:`HeadersOnly` (the headers, moves not
parsed), :class:`SkipGame` (only where the game is) and :class:`WriteBack`
(each game written to a binary stream exactly as it was written, or in a
dialect).

>>> import io
>>> from lcnotation.archive import visit, HeadersOnly
>>> data = b'[Player1 "Ann"]\\nR3-D\\n[Player1 "Bob"]\\nB4-D\\n'
>>> [(entry.offset, dict((h.name, h.value) for h in headers))
...  for entry, headers in visit(io.BytesIO(data), HeadersOnly)]
[(0, {'Player1': 'Ann'}), (21, {'Player1': 'Bob'})]

A visitor of one's own:

>>> from lcnotation.archive import BaseVisitor
>>> class Discards(BaseVisitor[int]):
...     def begin_game(self, entry):
...         self.count = 0
...     def visit_move(self, move):
...         self.count += move.placement.discard
...     def result(self):
...         return self.count
>>> list(visit(io.BytesIO(b"R3-D BHD-D\\n[Round \\"2\\"]\\nG4D-D"), Discards))
[1, 1]
"""

from __future__ import annotations

import enum
import os
from typing import (IO, Callable, Generic, Iterable, Iterator, List, Optional, Protocol, Tuple, TypeVar,
                    Union, cast)

from ..lostcities.text.ast import Comment, Game, Header, Move
from ..lostcities.text.builder import span_in
from ..core.diagnostics import NotationError
from ..core.span import NO_SPAN
from .reader import GameEntry, Source, scan

__all__ = ["Skip", "SKIP", "Visitor", "BaseVisitor", "visit", "visit_entry", "TreeBuilder",
           "HeadersOnly", "SkipGame", "WriteBack"]

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Skip(enum.Enum):
    """What a visitor returns to have the rest of a game skipped."""

    SKIP = "skip"


#: Returned by :meth:`Visitor.begin_game` (skip the whole game) or
#: :meth:`Visitor.end_headers` (skip the moves, which are then not parsed).
SKIP = Skip.SKIP


class Visitor(Protocol[R_co]):
    """What :func:`visit` calls, in this order, for one game.

    ``begin_game(entry)``; then ``visit_comment`` for each comment before the
    first header; for each header ``visit_header`` and then ``visit_comment``
    for each of its comments; ``end_headers()``; for each move
    ``visit_move`` and then ``visit_comment`` for each of its comments;
    ``visit_error`` for each syntax error (when the moves are read);
    ``end_game()``; and ``result()``, whatever was skipped.  Every call may
    return :data:`SKIP` where noted; the others return None.
    """

    def begin_game(self, entry: GameEntry) -> Optional[Skip]:
        """A game begins; :data:`SKIP` skips it (nothing is parsed)."""
        ...

    def visit_header(self, header: Header) -> None:
        """A header (its comments follow, each with :meth:`visit_comment`)."""
        ...

    def end_headers(self) -> Optional[Skip]:
        """The headers are done; :data:`SKIP` skips the moves (they are not parsed)."""
        ...

    def visit_move(self, move: Move) -> None:
        """A move, in the order played (its comments follow)."""
        ...

    def visit_comment(self, comment: Comment) -> None:
        """A comment, after the header or move it follows (or before the first)."""
        ...

    def visit_error(self, error: NotationError) -> None:
        """A syntax error of the game (with its file, line and column)."""
        ...

    def end_game(self) -> None:
        """The game is done (also when its moves were skipped)."""
        ...

    def result(self) -> R_co:
        """What the visitor made of the game."""
        ...


class BaseVisitor(Generic[R]):
    """A visitor that does nothing: subclass it and override what you need
    (:meth:`result` at least)."""

    def begin_game(self, entry: GameEntry) -> Optional[Skip]:
        return None

    def visit_header(self, header: Header) -> None:
        return None

    def end_headers(self) -> Optional[Skip]:
        return None

    def visit_move(self, move: Move) -> None:
        return None

    def visit_comment(self, comment: Comment) -> None:
        return None

    def visit_error(self, error: NotationError) -> None:
        return None

    def end_game(self) -> None:
        return None

    def result(self) -> R:
        raise NotImplementedError(f"{type(self).__name__} must define result()")


def visit_entry(entry: GameEntry, visitor: Visitor[R]) -> R:
    """Call ``visitor`` for the game ``entry`` (see :class:`Visitor`) and return
    its result."""
    if visitor.begin_game(entry) is SKIP:
        return visitor.result()
    headers, leading = entry.head()
    for comment in leading:
        visitor.visit_comment(comment)
    for header in headers:
        visitor.visit_header(header)
        for comment in header.comments:
            visitor.visit_comment(comment)
    if visitor.end_headers() is not SKIP:
        game = entry.game()
        for move in game.moves:
            visitor.visit_move(move)
            for comment in move.comments:
                visitor.visit_comment(comment)
        for error in game.errors:
            visitor.visit_error(error)
    visitor.end_game()
    return visitor.result()


def visit(source: Union[Source, Iterator[GameEntry]], visitor: Callable[[], Visitor[R]], *,
          path: Optional[str] = None) -> Iterator[R]:
    """For each game of ``source`` (a path, a binary stream, or entries from
    :func:`~lcnotation.archive.reader.scan`), a new visitor from the factory
    ``visitor`` (a class, usually) is called (see :class:`Visitor`); its
    result is yielded."""
    entries: Iterable[GameEntry]
    if isinstance(source, (str, os.PathLike)) or hasattr(source, "read"):
        entries = scan(cast(Source, source), path=path)
    else:
        entries = source  # pyright: ignore[reportAssignmentType]
    for entry in entries:
        yield visit_entry(entry, visitor())


class _Headed(BaseVisitor[R]):
    """Keeps the game's entry and its headers."""

    def __init__(self) -> None:
        self._headers: List[Header] = []
        self._entry: Optional[GameEntry] = None

    def begin_game(self, entry: GameEntry) -> Optional[Skip]:
        self._entry = entry
        return None

    def visit_header(self, header: Header) -> None:
        self._headers.append(header)


class TreeBuilder(_Headed[Game]):
    """Builds each game's syntax tree: the games :func:`read_games` reads,
    positions and errors included."""

    def __init__(self) -> None:
        super().__init__()
        self._leading: List[Comment] = []
        self._moves: List[Move] = []
        self._errors: List[NotationError] = []

    def visit_move(self, move: Move) -> None:
        self._moves.append(move)

    def visit_comment(self, comment: Comment) -> None:
        if not self._headers and not self._moves:
            self._leading.append(comment)

    def visit_error(self, error: NotationError) -> None:
        self._errors.append(error)

    def result(self) -> Game:
        entry = self._entry
        span = NO_SPAN
        if entry is not None:
            part = entry.text()
            span = span_in(part.text, 0, len(part.text), part.line - 1, part.offset)
        return Game(tuple(self._headers), tuple(self._moves), tuple(self._leading),
                    tuple(sorted(self._errors, key=_at)), span)


def _at(error: NotationError) -> int:
    return error.span.start


class HeadersOnly(_Headed[Tuple[GameEntry, Tuple[Header, ...]]]):
    """Each game's entry and headers; the moves are not parsed."""

    def end_headers(self) -> Optional[Skip]:
        return SKIP

    def result(self) -> Tuple[GameEntry, Tuple[Header, ...]]:
        assert self._entry is not None, "result() before begin_game()"
        return self._entry, tuple(self._headers)


class SkipGame(BaseVisitor[GameEntry]):
    """Only where each game is: nothing of it is parsed."""

    def __init__(self) -> None:
        self._entry: Optional[GameEntry] = None

    def begin_game(self, entry: GameEntry) -> Optional[Skip]:
        self._entry = entry
        return SKIP

    def result(self) -> GameEntry:
        assert self._entry is not None, "result() before begin_game()"
        return self._entry


class WriteBack(BaseVisitor[int]):
    """Writes each game to ``stream`` (binary) and gives the number of bytes
    written: exactly as it was written when ``dialect`` is None (nothing is
    parsed), else converted to that dialect (``"v1"``, ``"lower"``, ...) as
    ``lcn convert`` converts, layout and comments kept (a game with syntax
    errors raises :class:`~lcnotation.lostcities.text.dialects.ConversionError`).

    Use :meth:`factory` to pass one stream to :func:`visit`:
    ``visit(path, WriteBack.factory(out))``.
    """

    def __init__(self, stream: IO[bytes], dialect: Optional[str] = None) -> None:
        self._stream = stream
        self._dialect = dialect
        self._written = 0

    @classmethod
    def factory(cls, stream: IO[bytes], dialect: Optional[str] = None
                ) -> Callable[[], "WriteBack"]:
        return lambda: cls(stream, dialect)

    def begin_game(self, entry: GameEntry) -> Optional[Skip]:
        data = entry.raw
        if self._dialect is not None:
            from ..lostcities.convert import convert_text

            text = convert_text(entry.text().text, self._dialect, path=entry.path)
            if b"\r\n" in data:
                text = text.replace("\n", "\r\n")
            data = text.encode("utf-8")
        self._stream.write(data)
        self._written = len(data)
        return SKIP

    def result(self) -> int:
        return self._written
