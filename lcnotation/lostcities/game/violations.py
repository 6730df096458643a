"""The rules a record can break: each as data, and its wording in English.

The game model (:mod:`lcnotation.lostcities.game.state`) and the reading of the deal
(:mod:`lcnotation.lostcities.game.setup`) report what is wrong as :class:`Violation`
objects: a code and the facts of the case (who, which card, where), no text.
The wording of every rule lives here, in each kind's :attr:`~Violation.message`;
the checker turns violations into :class:`~lcnotation.core.diagnostics.Diagnostic`
objects with :meth:`Violation.to_diagnostic`.  The codes, with their severity
and summary, are :data:`lcnotation.lostcities.game.codes.RULE_CODES`.  This module is
imported on the first violation: a clean record never loads it.

>>> from lcnotation.lostcities.text.ast import Card
>>> v = NotHigher(NO_SPAN, 2, "North", Card("R", 4), 7)
>>> v.code, v.message
('R101', "Red 4 cannot follow Red 7 on North's expedition: number cards must go up")
>>> v == NotHigher(NO_SPAN, 2, "North", Card("R", 4), 7), v.at(NO_SPAN) is v
(True, False)
>>> print(v.to_diagnostic())
0:0: R101 Red 4 cannot follow Red 7 on North's expedition: number cards must go up
"""

from __future__ import annotations

from typing import ClassVar, Optional, Tuple, Type, TypeVar

from ..text.ast import HANDSHAKE, Card
from ...core.diagnostics import Diagnostic, Severity
from ...core.span import NO_SPAN, Span  # noqa: F401 (NO_SPAN: the doctests)
from .codes import RULE_CODES

__all__ = ["Violation", "card_name", "color_name",
           "NotHigher", "HandshakeTooLate", "OnTable", "HeldByOther", "NotHeld",
           "OutsideColors", "EmptyPile", "DrawBack", "AfterEnd", "Incomplete",
           "DealSize", "NotInDeck", "DealtTooOften", "DealMisses", "WrongResult",
           "ColorCount"]


_COLOR_NAMES = {"R": "Red", "G": "Green", "W": "White", "B": "Blue", "Y": "Yellow",
                "K": "Black", "P": "Purple"}


def color_name(color: str) -> str:
    """``Red`` for ``R``; a colour without an English name keeps its letter."""
    return _COLOR_NAMES.get(color, color)


def card_name(color: str, rank: int) -> str:
    """A card as a player says it.

    >>> card_name("R", 7), card_name("B", HANDSHAKE), card_name("Q", 4)
    ('Red 7', 'Blue handshake', 'Q4')
    """
    name = _COLOR_NAMES.get(color)
    if name is None:
        return color + ("H" if rank == HANDSHAKE else str(rank))
    return f"{name} {'handshake' if rank == HANDSHAKE else rank}"


def _card(card: Card) -> str:
    return card_name(card.color, card.rank)


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


class Violation:
    """A rule broken: ``span`` is where (:data:`~lcnotation.core.span.NO_SPAN` until
    known, or for a node not read from text), ``turn`` the 0-based turn of the move concerned (None for the
    headers); each kind adds the facts its wording needs.

    Violations are values: read-only, equal when of the same kind with the same
    facts.  (Plain classes with slots rather than dataclasses: creating the
    dataclasses cost more at import than a lint of 600 games spends on them.)
    """

    __slots__ = ("span", "turn")
    code: ClassVar[str] = ""
    span: Span
    turn: Optional[int]

    def _fill(self, span: Span, turn: Optional[int], **facts: object) -> None:
        put = object.__setattr__
        put(self, "span", span)
        put(self, "turn", turn)
        for name, value in facts.items():
            put(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def _facts(self) -> Tuple[object, ...]:
        return tuple(getattr(self, name) for name in _names(type(self)))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Violation)
        return self._facts() == other._facts()

    def __hash__(self) -> int:
        return hash((type(self), self._facts()))

    def __repr__(self) -> str:
        facts = ", ".join(f"{name}={getattr(self, name)!r}" for name in _names(type(self)))
        return f"{type(self).__name__}({facts})"

    def at(self: _V, span: Span) -> _V:
        """This violation at ``span``."""
        return _rebuild(type(self), (span,) + self._facts()[1:])

    def __reduce__(self) -> Tuple[object, ...]:
        return _rebuild, (type(self), self._facts())

    @property
    def severity(self) -> Severity:
        return RULE_CODES[self.code][0]

    @property
    def message(self) -> str:
        """The violation in English."""
        raise NotImplementedError

    def to_diagnostic(self) -> Diagnostic:
        return Diagnostic(self.code, self.message, self.span, self.severity, None, self.turn)


