"""The rules codes (family ``R``): each with its severity and what it reports.

:mod:`lcnotation.lostcities.game.violations` words each rule; ``spec/rules.md`` gives a
record that triggers each.

>>> RULE_CODES["R110"]
(<Severity.INFO: 'info'>, 'a record that ends before the draw pile is spent (incomplete, still scored)')
"""

from __future__ import annotations

from typing import Dict, Tuple

from ...core.codes import Family
from ...core.diagnostics import Severity

__all__ = ["RULE_CODES", "RULES"]

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


#: Every rules code: its severity and what it reports.
RULE_CODES: Dict[str, Tuple[Severity, str]] = {
    "R101": (ERROR, "a number card not higher than the last card of its expedition"),
    "R102": (ERROR, "a handshake played after a number card of its expedition"),
    "R103": (ERROR, "a card already on the table (every copy is on an expedition or a "
                    "discard pile)"),
    "R104": (ERROR, "a card known to be in the other player's hand"),
    "R105": (ERROR, "a card the mover cannot hold: by the deal it is in the draw pile, or "
                    "the mover's hand is known and lacks it"),
    "R106": (ERROR, "a colour outside the game's colour set"),
    "R107": (ERROR, "a draw from an empty discard pile"),
    "R108": (ERROR, "drawing back the card discarded in the same turn"),
    "R109": (ERROR, "a move after the last card of the draw pile was drawn"),
    "R110": (INFO, "a record that ends before the draw pile is spent (incomplete, still "
                   "scored)"),
    "R201": (ERROR, "a Hand1, Hand2 or Deck header with the wrong number of cards"),
    "R202": (ERROR, "a card of the deal that is not in the game's deck, or is dealt more "
                    "times than it exists"),
    "R203": (ERROR, "a deal (Hand1, Hand2 and Deck) that misses cards of the full deck"),
    "R204": (ERROR, "a Result header that disagrees with the score of the moves"),
    "R205": (WARNING, "a Colors header with a number of colours other than 5 or 6"),
}

#: The family R: the rules, documented in ``spec/rules.md``.
RULES = Family("R", "rules", "rules.md", RULE_CODES)
