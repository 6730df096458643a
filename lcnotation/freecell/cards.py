"""Cards of the standard 52-card deck, as FreeCell notation writes them.

A card is two characters, rank then suit (``AS``, ``TD``, ``KH``); ranks are
numbers from 1 (ace) to 13 (king) and suits the letters ``C D H S``.

>>> card = parse_card("TD")
>>> card, card.is_red, str(card)
(Card(rank=10, suit='D'), True, 'TD')
>>> parse_card("1D") is None
True
"""

from __future__ import annotations

from typing import Dict, NamedTuple, Optional, Tuple

__all__ = ["RANKS", "SUITS", "RED_SUITS", "Card", "parse_card", "FULL_DECK"]

#: The rank letters, index + 1 being the rank (A = 1 ... K = 13).
RANKS = "A23456789TJQK"
#: The suits in Microsoft's deal order (clubs, diamonds, hearts, spades).
SUITS = "CDHS"
RED_SUITS = "DH"


class Card(NamedTuple):
    """A card: rank 1 (ace) to 13 (king), and a suit letter."""

    rank: int
    suit: str

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit


_BY_TEXT: Dict[str, Card] = {r + s: Card(i + 1, s) for i, r in enumerate(RANKS) for s in SUITS}

#: Every card, in Microsoft's deck order (aces first, clubs to spades within a rank).
FULL_DECK: Tuple[Card, ...] = tuple(Card(i + 1, s) for i in range(len(RANKS)) for s in SUITS)


def parse_card(text: str) -> Optional[Card]:
    """The card written ``text`` (exactly two characters, upper case), or None."""
    return _BY_TEXT.get(text)
