"""``lcn view``: a self-contained HTML page that replays the games of a record."""

from __future__ import annotations

import argparse
import os
from typing import List, NamedTuple, Optional

from ..lostcities.text.ast import Game
from ..lostcities.text.reader import parse_games
from .common import EXIT_USAGE, Parser, add_command, configured_colors, read_input, write_output
from .importcmd import overwrites_input

_VIEW_EXAMPLES = """\
examples:
  lcn view match.lcn -o match.html      open match.html in any browser

The page needs no network: step with the buttons or the arrow keys (Home and
End jump to the ends), click a move to jump to it, turn the board (F), choose
the game of a multi-game file. Diagnostics show at the move they belong to;
moves are listed as the file spells them, unreadable ones too (marked).
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    view = add_command(sub, "view", "write a replay page (HTML) of a record", _VIEW_EXAMPLES)
    view.add_argument("path", metavar="PATH", help="a file, or - for standard input")
    view.add_argument("-o", "--output", metavar="FILE",
                      help="write here instead of standard output")
    view.add_argument("--title", help="the page's title (default: the file's name)")
    view.set_defaults(handler=run)


class Record(NamedTuple):
    """A record as ``lcn view`` and ``lcn render`` draw it: its text, and the
    games they show (not the empty ones)."""

    text: str
    games: List[Game]


def drawn_record(path: str, output: Optional[str]) -> Optional[Record]:
    """The record ``path`` (or standard input) for ``lcn view`` and ``lcn
    render``; None, with a message, when the file cannot be read or ``output``
    would overwrite it."""
    if overwrites_input(output, [path]):
        return None
    source = read_input(path)
    if source is None:
        return None
    games = list(parse_games(source.text, path=path))
    return Record(source.text, [g for g in games if g.moves or g.headers or g.errors])


def run(args: argparse.Namespace) -> int:
    from ..view import view_html  # the page's code, only for this command

    record = drawn_record(args.path, args.output)
    if record is None:
        return EXIT_USAGE
    title = args.title or ("standard input" if args.path == "-" else os.path.basename(args.path))
    path = None if args.path == "-" else args.path
    html = view_html(record.games, title=title, path=path,
                     default_colors=configured_colors(args.path), source=record.text)
    return write_output(args.output, html.encode("utf-8"))
