"""``lcn import``: records of other programs as ``.lcn``; also the ``--from``
of ``lcn lint`` and ``lcn score``."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, List, Optional, Tuple

from ..lostcities.text.ast import Game
from ..core.diagnostics import NotationError
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, UsageError, add_command,
                     collector_paused, completes_with, err, make_folder, names_folder, output_path,
                     usage_error, write_output, written_over)
from .inputs import (AUTO, Unreadable, chosen_format, deal_number, import_formats, imported,
                     say_error, translated)

if TYPE_CHECKING:  # pragma: no cover
    from ..formats import Format

_IMPORT_EXAMPLES = """\
examples:
  lcn import round.txt                         recognise the format, print .lcn
  lcn import --from chikinn r1.txt r2.txt -o match.lcn
  lcn import --from metapyziks replays.txt     one replay string per line
  lcn lint --from chikinn round.txt            check a transcript directly
  lcn score --from metapyziks replays.txt
  fc-solve -m -snx board.txt | lcn import --from fc-solve - --deal 617 -o 617.sfn
  lcn import --from parquet games.parquet -o games.lcn   the records exported

Formats: chikinn (transcripts of chikinn/lost-cities), metapyziks (replay
strings of Metapyziks/lost-cities, version 3), fc-solve (solutions of
Freecell Solver, as FreeCell records: one file at a time, --deal N or the
board in its output), parquet (a folder that lcn export --to parquet wrote,
or a table with the columns source, byte_offset and record: the records
byte for byte), and those of installed plugins.
exit status: 0 imported, 1 an input is malformed, or an export does not give
back the files it was made from (nothing is written), 2 usage error,
unreadable file, or a format that cannot be recognised.
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    cmd = add_command(sub, "import", "turn records of other programs into .lcn",
                      _IMPORT_EXAMPLES)
    cmd.add_argument("paths", nargs="+", metavar="FILE", help="files, or - for standard input")
    completes_with(cmd.add_argument(
        "--from", dest="from_format", metavar="FORMAT", default=AUTO,
        help="the format of the files (default: recognised; refused when that is not "
        "certain)"), import_formats)
    cmd.add_argument("-o", "--output", type=output_path, metavar="FILE|DIR",
                     help="write the games here instead of standard output; a folder (one "
                     "that exists, or a name ending in /) gets one NAME.lcn for each input")
    cmd.add_argument("--deal", type=deal_number, metavar="N",
                     help="fc-solve: the deal solved, 0 to 2**33 - 1 (else the board in its "
                     "output)")
    cmd.add_argument("--source", action="append", metavar="NAME",
                     help="parquet: only the records of the file NAME (its source column; "
                     "again for more)")
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        fmt = chosen_format(args.from_format)
    except ValueError as exc:
        err(str(exc))
        return EXIT_USAGE
    if written_over(args.output, args.paths, "import"):
        return EXIT_USAGE
    if fmt is not None and fmt.import_records is not None:
        return _import_collection(args, fmt)
    if args.source:
        return usage_error("import", "--source is for collection formats (parquet)")
    folder = args.output if names_folder(args.output) else None
    if fmt is not None and fmt.translate is not None:
        if len(args.paths) != 1:
            return usage_error("import", f"--from {fmt.name} reads one file at a time "
                               f"(a {fmt.notation} record each)")
        output = args.output
        if folder is not None:
            if not make_folder(folder):
                return EXIT_USAGE
            output = os.path.join(folder, _output_name(args.paths[0], fmt.notation))
        return translated(fmt, args.paths[0], args.deal, output)
    if args.deal is not None:
        return usage_error("import", "--deal is for fc-solve's solutions (--from fc-solve)")
    with collector_paused():  # the games hold no cycles
        return _import_games(args, fmt, folder)


