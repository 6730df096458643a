"""``lcn fmt``: rewrite records in the canonical layout."""

from __future__ import annotations

import argparse
import sys

from ..text.dialects import DIALECTS
from ..tools.reformat import FormatRefused, format_source
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, Settings, add_command,
                     add_config_options, deliver_formatted, err, read_input)

_FMT_EXAMPLES = """\
examples:
  lcn fmt                    rewrite every *.lcn file below the current folder
  lcn fmt match.lcn          rewrite in the canonical layout, in place
  lcn fmt games/ --check     exit 1 if any file would change (for CI)
  lcn fmt games/ --diff      show what would change, write nothing
  lcn fmt - < in.lcn         format standard input to standard output

The moves are spelt in the dialect lcn lint expects: the configured one
([tool.lcnotation] dialect, or --dialect), else the file's own (upper case,
and the discard marker of its first discard). Files with syntax errors are
left alone unless --force, which keeps each game with an error exactly as
written (and says so). Comments, unknown headers, line ends and BOM are
kept; a file that mixes line ends gets the one most of its lines use.
"""

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    fmt = add_command(sub, "fmt", "rewrite records in the canonical layout", _FMT_EXAMPLES)
    fmt.add_argument("paths", nargs="*", metavar="PATH",
                     help="files, folders or - (default: the current folder)")
    fmt.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file "
                     "would change")
    fmt.add_argument("--diff", action="store_true", help="print a diff instead of writing")
    fmt.add_argument("--dialect", default=None, choices=list(DIALECTS),
                     help="spelling of the moves (default: the configuration's, else the "
                     "file's own)")
    fmt.add_argument("--force", action="store_true",
                     help="format files with syntax errors too (each game with an error "
                     "is kept as written)")
    add_config_options(fmt)
    fmt.add_argument("-q", "--quiet", action="store_true",
                     help="say nothing but errors (no summary)")
    fmt.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings(args)
    status = EXIT_OK
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    changed = unchanged = 0
    seen = False
    for path in settings.expand(paths):
        seen = True
        name = settings.named(path)
        source = read_input(path)
        if source is None:
            status = EXIT_USAGE
            continue
        try:
            result = format_source(source.text, name, settings.lint(path).dialect, args.force)
        except FormatRefused as exc:
            err(f"{name}:{exc}" if str(exc)[:1].isdigit() else f"{name}: {exc}")
            status = max(status, EXIT_FINDINGS)
            continue
        for note in result.kept:
            if not args.quiet:
                err(f"{name}:{note}")
        new = result.text
        if new == source.text and source.newline is not None:
            unchanged += 1
        else:
            changed += 1
        status = max(status, deliver_formatted(path, source, new, args.check, args.diff,
                                               name, args.quiet))
    if not seen:
        err("warning: no *.lcn files found in " + ", ".join(paths))
    elif not args.quiet and changed + unchanged > 1:
        # One line for a run over many files (one file says it all above).
        verb = "would change" if args.check or args.diff else "changed"
        print(f"fmt: {_files(changed)} {verb}, {_files(unchanged)} unchanged", file=sys.stderr)
    return status


def _files(n: int) -> str:
    return f"{n} file{'s' if n != 1 else ''}"
