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
from typing import TYPE_CHECKING, Dict, List, NamedTuple, Optional, Tuple, Union

from ..core.diagnostics import Diagnostic, NotationError
from ..core.grammar import grammar_terminals, grammar_text
from ..core.suppression import MARK
from .ast import (HORNE, LONGEST_NUMBER, WKR, BodyLine, CommentLine, EndMarker, Freecell,
                  GameLine, HomeLine, Move, Placed, Record, SolutionLine, Span, move_of,
                  placed_of)
from .cards import RANKS, SUITS, Card, parse_card
from .codes import FREECELL_CODES
from .deals import COLUMNS, DEAL_LIMIT
from .rules import SINGLE

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput

__all__ = ["GRAMMAR_FILE", "MAX_ROWS", "parse"]

GRAMMAR_FILE = "freecell.lark"
#: The deepest column a layout can hold (seven cards and a run from queen to two).
MAX_ROWS = 18
#: The characters that can start a solution line (a prefix, or a marker).
SOLUTION_STARTS = " .["
#: The positions of the freecell+home line (point 6): four freecells and three
#: separators, "+" at position 12, four home piles and the spaces between them.
HOME_LINE_WIDTH = 23
_PLUS_AT = 11
_SEPARATORS_AT = (2, 5, 8)
#: How many cells of a long line are checked at a time (bounds the memory of
#: the regular expression, whose repetition costs some per cell).
_CELLS_AT_A_TIME = 100
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CARD_HINT = f"ranks {' '.join(RANKS)}, suits {' '.join(SUITS)}"
_A_CARD = re.compile(f"[{RANKS}][{SUITS}]")
_new_span = tuple.__new__


@lru_cache(maxsize=None)
def _lark() -> "Lark":
    """The grammar's parser, made (and Lark imported) the first time a line
    needs it: the reader's expressions come from the grammar's text, and only
    a freecell+home line that they do not read goes to Lark, for where it fails."""
    from lark import Lark

    # cache=True: the built parser is kept on disk (as the Lost Cities
    # grammar's is), so a process does not build it again (a second, with
    # interegular installed to check the terminals against each other).
    return Lark(grammar_text(GRAMMAR_FILE), parser="lalr",
                start=["game_line", "deal_number", "home_line", "column_line",
                       "solution_line"], cache=True)


@lru_cache(maxsize=None)
def _terminals() -> Dict[str, str]:
    """The grammar's terminals as regular expressions, read from its text
    (tests/test_freecell.py holds them to Lark's)."""
    return grammar_terminals(grammar_text(GRAMMAR_FILE))


def _terminal(name: str) -> str:
    return _terminals()[name]


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


@lru_cache(maxsize=None)
def _first_step() -> "re.Pattern[str]":
    """A move or a marker (the grammar's MOVE and MARKER): how a solution line begins."""
    return re.compile(f"{_terminal('MOVE')}|{_terminal('MARKER')}")


@lru_cache(maxsize=None)
def _separator() -> "re.Pattern[str]":
    """A separator of the freecell+home line (the grammar's SEPARATOR)."""
    return re.compile(_terminal("SEPARATOR"))


@lru_cache(maxsize=None)
def _home_patterns() -> Tuple["re.Pattern[str]", "re.Pattern[str]", "re.Pattern[str]"]:
    """The rule ``home_line`` spelled with the grammar's terminals: its four
    freecells with their separators and the "+", a home pile, and the space
    and pile that follow each pile (a cell's group 1 is a CELL, group 2 a BLANK)."""
    cell = f"(?:({_terminal('CELL')})|({_terminal('BLANK')}))"
    separator = f"({_terminal('SEPARATOR')})"
    head = separator.join([cell] * 4) + _terminal("PLUS")
    return (re.compile(head), re.compile(cell), re.compile(_terminal("_SPACE") + cell))


#: A token of a freecell+home line: its terminal's name, its text and where it
#: begins (0-based).
_Part = Tuple[str, str, int]


