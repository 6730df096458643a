"""``lcn export``: ``.lcn`` records in the format of another program."""

from __future__ import annotations

import argparse

from ..core.diagnostics import NotationError
from .common import (EXIT_FINDINGS, EXIT_USAGE, Parser, add_command, err, read_records,
                     write_output)
from .inputs import overwrites_input, say_error

_EXPORT_EXAMPLES = """\
examples:
  lcn export --to metapyziks game.lcn           a replay string per game
  lcn export --to metapyziks match.lcn -o replays.txt

A game needs its deal (Hand1, Hand2, Deck headers) and no syntax or rules
errors. exit status: 0 written, 1 a game cannot be written in the format
(nothing is written), 2 usage error or unreadable file.
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    cmd = add_command(sub, "export", "write .lcn records in the format of another program",
                      _EXPORT_EXAMPLES)
    cmd.add_argument("path", metavar="FILE", help="a .lcn file, or - for standard input")
    cmd.add_argument("--to", required=True, metavar="FORMAT", help="the format to write")
    cmd.add_argument("-o", "--output", metavar="OUT",
                     help="write here instead of standard output")
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..formats import get_format

    try:
        fmt = get_format(args.to)
    except ValueError as exc:
        err(str(exc))
        return EXIT_USAGE
    if fmt.write is None:
        err(f"the format {fmt.name!r} can be read but not written")
        return EXIT_USAGE
    if overwrites_input(args.output, [args.path]):
        return EXIT_USAGE
    games = read_records(args.path)
    if games is None:
        return EXIT_USAGE
    written = []
    problems = 0
    for game in games:
        try:
            written.append(fmt.write(game))
        except NotationError as exc:
            exc.path = args.path
            say_error(exc)
            problems += 1
    if problems or not written:
        err("nothing written" + ("" if written or problems else ": the file holds no game"))
        return EXIT_FINDINGS
    return write_output(args.output, "".join(w if w.endswith("\n") else w + "\n"
                                             for w in written).encode("utf-8"))
