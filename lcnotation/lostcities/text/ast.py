"""The typed, immutable syntax tree of a Lost Cities record.

Every node is an immutable named tuple (cheap to build: a parser makes
millions of them).  ``node._replace(field=...)`` makes a changed copy.

Comparison is by meaning, not by where a node was written:

- ``==`` and ``hash`` leave out ``span`` (the source position), a move's
  written ``number`` and ``turn``, and a game's ``errors``, so a tree parsed
  from canonical text equals the same tree parsed from any dialect;
- a node equals only a node of its own kind: never a plain tuple, although
  it is one (``Card("R", 3) != ("R", 3)``);
- cards are ordered by meaning, colour letter then rank (a hand sorts);
  every other node refuses ``<`` and its kin with a TypeError that says to
  sort by a key (moves have no natural order: by turn? by card?).

>>> Card("R", 3) == ("R", 3), sorted([Card("R", 7), Card("B", 9), Card("R", 3)])
(False, [Card(color='B', rank=9), Card(color='R', rank=3), Card(color='R', rank=7)])

>>> card = Card("R", 3)
>>> card, card.is_handshake
(Card(color='R', rank=3), False)
>>> Move(Placement(Card("B", HANDSHAKE), discard=True), Draw(None))
Move(placement=Placement(card=Card(color='B', rank=0), discard=True), draw=Draw(color=None), comments=())
"""

from __future__ import annotations

from typing import Any, Dict, Literal, NamedTuple, Optional, Tuple, Union

from ...core.diagnostics import NotationError
from ...core.span import NO_SPAN, Span
from ...core.display import draw

__all__ = [
    "HANDSHAKE",
    "Span",
    "Card",
    "Placement",
    "Draw",
    "Comment",
    "Move",
    "Header",
    "Game",
]

#: The rank of a handshake (wager) card.  Number cards have ranks 2 to 10.
HANDSHAKE = 0


def _head(span: Span, size: int) -> Span:
    """The first ``size`` characters of ``span`` (which lies on one line)."""
    if not span.known:
        return NO_SPAN
    return Span(span.line, span.column, span.line, span.column + size, span.start,
                span.start + size)


class Card(NamedTuple):
    """A card: a colour letter and a rank (2 to 10, or ``HANDSHAKE``).

    The colour is the upper-case letter, whatever case the source used.
    ``span`` is where a card read from a header (``Hand1``, ``Deck``) is
    written.  The card of a move has none: the parts of a move are values,
    shared by every move that says the same, and the move gives their
    positions (:attr:`Move.card_span`).

    >>> Card("G", 10).is_handshake, Card("G", HANDSHAKE).is_handshake
    (False, True)
    """

    color: str
    rank: int
    span: Span = NO_SPAN

    @property
    def is_handshake(self) -> bool:
        """True for a handshake (wager) card."""
        return self.rank == HANDSHAKE


class Placement(NamedTuple):
    """The first half of a move: a card played to an expedition or discarded.

    >>> Placement(Card("R", 3)).discard
    False
    """

    card: Card
    discard: bool = False


class Draw(NamedTuple):
    """The second half of a move: the draw pile (``color=None``) or the top of
    a colour's discard pile.

    >>> Draw(None).from_draw_pile, Draw("B").from_draw_pile
    (True, False)
    """

    color: Optional[str]

    @property
    def from_draw_pile(self) -> bool:
        """True when the card is drawn from the face-down draw pile."""
        return self.color is None


class Comment(NamedTuple):
    """A comment, with its text exactly as written between the delimiters.

    ``kind`` is ``"brace"`` for ``{ ... }`` and ``"line"`` for ``; ...``.

    >>> Comment(" a good start", "line").text
    ' a good start'
    """

    text: str
    kind: Literal["brace", "line"] = "brace"
    span: Span = NO_SPAN


class Move(NamedTuple):
    """One turn: a placement and a draw, with the comments that follow it.

    ``number`` is the move number written before the move (``None`` when
    there was none) and ``turn`` its 0-based turn index in the game, which
    also counts unreadable moves; neither takes part in ``==``.  Player 1
    moves on even turns.
    """

    placement: Placement
    draw: Draw
    comments: Tuple[Comment, ...] = ()
    number: Optional[int] = None
    turn: Optional[int] = None
    span: Span = NO_SPAN

    @property
    def card(self) -> Card:
        """The card placed this turn."""
        return self.placement.card

    # A move is written on one line without spaces, so the positions of its
    # parts follow from its own: the card is its first two characters (three
    # for a 10), the placement adds the discard marker, the draw is the last.

    @property
    def card_span(self) -> Span:
        """Where the card is written (``R3``, ``BH``, ``W10``).

        >>> from lcnotation import parse_move
        >>> move = parse_move("  r10x-b")
        >>> move.span.column, move.card_span.column, move.card_span.end_column
        (3, 3, 6)
        """
        return _head(self.span, 3 if self.placement.card.rank == 10 else 2)

    @property
    def placement_span(self) -> Span:
        """Where the placement is written: the card and its discard marker (``BHD``)."""
        placement = self.placement
        return _head(self.span, (3 if placement.card.rank == 10 else 2) + placement.discard)

    @property
    def draw_span(self) -> Span:
        """Where the draw is written: the last character of the move."""
        s = self.span
        if not s.known:
            return NO_SPAN
        return Span(s.end_line, s.end_column - 1, s.end_line, s.end_column, s.end - 1, s.end)


