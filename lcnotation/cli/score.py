"""``lcn score``: a table per game and the match totals."""

from __future__ import annotations

import argparse
import io
import sys
from typing import Dict, List, Tuple

from ..game.checker import check, match_totals
from ..game.scoring import GameScore
from ..text.ast import Game
from ..text.errors import Diagnostic, Severity
from ..text.reader import parse_games
from ..tools.output import json_text, printable
from .importcmd import imported_or_none
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, Settings, add_command,
                     add_config_options, err, read_input)

_SCORE_EXAMPLES = """\
examples:
  lcn score match.lcn                a table per game and the match totals
  lcn score match.lcn --format json  {"games": [...], "totals": {...}}

A game with syntax or rules errors is not a result: it is named on stderr,
left out of the match totals, and the exit status is 1 (0 with --allow-errors).
"""

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    score = add_command(sub, "score", "score games and matches", _SCORE_EXAMPLES)
    score.add_argument("paths", nargs="*", metavar="PATH",
                       help="files, folders or - (default: the current folder)")
    score.add_argument("--format", choices=["text", "json"], default="text")
    score.add_argument("--from", dest="from_format", metavar="FORMAT",
                       help="read records of another program (see lcn import)")
    score.add_argument("--allow-errors", action="store_true",
                       help="exit 0 even when a game has syntax or rules errors")
    add_config_options(score)
    score.set_defaults(handler=run)


Row = Tuple[str, int, Game, GameScore, List[Diagnostic]]


def run(args: argparse.Namespace) -> int:
    settings = Settings(args)
    status = EXIT_OK
    rows: List[Row] = []
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    seen = False
    imported = args.from_format is not None
    for path in settings.expand(paths) if not imported else args.paths:
        seen = True
        name = settings.named(path)
        if imported:
            games = imported_or_none(path, args.from_format)
        else:
            source = read_input(path)
            games = None if source is None else parse_games(source.text, path=name)
        if games is None:
            status = EXIT_USAGE
            continue
        colors = settings.lint(path).colors
        for index, game in enumerate(games, 1):
            report = check(game, path=name, default_colors=colors)
            errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
            rows.append((name, index, game, report.score, errors))
            if errors:
                first = errors[0]
                err(f"{name}:{first.line}:{first.column}: game {index} is not a result: "
                    f"{len(errors)} error{'s' if len(errors) != 1 else ''} (first: "
                    f"{first.code} {first.message}); its scores are left out of the totals")
                if not args.allow_errors:
                    status = max(status, EXIT_FINDINGS)
    if not seen:
        err("warning: no *.lcn files found in " + ", ".join(paths))
    totals = match_totals([s for _, _, _, s, errors in rows if not errors])
    if args.format == "json":
        sys.stdout.write(json_text(_score_json(rows, totals)) + "\n")
    else:
        sys.stdout.write(_score_table(rows, totals))
    return status


def _score_json(rows: List[Row], totals: Dict[str, int]) -> Dict[str, object]:
    games = []
    for path, index, game, s, errors in rows:
        games.append({
            "path": path, "index": index,
            "players": list(s.players), "scores": list(s.totals), "complete": s.complete,
            "by_color": [s.by_color(0), s.by_color(1)],
            "event": game.header("Event"), "round": game.header("Round"),
            "syntax_errors": len(game.errors),
            "errors": len(errors), "result": not errors,
        })
    return {"games": games, "totals": totals}


def _score_table(rows: List[Row], totals: Dict[str, int]) -> str:
    out = io.StringIO()
    for path, index, game, s, errors in rows:
        title = printable(game.header("Event") or path)
        rnd = game.header("Round")
        state = "" if s.complete else " (incomplete)"
        if errors:
            state += f" (not a result: {len(errors)} error{'s' if len(errors) != 1 else ''})"
        out.write(f"{title}, game {index}{f', round {printable(rnd)}' if rnd else ''}{state}\n")
        width = max(8, *(len(p) for p in s.players))
        out.write(f"  {'player':<{width}} " + " ".join(f"{c:>4}" for c in s.colors)
                  + f" {'total':>6}\n")
        for p, name in enumerate(s.players):
            out.write(f"  {printable(name):<{width}} "
                      + " ".join(f"{v:>4}" for v in s.expeditions[p])
                      + f" {s.totals[p]:>6}\n")
        out.write("\n")
    if totals:
        out.write("match totals\n")
        width = max(8, *(len(n) for n in totals))
        for name, total in sorted(totals.items(), key=lambda kv: -kv[1]):
            out.write(f"  {printable(name):<{width}} {total:>6}\n")
    return out.getvalue()
