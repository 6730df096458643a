"""Every diagnostic code lcnotation reports, by family.

- ``N``: notation (syntax), from the reader and the header-value parsers;
- ``R``: rules, from the checker;
- ``S``: style, from the linter.

>>> ALL_CODES["N103"][0], ALL_CODES["R101"][0], ALL_CODES["S102"][0]
(<Severity.ERROR: 'error'>, <Severity.ERROR: 'error'>, <Severity.WARNING: 'warning'>)
"""

from __future__ import annotations

from typing import Dict, Tuple

from ..game.violations import RULE_CODES
from ..text.errors import Severity
from ..text.messages import SYNTAX_CODES
from .style import STYLE_CODES

__all__ = ["ALL_CODES", "FAMILIES"]

#: The families, by code prefix.
FAMILIES = {"N": "notation (syntax)", "R": "rules", "S": "style"}

#: code -> (severity, summary)
ALL_CODES: Dict[str, Tuple[Severity, str]] = {
    **{code: (Severity.ERROR, summary) for code, summary in SYNTAX_CODES.items()},
    **RULE_CODES,
    **STYLE_CODES,
}
