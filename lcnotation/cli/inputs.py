"""What the commands share about their inputs: records of other programs
(the ``--from`` of import, lint and score), the games a picture or a page
shows, and deal numbers.  The command
modules import this, never each other.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Iterator, List, NamedTuple, Optional, Sequence

from ..core.diagnostics import NotationError
from ..core.lineends import lone_cr_as_lf
from .common import EXIT_FINDINGS, EXIT_USAGE, err, read_input, streamable, write_output, written_over

# The Lost Cities reader is imported by the functions that read games: FreeCell's
# commands import this module too.
if TYPE_CHECKING:  # pragma: no cover
    from ..formats import Format
    from ..lostcities.text.ast import Game
    from ..lostcities.text.reader import GameText

__all__ = ["AUTO", "chosen_format", "import_formats", "export_formats", "foreign_format", "Unreadable", "imported", "imported_or_none",
           "say_error", "Drawn", "drawn_texts", "drawn_games", "GamesUnreadable",
           "deal_number", "translated"]

#: The --from value that asks for the format to be recognised.
AUTO = "auto"

def chosen_format(name: str) -> "Optional[Format]":
    """The format named on the command line (None for ``auto``); raises
    ValueError for an unknown name."""
    from ..formats import get_format

    return None if name == AUTO else get_format(name)


def import_formats() -> List[str]:
    """What ``--from`` takes: ``auto``, then every format that can be read."""
    from ..formats import FORMATS, load_plugins

    load_plugins()
    return [AUTO] + [f.name for f in FORMATS.values()
                     if f.read is not None or f.translate is not None
                     or f.import_records is not None]


def export_formats() -> List[str]:
    """What ``lcn export --to`` takes: every format that can be written."""
    from ..formats import FORMATS, load_plugins

    load_plugins()
    return [f.name for f in FORMATS.values() if f.write is not None or f.export_files is not None]


def foreign_format(path: str) -> Optional[str]:
    """The name of the other program's format that the file ``path`` is surely
    in (what ``--from`` would read it as), when its extension is no
    notation's: a transcript or a replay string read as notation by mistake.
    None for a notation's file, standard input, or text no format recognises."""
    from ..formats import UnknownFormatError, detect_format
    from ..tools.notations import NOTATIONS

    if path == "-" or NOTATIONS.by_extension(path) is not None:
        return None
    try:
        with open(path, "rb") as handle:
            start = handle.read(1 << 16)  # what the formats' detectors look at
    except OSError:
        return None
    try:
        return detect_format(start.decode("utf-8", "replace"), path).name
    except UnknownFormatError:
        return None


class Unreadable(Exception):
    """A file that cannot be imported, with what to say (exit status 2)."""


def imported(path: str, fmt: "Optional[Format]") -> "List[Game]":
    """The games of ``path`` (``-``: standard input); raises NotationError for
    malformed input and :class:`Unreadable` (message said) for the rest."""
    from ..formats import UnknownFormatError, detect_format

    source = read_input(path)
    if source is None:
        raise Unreadable()
    try:
        chosen = fmt if fmt is not None else detect_format(source.text, path)
    except UnknownFormatError as exc:
        err(f"{path}: {exc.message}: use --from FORMAT")
        raise Unreadable() from None
    if chosen.read is None:
        err(f"{path}: the format {chosen.name!r} cannot be read")
        raise Unreadable()
    try:
        return chosen.read(source.text, path)
    except NotationError as exc:
        exc.path = path
        raise


def imported_or_none(path: str, name: str) -> "Optional[Iterator[Game]]":
    """The games of ``path`` in the format ``name`` (or ``auto``); None, with
    a message, when the file cannot be imported."""
    try:
        return iter(imported(path, chosen_format(name)))
    except ValueError as exc:
        if not isinstance(exc, NotationError):
            err(str(exc))  # an unknown format name
            return None
        err(f"{path}:{exc.line}:{exc.column}: cannot read: {exc.code} {exc.message}")
    except Unreadable:
        pass
    return None


