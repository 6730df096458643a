"""The known headers and their typed values.

Header values are kept as text on the syntax tree; these functions read the
ones with a structure (``Colors``, ``Hand1``, ``Hand2``, ``Deck``,
``Result``) through the same grammar as the moves, and report problems with
positions inside the header.

>>> parse_colors("RGWBYK")
('R', 'G', 'W', 'B', 'Y', 'K')
>>> [format_card(c) for c in parse_cards("R3 BH W10")]
['R3', 'BH', 'W10']
>>> parse_result("87-42"), parse_result("-12--40"), parse_result("*")
((87, 42), (-12, -40), None)
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Optional, Tuple, TypeVar, Union

from .ast import Card, Game, Header, Span
from ...core.diagnostics import NotationError
from .formatter import format_card
from .lexical import COLOR_LETTERS, RESERVED_WHY
from .lexical import RESERVED_LETTERS as _RESERVED
from ...core.numbers import read_decimal, too_long
from .parser import parser

__all__ = ["KNOWN_TAGS", "DEFAULT_COLORS", "RESERVED_LETTERS", "parse_colors",
           "parse_cards", "parse_result", "game_colors"]

#: Tags with a meaning to lcnotation; any other tag is kept as it is.
KNOWN_TAGS = ("Event", "Site", "Date", "Round", "Player1", "Player2", "Colors",
              "Hand1", "Hand2", "Deck", "Result")
#: The colours in play when a game has no Colors header.
DEFAULT_COLORS: Tuple[str, ...] = ("R", "G", "W", "B", "Y")
#: Letters that can never be colours.
RESERVED_LETTERS = "".join(sorted(_RESERVED))

_COLOR_CHOICES = COLOR_LETTERS
_RESERVED_WHY = RESERVED_WHY
_RESULT = re.compile(r"\s*(-?[0-9]+)\s*-\s*(-?[0-9]+)\s*\Z")
_T = TypeVar("_T")


def _source(value: Union[str, Header]) -> Tuple[str, int, int, str]:
    """The text to parse, padded so that positions are those of the file.

    A value written with escapes is parsed as it is (positions relative to
    the value); :func:`_in_file` then moves its errors into the file.
    """
    if isinstance(value, Header):
        span = value.value_span
        if span.known and span.length == len(value.value):
            pad = span.column - 1
            return " " * pad + value.value, span.line, span.start - pad, value.name
        return value.value, 1, 0, value.name
    return value, 1, 0, ""


def _in_file(read: Callable[[Union[str, Header]], _T]) -> Callable[[Union[str, Header]], _T]:
    """Report the errors of ``read`` where they stand in the file, also for a
    header value written with escapes (each \\" or \\\\ is two characters there)."""

    @functools.wraps(read)
    def read_in_file(value: Union[str, Header]) -> _T:
        try:
            return read(value)
        except NotationError as err:
            if not isinstance(value, Header):
                raise
            span = value.value_span
            if not span.known or span.length == len(value.value):
                raise
            text = value.value

            def raw(i: int) -> int:  # offset i of the value, in the written value
                return i + text.count("\\", 0, i) + text.count('"', 0, i)

            start, end = raw(err.span.start), raw(err.span.end)
            raise NotationError(err.message, Span(span.line, span.column + start, span.line,
                                                  span.column + end, span.start + start,
                                                  span.start + end),
                                code=err.code) from None

    return read_in_file


def _fail(message: str, code: str, start: int, end: int, text: str, first_line: int,
          first_offset: int) -> NotationError:
    """An error at ``start:end`` of the (padded) header value ``text``.

    A value read from a file is one line; a string given directly may not be.
    """
    def where(i: int) -> Tuple[int, int]:
        return first_line + text.count("\n", 0, i), i - text.rfind("\n", 0, i)

    return NotationError(message, Span(*where(start), *where(end), first_offset + start,
                                       first_offset + end), code=code)


@_in_file
def parse_colors(value: Union[str, Header]) -> Tuple[str, ...]:
    """The colour letters of a ``Colors`` header, upper case, in order.

    >>> parse_colors("rgwbyp")
    ('R', 'G', 'W', 'B', 'Y', 'P')
    >>> parse_colors("RGWBYD")
    Traceback (most recent call last):
    ...
    lcnotation.core.diagnostics.NotationError: line 1, column 6: Colors: 'D' is not a colour letter: D is reserved for the draw pile (N120)
    """
    text, line, offset, _ = _source(value)
    try:
        b = parser().run("colors", text, strict=True, first_line=line, first_offset=offset)
    except NotationError as err:
        bad = next((i for i, c in enumerate(text) if not c.isspace()
                    and c.upper() not in _COLOR_CHOICES), None)
        if bad is None:
            raise NotationError("Colors: expected at least one colour letter", err.span,
                                code="N120") from None
        char = text[bad]
        why = (_RESERVED_WHY[char.upper()] if char.upper() in _RESERVED_WHY
               else "a colour is a single letter")
        raise _fail(f"Colors: '{char}' is not a colour letter: {why}", "N120", bad, bad + 1,
                    text, line, offset) from None
    seen = set()
    for letter, (start, end) in zip(b.colors, b.color_spans):
        if letter in seen:
            raise _fail(f"Colors: '{letter}' is listed twice", "N120", start, end, text,
                        line, offset)
        seen.add(letter)
    return b.colors


@_in_file
def parse_cards(value: Union[str, Header]) -> Tuple[Card, ...]:
    """The cards of a ``Hand1``, ``Hand2`` or ``Deck`` header, separated by spaces.

    >>> parse_cards("R3 R11")
    Traceback (most recent call last):
    ...
    lcnotation.core.diagnostics.NotationError: line 1, column 5: expected a rank (2 to 10, or H) after the colour 'R', found '11' (N121)
    """
    text, line, offset, name = _source(value)
    try:
        b = parser().run("cards", text, strict=True, first_line=line, first_offset=offset)
    except NotationError as err:
        prefix = f"{name}: " if name else ""
        if err.code in ("N102", "N103"):  # a bad colour or rank, named by the message
            raise NotationError(prefix + err.message, err.span, code="N121") from None
        # The grammar's other messages speak of moves: say what a card list holds.
        at = err.span.start - offset
        while at < len(text) and text[at].isspace():
            at += 1
        end = at
        while end < len(text) and not text[end].isspace():
            end += 1
        found = repr(text[at:end]) if end > at else "the end of the value"
        raise _fail(f"{prefix}expected cards such as \"R3 BH W10\" (a colour letter, then "
                    f"2 to 10 or H), found {found}", "N121", at, end, text, line, offset) from None
    cards = b.cards
    for before, after in zip(cards, cards[1:]):
        if before.span.end == after.span.start:
            raise NotationError(f"{format_card(before)}{format_card(after)}: cards are "
                                "separated by spaces", after.span, code="N121")
    return tuple(cards)


@_in_file
def parse_result(value: Union[str, Header]) -> Optional[Tuple[int, int]]:
    """The two scores of a ``Result`` header (``"87-42"``); ``None`` for ``"*"``."""
    text, line, offset, _ = _source(value)
    if text.strip() == "*":
        return None
    m = _RESULT.match(text)
    if m is None:
        start = len(text) - len(text.lstrip())
        raise _fail(f"Result: expected two scores such as \"87-42\" (or \"*\"), found "
                    f"{text.strip()!r}", "N122", start, max(start, len(text.rstrip())),
                    text, line, offset)
    scores = []
    for group in (1, 2):
        points = read_decimal(m.group(group))
        if points is None:
            raise _fail(f"Result: {too_long(m.group(group))}", "N122", m.start(group),
                        m.end(group), text, line, offset)
        scores.append(points)
    return scores[0], scores[1]


def game_colors(game: Game) -> Tuple[str, ...]:
    """The colours of ``game``: its Colors header, or the five base colours."""
    header = next((h for h in game.headers if h.name == "Colors"), None)
    return DEFAULT_COLORS if header is None else parse_colors(header)
