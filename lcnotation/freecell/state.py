"""A FreeCell position, the moves of the notation, and Horne automoves.

>>> from .deals import deal
>>> position = Position.fresh(deal(1))
>>> position.automove()
[]
>>> position.play("5", "a", single=False), str(position.freecells[0])
(1, '6C')
"""

from __future__ import annotations

from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from .cards import RED_SUITS, SUITS, Card
from .deals import COLUMNS
from .rules import FREECELL_NAMES, FREECELLS, HOME, OTHER_COLOUR_BELOW, PARTNER_BELOW

__all__ = ["FREECELLS", "FREECELL_NAMES", "IllegalMove", "Position", "fits_on", "horne_safe", "won"]

#: The index of each freecell by its name, and of each column by its number
#: as a move writes it (another number is read by int, as before).
_CELL = {name: i for i, name in enumerate(FREECELL_NAMES)}
_COLUMN = {str(i + 1): i for i in range(COLUMNS)}


def _column_of(name: str) -> int:
    """The index of the column a move names (a number written otherwise, such
    as ``01``, by int)."""
    index = _COLUMN.get(name)
    return int(name) - 1 if index is None else index


class IllegalMove(ValueError):
    """A move the rules forbid: ``code`` (an F3xx code) and the reason in words."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def fits_on(card: Card, below: Card) -> bool:
    """Whether ``card`` may lie on ``below`` in a column: one rank lower, other colour."""
    return card[0] == below[0] - 1 and (card[1] in RED_SUITS) != (below[1] in RED_SUITS)


def _safe_above(pile: int, partner: int, other_colour: int) -> bool:
    """Horne's rule by the heights of the piles: the next card of a pile at
    ``pile`` goes home when there is one (``pile`` below 13), the lower pile
    of the other colour is at least ``OTHER_COLOUR_BELOW`` below that card
    (``pile - 1``) and the other pile of its colour, ``partner``, at least
    ``PARTNER_BELOW`` below it (``pile - 2``)."""
    card = pile + 1
    return (pile < 13 and other_colour >= card - OTHER_COLOUR_BELOW
            and partner >= card - PARTNER_BELOW)


def _kin(suit: str) -> Tuple[str, int, int, int, int]:
    """``suit``, its index in SUITS, the index of the other suit of its
    colour, and those of the two suits of the other colour."""
    red = suit in RED_SUITS
    partner = next(j for j, other in enumerate(SUITS)
                   if other != suit and (other in RED_SUITS) == red)
    a, b = (j for j, other in enumerate(SUITS) if (other in RED_SUITS) != red)
    return suit, SUITS.index(suit), partner, a, b


_KIN = tuple(_kin(suit) for suit in SUITS)
_KIN_OF = {kin[0]: kin for kin in _KIN}


def horne_safe(card: Card, homes: Dict[str, int]) -> bool:
    """Horne's automove rule: ``card`` goes home when its own pile is one below
    it, both piles of the other colour are at least two below it, and the
    other pile of its colour at least three below (so aces and twos always go).
    """
    pile = homes[card.suit]
    if pile != card.rank - 1:
        return False
    _, _, partner, a, b = _KIN_OF[card.suit]
    return _safe_above(pile, homes[SUITS[partner]], min(homes[SUITS[a]], homes[SUITS[b]]))


#: The card that goes on each suit's home pile next, by the pile's top rank
#: (None on a king).
_NEXT: Dict[str, Tuple[Optional[Card], ...]] = {
    suit: tuple(Card(rank + 1, suit) if rank < 13 else None for rank in range(14))
    for suit in SUITS}


def _going_home(homes: Dict[str, int]) -> FrozenSet[Card]:
    """The cards :func:`horne_safe` sends home from ``homes``: of each suit,
    at most the next card of its pile (worked out once for each height of
    the four piles, of which there are 14 ** 4 at most)."""
    key = tuple(map(homes.__getitem__, SUITS))
    found = _SAFE.get(key)
    if found is None:
        found = _SAFE[key] = frozenset([
            card for suit, i, partner, a, b in _KIN
            if _safe_above(key[i], key[partner], min(key[a], key[b]))
            for card in (_NEXT[suit][key[i]],) if card is not None])
    return found


_SAFE: Dict[Tuple[int, ...], FrozenSet[Card]] = {}


def _cannot_go_on(what: str, below: Card) -> IllegalMove:
    """F304: ``what`` (a card, or a run named by its ends) cannot go on ``below``."""
    return IllegalMove("F304", f"{what} cannot go on {below} (a card goes on one of the "
                       "other colour and one rank higher)")


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def won(homes: Dict[str, int]) -> bool:
    return all(rank == 13 for rank in homes.values())


class Position:
    """Four freecells (None: free; ``blocked[i]``: unusable), the home piles
    (the top rank of each suit, 0 for none) and eight columns (deepest card first).
    """

    __slots__ = ("freecells", "blocked", "homes", "columns")

    def __init__(self, freecells: Sequence[Optional[Card]], blocked: Sequence[bool],
                 homes: Dict[str, int], columns: Sequence[Sequence[Card]]) -> None:
        self.freecells: List[Optional[Card]] = list(freecells)
        self.blocked: List[bool] = list(blocked)
        self.homes: Dict[str, int] = dict(homes)
        self.columns: List[List[Card]] = [list(c) for c in columns]

    @classmethod
    def fresh(cls, columns: Sequence[Sequence[Card]]) -> "Position":
        return cls([None] * FREECELLS, [False] * FREECELLS, {s: 0 for s in SUITS}, columns)

    def copy(self) -> "Position":
        return Position(self.freecells, self.blocked, self.homes, self.columns)

    def key(self) -> Tuple[object, ...]:
        """What makes two positions the same (freecells by their place)."""
        return (tuple(self.freecells), tuple(self.blocked),
                tuple(self.homes[s] for s in SUITS), tuple(map(tuple, self.columns)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    @property
    def is_won(self) -> bool:
        return won(self.homes)

    def cards_out(self) -> int:
        """How many cards are not home."""
        return 52 - sum(self.homes.values())

    # ---- what the rules allow -----------------------------------------------

    def free_freecells(self) -> int:
        return sum(1 for c, b in zip(self.freecells, self.blocked) if c is None and not b)

    def empty_columns(self) -> int:
        return sum(1 for c in self.columns if not c)

    def limit(self, into_empty: bool) -> int:
        """The longest run one move may carry: (free freecells + 1) * 2 ** (empty
        columns), the target column not counted when it is empty."""
        empty = self.empty_columns() - (1 if into_empty else 0)
        return (self.free_freecells() + 1) << max(empty, 0)

    def run_length(self, column: int) -> int:
        """How many cards at the top of ``column`` form a proper sequence."""
        cards = self.columns[column]
        n = 1 if cards else 0
        while n < len(cards) and fits_on(cards[-n], cards[-n - 1]):
            n += 1
        return n

    # ---- playing ------------------------------------------------------------

    def play(self, source: str, target: str, single: bool) -> int:
        """Make one explicit move (automoves not included); the number of cards moved.

        Raises IllegalMove (with the reason) and leaves the position unchanged.
        """
        if source == target:
            raise IllegalMove("F306", f"{source}{target} moves a card to where it is")
        cell = _CELL.get(source)
        if cell is not None:
            card = self.freecells[cell]
            if card is None:
                what = "is blocked" if self.blocked[cell] else "is empty"
                raise IllegalMove("F301", f"freecell {source} {what}")
            self._place([card], target)
            self.freecells[cell] = None
            return 1
        column = _column_of(source)
        cards = self.columns[column]
        if not cards:
            raise IllegalMove("F301", f"column {source} is empty")
        count = self._run_for(column, target, single)
        moved = cards[len(cards) - count:]
        self._place(moved, target)
        del cards[len(cards) - count:]
        return count

    def _run_for(self, column: int, target: str, single: bool) -> int:
        """How many cards a move from ``column`` to ``target`` carries."""
        index = _COLUMN.get(target)
        if index is None:
            if not target.isdigit():
                return 1
            index = int(target) - 1
        destination = self.columns[index]
        if not destination:
            if single:
                return 1
            run = self.run_length(column)  # the limit is 1 or more
            return 1 if run == 1 else min(run, self.limit(into_empty=True))
        below = destination[-1]
        cards = self.columns[column]
        # The run at the top of the column, read down until a card fits on
        # ``below`` (n cards moved) or the run ends (n = run_length).
        n = 1
        while not fits_on(cards[-n], below):
            if n < len(cards) and fits_on(cards[-n], cards[-n - 1]):
                n += 1
                continue
            top = cards[-1]
            run_text = str(top) if n == 1 else f"the run {cards[-n]} to {top}"
            raise _cannot_go_on(run_text, below)
        if n > 1:  # one card always may go (the limit is 1 or more)
            limit = self.limit(into_empty=False)
            if n > limit:
                raise IllegalMove("F305", f"moving the {n} cards from {cards[-n]} to "
                                  f"{cards[-1]} onto {below} takes more than the {limit} "
                                  f"that {_count(self.free_freecells(), 'free freecell')}"
                                  f" and {_count(self.empty_columns(), 'empty column')} "
                                  "allow")
        return n

    def _place(self, cards: List[Card], target: str) -> None:
        if target == HOME:
            card = cards[-1]
            if self.homes[card.suit] != card.rank - 1:
                have = self.homes[card.suit]
                raise IllegalMove("F303", f"{card} cannot go home: the {card.suit} pile "
                                  + ("is empty" if have == 0 else f"is at rank {have}"))
            self.homes[card.suit] = card.rank
        elif target in _CELL:
            cell = _CELL[target]
            if self.blocked[cell] or self.freecells[cell] is not None:
                what = "blocked" if self.blocked[cell] else f"holding {self.freecells[cell]}"
                raise IllegalMove("F302", f"freecell {target} is {what}")
            self.freecells[cell] = cards[-1]
        else:
            destination = self.columns[_column_of(target)]
            if destination and not fits_on(cards[0], destination[-1]):
                raise _cannot_go_on(str(cards[0]), destination[-1])
            destination.extend(cards)

    def move_settled(self, source: str, target: str, single: bool) -> None:
        """:meth:`play` the move, then :meth:`automove`, in a position where
        automove has nothing to send (one that they have just made): the
        same position, but the piles are looked at only if the move can have
        made a card safe to go home.  A move to a home pile changes the piles;
        any other changes them not, and uncovers at most the card below what
        left a column, while the cards moved were on top (or in a freecell),
        where automove found them not safe.

        Raises IllegalMove (with the reason) and leaves the position unchanged.
        """
        self.play(source, target, single)
        if target == HOME:
            self.automove()
        elif source not in _CELL:
            cards = self.columns[_column_of(source)]
            # The card uncovered, if its pile is one below it (else it is not
            # safe, and the piles need not be looked at).
            if cards:
                top = cards[-1]
                if self.homes[top[1]] == top[0] - 1 and top in _going_home(self.homes):
                    self.automove()

    def automove(self) -> List[Card]:
        """Send home every card Horne's rule allows, until none is left; the cards
        sent.  The columns are looked at in order, then the freecells, and again
        until a pass sends nothing; a card is sent by :func:`horne_safe` as the
        piles stand when it is looked at (``safe`` is what that allows, made
        again each time a pile grows)."""
        sent: List[Card] = []
        homes = self.homes
        safe = _going_home(homes)
        moved = bool(safe)
        while moved:
            moved = False
            for cards in self.columns:
                while cards and cards[-1] in safe:
                    card = cards.pop()
                    homes[card.suit] = card.rank
                    sent.append(card)
                    moved = True
                    safe = _going_home(homes)
            freecells = self.freecells
            for cell, held in enumerate(freecells):
                if held is not None and held in safe:
                    freecells[cell] = None
                    homes[held.suit] = held.rank
                    sent.append(held)
                    moved = True
                    safe = _going_home(homes)
        return sent