class Header(NamedTuple):
    """A ``[Name "value"]`` header; ``value`` has its escapes resolved.

    >>> Header("Event", 'The "Open"').value
    'The "Open"'
    """

    name: str
    value: str
    comments: Tuple[Comment, ...] = ()
    span: Span = NO_SPAN
    #: Where the value stands, between the quotes.
    value_span: Span = NO_SPAN




class Game(NamedTuple):
    """A game record: headers, moves and comments.

    ``comments`` holds the comments written before the first header or move;
    every other comment belongs to the header or move it follows.  ``errors``
    lists the syntax errors met while reading (empty for a clean record) and,
    like ``span``, is not part of ``==``.

    >>> game = Game(headers=(Header("Player1", "Ann"),))
    >>> game.header("Player1"), game.header("Player2", "?")
    ('Ann', '?')
    """

    headers: Tuple[Header, ...] = ()
    moves: Tuple[Move, ...] = ()
    comments: Tuple[Comment, ...] = ()
    errors: Tuple[NotationError, ...] = ()
    span: Span = NO_SPAN

    def header(self, name: str, default: Optional[str] = None) -> Optional[str]:
        """The value of the first header called ``name`` (case-sensitive)."""
        for h in self.headers:
            if h.name == name:
                return h.value
        return default

    @property
    def shown(self) -> bool:
        """Whether the record has anything to show (a move, a header or an
        error): what ``lcn view`` and ``lcn render`` count as a game."""
        return bool(self.moves or self.headers or self.errors)

    def _repr_svg_(self) -> str:
        """The board after the last move, for Jupyter (:func:`lcnotation.svg.board_svg`)."""
        return draw(self, "svg")

    def _repr_html_(self) -> str:
        """The board after the last move, for Jupyter (:func:`lcnotation.svg.board_html`)."""
        return draw(self, "html")

    @property
    def tags(self) -> Dict[str, str]:
        """The headers as a dict (the first of any repeated name wins)."""
        result: Dict[str, str] = {}
        for h in self.headers:
            result.setdefault(h.name, h.value)
        return result


Node = Union[Card, Placement, Draw, Comment, Move, Header, Game]


def _by_meaning(cls: Any, n: int, ordered: bool) -> None:
    """Make ``cls`` compare, hash and print by its first ``n`` fields only;
    order it by them if ``ordered``, else refuse ordering (see the module)."""
    names = cls._fields[:n]

    def __eq__(self: Any, other: object) -> Any:
        if type(other) is type(self):
            return self[:n] == other[:n]  # type: ignore[index]
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self: Any, other: object) -> Any:
        if type(other) is type(self):
            return self[:n] != other[:n]  # type: ignore[index]
        return True if isinstance(other, tuple) else NotImplemented

    def __hash__(self: Any) -> int:
        return hash(self[:n])

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(names, self))
        return f"{type(self).__name__}({inner})"

    def refuse(self: Any, other: object) -> Any:
        if not isinstance(other, tuple):
            return NotImplemented
        if ordered and type(other) is type(self):
            return None
        kind = type(self).__name__
        if ordered:
            raise TypeError(f"a {kind} is ordered only against another {kind}, "
                            f"not against {type(other).__name__}")
        raise TypeError(f"{kind} nodes have no order: sort them by a key, as in "
                        "sorted(moves, key=lambda m: m.turn)")

    def __lt__(self: Any, other: object) -> Any:
        refused = refuse(self, other)
        return self[:n] < other[:n] if refused is None else refused  # type: ignore[index]

    def __le__(self: Any, other: object) -> Any:
        refused = refuse(self, other)
        return self[:n] <= other[:n] if refused is None else refused  # type: ignore[index]

    def __gt__(self: Any, other: object) -> Any:
        refused = refuse(self, other)
        return self[:n] > other[:n] if refused is None else refused  # type: ignore[index]

    def __ge__(self: Any, other: object) -> Any:
        refused = refuse(self, other)
        return self[:n] >= other[:n] if refused is None else refused  # type: ignore[index]

    cls.__eq__, cls.__ne__, cls.__hash__, cls.__repr__ = __eq__, __ne__, __hash__, __repr__
    cls.__lt__, cls.__le__, cls.__gt__, cls.__ge__ = __lt__, __le__, __gt__, __ge__


for _cls, _n in ((Card, 2), (Placement, 2), (Draw, 1), (Comment, 2), (Move, 3),
                 (Header, 3), (Game, 3)):
    _by_meaning(_cls, _n, ordered=_cls is Card)
