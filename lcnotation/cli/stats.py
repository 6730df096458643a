"""``lcn stats``: figures over files and folders of games."""

from __future__ import annotations

import argparse
import io
import sys
from typing import TYPE_CHECKING, Dict, Iterator, List, Tuple

from .archives import ReadFailed, add_paths, entries, inputs, read_failed
from .common import (EXIT_OK, EXIT_USAGE, Parser, Settings, add_command, add_config_options, err,
                     output_path, write_output, written_over)

if TYPE_CHECKING:
    from ..archive.stats import GameStats, StatsAccumulator

_STATS_EXAMPLES = """\
examples:
  lcn stats games/                     the figures as tables
  lcn stats a.lcn b.lcn --format json  as JSON (spec/stats.md)
  lcn stats games/ --format svg -o stats.svg   a picture of them

Scores are those lcn score gives. A game with an error (a syntax error, a
broken rule, a Result the moves contradict) is not a result, as for lcn
score: it is named on standard error and counted as not used. Outcomes
(wins, the first mover's rate with its 95 % Wilson interval, the mean game
length) are over complete games; score figures over every result.
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    p = add_command(sub, "stats", "count figures over collections of games", _STATS_EXAMPLES)
    add_paths(p)
    p.add_argument("--format", choices=["text", "json", "svg"], default="text",
                   help="tables (text), JSON, or an SVG picture of the score distribution "
                   "and the per-colour figures")
    p.add_argument("-o", "--output", type=output_path, metavar="FILE",
                   help="write there instead of standard output")
    add_config_options(p)
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="count on a Dask cluster: its scheduler's address (tcp://host:8786), "
                   "or 'local' for one on this machine (local:N: N workers); large files "
                   "are split at game boundaries; needs pip install 'lcnotation[dask]'")
    p.set_defaults(handler=run)


def game_records(path: str, name: str, colors: Tuple[str, ...]) -> Iterator["GameStats"]:
    """Each game of one file as a :class:`GameStats` record (raises ReadFailed)."""
    from ..archive.stats import entry_stats

    for entry in entries(path, name):
        yield entry_stats(entry, default_colors=colors)


def collect(paths: List[str], settings: Settings) -> "Tuple[StatsAccumulator, int]":
    """The figures of every game of ``paths`` in this process, each game that is
    not a result named on standard error; and the exit status so far.  (A
    scheduler, ``--scheduler``, computes the same accumulator on a cluster.)"""
    from ..archive.stats import StatsAccumulator
    from ..lostcities.lint import colors_of

    total = StatsAccumulator()
    status = EXIT_OK
    for path in paths:
        name = settings.named(path)
        colors = colors_of(settings.lint(path))
        try:
            for record in game_records(path, name, colors):
                total.add(record)
                if record.error is not None:
                    unused(record)
        except ReadFailed as exc:
            read_failed(name, exc)
            status = EXIT_USAGE
    return total, status


def unused(record: "GameStats") -> None:
    """Say that a game is left out of the figures, and why (as lcn score says it)."""
    e = record.error
    assert e is not None
    err(f"{record.path}:{e.line}:{e.column}: game {record.number} is not used: {e.code} "
        f"{e.message}")


def run(args: argparse.Namespace) -> int:
    settings = Settings(args)
    paths = inputs(settings, args.paths)
    if written_over(args.output, paths, "stats"):
        return EXIT_USAGE
    if args.scheduler is not None:
        from .clusters import stats_on_cluster

        found = stats_on_cluster(paths, settings, args.scheduler, collect, unused)
        if found is None:
            return EXIT_USAGE
        total, status = found
    else:
        total, status = collect(paths, settings)
    summary = total.summary()
    if args.format == "json":
        from ..tools.output import json_text

        text = json_text(summary) + "\n"
    elif args.format == "svg":
        from ..archive.chart import stats_svg

        text = stats_svg(summary)
    else:
        text = tables(summary)
    if args.output is None:
        sys.stdout.write(text)
        return status
    return max(status, write_output(args.output, text.encode("utf-8")))


def _pct(value: object) -> str:
    return "-" if not isinstance(value, (int, float)) else f"{value:.1%}"


def _num(value: object, digits: int = 1) -> str:
    return "-" if not isinstance(value, (int, float)) else f"{value:,.{digits}f}"


def tables(s: Dict[str, object]) -> str:
    """The summary as text tables."""
    from ..core.terminal import printable

    out = io.StringIO()
    w = out.write
    w(f"games      {s['games']:>9,}   results {s['results']:,}, not used {s['unusable']:,}\n")
    w(f"complete   {s['complete']:>9,}   incomplete {s['incomplete']:,}\n")
    w(f"moves      {s['moves']:>9,}   mean length {_num(s['mean_length'])} moves "
      "(complete games)\n\n")
    f = s["first_mover"]
    assert isinstance(f, dict)
    low, high = f["interval"]
    w(f"first mover (Player1), complete games: {f['wins']:,} wins, {f['losses']:,} losses, "
      f"{f['draws']:,} draws of {f['games']:,}: {_pct(f['rate'])} "
      f"[{_pct(low)}, {_pct(high)}] (95 %)\n\n")
    players = s["players"]
    assert isinstance(players, dict)
    if players:
        width = max(6, *(len(printable(n)) for n in players))
        w(f"{'player':<{width}} {'games':>8} {'wins':>8} {'losses':>8} {'draws':>7} "
          f"{'mean score':>11}\n")
        for name, p in sorted(players.items(), key=lambda kv: (-kv[1]["games"], kv[0])):
            w(f"{printable(name):<{width}} {p['games']:>8,} {p['wins']:>8,} {p['losses']:>8,} "
              f"{p['draws']:>7,} {_num(p['mean_score']):>11}\n")
        w("\n")
    for key, what in (("scores", "round scores (each player of each result)"),
                      ("margins", "winning margins (complete results)")):
        d = s[key]
        assert isinstance(d, dict)
        pc = d["percentiles"]
        w(f"{what}: {d['count']:,}, mean {_num(d['mean'])}\n")
        labels = [("min", "0"), ("p5", "5"), ("p10", "10"), ("p25", "25"), ("median", "50"),
                  ("p75", "75"), ("p90", "90"), ("p95", "95"), ("max", "100")]
        w("  " + " ".join(f"{label:>7}" for label, _ in labels) + "\n")
        w("  " + " ".join(f"{_num(pc[k]):>7}" for _, k in labels) + "\n\n")
    colors = s["colors"]
    assert isinstance(colors, dict)
    if colors:
        counts = sorted({k for c in colors.values() for k in c["wagers"]}, key=int)
        w(f"{'colour':<7} {'in play':>8} {'opened':>7} {'mean score':>11} {'8+ cards':>9}"
          + "".join(f"  {k + ' wager' + ('s' if k != '1' else ''):>16}" for k in counts)
          + "\n")
        for letter, c in colors.items():
            cells = []
            for k in counts:
                cell = c["wagers"].get(k)
                cells.append("-" if cell is None
                             else f"{_num(cell['mean_score'])} ({cell['expeditions']:,})")
            w(f"{letter:<7} {c['expeditions']:>8,} {_pct(c['opened_rate']):>7} "
              f"{_num(c['mean_score']):>11} {_pct(c['bonus_rate']):>9}"
              + "".join(f"  {cell:>16}" for cell in cells) + "\n")
        w("(in play: expeditions of each player; mean score, 8+ cards and wagers: of the "
          "opened ones, a wager column giving the mean score and how many)\n")
    return out.getvalue()

