"""Formatting whole files, game by game, as ``lcn fmt`` does.

Each game is written in the canonical layout (:func:`~lcnotation.text.formatter.format_game`)
in the dialect :func:`~lcnotation.tools.style.resolve_dialect` chooses for the
file: the configured one, else the file's own spelling, so that ``lcn fmt``
and ``lcn lint`` always expect the same text.

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

from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional

from ..text.formatter import format_game
from ..text.reader import _BLANK, GameText, _parse, split_games
from .style import first_discard_marker, resolve_dialect

__all__ = ["FormatRefused", "Formatted", "format_source", "format_parts"]


class FormatRefused(ValueError):
    """A file that cannot be formatted; the message says why, after the
    ``line:column:`` of the problem when it has one."""


@dataclass
class Formatted:
    """The formatted text and notes about games kept as written."""

    text: str
    #: One line per game kept as written (``line:column: ...``).
    kept: List[str] = field(default_factory=list)


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
    marker: Optional[str] = None
    previous_moves = True
    index = 0
    for part in parts:
        if not part.problems and _BLANK.match(part.text):
            continue  # white space alone is not a game
        game = _parse(part, False, path)
        index += 1
        if index > 1:
            if not previous_moves:
                raise FormatRefused(f"not formatted: game {index - 1} has no moves and is "
                                    "followed by another game")
            yield "\n"
        previous_moves = bool(game.moves)
        if game.errors:
            first = game.errors[0]
            where = f"{first.line}:{first.column}"
            if not force:
                count = len(game.errors)
                raise FormatRefused(f"{where}: not formatted: {count} syntax error{'s' if count != 1 else ''}"
                                    f" (first: {first.message}); fix them or use --force")
            kept.append(f"{where}: game {index} kept as written: it has a syntax error "
                        f"({first.message})")
            yield part.text.rstrip() + "\n"
            continue
        if marker is None:
            marker = first_discard_marker(game, part.text, part.offset)
        try:
            yield format_game(game, resolve_dialect(dialect, marker))
        except ValueError as exc:
            line = game.span.line if game.span.known else part.line
            raise FormatRefused(f"{line}:1: not formatted: game {index} cannot be written: "
                                f"{exc}") from None


