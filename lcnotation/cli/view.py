"""``lcn view``: a self-contained HTML page that replays the games of a record."""

from __future__ import annotations

import argparse
import os

from .common import (EXIT_USAGE, Parser, add_command, cannot_read, configured_colors, output_path,
                     process_count, write_output)
from .inputs import GamesUnreadable, drawn_texts
from ..core.terminal import surrogates_escaped

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
    view.add_argument("-o", "--output", type=output_path, metavar="FILE",
                      help="write here instead of standard output")
    view.add_argument("--title", help="the page's title (default: the file's name)")
    view.add_argument("-j", "--jobs", type=process_count, default=0, metavar="N",
                      help="replay the games in N processes (default 0: one per core; a "
                           "record of a few dozen games is built in one)")
    view.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..view import view_html_of_texts  # the page's code, only for this command

    texts = drawn_texts(args.path, args.output, "view")
    if texts is None:
        return EXIT_USAGE
    # Names that are not UTF-8 are shown as the messages show them.
    title = surrogates_escaped(args.title or ("standard input" if args.path == "-"
                                              else os.path.basename(args.path)))
    path = None if args.path == "-" else surrogates_escaped(args.path)
    # The games are read as the page replays them, in the workers with -j.
    try:
        html = view_html_of_texts(texts, title=title, path=path,
                                  default_colors=configured_colors(args.path),
                                  jobs=args.jobs if args.jobs > 0 else (os.cpu_count() or 1))
    except GamesUnreadable as failed:
        cannot_read(args.path, failed.cause)
        return EXIT_USAGE
    return write_output(args.output, html.encode("utf-8"))
