"""Every diagnostic code lcnotation reports, by family.

- ``N``: notation (syntax), from the reader and the header-value parsers
  (``N100``, the default code of a :class:`~lcnotation.core.diagnostics.NotationError`
  a program makes itself, is never reported by lcnotation and not listed);
- ``R``: rules, from the checker;
- ``S``: style, from the linter;
- ``C``: conversion, when a conversion would lose information or guess;
- ``J``: the JSON form, when a document cannot be read;
- ``F``: FreeCell notation (reading, layout, moves, import), from ``lcnotation.freecell``;
- ``I``: importing and exporting other programs' formats, from ``lcnotation.formats``.

Each family (:class:`~lcnotation.core.codes.Family`: letter, what it covers,
its specification page, its codes) is declared beside the code that reports
it, and this module gathers them.  Every family but I is deferred: its
module is imported the first time a code of it is asked for, or the
registry is needed in full, so that ``lcn lint`` of a Lost Cities file loads
neither the JSON form nor the FreeCell package, and ``lcn freecell check``
nothing of Lost Cities.  The ``I`` table is kept here, for :mod:`lcnotation.formats` to use, so that
the command reports and selects it without loading every importer.  ``lcn lint --select`` and ``--ignore``
accept these codes and their prefixes, and the SARIF output describes each.

>>> ALL_CODES["N103"][0], ALL_CODES["R101"][0], ALL_CODES["S102"][0], ALL_CODES["C101"][0]
(<Severity.ERROR: 'error'>, <Severity.ERROR: 'error'>, <Severity.WARNING: 'warning'>, <Severity.ERROR: 'error'>)
"""

from __future__ import annotations

from typing import Dict, Iterator, Mapping

from ..core.codes import CodeRegistry, Codes, Family
from ..core.links import spec_url
from ..core.diagnostics import Severity

__all__ = ["ALL_CODES", "FAMILIES", "FORMAT_CODES", "FORMATS_FAMILY", "Codes", "CodeRegistry",
           "documentation_url"]

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

#: The family I: importing and exporting other programs' formats
#: (:mod:`lcnotation.formats`), documented in ``spec/diagnostics.md``.
FORMATS_FAMILY = Family("I", "import and export", "diagnostics.md",
                        {code: (Severity.ERROR, summary) for code, summary in FORMAT_CODES.items()})


def _syntax() -> Family:
    from ..lostcities.text.messages import SYNTAX

    return SYNTAX


def _rules() -> Family:
    from ..lostcities.game.codes import RULES

    return RULES


def _style() -> Family:
    from ..lostcities.style import STYLE

    return STYLE


def _conversion() -> Family:
    from ..lostcities.convert import CONVERSION

    return CONVERSION


def _json_form() -> Family:
    from ..lostcities.jsonform import JSON_FORM  # the JSON form's module, only when asked

    return JSON_FORM


def _freecell() -> Family:
    from ..freecell.codes import FREECELL  # the FreeCell package, only when asked

    return FREECELL


#: code -> (severity, summary), over every family.  Each table but I (and the
#: module that holds it) is imported the first time it is needed, so that
#: ``lcn lint`` of a Lost Cities file loads neither J nor F.
ALL_CODES = CodeRegistry()
for _prefix, _load in (("N", _syntax), ("R", _rules), ("S", _style), ("C", _conversion)):
    ALL_CODES.defer(_prefix, _load)
ALL_CODES.add(FORMATS_FAMILY)
ALL_CODES.defer("J", _json_form)
ALL_CODES.defer("F", _freecell)


class _Names(Mapping[str, str]):
    """prefix -> what the family covers, for every family of :data:`ALL_CODES`."""

    def __getitem__(self, prefix: str) -> str:
        return ALL_CODES.families[prefix].name

    def __iter__(self) -> Iterator[str]:
        return iter(ALL_CODES.families)

    def __len__(self) -> int:
        return len(ALL_CODES.families)


#: The families, by code prefix: what each covers.
FAMILIES: Mapping[str, str] = _Names()


def documentation_url(code: str) -> str:
    """Where ``code`` is explained: its entry in the specification, on the
    documentation site of the package's metadata, else in the installed page
    (:func:`~lcnotation.core.links.spec_url`).

    >>> documentation_url("S102").endswith(("diagnostics.md#s102", "diagnostics.html#s102"))
    True
    """
    return spec_url(ALL_CODES.page(code), code.lower())
