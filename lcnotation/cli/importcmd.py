"""``lcn import``: records of other programs as ``.lcn``; also the ``--from``
of ``lcn lint`` and ``lcn score``."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Iterator, List, Optional, Sequence

from ..lostcities.text.ast import Game
from ..core.diagnostics import NotationError
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, UsageError, add_command,
                     err, read_input, write_output)

if TYPE_CHECKING:  # pragma: no cover
    from ..formats import Format
    from ..tools.lint import FileReport, LintConfig

#: The --from value that asks for the format to be recognised.
AUTO = "auto"

_IMPORT_EXAMPLES = """\
examples:
  lcn import round.txt                         recognise the format, print .lcn
  lcn import --from chikinn r1.txt r2.txt -o match.lcn
  lcn import --from metapyziks replays.txt     one replay string per line
  lcn lint --from chikinn round.txt            check a transcript directly
  lcn score --from metapyziks replays.txt
  lcn import --from parquet games.parquet -o games.lcn   the records exported

Formats: chikinn (transcripts of chikinn/lost-cities), metapyziks (replay
strings of Metapyziks/lost-cities, version 3), parquet (a folder that lcn
export --to parquet wrote, or a table with the columns source, byte_offset
and record: the records byte for byte), and those of installed plugins.
exit status: 0 imported, 1 an input is malformed, or an export does not give
back the files it was made from (nothing is written), 2 usage error,
unreadable file, or a format that cannot be recognised.
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    cmd = add_command(sub, "import", "turn records of other programs into .lcn",
                      _IMPORT_EXAMPLES)
    cmd.add_argument("paths", nargs="+", metavar="FILE", help="files, or - for standard input")
    cmd.add_argument("--from", dest="from_format", metavar="FORMAT", default=AUTO,
                     help="the format of the files (default: recognised; refused when "
                     "that is not certain)")
    cmd.add_argument("-o", "--output", metavar="OUT",
                     help="write the games here instead of standard output")
    cmd.add_argument("--source", action="append", metavar="NAME",
                     help="parquet: only the records of the file NAME (its source column; "
                     "again for more)")
    cmd.set_defaults(handler=run)


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


def run(args: argparse.Namespace) -> int:
    from ..lostcities.text.formatter import format_games

    try:
        fmt = chosen_format(args.from_format)
    except ValueError as exc:
        err(str(exc))
        return EXIT_USAGE
    if overwrites_input(args.output, args.paths):
        return EXIT_USAGE
    if fmt is not None and fmt.import_records is not None:
        return _import_collection(args, fmt)
    if args.source:
        raise UsageError("--source is for collection formats (parquet)")
    games: List[Game] = []
    status = EXIT_OK
    for path in args.paths:
        try:
            games += imported(path, fmt)
        except Unreadable:
            status = EXIT_USAGE
        except NotationError as exc:
            say_error(exc)
            status = max(status, EXIT_FINDINGS)
    if status != EXIT_OK:
        err("nothing written")
        return status
    try:
        text = format_games(games)
    except ValueError as exc:  # games of a plugin without headers cannot share a file
        err(f"cannot write the games as one file: {exc}; nothing written")
        return EXIT_FINDINGS
    return write_output(args.output, text.encode("utf-8"))


def imported_reports(paths: Sequence[str], name: str,
                     config: "LintConfig") -> Iterator["FileReport"]:
    """``lcn lint --from``: the rules findings of each imported file; a file
    that cannot be imported is reported unreadable."""
    from ..lostcities.game.checker import check
    from ..tools.lint import FileReport
    from ..core.findings import Finding

    fmt = chosen_format(name)
    for path in paths:
        try:
            games = imported(path, fmt)
        except Unreadable:
            yield FileReport(path, unreadable="see above")
            continue
        except NotationError as exc:
            yield FileReport(path, unreadable=f"{exc.line}:{exc.column}: {exc.code} "
                             f"{exc.message}")
            continue
        report = FileReport(path, games=len(games), moves=sum(len(g.moves) for g in games))
        for game in games:
            report.findings += [Finding(d) for d in check(game, path=path,
                                                          default_colors=config.colors
                                                          ).diagnostics
                                if config.wants(d.code)]
        yield report


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
