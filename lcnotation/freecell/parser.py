"""Reading Standard FreeCell Notation into a :class:`~.ast.Record`.

The file is read line by line: a line's place decides which kinds it may be
(``grammar/freecell.lark`` has a start rule for each), and the grammar reads
it.  Reading is lax: every problem becomes a diagnostic in ``record.errors``
and the rest of the file is still read; ``strict=True`` raises the first as a
:class:`~lcnotation.core.diagnostics.NotationError` instead.

>>> record = parse("Game #1\\n  -  -  -  +\\nJD 2D 9H JC 5D 7H 7C 5H\\n 5a 5b")
>>> record.game.number, len(record.columns[0]), [str(m) for m in record.moves]
(1, 1, ['5a', '5b'])
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List, NamedTuple, Optional, Tuple, Union

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from ..core.diagnostics import Diagnostic, NotationError
from ..core.grammar import grammar_text
from ..core.suppression import MARK
from .ast import (HORNE, WKR, CommentLine, EndMarker, Freecell, GameLine, HomeLine, Move,
                  Placed, Record, SolutionLine, Span, BodyLine)
from .cards import RANKS, SUITS, Card, parse_card
from .codes import FREECELL_CODES
from .deals import COLUMNS, DEAL_LIMIT

__all__ = ["GRAMMAR_FILE", "MAX_ROWS", "parse"]

GRAMMAR_FILE = "freecell.lark"
#: The deepest column a layout can hold (seven cards and a run from queen to two).
MAX_ROWS = 18
#: The characters that can start a solution line (a prefix, or a marker).
SOLUTION_STARTS = " .["
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CARD_HINT = f"ranks {' '.join(RANKS)}, suits {' '.join(SUITS)}"


@lru_cache(maxsize=None)
def _lark() -> Lark:
    return Lark(grammar_text(GRAMMAR_FILE), parser="lalr",
                start=["game_line", "home_line", "column_line", "solution_line"])


def _terminal(name: str) -> str:
    return _lark().get_terminal(name).pattern.to_regexp()


@lru_cache(maxsize=None)
def _fast_moves() -> "re.Pattern[str]":
    """A line of nothing but moves, from the grammar's own MOVE terminal: read
    without the parser (most solution lines are), to the same result."""
    return re.compile(f"(?:{_terminal('MOVE')})+")


@lru_cache(maxsize=None)
def _fast_cells() -> "re.Pattern[str]":
    """A column line, from the grammar's CELL and BLANK terminals (the rule
    ``column_line`` spelled as a regular expression): read without the parser."""
    cell = f"(?:{_terminal('CELL')}|{_terminal('BLANK')})"
    return re.compile(f"{cell}(?: {cell})*")


class _Line(NamedTuple):
    number: int
    start: int
    text: str  # without its line break and trailing spaces and tabs

    def span(self, begin: int, end: int) -> Span:
        return Span(self.number, begin + 1, self.number, end + 1, self.start + begin,
                    self.start + end)

    def token_span(self, token: Token) -> Span:
        begin = (token.column or 1) - 1
        return self.span(begin, begin + len(token))

    @property
    def whole(self) -> Span:
        return self.span(0, len(self.text))


def _lines(text: str) -> List[_Line]:
    lines: List[_Line] = []
    start = 0
    for number, match in enumerate(_LINE_BREAK.finditer(text), 1):
        lines.append(_Line(number, start, text[start:match.start()].rstrip(" \t")))
        start = match.end()
    if start < len(text):
        lines.append(_Line(len(lines) + 1, start, text[start:].rstrip(" \t")))
    return lines


def _tokens(tree: Tree[Token]) -> List[Token]:
    return [t for t in tree.scan_values(lambda v: isinstance(v, Token))]


class _Reader:
    def __init__(self, text: str, path: Optional[str]) -> None:
        self.text = text
        self.path = path
        self.errors: List[Diagnostic] = []

    def error(self, code: str, message: str, span: Span) -> None:
        self.errors.append(Diagnostic(code, message, span, FREECELL_CODES[code][0], self.path))

    def try_parse(self, line: _Line, start: str) -> Union[Tree[Token], UnexpectedInput]:
        try:
            return _lark().parse(line.text, start=start)
        except UnexpectedInput as exc:
            return exc

    # ---- the header lines ---------------------------------------------------

    def game_line(self, line: _Line, tree: Tree[Token]) -> GameLine:
        number_token = next(t for t in _tokens(tree) if t.type == "DEAL_NUMBER")
        number_span = line.token_span(number_token)
        digits = str(number_token).lstrip("-").lstrip("0")
        # No deal has more digits than the limit; longer numbers are not even converted.
        number = int(number_token) if len(digits) <= len(str(DEAL_LIMIT)) else DEAL_LIMIT
        if number >= DEAL_LIMIT:
            shown = (f"deal {number_token}" if len(str(number_token)) <= 20
                     else f"a deal number of {len(digits):,} digits")
            self.error("F103", f"{shown} does not exist: standard deals are numbered "
                       "below 2**33 (8589934592)", number_span)
        return GameLine(line.text, number, line.whole, number_span)

    def home_line(self, line: _Line) -> HomeLine:
        result = self.try_parse(line, "home_line")
        if isinstance(result, UnexpectedInput):
            found = result.column
            column = found if isinstance(found, int) and found > 0 else 1
            self.error("F102", "the freecell+home line is four two-character freecells "
                       "separated by '-' (or '=', or a space), '+' at position 12, then "
                       f"up to four home cards; position {column} does not fit",
                       line.span(column - 1, column))
            return HomeLine((Freecell(),) * 4, (None,) * 4, HORNE, line.whole,
                            (None,) * 4)
        freecells: List[Freecell] = []
        separators: List[Token] = []
        homes: List[Optional[Card]] = []
        home_spans: List[Optional[Span]] = []
        for child in result.children:
            if isinstance(child, Token):
                if child.type == "SEPARATOR":
                    separators.append(child)
                continue
            if child.data == "freecell":
                token = _tokens(child)[0]
                span = line.token_span(token)
                if token.type == "BLANK":
                    freecells.append(Freecell(span=span))
                else:
                    card = parse_card(str(token))
                    freecells.append(Freecell(card, None if card else str(token), span))
            else:  # homes
                for home in child.children:
                    assert isinstance(home, Tree)
                    token = _tokens(home)[0]
                    span = line.token_span(token)
                    card = None if token.type == "BLANK" else parse_card(str(token))
                    if token.type != "BLANK" and card is None:
                        self.error("F102", f"{str(token)!r} is not a card ({_CARD_HINT}); a "
                                   "home pile is written as its top card", span)
                    if len(homes) == 4:
                        self.error("F102", "there are only four home piles", span)
                        break
                    homes.append(card)
                    home_spans.append(span)
        wkr = [str(s) == "=" for s in separators]
        if any(wkr) and not all(wkr):
            odd = next(s for s, w in zip(separators, wkr) if w != wkr[0])
            self.error("F102", "positions 3, 6 and 9 must agree: '-' or a space (Horne "
                       "automoves), or all '=' (WKR automoves)", line.token_span(odd))
        automove = WKR if any(wkr) else HORNE
        while len(homes) < 4:
            homes.append(None)
            home_spans.append(None)
        return HomeLine(tuple(freecells), tuple(homes), automove, line.whole,
                        tuple(home_spans))

    # ---- the column section -------------------------------------------------

    def column_cells(self, line: _Line) -> Optional[List[Optional[str]]]:
        """The cells of a column line (None for a blank), or None when the line
        is not a column line: not three-character cells, or no card at all."""
        text = line.text
        if not text:
            return None
        cells: List[Optional[str]] = []
        if _fast_cells().fullmatch(text):
            cells = [None if text[i] == " " else text[i:i + 2] for i in range(0, len(text), 3)]
        else:
            result = self.try_parse(line, "column_line")
            if isinstance(result, UnexpectedInput):
                return None
            cells = [None if t.type == "BLANK" else str(t) for t in _tokens(result)]
        if not any(c is not None and parse_card(c) for c in cells):
            return None
        return cells

    def columns(self, rows: List[Tuple[_Line, List[Optional[str]]]]
                ) -> Tuple[Tuple[Placed, ...], ...]:
        columns: List[List[Placed]] = [[] for _ in range(COLUMNS)]
        gap: List[Optional[Span]] = [None] * COLUMNS
        for row, (line, cells) in enumerate(rows):
            if row == MAX_ROWS:
                self.error("F104", f"a layout has at most {MAX_ROWS} column lines (the "
                           "deepest column possible)", line.whole)
            for index, token in enumerate(cells):
                span = line.span(3 * index, 3 * index + 2)
                if index >= COLUMNS:
                    if token is not None:
                        self.error("F104", f"a layout has {COLUMNS} columns; this is "
                                   f"column {index + 1}", span)
                    continue
                if token is None:
                    gap[index] = gap[index] or span
                    continue
                card = parse_card(token)
                if card is None:
                    self.error("F101", f"{token!r} is not a card ({_CARD_HINT})", span)
                    continue
                if gap[index] is not None:
                    self.error("F107", f"{card} stands below an empty place in column "
                               f"{index + 1}", span)
                columns[index].append(Placed(card, span))
        return tuple(tuple(c) for c in columns)

    # ---- the solution -------------------------------------------------------

    def solution_line(self, line: _Line) -> SolutionLine:
        text = line.text
        if _fast_moves().fullmatch(text):
            return SolutionLine(tuple(
                Move(text[i + 1], text[i + 2], text[i] == ".", line.span(i, i + 3))
                for i in range(0, len(text), 3)), "", line.whole)
        result = self.try_parse(line, "solution_line")
        assert not isinstance(result, UnexpectedInput)  # a comment takes anything
        steps: List[Union[Move, EndMarker]] = []
        comment = ""
        for token in _tokens(result):
            span = line.token_span(token)
            text = str(token)
            if token.type == "MOVE":
                steps.append(Move(text[1], text[2], text[0] == ".", span))
            elif token.type == "MARKER":
                inner = text[1:-1]
                if inner == "??":
                    steps.append(EndMarker(span))
                else:
                    steps.append(Move(inner[-2], inner[-1], inner[0] == ".", span, True))
            else:
                comment = text
                if steps and MARK not in text:  # a suppression is a comment by intent
                    self.error("F110", f"{text[:3]!r} is not a move: the rest of the line "
                               "is read as a comment", span)
        return SolutionLine(tuple(steps), comment, line.whole)

    def check_markers(self, body: List[BodyLine]) -> None:
        seen: Optional[Span] = None
        ended = False
        for line in body:
            if not isinstance(line, SolutionLine):
                continue
            for step in line.steps:
                if ended:
                    self.error("F106", "no move can follow [??], which marks the end of "
                               "the solution", step.span)
                    return
                if isinstance(step, EndMarker) or step.marked:
                    if seen is not None:
                        self.error("F106", "a solution has one marker; another stands at "
                                   f"line {seen.line}, column {seen.column}", step.span)
                        return
                    seen = step.span
                    ended = isinstance(step, EndMarker)

    # ---- the whole record ---------------------------------------------------

    def record(self) -> Record:
        lines = _lines(self.text)
        while lines and not lines[-1].text:
            lines.pop()
        game: Optional[GameLine] = None
        home: Optional[HomeLine] = None
        i = 0
        # The header: a Game# line and/or a freecell+home line (blank: empty).
        first = lines[0] if lines else None
        if first is not None and not self._is_home(first) and self.column_cells(first) is None:
            result = self.try_parse(first, "game_line") if first.text else None
            if isinstance(result, Tree):
                game = self.game_line(first, result)
                i += 1
            elif first.text:
                self.error("F108", "a record begins with a Game# line (a deal number), a "
                           "freecell+home line or the first line of the columns",
                           first.whole)
                i += 1
        while i < len(lines) and not lines[i].text:
            i += 1  # the empty freecell+home line, and blank lines before the columns
        if i < len(lines) and self._is_home(lines[i]):
            home = self.home_line(lines[i])
            i += 1
        while i < len(lines) and not lines[i].text:
            i += 1
        rows: List[Tuple[_Line, List[Optional[str]]]] = []
        while i < len(lines):
            cells = self.column_cells(lines[i])
            if cells is None:
                break
            rows.append((lines[i], cells))
            i += 1
        if not rows and not (home and all(c is not None and c.rank == 13 for c in home.homes)):
            where = lines[i].span(0, 0) if i < len(lines) else Span(
                len(lines) + 1, 1, len(lines) + 1, 1, len(self.text), len(self.text))
            self.error("F105", "expected the column section: one line per row, three "
                       "characters per column (a card such as 'JD' and a space)", where)
        columns = self.columns(rows)
        body: List[BodyLine] = []
        for line in lines[i:]:
            if line.text[:1] and line.text[0] in SOLUTION_STARTS:
                body.append(self.solution_line(line))
            else:
                body.append(CommentLine(line.text, line.whole))
        self.check_markers(body)
        if home is None:
            home = HomeLine((Freecell(),) * 4, (None,) * 4, HORNE, None, (None,) * 4)
        self.errors.sort(key=lambda d: (d.span.start, d.span.end))
        return Record(game, home, columns, tuple(body), tuple(self.errors), self.text)

    @staticmethod
    def _is_home(line: _Line) -> bool:
        return len(line.text) >= 12 and line.text[11] == "+"


def parse(text: str, *, path: Optional[str] = None, strict: bool = False) -> Record:
    """The record written in ``text``.

    Lax by default: what cannot be read is in ``record.errors``.  With
    ``strict=True`` the first error is raised as a NotationError.
    """
    record = _Reader(text, path).record()
    if strict:
        for d in record.errors:
            if d.severity.value == "error":
                raise NotationError(d.message, d.span, code=d.code, path=path)
    return record
