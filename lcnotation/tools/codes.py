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
gathers them.  A family may be deferred (:func:`defer_codes`): its table is
imported the first time the registry is needed in full (iterated, or asked
for a code it does not hold yet), so that ``lcn lint`` loads neither the JSON
form (``J``) nor the FreeCell package (``F``, which sits above this layer:
the ``lcn`` command defers it; importing ``lcnotation.freecell`` registers it
with :func:`register_codes`).  The ``I`` table is kept here, for
:mod:`lcnotation.formats` to use, so that the command reports and selects it
without loading every importer.  ``lcn lint --select`` and ``--ignore``
accept these codes and their prefixes, and the SARIF output describes each.

>>> ALL_CODES["N103"][0], ALL_CODES["R101"][0], ALL_CODES["S102"][0], ALL_CODES["C101"][0]
(<Severity.ERROR: 'error'>, <Severity.ERROR: 'error'>, <Severity.WARNING: 'warning'>, <Severity.ERROR: 'error'>)
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, Mapping, MutableMapping, Tuple

from ..game.codes import RULE_CODES
from ..text.errors import Severity
from ..text.messages import SYNTAX_CODES
from .convert import CONVERSION_CODES
from .style import STYLE_CODES

__all__ = ["ALL_CODES", "FAMILIES", "FORMAT_CODES", "CodeRegistry", "defer_codes",
           "register_codes"]

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

Codes = Mapping[str, Tuple[Severity, str]]


class CodeRegistry(MutableMapping[str, Tuple[Severity, str]]):
    """code -> (severity, summary): a dictionary whose deferred families
    (:func:`defer_codes`) are loaded the first time it is needed in full: when
    it is iterated or measured, or asked for a code it does not hold yet.

    >>> r = CodeRegistry({"A101": (Severity.INFO, "a")})
    >>> r.defer("B", lambda: {"B101": (Severity.INFO, "b")})
    >>> r.pending, "B101" in r, r.pending
    (('B',), True, ())
    """

    def __init__(self, codes: Codes) -> None:
        self._codes: Dict[str, Tuple[Severity, str]] = dict(codes)
        self._pending: Dict[str, Callable[[], Codes]] = {}

    @property
    def pending(self) -> Tuple[str, ...]:
        """The prefixes of the families not loaded yet."""
        return tuple(self._pending)

    def defer(self, prefix: str, load: Callable[[], Codes]) -> None:
        self._pending[prefix] = load

    def load(self) -> None:
        """Load every deferred family now."""
        while self._pending:
            prefix, load = next(iter(self._pending.items()))
            del self._pending[prefix]
            self._codes.update(load())

    def __getitem__(self, code: str) -> Tuple[Severity, str]:
        try:
            return self._codes[code]
        except KeyError:
            if not self._pending:
                raise
        self.load()
        return self._codes[code]

    def __setitem__(self, code: str, value: Tuple[Severity, str]) -> None:
        self._codes[code] = value

    def __delitem__(self, code: str) -> None:
        self.load()
        del self._codes[code]

    def __iter__(self) -> Iterator[str]:
        self.load()
        return iter(self._codes)

    def __len__(self) -> int:
        self.load()
        return len(self._codes)

    def __repr__(self) -> str:
        self.load()
        return repr(self._codes)


#: code -> (severity, summary)
ALL_CODES = CodeRegistry({
    **{code: (_ERROR, summary) for code, summary in SYNTAX_CODES.items()},
    **RULE_CODES,
    **STYLE_CODES,
    **{code: (_ERROR, summary) for code, summary in CONVERSION_CODES.items()},
    **{code: (_ERROR, summary) for code, summary in FORMAT_CODES.items()},
})


def register_codes(prefix: str, family: str, codes: Codes) -> None:
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


def _json_codes() -> Codes:
    from .jsonform import JSON_CODES  # the JSON form's module, only when asked

    return {code: (_ERROR, summary) for code, summary in JSON_CODES.items()}


ALL_CODES.defer("J", _json_codes)


def defer_codes(prefix: str, family: str, load: Callable[[], Codes]) -> None:
    """Add the family ``prefix`` now and its codes (what ``load()`` returns, as
    :func:`register_codes` takes them) the first time :data:`ALL_CODES` is
    needed in full: a package above this layer names its family without being
    imported until then.

    >>> defer_codes("Z", "an example", lambda: {"Z101": (Severity.INFO, "a note")})
    >>> FAMILIES["Z"], "Z" in ALL_CODES.pending, ALL_CODES["Z101"][1], ALL_CODES.pending
    ('an example', True, 'a note', ())
    >>> del FAMILIES["Z"], ALL_CODES["Z101"]
    """
    FAMILIES[prefix] = family

    def checked() -> Codes:
        codes = load()
        register_codes(prefix, family, codes)
        return codes

    ALL_CODES.defer(prefix, checked)
