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

from .ast import Record
from .checker import VERDICTS, CheckResult, Verdict, check
from .codes import FREECELL_CODES
from .deals import DEAL_LIMIT, deal as deal_columns
from .formatter import format, layout_text
from .parser import parse
from .state import Position

if TYPE_CHECKING:  # pragma: no cover
    from .fcsolve import import_fc_solve

__all__ = ["parse", "deal", "check", "format", "import_fc_solve", "Record", "CheckResult", "Verdict",
           "Position", "VERDICTS", "FREECELL_CODES", "DEAL_LIMIT", "deal_columns"]


def deal(number: int) -> str:
    """Deal ``number`` (0 to 2**33 - 1, Microsoft's numbering) as a standard layout:
    the ``Game #N`` line, the freecell+home line and the columns."""
    return f"Game #{number}\n" + layout_text(Position.fresh(deal_columns(number)))


def __getattr__(name: str) -> object:
    """``import_fc_solve``, imported the first time it is asked for: reading
    fc-solve's output is not what ``lcn freecell check`` needs."""
    if name == "import_fc_solve":
        from .fcsolve import import_fc_solve

        globals()[name] = import_fc_solve
        return import_fc_solve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
