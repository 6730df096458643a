"""What the commands share about their inputs: records of other programs
(the ``--from`` of import, lint and score), the games a picture or a page
shows, deal numbers, and the refusal to write over an input.  The command
modules import this, never each other.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Iterator, List, Optional, Sequence

from ..core.diagnostics import NotationError
from ..lostcities.text.ast import Game
from .common import EXIT_FINDINGS, EXIT_USAGE, err, read_input, read_records, write_output

if TYPE_CHECKING:  # pragma: no cover
    from ..formats import Format

__all__ = ["AUTO", "chosen_format", "Unreadable", "imported", "imported_or_none",
           "overwrites_input", "say_error", "drawn_games", "deal_number", "translated"]

#: The --from value that asks for the format to be recognised.
AUTO = "auto"

def chosen_format(name: str) -> "Optional[Format]":
    """The format named on the command line (None for ``auto``); raises
    ValueError for an unknown name."""
    from ..formats import get_format

    return None if name == AUTO else get_format(name)


class Unreadable(Exception):
    """A file that cannot be imported, with what to say (exit status 2)."""


def imported(path: str, fmt: "Optional[Format]") -> List[Game]:
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


def imported_or_none(path: str, name: str) -> Optional[Iterator[Game]]:
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


def overwrites_input(output: Optional[str], inputs: Sequence[str]) -> bool:
    """Whether ``-o output`` names one of the files read (said on stderr): the
    commands that write another kind of file (import, export, render, view)
    would replace the record with it."""
    if output is None:
        return False
    for path in inputs:
        try:
            same = path != "-" and os.path.samefile(path, output)
        except OSError:  # the output does not exist yet (or the input cannot be read)
            same = False
        if same:
            err(f"{output}: not written: it is the input {path}; name another file")
            return True
    return False


def say_error(exc: NotationError) -> None:
    """``path:line:column: CODE message`` on standard error."""
    err(f"{exc.path}:{exc.line}:{exc.column}: {exc.code} {exc.message}")


def drawn_games(path: str, output: Optional[str]) -> Optional[List[Game]]:
    """The games of ``path`` that ``lcn view`` shows and ``lcn render --game``
    counts (not the empty ones); None, with a message, when the file cannot
    be read or ``output`` would overwrite it."""
    if overwrites_input(output, [path]):
        return None
    games = read_records(path)
    if games is None:
        return None
    return [g for g in games if g.moves or g.headers or g.errors]


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
