"""``lcn filter``: the games of files that meet a query, written as they were written."""

from __future__ import annotations

import argparse
import sys
from typing import IO, TYPE_CHECKING, List, Optional

from .archives import (GameWriter, ReadFailed, add_paths, cannot_follow, entries, inputs, not_readable,
                       read_failed)
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, Settings, add_command,
                     add_config_options, count, err, output_path, written_over)

if TYPE_CHECKING:
    from ..archive.query import Query

_FILTER_EXAMPLES = """\
examples:
  lcn filter games/ --where 'Player1 == "Kenny"'           Kenny's games as first player
  lcn filter a.lcn --where 'Event ~ /open/i and Round >= 3' -o late.lcn
  lcn filter a.lcn --where 'expedition.wagers == 3' --count
  lcn filter a.lcn --where 'color.opened == 0' --offsets   where such games begin
  lcn filter a.lcn --where 'not clean' --invert -o clean.lcn
  lcn filter a.lcn --where '{"<": [{"field": "score"}, 0]}' --limit 10

Queries (spec/query.md): headers by name (Player1, Round), outcome (winner,
score[1], margin, complete), findings (clean, errors, code ~ /^R1/) and the
table once the moves are replayed (expedition[1, R].cards, color.opened, ...);
and, or, not, parentheses; == != < <= > >= ~ !~, in (...). A query in JSON
starts with {. A query on headers alone does not parse the moves.

Games are written exactly as they were written (comments, line ends), in the
order read. Exit status: 0 when a game was selected, 1 when none was, 2 for
a usage error or a file that cannot be read.
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    p = add_command(sub, "filter", "select the games that meet a query", _FILTER_EXAMPLES)
    add_paths(p)
    p.add_argument("--where", action="append", required=True, metavar="QUERY",
                   help="the query (spec/query.md); given more than once, all must hold")
    p.add_argument("--invert", action="store_true", help="the games that do not meet it")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--count", action="store_true",
                       help="print how many games are selected (per file, with several)")
    shown.add_argument("--offsets", action="store_true",
                       help="print PATH<TAB>OFFSET for each game selected: the byte "
                       "offset where it begins (lcnotation.archive.read_at reads it)")
    p.add_argument("--limit", type=count(1), metavar="N", help="stop after N games")
    p.add_argument("-o", "--output", type=output_path, metavar="FILE",
                   help="write the games there (default: standard output)")
    add_config_options(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..archive.query import Level, Query, QueryError, compile_query

    queries: List[Query] = []
    for text in args.where:
        try:
            queries.append(compile_query(text))
        except QueryError as exc:
            err(f"filter: --where {text!r}: {exc}")
            return EXIT_USAGE
    settings = Settings(args)
    paths = inputs(settings, args.paths)
    if written_over(args.output, paths, "filter"):
        return EXIT_USAGE
    level = max(q.level for q in queries)
    run_ = _Run(args, queries, level >= Level.FINDINGS, level >= Level.MOVES, settings)
    if args.output is None or args.count or args.offsets:
        out = getattr(sys.stdout, "buffer", None)
        status = run_.over(paths, out)
        return status
    from ..core.files import atomic_writer

    try:
        with atomic_writer(args.output) as handle:
            return run_.over(paths, handle)
    except OSError as exc:
        err(f"{args.output}: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE


class _Run:
    def __init__(self, args: argparse.Namespace, queries: "List[Query]", findings: bool,
                 parses: bool, settings: Settings) -> None:
        self.args, self.queries, self.findings, self.parses = args, queries, findings, parses
        self.settings = settings
        self.selected = 0
        self.unreadable = 0
        self.refused = 0

    def over(self, paths: List[str], out: Optional[IO[bytes]]) -> int:
        from ..archive.query import FileFindings, GameView
        from ..lostcities.lint import colors_of

        status = EXIT_OK
        writer = GameWriter(out.write if out is not None else sys.stdout.write)  # type: ignore[arg-type]
        limit = self.args.limit
        several = len(paths) > 1
        invert = self.args.invert
        queries = self.queries
        for path in paths:
            name = self.settings.named(path)
            config = self.settings.lint(path)
            findings = FileFindings(config) if self.findings else None
            colors = colors_of(config)
            here = 0
            try:
                for entry in entries(path, name):
                    if limit is not None and self.selected >= limit:
                        break
                    view = GameView(entry, default_colors=colors, findings=findings)
                    if findings is not None:
                        view.findings()  # every game, in order: the style checks need them all
                    met = all(q.matches(view) for q in queries)
                    if self.parses and view._game is not None and view._game.errors:
                        self.unreadable += 1
                        not_readable(entry, view._game)
                    if met == invert:
                        continue
                    self.selected += 1
                    here += 1
                    if self.args.offsets:
                        sys.stdout.write(f"{name}\t{entry.offset}\n")
                    elif not self.args.count:
                        if not writer.write(entry):
                            self.refused += 1
                            self.selected -= 1
                            cannot_follow(entry, self.args.output or "standard output")
            except ReadFailed as exc:
                read_failed(name, exc)
                status = EXIT_USAGE
            if self.args.count and several:
                sys.stdout.write(f"{name}\t{here}\n")
            if limit is not None and self.selected >= limit:
                break
        if self.args.count and not several:
            sys.stdout.write(f"{self.selected}\n")
        if self.unreadable:
            err(f"filter: {self.unreadable} game{'s' if self.unreadable != 1 else ''} could not "
                "be read in full; the query saw what could be read of them")
        if self.refused:
            status = EXIT_USAGE
        if status == EXIT_OK and not self.selected:
            status = EXIT_FINDINGS
        return status
