"""Microsoft FreeCell's numbered deals, 0 to 2**33 - 1.

Deals below 2**31 are those of the original Microsoft FreeCell: a linear
congruential generator (multiplier 214013, increment 2531011, modulo 2**32,
the random number being bits 16 to 30 of the state) picks the cards one by
one from the deck in :data:`~lcnotation.freecell.cards.FULL_DECK` order, each
picked card replaced by the last one left, and they are dealt row by row into
eight columns.  FreeCell Pro extended the numbering above: from 2**31 the
random number also has bit 15 set, and from 2**32 the generator starts from
``n - 2**32`` and the random number is bits 16 to 31 of the state plus one.

>>> columns = deal(1)
>>> " ".join(str(c) for c in columns[0])
'JD KD 2S 4C 3S 6D 6S'
>>> [len(c) for c in columns]
[7, 7, 7, 7, 6, 6, 6, 6]
"""

from __future__ import annotations

from typing import Dict, List, Tuple

from .cards import FULL_DECK, Card

__all__ = ["DEAL_LIMIT", "COLUMNS", "FRESH_DEAL_COLUMNS", "GENERATOR", "deal"]

#: Deal numbers are below this.
DEAL_LIMIT = 2 ** 33
#: The number of columns of a FreeCell layout.
COLUMNS = 8
#: How many cards each column of a fresh deal holds (dealt row by row: 7 in
#: each of the left four columns, 6 in the right four, as the proposal's point 8 says).
FRESH_DEAL_COLUMNS = tuple(len(range(k, len(FULL_DECK), COLUMNS)) for k in range(COLUMNS))

_MULTIPLIER, _INCREMENT, _MASK = 214013, 2531011, 0xFFFFFFFF
#: The random number is the state's bits from _SHIFT on: 15 of them (_LOW)
#: below 2**31; with _PRO_BIT set from _PRO_FROM (FreeCell Pro's deals);
#: 16 of them (_WIDE) plus one from _WIDE_FROM, the state starting from
#: ``number - _WIDE_FROM``.
_SHIFT, _LOW, _WIDE = 16, 0x7FFF, 0xFFFF
_PRO_FROM, _PRO_BIT, _WIDE_FROM = 2 ** 31, 0x8000, 2 ** 32

#: The generator's constants by name, for the compiled clean path of
#: ``lcn freecell check`` (accel.py gives them to its C code, which deals as
#: :func:`deal` does).
GENERATOR: Dict[str, int] = dict(
    multiplier=_MULTIPLIER, increment=_INCREMENT, mask=_MASK, shift=_SHIFT, low_bits=_LOW,
    wide_bits=_WIDE, pro_from=_PRO_FROM, pro_bit=_PRO_BIT, wide_from=_WIDE_FROM)


def deal(number: int) -> Tuple[Tuple[Card, ...], ...]:
    """The eight columns of deal ``number``, each from its deepest card to its top.

    Raises ValueError for a number outside 0 to 2**33 - 1.
    """
    if not 0 <= number < DEAL_LIMIT:
        raise ValueError(f"a deal number is 0 to 2**33 - 1, not {number}")
    # The generator's numbers, made in the loop (a generator function and a
    # next() for each card cost half the deal).
    wide = number >= _WIDE_FROM
    state = number - _WIDE_FROM if wide else number
    high_bit = _PRO_BIT if _PRO_FROM <= number < _WIDE_FROM else 0
    deck = list(FULL_DECK)
    dealt: List[Card] = []
    for left in range(len(deck), 0, -1):
        state = (state * _MULTIPLIER + _INCREMENT) & _MASK
        if wide:
            pick = (((state >> _SHIFT) & _WIDE) + 1) % left
        else:
            pick = (((state >> _SHIFT) & _LOW) | high_bit) % left
        dealt.append(deck[pick])
        deck[pick] = deck[left - 1]
    return tuple(tuple(dealt[k::COLUMNS]) for k in range(COLUMNS))
