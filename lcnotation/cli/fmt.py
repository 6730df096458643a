"""``lcn fmt``: rewrite records in the canonical layout."""

from __future__ import annotations

import argparse
import sys
from typing import Optional

from ..text.dialects import get_dialect
from ..text.formatter import format_game
from ..text.reader import parse_games
from ..tools.files import SourceFile
from ..tools.output import printable, printable_diff
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, add_command, err,
                     expand_paths, read_input, refused_for_errors, write_file, write_stdout)

_FMT_EXAMPLES = """\
examples:
  lcn fmt match.lcn          rewrite in the canonical layout, in place
  lcn fmt games/ --check     exit 1 if any file would change (for CI)
  lcn fmt games/ --diff      show what would change, write nothing
  lcn fmt - < in.lcn         format standard input to standard output

Files with syntax errors are left alone unless --force (which drops the
unreadable parts). Comments, unknown headers, line ends and BOM are kept.
"""

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    fmt = add_command(sub, "fmt", "rewrite records in the canonical layout", _FMT_EXAMPLES)
    fmt.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or -")
    fmt.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file "
                     "would change")
    fmt.add_argument("--diff", action="store_true", help="print a diff instead of writing")
    fmt.add_argument("--dialect", default="v1", help="spelling of the moves (default: v1)")
    fmt.add_argument("--force", action="store_true",
                     help="format files with syntax errors too (their unreadable parts "
                     "are dropped)")
    fmt.set_defaults(handler=run)

def _formatted(source: SourceFile, path: str, dialect: str, force: bool) -> Optional[str]:
    """The canonical text of ``source``, or None (with a message) when refused."""
    games = list(parse_games(source.text, path=path))
    if not force and refused_for_errors(source, path, "formatted", games):
        return None
    parts = []
    for i, game in enumerate(games):
        if i and not games[i - 1].moves:
            err(f"{path}: not formatted: game {i} has no moves and is followed by "
                 "another game")
            return None
        parts.append(format_game(game, dialect))
    return "\n".join(parts)


def run(args: argparse.Namespace) -> int:
    try:
        get_dialect(args.dialect)
    except ValueError as exc:
        err(str(exc))
        return EXIT_USAGE
    status = EXIT_OK
    for path in expand_paths(args.paths):
        source = read_input(path)
        if source is None:
            status = EXIT_USAGE
            continue
        new = _formatted(source, path, args.dialect, args.force)
        if new is None:
            status = max(status, EXIT_FINDINGS)
            continue
        if path == "-" and not (args.check or args.diff):
            # As bytes: the input's line ends and BOM, UTF-8 whatever the locale.
            write_stdout(source.encode(new) if source.newline is not None
                          else new.encode("utf-8"))
            continue
        if new == source.text:
            continue
        if args.diff:
            sys.stdout.writelines(printable_diff(source.text, new, path))
        if args.check or args.diff:
            if args.check:
                print(printable(f"would reformat {path}"))
            status = max(status, EXIT_FINDINGS)
            continue
        if source.newline is None:
            err(f"{path}: not formatted: the file mixes line ends")
            status = max(status, EXIT_FINDINGS)
            continue
        if write_file(path, source.encode(new)):
            print(printable(f"reformatted {path}"), file=sys.stderr)
        else:
            status = EXIT_USAGE
    return status