_V = TypeVar("_V", bound=Violation)


def _rebuild(kind: Type[_V], facts: Tuple[object, ...]) -> _V:
    made = object.__new__(kind)
    for name, value in zip(_names(kind), facts):
        object.__setattr__(made, name, value)
    return made


def _names(kind: type) -> Tuple[str, ...]:
    """The facts of a kind of violation, base class first."""
    return tuple(name for k in reversed(kind.__mro__)
                 for name in k.__dict__.get("__slots__", ()))


# ---------------------------------------------------------------- moves


class NotHigher(Violation):
    """A number card played on an expedition whose last card (``last``) is not lower."""

    code: ClassVar[str] = "R101"
    __slots__ = ("player", "card", "last")
    player: str
    card: Card
    last: int

    def __init__(self, span: Span, turn: Optional[int],
                 player: str, card: Card, last: int) -> None:
        self._fill(span, turn, player=player, card=card, last=last)

    @property
    def message(self) -> str:
        return (f"{_card(self.card)} cannot follow {card_name(self.card.color, self.last)} "
                f"on {self.player}'s expedition: number cards must go up")


class HandshakeTooLate(Violation):
    """A handshake played on an expedition whose last card (``last``) is a number."""

    code: ClassVar[str] = "R102"
    __slots__ = ("player", "color", "last")
    player: str
    color: str
    last: int

    def __init__(self, span: Span, turn: Optional[int],
                 player: str, color: str, last: int) -> None:
        self._fill(span, turn, player=player, color=color, last=last)

    @property
    def message(self) -> str:
        return (f"{self.player} cannot add a {color_name(self.color)} handshake after "
                f"{card_name(self.color, self.last)}: handshakes go before any number card")


class OnTable(Violation):
    """Every copy of ``card`` is on the table; ``place`` is where the one copy of
    a number card is (``on North's expedition``, ``in the Red discard pile``)."""

    code: ClassVar[str] = "R103"
    __slots__ = ("player", "card", "place")
    player: str
    card: Card
    place: str

    def __init__(self, span: Span, turn: Optional[int],
                 player: str, card: Card, place: str) -> None:
        self._fill(span, turn, player=player, card=card, place=place)

    @property
    def message(self) -> str:
        card = _card(self.card)
        if self.card.rank == HANDSHAKE:
            return (f"{self.player} cannot place a {card}: all three "
                    f"{color_name(self.card.color)} handshakes are already on the table")
        return (f"{self.player} cannot place {card}: it is already {self.place}, and there "
                f"is only one {card}")

    @staticmethod
    def expedition(player: str) -> str:
        return f"on {player}'s expedition"

    @staticmethod
    def discard_pile(color: str) -> str:
        return f"in the {color_name(color)} discard pile"


class HeldByOther(Violation):
    code: ClassVar[str] = "R104"
    __slots__ = ("player", "card", "holder")
    player: str
    card: Card
    holder: str

    def __init__(self, span: Span, turn: Optional[int],
                 player: str, card: Card, holder: str) -> None:
        self._fill(span, turn, player=player, card=card, holder=holder)

    @property
    def message(self) -> str:
        return f"{self.player} cannot place {_card(self.card)}: {self.holder} holds it"


