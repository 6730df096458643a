"""The notations the common tools know: Lost Cities, FreeCell, and any that a
program registers.

A notation is an object that implements :class:`~lcnotation.core.notation.Notation`.
:func:`register_notation` adds one (its code families join the code
registry); the two that ship are known by name and extension from the start
and imported when first used, so that linting a Lost Cities file never loads
FreeCell.  A file is read in the notation of its extension (``.lcn``:
Lost Cities, ``.sfn``: FreeCell), unless its settings name one
(``--notation``, or ``notation`` in ``[tool.lcnotation]``); standard input
and files of other extensions are Lost Cities.

>>> notation_for("games/a.sfn").name, notation_for("-").name, notation_for("x.txt").name
('freecell', 'lostcities', 'lostcities')
>>> sorted(NOTATIONS)
['freecell', 'lostcities']
"""

from __future__ import annotations

import os
from typing import Callable, Dict, Iterator, Mapping, Optional, Tuple

from ..core.notation import Notation

__all__ = ["NOTATIONS", "DEFAULT", "register_notation", "get_notation", "notation_for",
           "extensions", "UnknownNotation"]

#: The notation of a file whose extension is no notation's, and of standard input.
DEFAULT = "lostcities"



class UnknownNotation(ValueError):
    """A notation name that no registered notation has."""


class _Registry(Mapping[str, Notation]):
    """name -> notation, the built-in ones imported when first used."""

    def __init__(self) -> None:
        self._loaded: Dict[str, Notation] = {}
        self._pending: Dict[str, Callable[[], Notation]] = {}
        self._extensions: Dict[str, str] = {}

    def defer(self, name: str, extensions: Tuple[str, ...], load: Callable[[], Notation]) -> None:
        self._pending[name] = load
        for ext in extensions:
            self._extensions[ext.lower()] = name

    def add(self, notation: Notation) -> None:
        if not isinstance(notation, Notation):
            raise TypeError(f"{notation!r} does not implement the Notation protocol")
        self._pending.pop(notation.name, None)
        self._loaded[notation.name] = notation
        from .codes import ALL_CODES  # the registry of codes, when a notation joins it

        for ext in notation.extensions:
            self._extensions[ext.lower()] = notation.name
        for family in notation.families:
            if family.prefix not in ALL_CODES.pending and family.prefix not in ALL_CODES.families:
                ALL_CODES.add(family)

    def remove(self, name: str) -> None:
        """Forget the notation ``name`` (its code families stay registered)."""
        self._loaded.pop(name, None)
        self._pending.pop(name, None)
        for ext in [e for e, owner in self._extensions.items() if owner == name]:
            del self._extensions[ext]

    def by_extension(self, path: str) -> Optional[str]:
        return self._extensions.get(os.path.splitext(path)[1].lower())

    @property
    def extensions(self) -> Tuple[str, ...]:
        return tuple(self._extensions)

    def by_extensions(self) -> Tuple[Tuple[str, str], ...]:
        """(extension, notation name) for every extension, without loading any."""
        return tuple(self._extensions.items())

    def __getitem__(self, name: str) -> Notation:
        found = self._loaded.get(name)
        if found is None:
            load = self._pending.pop(name, None)
            if load is None:
                raise KeyError(name)
            found = self._loaded[name] = load()
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._loaded) + [n for n in self._pending if n not in self._loaded])

    def __len__(self) -> int:
        return len(set(self._loaded) | set(self._pending))


#: Every notation, by name.
NOTATIONS = _Registry()


def _lost_cities() -> Notation:
    from ..lostcities.notation import NOTATION

    return NOTATION


def _freecell() -> Notation:
    from ..freecell.notation import NOTATION  # the FreeCell package, only when used

    return NOTATION


# The notations that ship, with their extensions (tests/test_notations.py holds
# these to the notations' own), imported when first used.
NOTATIONS.defer("lostcities", (".lcn",), _lost_cities)
NOTATIONS.defer("freecell", (".sfn",), _freecell)


def register_notation(notation: Notation) -> None:
    """Add ``notation``: files of its extensions are read in it by lint, fmt and the
    language server, and its code families join the registry (``--select``,
    ``lcn explain``, SARIF)."""
    NOTATIONS.add(notation)


def get_notation(name: str) -> Notation:
    """The notation called ``name``; UnknownNotation names those there are."""
    try:
        return NOTATIONS[name]
    except KeyError:
        raise UnknownNotation(f"no notation {name!r} (known: {', '.join(sorted(NOTATIONS))})") \
            from None


def notation_for(path: str, name: Optional[str] = None) -> Notation:
    """The notation of the file ``path``: ``name`` when given, else its extension's."""
    return get_notation(name or NOTATIONS.by_extension(path) or DEFAULT)


def extensions() -> Tuple[str, ...]:
    """The file extensions of every notation (what a folder walk looks for)."""
    return NOTATIONS.extensions
