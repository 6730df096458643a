"""The standard game's fixed terms: its places and their names in a move,
Horne's automove rule, and the verdicts of a check.

They are read by the position (:mod:`.state`), the reader, the checker and
the compiled clean path of ``lcn freecell check`` (:mod:`.accel`, which
hands them to its C code), so that each is written once; this module
imports nothing, so that the clean path loads no more than it needs.

>>> GAME_PREFIX + '617', FREECELL_NAMES[:FREECELLS], HOME, SINGLE
('Game #617', 'abcd', 'h', '.')
>>> str(Verdict.WON), VERDICTS[-1]
('won', 'unsupported')
"""

from __future__ import annotations

from enum import Enum

__all__ = ["GAME_PREFIX", "FREECELLS", "FREECELL_NAMES", "HOME", "SINGLE", "LONGEST_RUN",
           "OTHER_COLOUR_BELOW", "PARTNER_BELOW", "Verdict", "VERDICTS"]

#: How a record names a Microsoft deal on its Game# line (``Game #617``), as
#: :func:`lcnotation.freecell.deal` and the importers write it.
GAME_PREFIX = "Game #"
#: The number of freecells of the standard game.
FREECELLS = 4
#: The freecells' names as moves write them, in order.
FREECELL_NAMES = "abcd"
#: A move's target when the card goes to its home pile.
HOME = "h"
#: The prefix of a move that carries one card (into an empty column), and
#: that of a move carrying the longest run allowed.
SINGLE = "."
LONGEST_RUN = " "
#: Horne's rule: a card goes home when its pile is one below it, both piles
#: of the other colour are at least ``OTHER_COLOUR_BELOW`` below it and the
#: other pile of its colour at least ``PARTNER_BELOW`` below it.
OTHER_COLOUR_BELOW = 2
PARTNER_BELOW = 3


class Verdict(str, Enum):
    """What a check concludes (a string, so ``result.verdict == "won"`` reads as before)."""

    WON = "won"
    ILLEGAL = "illegal"
    NOT_WON = "not_won"
    LAYOUT_ERROR = "layout_error"
    UNSUPPORTED = "unsupported"

    def __str__(self) -> str:
        return self.value


#: Every verdict, by its name.
VERDICTS = tuple(v.value for v in Verdict)