class NotHeld(Violation):
    """The mover cannot hold ``card``: ``hand`` is the mover's known cards, or None
    when the deal puts the card in the draw pile."""

    code: ClassVar[str] = "R105"
    __slots__ = ("player", "card", "hand")
    player: str
    card: Card
    hand: Optional[Tuple[Card, ...]]

    def __init__(self, span: Span, turn: Optional[int],
                 player: str, card: Card, hand: Optional[Tuple[Card, ...]]) -> None:
        self._fill(span, turn, player=player, card=card, hand=hand)

    @property
    def message(self) -> str:
        if self.hand is None:
            why = "by the deal it is still in the draw pile"
        elif self.hand:
            why = f"{self.player}'s hand is {', '.join(map(_card, self.hand))}"
        else:
            why = f"{self.player}'s hand is empty"
        return f"{self.player} does not hold {_card(self.card)}: {why}"


class OutsideColors(Violation):
    """A move names ``color``, which is not one of ``colors``: it ``plays`` or
    ``discards`` ``card``, or ``draws`` (``card`` None) from its discard pile."""

    code: ClassVar[str] = "R106"
    __slots__ = ("player", "action", "color", "card", "colors")
    player: str
    action: str
    color: str
    card: Optional[Card]
    colors: Tuple[str, ...]

    def __init__(self, span: Span, turn: Optional[int],
                 player: str, action: str, color: str, card: Optional[Card],
                 colors: Tuple[str, ...]) -> None:
        self._fill(span, turn, player=player, action=action, color=color, card=card,
                   colors=colors)

    @property
    def message(self) -> str:
        what = (f"{self.action} {_card(self.card)}" if self.card is not None
                else f"{self.action} from the {self.color} discard pile")
        return (f"{self.player} {what}, but {self.color} is not one of this game's colours "
                f"({''.join(self.colors)})")


class EmptyPile(Violation):
    code: ClassVar[str] = "R107"
    __slots__ = ("player", "color")
    player: str
    color: str

    def __init__(self, span: Span, turn: Optional[int],
                 player: str, color: str) -> None:
        self._fill(span, turn, player=player, color=color)

    @property
    def message(self) -> str:
        return (f"{self.player} draws from the {color_name(self.color)} discard pile, but "
                "it is empty")


class DrawBack(Violation):
    code: ClassVar[str] = "R108"
    __slots__ = ("player", "card")
    player: str
    card: Card

    def __init__(self, span: Span, turn: Optional[int],
                 player: str, card: Card) -> None:
        self._fill(span, turn, player=player, card=card)

    @property
    def message(self) -> str:
        return (f"{self.player} cannot draw back the {_card(self.card)}: a card discarded "
                "this turn stays on its pile until the next turn")


class AfterEnd(Violation):
    """A move after the round ended (on turn ``end_turn``, None when unknown);
    ``rest`` more moves follow it."""

    code: ClassVar[str] = "R109"
    __slots__ = ("end_turn", "rest")
    end_turn: Optional[int]
    rest: int

    def __init__(self, span: Span, turn: Optional[int],
                 end_turn: Optional[int], rest: int) -> None:
        self._fill(span, turn, end_turn=end_turn, rest=rest)

    @property
    def message(self) -> str:
        when = "" if self.end_turn is None else f" on turn {self.end_turn + 1}"
        rest = self.rest
        more = ("" if not rest else " (1 more move follows)" if rest == 1
                else f" ({rest} more moves follow)")
        return (f"the round is over: the last card of the draw pile was drawn{when}, and no "
                f"move may follow it{more}")


class Incomplete(Violation):
    """The record ends with between ``low`` and ``high`` cards in the draw pile."""

    code: ClassVar[str] = "R110"
    __slots__ = ("low", "high")
    low: int
    high: int

    def __init__(self, span: Span, turn: Optional[int], low: int, high: int) -> None:
        self._fill(span, turn, low=low, high=high)

    @property
    def message(self) -> str:
        left = f"{self.high}" if self.low == self.high else f"{self.low} to {self.high}"
        return (f"the record ends with {left} cards in the draw pile: the round is "
                "incomplete, and is scored as it stands")


# ---------------------------------------------------------------- headers