def _home_parts(text: str) -> Optional[Tuple[List[_Part], List[_Part], List[_Part]]]:
    """The freecells, separators and home piles of a freecell+home line, read
    with :func:`_home_patterns`; None when the line is not one (Lark then
    says where it fails)."""
    head, cell, next_cell = _home_patterns()
    m = head.match(text)
    if m is None:
        return None
    groups = m.groups()  # per freecell: CELL, BLANK, then a separator (not after the last)
    freecells: List[_Part] = []
    separators: List[_Part] = []
    for i in range(4):
        at = 3 * i
        k = at if groups[at] is not None else at + 1
        freecells.append(("CELL" if k == at else "BLANK", groups[k], m.start(k + 1)))
        if i < 3:
            separators.append(("SEPARATOR", groups[at + 2], m.start(at + 3)))
    homes: List[_Part] = []
    pos = m.end()
    step = cell
    while pos < len(text):
        found = step.match(text, pos)
        if found is None:
            return None
        k = 1 if found.group(1) is not None else 2
        homes.append(("CELL" if k == 1 else "BLANK", found.group(k), found.start(k)))
        pos = found.end()
        step = next_cell
    return freecells, separators, homes


def _tree_parts(tree: "Tree[Token]") -> Tuple[List[_Part], List[_Part], List[_Part]]:
    """The parts of a freecell+home line as Lark read it (see :func:`_home_parts`)."""
    from lark import Token, Tree

    def part(token: Token) -> _Part:
        return token.type, str(token), (token.column or 1) - 1

    freecells: List[_Part] = []
    separators: List[_Part] = []
    homes: List[_Part] = []
    for child in tree.children:
        if isinstance(child, Token):
            if child.type == "SEPARATOR":
                separators.append(part(child))
        elif child.data == "freecell":
            freecells.append(part(_tokens(child)[0]))
        else:  # homes
            homes.extend(part(_tokens(home)[0]) for home in child.children
                         if isinstance(home, Tree))
    return freecells, separators, homes


def _is_cells(text: str) -> bool:
    """Whether ``text`` is a column line (``_fast_cells``), checked a hundred
    cells at a time so that a long line costs no more memory than a short one."""
    step = 3 * _CELLS_AT_A_TIME
    pattern = _fast_cells()
    for start in range(0, len(text), step):
        piece = text[start:start + step - 1]
        after = text[start + step - 1:start + step]
        if not pattern.fullmatch(piece) or after not in ("", " ") or (
                after == " " and start + step == len(text)):
            return False
    return bool(text)


@lru_cache(maxsize=None)
def _deal_numbers() -> Tuple["re.Pattern[str]", "re.Pattern[str]"]:
    """The grammar's two places of a deal number in a Game# line, in the order
    they are looked for: after a "#", then as a word of its own."""
    return (re.compile(_terminal("MARKED_NUMBER")), re.compile(_terminal("WORD_NUMBER")))


def _deal_number(text: str) -> Optional[Tuple[int, int]]:
    """Where the deal number of a Game# line stands (start and end), or None
    when the line has none (a tag or file name)."""
    marked, word = _deal_numbers()
    found = marked.search(text)
    if found is not None:
        start = found.start() + 1
        while text[start] in " \t":
            start += 1
        return start, found.end()
    found = word.search(text)
    return (found.start(), found.end()) if found is not None else None


class _Line(NamedTuple):
    number: int
    start: int
    text: str  # without its line break and trailing spaces and tabs

    def span(self, begin: int, end: int) -> Span:
        number, start = self.number, self.start
        return _new_span(Span, (number, begin + 1, number, end + 1, start + begin, start + end))

    def part_span(self, part: _Part) -> Span:
        begin = part[2]
        return self.span(begin, begin + len(part[1]))

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


def _tokens(tree: "Tree[Token]") -> "List[Token]":
    from lark import Token

    return [t for t in tree.scan_values(lambda v: isinstance(v, Token))]


