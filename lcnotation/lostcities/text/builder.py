"""What both readers fill: the records of one parse, and its result.

A parse reads one text (a game, a single move, a header value) with one of
two readers: the fast path (:mod:`lcnotation.lostcities.text.fastpath`, one regular
expression for clean games) or Lark (:mod:`lcnotation.lostcities.text.parser`, which
also recovers from errors).  Both fill a :class:`GameBuilder` through the
small :class:`Builder` protocol; :meth:`GameBuilder.result` then gives an
immutable :class:`ParseResult`, and :meth:`ParseResult.game` the game with
every comment attached to what it follows.

>>> from lcnotation.lostcities.text.ast import Comment, Span
>>> b = GameBuilder("{hello}", 1, 0)
>>> b.comments.append(Comment("hello", "brace", b.span_at(0, 7)))
>>> b.result().game(None).comments[0].text
'hello'
"""

from __future__ import annotations

import re
from typing import List, NamedTuple, Optional, Protocol, Tuple, cast

from .ast import Card, Comment, Game, Header, Move, Span
from ...core.diagnostics import NotationError
from .lexical import LEXICON
from .messages import shortened

__all__ = ["Builder", "GameBuilder", "ParseResult", "Problem", "span_in"]

_new = tuple.__new__
_UNESCAPE = re.compile(r'\\(["\\])')

#: A syntax error found while reading: code, message and where it is.
Problem = Tuple[str, str, Span]


class Builder(Protocol):
    """What a reader fills while it reads ``text``.

    ``line_delta`` and ``offset`` place the text in its file (its first line
    is line ``line_delta + 1``, its first character at ``offset``); moves and
    comments are appended in the order of the text; ``turn`` counts the turns
    read so far, unreadable ones included.
    """

    text: str
    line_delta: int
    offset: int
    moves: List[Move]
    comments: List[Comment]
    errors: List[Problem]
    turn: int

    def add_header(self, raw: str, start: int, line: int, column: int) -> None:
        """Record the header written ``raw`` at offset ``start`` of the text."""
        ...

    def error(self, code: str, message: str, start: int, end: int) -> None:
        """Record a syntax error at offsets ``start:end`` of the text."""
        ...

    def span_at(self, start: int, end: int) -> Span:
        """The span of offsets ``start:end`` of the text, in the file."""
        ...


class ParseResult(NamedTuple):
    """What one parse read, in the order of the text (immutable).

    ``cards`` and ``colors`` are what the ``cards`` and ``colors`` start
    symbols read (a deal header, a Colors header), ``color_spans`` the
    offsets of each colour letter in the text.
    """

    text: str
    first_line: int
    first_offset: int
    headers: Tuple[Header, ...]
    moves: Tuple[Move, ...]
    comments: Tuple[Comment, ...]
    errors: Tuple[Problem, ...]
    cards: Tuple[Card, ...] = ()
    colors: Tuple[str, ...] = ()
    color_spans: Tuple[Tuple[int, int], ...] = ()

    def span_at(self, start: int, end: int) -> Span:
        """The span of offsets ``start:end`` of the text, in the file."""
        return span_in(self.text, start, end, self.first_line - 1, self.first_offset)

    def game(self, path: Optional[str]) -> Game:
        """The game read, with every comment attached to what it follows."""
        headers = self.headers
        moves = self.moves
        comments = self.comments
        leading: Tuple[Comment, ...] = ()
        if comments:
            anchors: List[Header | Move] = [*headers, *moves]
            ci = 0
            first = anchors[0].span.start if anchors else None
            while ci < len(comments) and (first is None or comments[ci].span.start < first):
                ci += 1
            leading = comments[:ci]
            for k, anchor in enumerate(anchors):
                nxt = anchors[k + 1].span.start if k + 1 < len(anchors) else None
                cj = ci
                while cj < len(comments) and (nxt is None or comments[cj].span.start < nxt):
                    cj += 1
                if cj > ci:
                    anchors[k] = anchor._replace(comments=comments[ci:cj])
                    ci = cj
            headers = tuple(cast(List[Header], anchors[:len(headers)]))
            moves = tuple(cast(List[Move], anchors[len(headers):]))
        errors = tuple(NotationError(message, span, code=code, path=path)
                       for code, message, span in sorted(self.errors, key=_at)
                       ) if self.errors else ()
        return _new(Game, (headers, moves, leading, errors, self.span_at(0, len(self.text))))


