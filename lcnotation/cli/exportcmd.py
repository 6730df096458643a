"""``lcn export``: ``.lcn`` records in the format of another program."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, List, Optional, Tuple

from ..core.diagnostics import NotationError
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, Settings, UsageError, add_command,
                     completes_with, err, output_path, read_records, write_output, written_over)
from .inputs import export_formats, say_error

if TYPE_CHECKING:  # pragma: no cover
    from ..formats import Format

_EXPORT_EXAMPLES = """\
examples:
  lcn export --to metapyziks game.lcn           a replay string per game
  lcn export --to metapyziks match.lcn -o replays.txt
  lcn export --to parquet games/ -o games.parquet     tables to query (see below)
  lcn export --to parquet big.lcn -o out --partition-by year,player1
  lcn export --to parquet games/ -o out --scheduler tcp://10.0.0.5:8786

metapyziks: a game needs its deal (Hand1, Hand2, Deck headers) and no syntax
or rules errors; exit status: 0 written, 1 a game cannot be written in the
format (nothing is written), 2 usage error or unreadable file.

parquet (pip install 'lcnotation[arrow]'): a new folder DIR with a games and
a plies table (spec/parquet.md), to query with DuckDB or Polars; lcn import
--from parquet DIR gives the records back byte for byte. A game that cannot
be read is reported and kept as its text, without figures; exit status: 0
all games read, 1 some could not be (the export is written all the same),
2 usage error, unreadable file or an existing DIR (nothing is written).
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    cmd = add_command(sub, "export", "write .lcn records in the format of another program",
                      _EXPORT_EXAMPLES)
    cmd.add_argument("paths", nargs="+", metavar="PATH",
                     help=".lcn files (folders too, for parquet), or - for standard input")
    completes_with(cmd.add_argument("--to", required=True, metavar="FORMAT",
                                    help="the format to write"), export_formats)
    cmd.add_argument("-o", "--output", type=output_path, metavar="OUT",
                     help="write here instead of standard output (parquet: the new folder)")
    cmd.add_argument("--partition-by", metavar="COLUMNS",
                     help="parquet: split the tables into folders by these columns of the "
                     "games table (comma-separated: year,player1)")
    cmd.add_argument("--header-column", action="append", default=[], metavar="NAME",
                     help="parquet: give the header NAME a column of its own, header_NAME "
                     "(again for more)")
    cmd.add_argument("--scheduler", metavar="ADDRESS",
                     help="parquet: export on a Dask cluster: its scheduler's address "
                     "(tcp://host:8786), or 'local' for one on this machine (local:N: N "
                     "workers); needs pip install 'lcnotation[dask]'")
    cmd.add_argument("--config", metavar="FILE",
                     help="a pyproject.toml to read [tool.lcnotation] from (default: the "
                     "nearest one above each file)")
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..formats import get_format

    try:
        fmt = get_format(args.to)
    except ValueError as exc:
        err(str(exc))
        return EXIT_USAGE
    if fmt.export_files is not None:
        return _export_collection(args, fmt)
    for option, given in (("--partition-by", args.partition_by),
                          ("--header-column", args.header_column),
                          ("--scheduler", args.scheduler)):
        if given:
            raise UsageError(f"{option} is for collection formats (parquet), not {fmt.name}")
    if fmt.write is None:
        err(f"the format {fmt.name!r} can be read but not written")
        return EXIT_USAGE
    if written_over(args.output, args.paths, "export"):
        return EXIT_USAGE
    written = []
    problems = 0
    for path in args.paths:
        games = read_records(path)
        if games is None:
            return EXIT_USAGE
        for game in games:
            try:
                written.append(fmt.write(game))
            except NotationError as exc:
                exc.path = path
                say_error(exc)
                problems += 1
    if problems or not written:
        err("nothing written" + ("" if written or problems else ": the file holds no game"))
        return EXIT_FINDINGS
    return write_output(args.output, "".join(w if w.endswith("\n") else w + "\n"
                                             for w in written).encode("utf-8"))


def _columns(value: Optional[str]) -> Tuple[str, ...]:
    if not value:
        return ()
    names = tuple(n.strip() for n in value.split(","))
    if not all(names):
        raise UsageError(f"--partition-by: expected column names separated by commas, "
                         f"not {value!r}")
    return names


def _export_collection(args: argparse.Namespace, fmt: "Format") -> int:
    """``lcn export --to parquet PATH... -o DIR``."""
    from ..formats import ExportOptions, FormatUnavailable
    from ..core.files import not_regular

    assert fmt.export_files is not None
    if args.output is None:
        raise UsageError(f"--to {fmt.name} writes a folder: name it with -o DIR")
    if "-" in args.paths:
        raise UsageError(f"--to {fmt.name} reads files, not standard input: name a file")
    settings = Settings(args)
    files = list(settings.expand(args.paths))
    for path in files:
        why = not_regular(path)
        if why is not None:
            err(f"{path}: cannot read: {why}; nothing written")
            return EXIT_USAGE
    if not files:
        err("no .lcn file found; nothing written")
        return EXIT_USAGE
    from ..lostcities.lint import colors_of

    colors = {path: colors_of(settings.lint(path)) for path in files}
    refused_games: List[NotationError] = []

    def refused(error: NotationError) -> None:
        refused_games.append(error)
        say_error(error)

    options = ExportOptions(partition_by=_columns(args.partition_by),
                            header_columns=tuple(args.header_column), scheduler=args.scheduler,
                            colors=colors.__getitem__, refused=refused)
    try:
        summary = fmt.export_files(files, args.output, options)
    except FormatUnavailable as exc:
        err(str(exc))
        return EXIT_USAGE
    except ValueError as exc:  # an output that exists, a column that cannot split the tables
        err(f"{exc}; nothing written")
        return EXIT_USAGE
    except OSError as exc:
        name = exc.filename if exc.filename is not None else args.output
        verb = "cannot read" if name in colors else "cannot write"
        err(f"{name}: {verb}: {exc.strerror or exc}; nothing written")
        return EXIT_USAGE
    if summary.refused:
        err(f"export: {summary.details} written to {args.output}; {summary.refused:,} of the "
            f"games could not be read: kept as their text only (no figures, no plies)")
        return EXIT_FINDINGS
    err(f"export: {summary.details} written to {args.output}")
    return EXIT_OK