class _Reader:
    def __init__(self, text: str, path: Optional[str]) -> None:
        self.text = text
        self.path = path
        self.errors: List[Diagnostic] = []
        self.markers = 0  # the markers read ([??], or a move in brackets)

    def error(self, code: str, message: str, span: Span) -> None:
        self.errors.append(Diagnostic(code, message, span, FREECELL_CODES[code][0], self.path))

    def try_parse(self, line: _Line, start: str) -> "Union[Tree[Token], UnexpectedInput]":
        from lark.exceptions import UnexpectedInput

        try:
            return _lark().parse(line.text, start=start)
        except UnexpectedInput as exc:
            return exc

    # ---- the header lines ---------------------------------------------------

    def game_line(self, line: _Line) -> GameLine:
        """The Game# line: its deal number, or none (a tag or file name)."""
        where = _deal_number(line.text)
        if where is None:
            return GameLine(line.text, None, line.whole)
        start, end = where
        written = line.text[start:end]
        number_span = line.span(start, end)
        digits = written.lstrip("-").lstrip("0")
        if len(digits) > LONGEST_NUMBER:  # not even converted: no deal has so many
            number = -DEAL_LIMIT if written.startswith("-") else DEAL_LIMIT
        else:
            number = int(written)
        game = GameLine(line.text, number, line.whole, number_span)
        if number >= DEAL_LIMIT:
            self.error("F103", f"{game.described} does not exist: standard deals are "
                       "numbered below 2**33 (8589934592)", number_span)
        return game

    def home_line(self, line: _Line) -> HomeLine:
        if len(line.text) > HOME_LINE_WIDTH:
            rest = line.text[HOME_LINE_WIDTH:]
            begin = HOME_LINE_WIDTH + len(rest) - len(rest.lstrip(" "))
            self.error("F102", "there are only four home piles: the freecell+home line "
                       f"ends at position {HOME_LINE_WIDTH}",
                       line.span(begin, min(begin + 2, len(line.text))))
            line = line._replace(text=line.text[:HOME_LINE_WIDTH].rstrip(" "))
        parts = _home_parts(line.text)
        if parts is None:  # not a freecell+home line: Lark says where it fails
            from lark import Tree

            result = self.try_parse(line, "home_line")
            if not isinstance(result, Tree):
                found = result.column
                column = found if isinstance(found, int) and found > 0 else 1
                self.error("F102", "the freecell+home line is four two-character freecells "
                           "separated by '-' (or '=', or a space), '+' at position 12, then "
                           f"up to four home cards; position {column} does not fit",
                           line.span(column - 1, column))
                return HomeLine((Freecell(),) * 4, (None,) * 4, HORNE, line.whole,
                                (None,) * 4)
            parts = _tree_parts(result)
        cells, separators, piles = parts
        freecells: List[Freecell] = []
        homes: List[Optional[Card]] = []
        home_spans: List[Optional[Span]] = []
        for part in cells:
            kind, written, _ = part
            span = line.part_span(part)
            if kind == "BLANK":
                freecells.append(Freecell(span=span))
            else:
                card = parse_card(written)
                freecells.append(Freecell(card, None if card else written, span))
        for part in piles:
            kind, written, _ = part
            span = line.part_span(part)
            card = None if kind == "BLANK" else parse_card(written)
            if kind != "BLANK" and card is None:
                self.error("F102", f"{written!r} is not a card ({_CARD_HINT}); a "
                           "home pile is written as its top card", span)
            homes.append(card)
            home_spans.append(span)
        wkr = [s[1] == "=" for s in separators]
        if any(wkr) and not all(wkr):
            odd = next(s for s, w in zip(separators, wkr) if w != wkr[0])
            self.error("F102", "positions 3, 6 and 9 must agree: '-' or a space (Horne "
                       "automoves), or all '=' (WKR automoves)", line.part_span(odd))
        automove = WKR if any(wkr) else HORNE
        while len(homes) < 4:
            homes.append(None)
            home_spans.append(None)
        return HomeLine(tuple(freecells), tuple(homes), automove, line.whole,
                        tuple(home_spans))

    # ---- the column section -------------------------------------------------

    def column_cells(self, line: _Line) -> Optional[Tuple[List[Optional[str]], Optional[int]]]:
        """The cells of a column line's eight columns (None for a blank) and the
        index of its first card-like cell past them (None if none); None when
        the line is not a column line: not three-character cells, or no card."""
        text = line.text
        if not _is_cells(text):
            return None
        if not _A_CARD.search(text):  # in a line of cells a card can only be a cell
            return None
        cells = [None if text[i] == " " else text[i:i + 2]
                 for i in range(0, min(len(text), 3 * COLUMNS), 3)]
        extra = next((i // 3 for i in range(3 * COLUMNS, len(text), 3) if text[i] != " "),
                     None)
        return cells, extra

    def columns(self, rows: List[Tuple[_Line, List[Optional[str]], Optional[int]]]
                ) -> Tuple[Tuple[Placed, ...], ...]:
        columns: List[List[Placed]] = [[] for _ in range(COLUMNS)]
        gap = [False] * COLUMNS
        for row, (line, cells, extra) in enumerate(rows):
            if row == MAX_ROWS:
                self.error("F104", f"a layout has at most {MAX_ROWS} column lines (the "
                           "deepest column possible)", line.whole)
            if extra is not None:
                self.error("F104", f"a layout has {COLUMNS} columns; this is column "
                           f"{extra + 1}", line.span(3 * extra, 3 * extra + 2))
            # A row may end early (trailing spaces are optional): the columns it
            # does not reach are blank in this row.
            number, start = line.number, line.start
            for index in range(COLUMNS):
                token = cells[index] if index < len(cells) else None
                if token is None:
                    gap[index] = True
                    continue
                at = 3 * index  # line.span(at, at + 2), made at once
                span = _new_span(Span, (number, at + 1, number, at + 3, start + at,
                                        start + at + 2))
                card = parse_card(token)
                if card is None:
                    self.error("F101", f"{token!r} is not a card ({_CARD_HINT})", span)
                    continue
                if gap[index]:
                    self.error("F107", f"{card} stands below an empty place in column "
                               f"{index + 1}", span)
                columns[index].append(placed_of(card, span))
        return tuple(tuple(c) for c in columns)

    # ---- the solution -------------------------------------------------------

    def solution_line(self, line: _Line) -> SolutionLine:
        """The rule ``solution_line`` read a step at a time with the grammar's
        own MOVE and MARKER terminals (which the grammar ranks above the
        comment): memory holds the steps, never a parse tree of a long line."""
        text = line.text
        if _fast_moves().fullmatch(text):
            number, start = line.number, line.start
            return SolutionLine(tuple([  # line.span(i, i + 3) of each move, made at once
                move_of(text[i + 1], text[i + 2], text[i] == SINGLE,
                        _new_span(Span, (number, i + 1, number, i + 4, start + i, start + i + 3)))
                for i in range(0, len(text), 3)]), "", line.whole)
        steps: List[Union[Move, EndMarker]] = []
        step = _first_step()
        i = 0
        while True:
            found = step.match(text, i)
            if found is None:
                break
            token, span, i = found.group(), line.span(i, found.end()), found.end()
            if token[0] != "[":
                steps.append(Move(token[1], token[2], token[0] == SINGLE, span))
                continue
            self.markers += 1
            if token == "[??]":
                steps.append(EndMarker(span))
            else:
                inner = token[1:-1]
                steps.append(Move(inner[-2], inner[-1], inner[0] == SINGLE, span, True))
        comment = text[i:]
        if comment and steps and MARK not in comment:  # a suppression is a comment by intent
            self.error("F110", f"{comment[:3]!r} is not a move: the rest of the line "
                       "is read as a comment", line.span(i, len(text)))
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
        # The header: a Game# line (or a tag in its place) and/or a
        # freecell+home line (blank: empty).
        first = lines[0] if lines else None
        if (first is not None and first.text and not self._is_home(first)
                and self.column_cells(first) is None):
            if _first_step().match(first.text):
                self.error("F108", "a record begins with a Game# line (a deal number, or a "
                           "tag or file name naming the layout), a freecell+home line or "
                           "the columns, not with moves", first.whole)
            else:
                game = self.game_line(first)
            i += 1
        while i < len(lines) and not lines[i].text:
            i += 1  # the empty freecell+home line, and blank lines before the columns
        if i < len(lines) and self._is_home(lines[i]):
            home = self.home_line(lines[i])
            i += 1
        while i < len(lines) and not lines[i].text:
            i += 1
        rows: List[Tuple[_Line, List[Optional[str]], Optional[int]]] = []
        while i < len(lines):
            cells = self.column_cells(lines[i])
            if cells is None:
                break
            rows.append((lines[i], *cells))
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
        if self.markers:  # without a marker, check_markers finds nothing to say
            self.check_markers(body)
        if home is None:
            home = HomeLine((Freecell(),) * 4, (None,) * 4, HORNE, None, (None,) * 4)
        self.errors.sort(key=lambda d: (d.span.start, d.span.end))
        return Record(game, home, columns, tuple(body), tuple(self.errors), self.text)

    @staticmethod
    def _is_home(line: _Line) -> bool:
        """A "+" at position 12 and separators at 3, 6 and 9: the freecell+home
        line (well formed or not); a Game# line's "+" is not taken for one."""
        text = line.text
        separator = _separator()
        return (len(text) > _PLUS_AT and text[_PLUS_AT] == "+"
                and all(separator.fullmatch(text[k]) for k in _SEPARATORS_AT))


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
