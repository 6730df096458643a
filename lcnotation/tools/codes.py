"""Every diagnostic code lcnotation reports, by family.

- ``N``: notation (syntax), from the reader and the header-value parsers
  (``N100``, the default code of a :class:`~lcnotation.text.errors.NotationError`
  a program makes itself, is never reported by lcnotation and not listed);
- ``R``: rules, from the checker;
- ``S``: style, from the linter;
- ``C``: conversion, when a conversion would lose information or guess;
- ``J``: the JSON form, when a document cannot be read;
- ``F``: FreeCell notation (reading, layout, moves, import), from ``lcnotation.freecell``;
- ``I``: importing and exporting other programs' formats, from ``lcnotation.formats``.

Each family's table lives with the code that reports it, and this module
gathers them, with two differences for the feature packages, which sit above
this layer: FreeCell's family joins with :func:`register_codes` when
``lcnotation.freecell`` is imported (the ``lcn`` command imports it), and
the ``I`` table is kept here, for :mod:`lcnotation.formats` to use, so that
the command reports and selects it without loading every importer.  ``lcn lint --select`` and ``--ignore`` accept these codes and
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

__all__ = ["ALL_CODES", "FAMILIES", "FORMAT_CODES", "register_codes"]

#: The families, by code prefix.
FAMILIES: Dict[str, str] = {"N": "notation (syntax)", "R": "rules", "S": "style",
                             "C": "conversion", "J": "JSON form", "I": "import and export"}

#: Every code of an import or export error: what it reports.
FORMAT_CODES: Dict[str, str] = {
    "I100": "the format of the input cannot be told (give it by name)",
    "I101": "a transcript line that is not what the transcript has at that point",
    "I102": "a card that does not exist (a suit or digit the engine does not use)",
    "I103": "a transcript that ends in the middle of a turn or before the final scores",
    "I104": "a transcript that contradicts itself (hands, draws, winner)",
    "I201": "a replay string that is not base64 (a bad character, length or padding)",
    "I202": "a replay string of a version other than 3",
    "I203": "a replay that ends in the middle of a field, or has bytes after its actions",
    "I204": "a replay header or card-list field with a value the format does not allow",
    "I205": "a replay card byte that is no card (colour or value out of range)",
    "I206": "a replay action whose hand index is past the hand, or names a card that "
            "cannot be known",
    "I207": "a replay that starts from a position with cards on the table",
    "I208": "a replay whose winner or scores disagree with its actions",
    "I301": "a record that cannot be written in the format (no deal, colours it cannot "
            "hold, rule errors, syntax errors)",
}

_ERROR = Severity.ERROR

#: code -> (severity, summary)
ALL_CODES: Dict[str, Tuple[Severity, str]] = {
    **{code: (_ERROR, summary) for code, summary in SYNTAX_CODES.items()},
    **RULE_CODES,
    **STYLE_CODES,
    **{code: (_ERROR, summary) for code, summary in CONVERSION_CODES.items()},
    **{code: (_ERROR, summary) for code, summary in JSON_CODES.items()},
    **{code: (_ERROR, summary) for code, summary in FORMAT_CODES.items()},
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