def say_error(exc: NotationError) -> None:
    """``path:line:column: CODE message`` on standard error."""
    err(f"{exc.path}:{exc.line}:{exc.column}: {exc.code} {exc.message}")


class Drawn(NamedTuple):
    """A game as ``lcn view`` and ``lcn render`` draw it, and the text its
    spans are offsets into (which spells its moves as written)."""

    game: Game
    source: str


def drawn_texts(path: str, output: Optional[str], command: str
                ) -> "Optional[Iterator[GameText]]":
    """The texts of the games of ``path`` that ``lcn view`` shows and ``lcn
    render --game`` counts (not white space alone), one at a time, each
    placed at its line in the file and at offset 0 (a game read from it has
    its spans offsets into its own text); None, with a message, when
    ``output`` would overwrite it or standard input cannot be read.

    A regular file is read a game at a time as the games are asked for
    (memory holds one, and the file is read only as far as they are).  A
    failure to read the file, or bytes that are not UTF-8 in what is read,
    raise :class:`GamesUnreadable`, which the command says with
    :func:`~lcnotation.cli.common.cannot_read`.
    """
    from ..lostcities.text.reader import BLANK, split_games

    if written_over(output, [path], command):
        return None
    if streamable(path):
        return _drawn(path)
    source = read_input(path)
    if source is None:
        return None
    return (part._replace(offset=0) for part in split_games([lone_cr_as_lf(source.text)])
            if part.problems or not BLANK.match(part.text))


def drawn_games(path: str, output: Optional[str], command: str) -> Optional[Iterator[Drawn]]:
    """The games of :func:`drawn_texts`, read, without the empty ones (see
    :attr:`~lcnotation.lostcities.text.ast.Game.shown`), each with its own text."""
    from ..lostcities.text.reader import parse_part

    texts = drawn_texts(path, output, command)
    if texts is None:
        return None
    return (Drawn(game, part.text) for part in texts
            for game in (parse_part(part, False, path),) if game.shown)


class GamesUnreadable(Exception):
    """The file of :func:`drawn_texts` stopped being readable: ``cause`` says why."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _drawn(path: str) -> "Iterator[GameText]":
    from ..archive.reader import scan  # a game's bytes at a time

    entries = scan(path, path=path)
    while True:
        try:
            entry = next(entries)
            part = entry.text()
        except StopIteration:
            return
        except (OSError, NotationError, MemoryError) as exc:
            raise GamesUnreadable(exc) from exc
        if part.problems:  # not UTF-8: such a file is not read, as read whole
            raise GamesUnreadable(part.problems[0])
        yield part._replace(offset=0)  # lines as in the file, offsets from 0


def deal_number(value: str) -> int:
    """An argparse type: a deal number as the notation writes it (ASCII digits,
    0 to 2**33 - 1)."""
    from ..freecell.deals import DEAL_LIMIT

    number = (int(value) if value.isascii() and value.isdigit()
              and len(value.lstrip("0")) <= 12 else -1)
    if not 0 <= number < DEAL_LIMIT:
        shown = repr(value) if len(value) <= 20 else f"a text of {len(value):,} characters"
        raise argparse.ArgumentTypeError(f"a deal number is 0 to {DEAL_LIMIT - 1}, "
                                         f"not {shown}")
    return number


def translated(fmt: "Format", path: str, deal: Optional[int], output: Optional[str]) -> int:
    """Import the record of another notation (fc-solve's: FreeCell) in the file
    ``path`` and write its text to ``output`` (None: standard output)."""
    assert fmt.translate is not None
    source = read_input(path)
    if source is None:
        return EXIT_USAGE
    try:
        text = fmt.translate(source.text, {"deal": deal})
    except NotationError as exc:
        exc.path = path
        say_error(exc)
        return EXIT_FINDINGS
    except ValueError as exc:
        err(f"{path}: {exc}")
        return EXIT_FINDINGS
    return write_output(output, text.encode("utf-8"))
