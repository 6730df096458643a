"""The typed, immutable syntax tree of a Standard FreeCell Notation record.

Nodes are frozen dataclasses; their ``span`` (where they were written) is left
out of ``==``, so a record read from canonical text equals the same record
read from any other spelling of it.

>>> a = Move("5", "a", False, Span(1, 1, 1, 4, 0, 3))
>>> b = Move("5", "a", False, Span(9, 1, 9, 4, 80, 83))
>>> a == b, str(a)
(True, '5a')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import List, Optional, Tuple, Union

from ..core.span import Span
from ..core.diagnostics import Diagnostic
from .cards import Card
from .rules import LONGEST_RUN, SINGLE

__all__ = ["Span", "GameLine", "Freecell", "HomeLine", "Placed", "Move", "EndMarker",
           "SolutionLine", "CommentLine", "BodyLine", "Record", "HORNE", "WKR",
           "LONGEST_NUMBER", "move_of", "placed_of"]

#: The automove rules a freecell+home line can declare ("-" and "=").
HORNE, WKR = "horne", "wkr"
#: The most digits of a deal number that are converted (no deal has more than 10).
LONGEST_NUMBER = 18


@dataclass(frozen=True)
class GameLine:
    """The Game# line: its whole text and the deal number read from it.

    ``number`` is None when the line holds no deal number: it is then a tag or
    file name that names the layout (the proposal's point 12), and
    ``number_span`` is None too.  A number of more than :data:`LONGEST_NUMBER`
    digits is not converted: it reads as ``DEAL_LIMIT`` (too high, F103) or,
    negative, as ``-DEAL_LIMIT`` (a cookie deal); ``text`` keeps it as written.
    """

    text: str
    number: Optional[int]
    span: Span = field(compare=False)
    number_span: Optional[Span] = field(default=None, compare=False)

    @property
    def described(self) -> str:
        """``deal 617`` (the number as written), or ``a deal number of 5,000
        digits`` when it is long; ``the tag 'x'`` for a tag."""
        if self.number_span is None:
            shown = self.text if len(self.text) <= 40 else self.text[:37] + "..."
            return f"the tag {shown!r}"
        written = self.text[self.number_span.column - 1:self.number_span.end_column - 1]
        digits = written.lstrip("-").lstrip("0")
        return (f"deal {written}" if len(written) <= 20
                else f"a deal number of {len(digits):,} digits")


@dataclass(frozen=True)
class Freecell:
    """One freecell of the freecell+home line: empty, a card, or blocked.

    ``blocked`` keeps the two characters written for a blocked cell (``BB``).
    """

    card: Optional[Card] = None
    blocked: Optional[str] = None
    span: Optional[Span] = field(default=None, compare=False)


@dataclass(frozen=True)
class HomeLine:
    """The freecell+home line: four freecells, the automove rule, four home piles.

    ``homes`` holds the top card of each home pile as written (None: empty),
    in the order written.
    """

    freecells: Tuple[Freecell, ...]
    homes: Tuple[Optional[Card], ...]
    automove: str = HORNE
    span: Optional[Span] = field(default=None, compare=False)
    home_spans: Tuple[Optional[Span], ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Placed:
    """A card of the column section and where it is written."""

    card: Card
    span: Span = field(compare=False)


@dataclass(frozen=True)
class Move:
    """An explicit move: source (``a``-``d``, ``1``-``8``), target (``a``-``d``,
    ``1``-``8``, ``h``), and whether its prefix was ``.`` (one card).

    ``marked`` is set on the move written in brackets: the depicted layout is
    the position just before it.
    """

    source: str
    target: str
    single: bool
    span: Span = field(compare=False)
    marked: bool = False

    def __str__(self) -> str:
        return self.source + self.target

    @property
    def prefix(self) -> str:
        return SINGLE if self.single else LONGEST_RUN


_new = object.__new__


def move_of(source: str, target: str, single: bool, span: Span) -> Move:
    """``Move(source, target, single, span)``, made without the frozen
    dataclass's ``__init__`` (which sets each field through
    ``object.__setattr__``, four times the cost): the reader makes one for
    every move it reads."""
    move = _new(Move)
    move.__dict__.update(source=source, target=target, single=single, span=span,
                         marked=False)
    return move


def placed_of(card: Card, span: Span) -> Placed:
    """``Placed(card, span)``, made as :func:`move_of` makes a move."""
    placed = _new(Placed)
    placed.__dict__.update(card=card, span=span)
    return placed


@dataclass(frozen=True)
class EndMarker:
    """``[??]``: the depicted layout is the position after the last move."""

    span: Span = field(compare=False)


@dataclass(frozen=True)
class SolutionLine:
    """A solution line: its moves (and marker) and the comment where the cycle broke."""

    steps: Tuple[Union[Move, EndMarker], ...]
    comment: str
    span: Span = field(compare=False)


@dataclass(frozen=True)
class CommentLine:
    """A line after the column section that is not a solution line, kept as written."""

    text: str
    span: Span = field(compare=False)


BodyLine = Union[SolutionLine, CommentLine]


@dataclass(frozen=True)
class Record:
    """A whole record.

    ``game`` is the Game# line, or the tag or file name in its place (its
    ``number`` None); None when the record has neither.  ``home`` is the
    freecell+home line (all empty, without a span, when the record has none or
    an empty one).  ``columns`` always holds eight columns, each from its
    deepest card to its top.  ``moves`` are all explicit moves in order;
    ``marker`` is the index of the move the depicted layout stands before
    (``len(moves)`` for ``[??]``), None without a marker.  ``errors`` are what
    the reader found wrong.
    """

    game: Optional[GameLine]
    home: HomeLine
    columns: Tuple[Tuple[Placed, ...], ...]
    body: Tuple[BodyLine, ...]
    errors: Tuple[Diagnostic, ...] = field(default=(), compare=False)
    text: str = field(default="", compare=False, repr=False)

    @cached_property
    def moves(self) -> Tuple[Move, ...]:
        return tuple(s for line in self.body if isinstance(line, SolutionLine)
                     for s in line.steps if isinstance(s, Move))

    @cached_property
    def marker(self) -> Optional[int]:
        index = 0
        for line in self.body:
            if isinstance(line, SolutionLine):
                for step in line.steps:
                    if isinstance(step, EndMarker):
                        return index
                    if step.marked:
                        return index
                    index += 1
        return None

    def meaning(self) -> Tuple[object, ...]:
        """What the record says, without how its lines are laid out: two records
        with the same meaning format to the same text."""
        stream: List[object] = []
        for line in self.body:
            if isinstance(line, CommentLine):
                stream.append(("comment", line.text))
                continue
            stream.extend(line.steps)
            if line.comment:
                stream.append(("end of line", line.comment))
        return (self.game, self.home, self.columns, tuple(stream))

    @property
    def deal_number(self) -> Optional[int]:
        return self.game.number if self.game is not None else None

