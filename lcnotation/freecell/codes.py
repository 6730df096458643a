"""The diagnostic codes of the FreeCell notation (family ``F``).

- ``F1xx``: reading (a line that is not what its place calls for);
- ``F2xx``: the layout (cards, deal, marker);
- ``F3xx``: the moves of the solution;
- ``F4xx``: importing other programs' solutions;
- ``F5xx``: linting (suppressions, the canonical layout).

``spec/freecell.md`` shows an example of each.

>>> FREECELL_CODES["F304"]
(<Severity.ERROR: 'error'>, 'no card of the moved run fits on the target card')
"""

from __future__ import annotations

from typing import Dict, Tuple

from ..core.diagnostics import Severity
from ..core.codes import Family

__all__ = ["FREECELL_CODES", "FREECELL"]

_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO

#: code -> (severity, summary)
FREECELL_CODES: Dict[str, Tuple[Severity, str]] = {
    "F101": (_E, "a cell of the column section is not a card"),
    "F102": (_E, "the freecell+home line is malformed"),
    "F103": (_E, "the Game# line's number is not a deal number"),
    "F104": (_E, "more than 8 columns or 18 column lines"),
    "F105": (_E, "the record has no column section"),
    "F106": (_E, "a partial-solution marker is misplaced"),
    "F107": (_E, "a card stands below a gap in its column"),
    "F108": (_E, "the record begins with moves, before its layout"),
    "F110": (_I, "the three-character cycle breaks: the rest of the line is a comment"),
    "F201": (_E, "a card is in the layout more than once"),
    "F202": (_E, "cards are missing from the layout"),
    "F203": (_E, "the columns are not the deal the Game# line names"),
    "F204": (_I, "a Game# line over a mid-game layout: the moves start there"),
    "F205": (_E, "two home piles hold the same suit"),
    "F206": (_E, "the moves before the marker do not lead to the layout shown"),
    "F207": (_W, "the moves before the marker cannot be checked without a deal number"),
    "F208": (_I, "a cookie deal (negative number): the layout is taken as written"),
    "F209": (_I, "a tag or file name in place of the Game# line: the layout is as written"),
    "F210": (_E, "WKR automoves are declared, and no definition of them is known"),
    "F301": (_E, "the move's source holds no card"),
    "F302": (_E, "the target freecell is not free"),
    "F303": (_E, "the card cannot go home"),
    "F304": (_E, "no card of the moved run fits on the target card"),
    "F305": (_E, "the run is longer than the free freecells and empty columns allow"),
    "F306": (_E, "the source and the target are the same"),
    "F320": (_W, "the solution ends before every card is home"),
    "F401": (_E, "the other program's output cannot be read"),
    "F402": (_E, "a move of the other program cannot be made or written in the notation"),
    "F403": (_E, "the other program's output leaves open how many cards a move carries"),
    "F500": (_W, "a suppression comment that suppresses nothing"),
    "F501": (_W, "lines not in the canonical layout (lcn fmt writes them otherwise)"),
}

#: The family F: FreeCell notation, documented in ``spec/freecell.md``.
FREECELL = Family("F", "FreeCell notation", "freecell.md", FREECELL_CODES)
