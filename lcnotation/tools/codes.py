"""Every diagnostic code lcnotation reports, by family.

- ``N``: notation (syntax), from the reader and the header-value parsers;
- ``R``: rules, from the checker;
- ``S``: style, from the linter;
- ``F``: FreeCell notation (reading, layout, moves, import), from ``lcnotation.freecell``.

>>> ALL_CODES["N103"][0], ALL_CODES["R101"][0], ALL_CODES["S102"][0]
(<Severity.ERROR: 'error'>, <Severity.ERROR: 'error'>, <Severity.WARNING: 'warning'>)
"""

from __future__ import annotations

from typing import Dict, Tuple

from ..freecell.codes import FREECELL_CODES
from ..game.checker import RULE_CODES
from ..text.errors import Severity
from ..text.messages import SYNTAX_CODES
from .style import STYLE_CODES

__all__ = ["ALL_CODES", "FAMILIES"]

#: The families, by code prefix.
FAMILIES = {"N": "notation (syntax)", "R": "rules", "S": "style", "F": "FreeCell notation"}

#: code -> (severity, summary)
ALL_CODES: Dict[str, Tuple[Severity, str]] = {
    **{code: (Severity.ERROR, summary) for code, summary in SYNTAX_CODES.items()},
    **RULE_CODES,
    **STYLE_CODES,
    **FREECELL_CODES,
}
