"""fc-solve's solutions (Freecell Solver, ``fc-solve -m -sn`` or ``-snx``), as
Standard FreeCell Notation records: a format of the registry whose records
are FreeCell's, not Lost Cities games.

The translation itself is FreeCell's (:func:`lcnotation.freecell.fcsolve.import_fc_solve`);
this module makes it the ``fc-solve`` entry of :data:`lcnotation.formats.FORMATS`,
so that ``lcn import --from fc-solve FILE --deal N`` reads it as every other
program's records are read.
"""

from __future__ import annotations

from typing import Mapping

from .base import Format

__all__ = ["FORMAT"]


def _translate(text: str, options: Mapping[str, object]) -> str:
    from ..freecell.fcsolve import import_fc_solve  # FreeCell, only when a solution is read

    deal = options.get("deal")
    return import_fc_solve(text, deal if isinstance(deal, int) else None)


FORMAT = Format("fc-solve", "solutions of Freecell Solver (fc-solve -m -sn or -snx), as "
                "Standard FreeCell Notation; the deal is --deal N, or the board in the output",
                notation="freecell", translate=_translate)
