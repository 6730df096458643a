"""Standard FreeCell Notation (Gary Campbell's proposal of 2012): read, check, write.

The second notation of lcnotation, built on the same parts as the Lost Cities
one (spans, diagnostics, output formats, the ``lcn`` command's conventions);
FreeCell's own rules live in this package.  ``spec/freecell.md`` is the
standard as implemented.

>>> from lcnotation import freecell
>>> record = freecell.parse(freecell.deal(1))
>>> record.game.number, str(freecell.check(record).verdict)
(1, 'not_won')
>>> freecell.format(record) == freecell.deal(1)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_attributes
from .deals import DEAL_LIMIT, deal as deal_columns
from .rules import GAME_PREFIX, VERDICTS, Verdict

if TYPE_CHECKING:  # pragma: no cover
    from .ast import Record
    from .checker import CheckResult, check
    from .codes import FREECELL_CODES
    from .fcsolve import import_fc_solve
    from .formatter import format, layout_text
    from .parser import parse
    from .state import Position

__all__ = ["parse", "deal", "check", "format", "import_fc_solve", "Record", "CheckResult", "Verdict",
           "Position", "VERDICTS", "FREECELL_CODES", "DEAL_LIMIT", "deal_columns"]

#: The module of each name imported the first time it is asked for: the
#: compiled clean path of ``lcn freecell check`` reads a clean record without
#: the reader, the checker or the syntax tree, and ``import_fc_solve`` is not
#: what a check needs.
_LAZY = {"parse": ".parser", "check": ".checker", "CheckResult": ".checker",
         "format": ".formatter", "layout_text": ".formatter", "Record": ".ast",
         "Position": ".state", "FREECELL_CODES": ".codes", "import_fc_solve": ".fcsolve"}
_lazy = lazy_attributes(__name__, _LAZY, globals())


def deal(number: int) -> str:
    """Deal ``number`` (0 to 2**33 - 1, Microsoft's numbering) as a standard layout:
    the ``Game #N`` line, the freecell+home line and the columns."""
    from .formatter import layout_text
    from .state import Position

    return f"{GAME_PREFIX}{number}\n" + layout_text(Position.fresh(deal_columns(number)))


def __getattr__(name: str) -> object:
    """A name of :data:`_LAZY`, imported from its module the first time it is asked for."""
    return _lazy(name)
