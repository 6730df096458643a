"""``lcn score``: a table per game and the match totals."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Dict

from ..game.scoring import match_totals, score
from ..text.reader import parse_games
from ..tools.output import json_text
from .importcmd import imported_or_none
from .common import EXIT_OK, EXIT_USAGE, Parser, add_command, expand_paths, read_input

_SCORE_EXAMPLES = """\
examples:
  lcn score match.lcn                a table per game and the match totals
  lcn score match.lcn --format json  {"games": [...], "totals": {...}}
"""

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    score = add_command(sub, "score", "score games and matches", _SCORE_EXAMPLES)
    score.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or -")
    score.add_argument("--format", choices=["text", "json"], default="text")
    score.add_argument("--from", dest="from_format", metavar="FORMAT",
                       help="read records of another program (see lcn import)")
    score.set_defaults(handler=run)

def run(args: argparse.Namespace) -> int:
    status = EXIT_OK
    rows = []
    for path in expand_paths(args.paths) if args.from_format is None else args.paths:
        if args.from_format is not None:
            games = imported_or_none(path, args.from_format)
        else:
            source = read_input(path)
            games = None if source is None else parse_games(source.text, path=path)
        if games is None:
            status = EXIT_USAGE
            continue
        for index, game in enumerate(games, 1):
            rows.append((path, index, game, score(game)))
    totals = match_totals([s for _, _, _, s in rows])
    if args.format == "json":
        sys.stdout.write(json_text(_score_json(rows, totals)) + "\n")
    else:
        sys.stdout.write(_score_table(rows, totals))
    return status


def _score_json(rows: list, totals: Dict[str, int]) -> dict:
    games = []
    for path, index, game, s in rows:
        games.append({
            "path": path, "index": index,
            "players": list(s.players), "scores": list(s.totals), "complete": s.complete,
            "by_color": [s.by_color(0), s.by_color(1)],
            "event": game.header("Event"), "round": game.header("Round"),
            "syntax_errors": len(game.errors),
        })
    return {"games": games, "totals": totals}


def _score_table(rows: list, totals: Dict[str, int]) -> str:
    out = io.StringIO()
    for path, index, game, s in rows:
        title = game.header("Event") or path
        rnd = game.header("Round")
        state = "" if s.complete else " (incomplete)"
        out.write(f"{title}, game {index}{f', round {rnd}' if rnd else ''}{state}\n")
        width = max(8, *(len(p) for p in s.players))
        out.write(f"  {'player':<{width}} " + " ".join(f"{c:>4}" for c in s.colors)
                  + f" {'total':>6}\n")
        for p, name in enumerate(s.players):
            out.write(f"  {name:<{width}} "
                      + " ".join(f"{v:>4}" for v in s.expeditions[p])
                      + f" {s.totals[p]:>6}\n")
        out.write("\n")
    if totals:
        out.write("match totals\n")
        width = max(8, *(len(n) for n in totals))
        for name, total in sorted(totals.items(), key=lambda kv: -kv[1]):
            out.write(f"  {name:<{width}} {total:>6}\n")
    return out.getvalue()
