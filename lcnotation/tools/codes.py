"""Every diagnostic code lcnotation reports, by family.

- ``N``: notation (syntax), from the reader and the header-value parsers
  (``N100`` is the code of a :class:`~lcnotation.text.errors.NotationError`
  made without a more specific one);
- ``R``: rules, from the checker;
- ``S``: style, from the linter;
- ``C``: conversion, when a conversion would lose information or guess;
- ``J``: the JSON form, when a document cannot be read;
- ``F``: FreeCell notation (reading, layout, moves, import), from ``lcnotation.freecell``;
- ``I``: importing and exporting other programs' formats, from ``lcnotation.formats``.

Each family's table lives with the code that reports it; this module only
gathers them.  The families of feature packages (``F``, ``I``), which sit
above this layer, join with :func:`register_codes` when their package is
imported (the ``lcn`` command imports them).  ``lcn lint --select`` and ``--ignore`` accept these codes and
their prefixes, and the SARIF output describes each.

>>> ALL_CODES["N103"][0], ALL_CODES["R101"][0], ALL_CODES["S102"][0], ALL_CODES["C101"][0]
(<Severity.ERROR: 'error'>, <Severity.ERROR: 'error'>, <Severity.WARNING: 'warning'>, <Severity.ERROR: 'error'>)
"""

from __future__ import annotations

from typing import Dict, Mapping, Tuple

from ..game.codes import RULE_CODES
from ..text.errors import Severity
from ..text.messages import SYNTAX_CODES
from .convert import CONVERSION_CODES
from .jsonform import JSON_CODES
from .style import STYLE_CODES

__all__ = ["ALL_CODES", "FAMILIES", "register_codes"]

#: The families, by code prefix.
FAMILIES: Dict[str, str] = {"N": "notation (syntax)", "R": "rules", "S": "style",
                             "C": "conversion", "J": "JSON form"}

_ERROR = Severity.ERROR

#: code -> (severity, summary)
ALL_CODES: Dict[str, Tuple[Severity, str]] = {
    **{code: (_ERROR, summary) for code, summary in SYNTAX_CODES.items()},
    "N100": (_ERROR, "a notation error without a more specific code"),
    **RULE_CODES,
    **STYLE_CODES,
    **{code: (_ERROR, summary) for code, summary in CONVERSION_CODES.items()},
    **{code: (_ERROR, summary) for code, summary in JSON_CODES.items()},
}


def register_codes(prefix: str, family: str,
                   codes: Mapping[str, Tuple[Severity, str]]) -> None:
    """Add the family ``prefix`` (``family`` says what it covers) and its ``codes``
    (code -> (severity, summary)) to the registry.

    >>> register_codes("Z", "an example", {"Z101": (Severity.INFO, "a note")})
    >>> FAMILIES["Z"], ALL_CODES["Z101"][1]
    ('an example', 'a note')
    >>> del FAMILIES["Z"], ALL_CODES["Z101"]
    """
    wrong = [code for code in codes if not code.startswith(prefix)]
    if wrong:
        raise ValueError(f"codes of family {prefix} must start with {prefix}: {wrong}")
    FAMILIES[prefix] = family
    ALL_CODES.update(codes)