class DealSize(Violation):
    """Deal header ``part`` (Hand1, Hand2 or Deck) holds ``count`` cards, not ``expected``."""

    code: ClassVar[str] = "R201"
    index: ClassVar[int] = -1
    __slots__ = ("part", "count", "expected")
    part: str
    count: int
    expected: int

    def __init__(self, span: Span, turn: Optional[int],
                 part: str, count: int, expected: int) -> None:
        self._fill(span, turn, part=part, count=count, expected=expected)

    @property
    def message(self) -> str:
        whom = ("each player is dealt" if self.part != "Deck"
                else "after the deal the draw pile holds")
        return f"{self.part} holds {_cards(self.count)}: {whom} {self.expected}"


class NotInDeck(Violation):
    """Card ``index`` of deal header ``part`` is of a colour outside ``colors``."""

    code: ClassVar[str] = "R202"
    __slots__ = ("part", "index", "card", "colors")
    part: str
    index: int
    card: Card
    colors: Tuple[str, ...]

    def __init__(self, span: Span, turn: Optional[int],
                 part: str, index: int, card: Card, colors: Tuple[str, ...]) -> None:
        self._fill(span, turn, part=part, index=index, card=card, colors=colors)

    @property
    def message(self) -> str:
        return (f"{_card(self.card)} is not a card of this game: its colours are "
                f"{''.join(self.colors)}")


class DealtTooOften(Violation):
    """Card ``index`` of ``part`` is copy number ``times`` of its card, dealt in ``parts``."""

    code: ClassVar[str] = "R202"
    __slots__ = ("part", "index", "card", "times", "parts")
    part: str
    index: int
    card: Card
    times: int
    parts: Tuple[str, ...]

    def __init__(self, span: Span, turn: Optional[int],
                 part: str, index: int, card: Card, times: int,
                 parts: Tuple[str, ...]) -> None:
        self._fill(span, turn, part=part, index=index, card=card, times=times, parts=parts)

    @property
    def message(self) -> str:
        card = _card(self.card)
        times = "twice" if self.times == 2 else f"{self.times} times"
        only = (f"is only one {card}" if self.card.rank != HANDSHAKE
                else f"are three {color_name(self.card.color)} handshakes")
        return f"{card} is dealt {times} ({' and '.join(self.parts)}): there {only}"


class DealMisses(Violation):
    """The whole deal is given and lacks ``missing`` cards of the deck."""

    code: ClassVar[str] = "R203"
    part: ClassVar[str] = "Deck"
    index: ClassVar[int] = -1
    __slots__ = ("missing",)
    missing: Tuple[Card, ...]

    def __init__(self, span: Span, turn: Optional[int],
                 missing: Tuple[Card, ...]) -> None:
        self._fill(span, turn, missing=missing)

    @property
    def message(self) -> str:
        return (f"the deal misses {_cards(len(self.missing))} of the full deck: "
                f"{', '.join(map(_card, self.missing))}")


class WrongResult(Violation):
    """The Result header says ``claimed``; the moves score ``actual`` for ``players``."""

    code: ClassVar[str] = "R204"
    __slots__ = ("claimed", "actual", "players")
    claimed: Tuple[int, int]
    actual: Tuple[int, int]
    players: Tuple[str, str]

    def __init__(self, span: Span, turn: Optional[int],
                 claimed: Tuple[int, int], actual: Tuple[int, int],
                 players: Tuple[str, str]) -> None:
        self._fill(span, turn, claimed=claimed, actual=actual, players=players)

    @property
    def message(self) -> str:
        (a, b), (x, y), (p, q) = self.claimed, self.actual, self.players
        return f"Result says {a}-{b}, but the moves score {x}-{y} ({p} {x}, {q} {y})"


class ColorCount(Violation):
    """The Colors header lists ``count`` colours."""

    code: ClassVar[str] = "R205"
    __slots__ = ("count",)
    count: int

    def __init__(self, span: Span, turn: Optional[int], count: int) -> None:
        self._fill(span, turn, count=count)

    @property
    def message(self) -> str:
        return (f"Colors lists {self.count} colour{'s' if self.count != 1 else ''}: "
                "Lost Cities is played with 5 or 6")
