"""What the archive commands share (``lcn filter``, ``dedupe``, ``split``, ``stats``):
reading files game by game, reporting what cannot be read, writing games
byte for byte (never over an input: :func:`~lcnotation.cli.common.written_over`).

The archive package (``lcnotation.archive``) is imported when a command
runs, not with this module (``lcn lint`` stays lean).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Callable, Iterator, List, Sequence

from .common import Settings, err

if TYPE_CHECKING:
    from ..archive.reader import GameEntry
    from ..lostcities.text.ast import Game


def add_paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="files, folders (searched for *.lcn) or - for standard input")


def inputs(settings: Settings, paths: Sequence[str]) -> List[str]:
    """The files to read, folders expanded as ``lcn lint`` expands them."""
    found = list(settings.expand(paths))
    if not found:
        err("warning: no *.lcn files found in " + ", ".join(paths))
    return found


class ReadFailed(Exception):
    """Reading an input failed (not writing the output, which ``lcn`` reports)."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(str(cause))
        self.cause = cause


def entries(path: str, name: str) -> Iterator["GameEntry"]:
    """The games of ``path`` (``-``: standard input) as entries; a failure to
    read raises :class:`ReadFailed` (see :func:`read_failed`)."""
    from ..archive.reader import scan
    from ..core.files import not_regular

    refused = not_regular(path)
    if refused is not None:
        raise ReadFailed(OSError(refused))
    found = scan(sys.stdin.buffer, path=name) if path == "-" else scan(path, path=name)
    while True:
        try:
            entry = next(found)
        except StopIteration:
            return
        except OSError as exc:
            raise ReadFailed(exc) from exc
        yield entry


def read_failed(name: str, failed: ReadFailed) -> None:
    exc = failed.cause
    err(f"{name}: cannot read: {exc.strerror or exc}")


def not_readable(entry: "GameEntry", game: "Game") -> None:
    """Report a game read with syntax errors: where the first is, and how many."""
    first = game.errors[0]
    count = len(game.errors)
    err(f"{entry.path}:{first.line}:{first.column}: game {entry.number} cannot be read in "
        f"full: {count} syntax error{'s' if count != 1 else ''} (first: {first.code} "
        f"{first.message})")


class GameWriter:
    """Writes games one after another, each exactly as it was written.

    Games laid end to end must stay games of their own: a game whose last
    line has no line end gets one before the next game; a game that could
    not be told from the one before it (one without a header before its first
    move, or after a game without moves) is refused: :meth:`write` returns
    False and writes nothing.  ``bom`` is written before the first game.
    Only a few facts of the last game are kept, not the game.
    """

    def __init__(self, write: Callable[[bytes], object], bom: bytes = b"") -> None:
        self._write = write
        self._bom = bom
        self.games = 0
        self._moves = True         # the last game written has a move
        self._line_end = b""       # what the last game needs before another: b"", or a line end

    def can_follow(self, entry: "GameEntry") -> bool:
        """Whether ``entry`` read after the games written so far is a game of its own."""
        return not self.games or (self._moves and _begins_with_header(entry.raw))

    def write(self, entry: "GameEntry") -> bool:
        if not self.can_follow(entry):
            return False
        raw = entry.raw
        if not self.games:
            if self._bom:
                self._write(self._bom)
        elif self._line_end:
            self._write(self._line_end)
        self._write(raw)
        self.games += 1
        self._moves = _has_moves(raw)
        self._line_end = (b"" if raw.endswith((b"\n", b"\r"))
                          else b"\r\n" if b"\r\n" in raw else b"\n")
        return True


def cannot_follow(entry: "GameEntry", where: str) -> None:
    err(f"{entry.path}:{entry.line}:1: game {entry.number} is not written to {where}: after "
        "the game before it there, it would read as part of that game (a game there must "
        "begin with a header, and follow a game with moves)")


def _has_moves(raw: bytes) -> bool:
    """Whether a game's text holds a move, as the splitter sees it (a header
    line after it begins another game)."""
    from ..archive.reader import shadow
    from ..lostcities.text.reader import holds_moves

    return holds_moves(shadow(raw))


def _begins_with_header(raw: bytes) -> bool:
    """Whether a game's text holds no move before its first header line."""
    from ..archive.reader import shadow
    from ..lostcities.text.lexical import LEXICON
    from ..lostcities.text.reader import holds_moves

    text = shadow(raw)
    if LEXICON.header_first.match(text):
        return True
    m = LEXICON.header_line.search(text)
    if m is None:
        return False
    return not holds_moves(text[:m.start() + 1])