def _import_games(args: argparse.Namespace, fmt: "Optional[Format]",
                  folder: Optional[str]) -> int:
    """``lcn import`` of games (not of a collection, nor of another notation)."""
    from ..lostcities.text.formatter import format_games

    read: List[Tuple[str, List[Game]]] = []
    status = EXIT_OK
    for path in args.paths:
        try:
            read.append((path, imported(path, fmt)))
        except Unreadable:
            status = EXIT_USAGE
        except NotationError as exc:
            say_error(exc)
            status = max(status, EXIT_FINDINGS)
    if status != EXIT_OK:
        err("nothing written")
        return status
    if folder is None:
        outputs = [(args.output, [g for _, games in read for g in games])]
    else:
        outputs = [(os.path.join(folder, _output_name(path)), games) for path, games in read]
        names = [name for name, _ in outputs]
        twice = next((name for name in names if names.count(name) > 1), None)
        if twice is not None:
            return usage_error("import", f"two inputs would both be written to {twice}")
    texts: List[Tuple[Optional[str], str]] = []
    for output, games in outputs:
        try:
            texts.append((output, format_games(games)))
        except ValueError as exc:  # games of a plugin without headers cannot share a file
            err(f"cannot write the games as one file: {exc}; nothing written")
            return EXIT_FINDINGS
    if folder is not None and not make_folder(folder):
        return EXIT_USAGE
    for output, text in texts:
        status = max(status, write_output(output, text.encode("utf-8")))
    return status


def _output_name(path: str, notation: str = "lostcities") -> str:
    """The file written in the output folder for the input ``path``: its name,
    with the extension of the records' notation."""
    from ..tools.notations import NOTATIONS

    stem = os.path.splitext(os.path.basename(path))[0] if path != "-" else "stdin"
    extension = next(e for e, owner in NOTATIONS.by_extensions() if owner == notation)
    return stem + extension


class _Mismatch(Exception):
    """An export that does not give back its files: the output is not kept."""


def _import_collection(args: argparse.Namespace, fmt: "Format") -> int:
    """``lcn import --from parquet DIR... -o FILE``: the records, byte for byte;
    checked against the export's manifest, and nothing kept when they are not
    the files exported."""
    import contextlib
    import sys

    from ..formats import FormatUnavailable, ImportOptions, ImportSummary
    from ..core.files import atomic_writer

    assert fmt.import_records is not None
    if "-" in args.paths:
        raise UsageError(f"--from {fmt.name} reads a folder or file, not standard input")
    options = ImportOptions(sources=args.source)
    summaries: List[ImportSummary] = []
    try:
        with contextlib.ExitStack() as stack:
            if args.output is not None:
                out = stack.enter_context(atomic_writer(args.output))
                write = out.write
            else:
                sys.stdout.flush()
                write = sys.stdout.buffer.write
            for path in args.paths:
                if not os.path.exists(path):
                    err(f"{path}: cannot read: no such file or folder")
                    return EXIT_USAGE
                summaries.append(fmt.import_records(path, write, options))
            if any(s.problems for s in summaries) and args.output is not None:
                raise _Mismatch()
    except _Mismatch:
        pass
    except FormatUnavailable as exc:
        err(str(exc))
        return EXIT_USAGE
    except ValueError as exc:  # not an export, or a table without the columns
        err(f"{exc}; nothing written")
        return EXIT_USAGE
    except OSError as exc:
        name = exc.filename if exc.filename is not None else args.output
        err(f"{name}: {exc.strerror or exc}; nothing written")
        return EXIT_USAGE
    for path, summary in zip(args.paths, summaries):
        for note in summary.notes:
            err(f"{path}: {note}")
        for problem in summary.problems:
            err(f"{path}: {problem}")
    missing = [name for name in args.source or ()
               if not any(name in s.sources for s in summaries)]
    for name in missing:
        err(f"--source {name}: no such file in {', '.join(args.paths)}")
    if any(s.problems for s in summaries):
        err("the records are not the files exported" + ("; nothing written"
                                                         if args.output is not None else ""))
        return EXIT_FINDINGS
    return EXIT_FINDINGS if missing else EXIT_OK
