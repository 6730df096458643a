"""Records of other programs: importers and exporters, registered by name.

Each format is a module of this package with a :class:`Format` record, listed
in :data:`FORMATS`; other packages add theirs through the entry-point group
``lcnotation.formats`` (an entry point names a :class:`Format`, or a function
returning one), loaded the first time a format is looked up.

>>> sorted(FORMATS)
['chikinn', 'fc-solve', 'metapyziks', 'parquet']
>>> FORMATS["fc-solve"].notation
'freecell'
>>> from lcnotation.lostcities.game.generator import generate_game
>>> game = generate_game(seed=1, colors="RGWBYP", deal=True)
>>> replay = export_game(game, format="metapyziks")
>>> import_games(replay)[0].moves == game.moves   # the format is recognised
True
"""

from __future__ import annotations

import os
import warnings
from typing import Dict, List, Optional, Union

from ..lostcities.text.ast import Game
from ..core.diagnostics import NotationError
from ..core.lineends import as_lf
from . import chikinn, fcsolve, metapyziks, parquet
from .base import (FORMAT_CODES, ExportOptions, ExportSummary, Format, FormatUnavailable,
                   ImportOptions, ImportSummary, UnknownFormatError)

__all__ = ["FORMATS", "FORMAT_CODES", "ENTRY_POINT_GROUP", "Format", "UnknownFormatError",
           "register_format", "get_format", "detect_format", "import_games", "export_game",
           "load_plugins", "ExportOptions", "ExportSummary", "ImportOptions", "ImportSummary",
           "FormatUnavailable"]

#: The entry-point group through which other packages add formats.
ENTRY_POINT_GROUP = "lcnotation.formats"

#: Every format, by name.
FORMATS: Dict[str, Format] = {}
_BUILT_IN = frozenset(("chikinn", "metapyziks", "fc-solve", "parquet"))
_plugins_loaded = False


def register_format(fmt: Format) -> Format:
    """Register ``fmt`` under its name (replacing one of the same name)."""
    if not isinstance(fmt, Format):
        raise TypeError(f"expected a Format, not {type(fmt).__name__}")
    FORMATS[fmt.name] = fmt
    return fmt


for _module in (chikinn, metapyziks, fcsolve, parquet):
    register_format(_module.FORMAT)


def load_plugins(*, again: bool = False) -> None:
    """Register the formats of the entry-point group ``lcnotation.formats``
    (once, unless ``again``).  A plugin that fails to load, or that would
    replace a built-in format, is skipped with a warning."""
    global _plugins_loaded
    if _plugins_loaded and not again:
        return
    _plugins_loaded = True
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            value = point.load()
            fmt = value if isinstance(value, Format) else value()
            if not isinstance(fmt, Format):
                raise TypeError(f"it gives a {type(fmt).__name__}, not a Format")
        except Exception as exc:  # a broken plugin must not break the tool
            warnings.warn(f"format plugin {point.name!r} ({point.value}) not loaded: {exc}",
                          RuntimeWarning, stacklevel=2)
            continue
        if fmt.name in _BUILT_IN:
            warnings.warn(f"format plugin {point.name!r} not loaded: {fmt.name!r} is a "
                          "built-in format", RuntimeWarning, stacklevel=2)
            continue
        register_format(fmt)


def get_format(fmt: Union[str, Format]) -> Format:
    """The format called ``fmt`` (a :class:`Format` is returned as is)."""
    if isinstance(fmt, Format):
        return fmt
    if fmt in _BUILT_IN:  # no plugin can replace it: the entry points need no scan
        return FORMATS[fmt]
    load_plugins()
    try:
        return FORMATS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; known formats: "
                         f"{', '.join(sorted(FORMATS))}") from None


def detect_format(text: str, path: Optional[str] = None) -> Format:
    """The one readable format that recognises ``text``; raises
    :class:`UnknownFormatError` (code I100) when none or several do."""
    load_plugins()
    found = [f for f in FORMATS.values()
             if f.read is not None and f.detect is not None and _recognises(f, text)]
    if len(found) == 1:
        return found[0]
    names = ", ".join(sorted(f.name for f in FORMATS.values() if f.read is not None))
    if found:
        raise UnknownFormatError("the input could be any of "
                                 f"{', '.join(f.name for f in found)}: name its format "
                                 f"(one of {names})", path)
    raise UnknownFormatError(f"the input is in no format lcnotation recognises: name its "
                             f"format if it is one of {names}", path)


def _recognises(fmt: Format, text: str) -> bool:
    """``fmt.detect(text)``; a detector that fails (a plugin's) says no, with a warning."""
    assert fmt.detect is not None
    try:
        return bool(fmt.detect(text))
    except Exception as exc:
        warnings.warn(f"format {fmt.name!r}: its detect() failed ({exc!r}); taken as no",
                      RuntimeWarning, stacklevel=3)
        return False


def _text_of(source: Union[str, bytes, "os.PathLike[str]"],
             path: Optional[str]) -> "tuple[str, Optional[str]]":
    from ..core.files import decode_source, read_source

    if isinstance(source, os.PathLike) or (
            isinstance(source, str) and "\n" not in source and source.strip() == source
            and os.path.isfile(source)):
        name = os.fspath(source)
        return read_source(name).text, path if path is not None else name
    if isinstance(source, bytes):
        return decode_source(source).text, path
    return as_lf(source), path


def import_games(source: Union[str, bytes, "os.PathLike[str]"],
                 format: Union[str, Format, None] = None, *,
                 path: Optional[str] = None) -> List[Game]:
    """The games of a record of another program.

    ``source`` is the text, its bytes, or a file (a path object, or a string
    that names an existing file and has no line break).  ``format`` names
    the format; without it the format is recognised, or
    :class:`UnknownFormatError` raised when that is not certain.  Malformed
    input raises :class:`~lcnotation.core.diagnostics.NotationError` with its
    line and column (``path`` names the file in it).  The games carry the
    positions of their moves in the text, so that the checker's findings
    point into it.
    """
    text, path = _text_of(source, path)
    fmt = detect_format(text, path) if format is None else get_format(format)
    if fmt.read is None:
        if fmt.import_records is not None:
            raise ValueError(f"the format {fmt.name!r} is read from a folder, not a text: "
                             f"lcn import --from {fmt.name} DIR")
        raise ValueError(f"the format {fmt.name!r} holds {fmt.notation} records, not Lost "
                         "Cities games: lcn import writes them" if fmt.translate is not None
                         else f"the format {fmt.name!r} cannot be read, only written")
    try:
        return fmt.read(text, path)
    except NotationError as err:
        if err.path is None and path is not None:
            err.path = path
        raise


def export_game(game: Game, format: Union[str, Format]) -> str:
    """``game`` in the format ``format``; raises NotationError (I301 for the
    built-in formats) when the game cannot be written in it."""
    fmt = get_format(format)
    if fmt.write is None:
        if fmt.export_files is not None:
            raise ValueError(f"the format {fmt.name!r} writes whole files to a folder, not "
                             f"a game: lcn export --to {fmt.name} FILE... -o DIR")
        raise ValueError(f"the format {fmt.name!r} can be read but not written")
    return fmt.write(game)