def _at(problem: Problem) -> int:
    return problem[2].start


def span_in(text: str, start: int, end: int, line_delta: int, offset: int) -> Span:
    """The span of ``text[start:end]`` for a text whose first line is
    ``line_delta + 1`` and first character at ``offset`` in its file."""
    line = text.count("\n", 0, start) + 1
    line_start = text.rfind("\n", 0, start) + 1
    newlines = text.count("\n", start, end)
    end_col = end - (text.rfind("\n", start, end) + 1 if newlines else line_start) + 1
    return Span(line + line_delta, start - line_start + 1, line + newlines + line_delta,
                end_col, start + offset, end + offset)


class GameBuilder:
    """The records of one parse of ``text``, as the readers fill them (see
    :class:`Builder`); ``first_line`` and ``first_offset`` place the text in
    its file."""

    __slots__ = ("text", "line_delta", "offset", "headers", "moves", "comments", "cards",
                 "colors", "color_spans", "errors", "turn", "_cursor")

    def __init__(self, text: str, first_line: int = 1, first_offset: int = 0) -> None:
        self.text = text
        self.line_delta = first_line - 1
        self.offset = first_offset
        self.headers: List[Header] = []
        self.moves: List[Move] = []
        self.comments: List[Comment] = []
        self.cards: List[Card] = []
        self.colors: List[str] = []
        self.color_spans: List[Tuple[int, int]] = []
        self.errors: List[Problem] = []
        self.turn = 0
        self._cursor = (0, 1, 0)  # offset, line, offset of the line's start: see span_at

    def span_at(self, start: int, end: int) -> Span:
        """A span from offsets into the text being parsed.

        Errors come in the order of the text, so lines are counted on from
        the previous error, not from the start: a game of many errors costs
        time linear in its length.
        """
        text = self.text
        at, line, line_start = self._cursor
        if start < at:
            at, line, line_start = 0, 1, 0
        newlines = text.count("\n", at, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", at, start) + 1
        self._cursor = (start, line, line_start)
        newlines = text.count("\n", start, end)
        end_line = line + newlines
        end_col = end - (text.rfind("\n", start, end) + 1 if newlines else line_start) + 1
        d = self.line_delta
        return Span(line + d, start - line_start + 1, end_line + d, end_col,
                    start + self.offset, end + self.offset)

    def error(self, code: str, message: str, start: int, end: int) -> None:
        self.errors.append((code, message, self.span_at(start, end)))

    def add_header(self, raw: str, start: int, line: int, column: int) -> None:
        """Record the header written ``raw`` at offset ``start`` of the text
        (``line`` and ``column`` as counted in the text, from 1)."""
        # The HEADER terminal has checked the syntax: the name is what stands
        # between "[" and the first quote, the value what the quotes enclose.
        v0 = raw.index('"') + 1
        v1 = raw.rindex('"')
        name = raw[1:v0 - 1].strip(" \t")
        value = raw[v0:v1]
        if "\\" in value:
            value = _UNESCAPE.sub(r"\1", value)
        ln = line + self.line_delta
        at = start + self.offset
        size = len(raw)
        self.headers.append(_new(Header, (
            name, value, (), _new(Span, (ln, column, ln, column + size, at, at + size)),
            _new(Span, (ln, column + v0, ln, column + v1, at + v0, at + v1)))))
        if column > 1:
            if not LEXICON.is_line_blank(self.text[start - column + 1:start]):
                self.error("N109", f"header '{shortened(name)}' must begin its own line",
                           start, start + size)

    def result(self) -> ParseResult:
        """What was read, as an immutable record."""
        return _new(ParseResult, (
            self.text, self.line_delta + 1, self.offset, tuple(self.headers),
            tuple(self.moves), tuple(self.comments), tuple(self.errors), tuple(self.cards),
            tuple(self.colors), tuple(self.color_spans)))
