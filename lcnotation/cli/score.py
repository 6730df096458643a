"""``lcn score``: a table per game and the match totals.

Games are read, scored and written one at a time: memory holds one game.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Dict, Iterable, Iterator, Optional, Tuple

from ..game.scoring import GameScore, match_totals, score
from ..text.ast import Game
from ..tools.output import json_text, printable
from .importcmd import imported_or_none
from .common import (EXIT_OK, EXIT_USAGE, InputGames, Parser, add_command, expand_paths,
                     read_games_of)

_SCORE_EXAMPLES = """\
examples:
  lcn score match.lcn                a table per game and the match totals
  lcn score match.lcn --format json  {"games": [...], "totals": {...}}
"""

_Row = Tuple[str, int, Game, GameScore]


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    score = add_command(sub, "score", "score games and matches", _SCORE_EXAMPLES)
    score.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or -")
    score.add_argument("--format", choices=["text", "json"], default="text")
    score.add_argument("--from", dest="from_format", metavar="FORMAT",
                       help="read records of another program (see lcn import)")
    score.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    unread = 0

    def rows() -> Iterator[_Row]:
        nonlocal unread
        for path in expand_paths(args.paths) if args.from_format is None else args.paths:
            games: Optional[Iterable[Game]]
            if args.from_format is not None:
                games = imported_or_none(path, args.from_format)
            else:
                games = read_games_of(path)
            if games is None:
                unread += 1
                continue
            for index, game in enumerate(games, 1):
                yield path, index, game, score(game)
            if isinstance(games, InputGames) and games.failed:
                unread += 1

    out = sys.stdout
    if args.format == "json":
        _write_json(rows(), out.write)
    else:
        totals = match_totals(s for s in _write_tables(rows(), out.write))
        out.write(_totals_table(totals))
    return EXIT_USAGE if unread else EXIT_OK


def _game_json(row: _Row) -> Dict[str, Any]:
    path, index, game, s = row
    return {
        "path": path, "index": index,
        "players": list(s.players), "scores": list(s.totals), "complete": s.complete,
        "by_color": [s.by_color(0), s.by_color(1)],
        "event": game.header("Event"), "round": game.header("Round"),
        "syntax_errors": len(game.errors),
    }


def _write_json(rows: Iterable[_Row], write: Callable[[str], object]) -> None:
    """``{"games": [...], "totals": {...}}``, indented as :func:`json_text`
    writes it, a game at a time."""
    count = 0

    def games() -> Iterator[GameScore]:
        nonlocal count
        for row in rows:
            item = json_text(_game_json(row)).replace("\n", "\n    ")
            write(('{\n  "games": [\n    ' if count == 0 else ",\n    ") + item)
            count += 1
            yield row[3]

    totals = match_totals(games())
    write(('{\n  "games": []' if count == 0 else "\n  ]") + ',\n  "totals": '
          + json_text(totals).replace("\n", "\n  ") + "\n}\n")


def _write_tables(rows: Iterable[_Row], write: Callable[[str], object]) -> Iterator[GameScore]:
    """Write a table per game; yield each game's score."""
    for path, index, game, s in rows:
        title = game.header("Event") or path
        rnd = game.header("Round")
        state = "" if s.complete else " (incomplete)"
        lines = [f"{title}, game {index}{f', round {rnd}' if rnd else ''}{state}"]
        width = max(8, *(len(p) for p in s.players))
        lines.append(f"  {'player':<{width}} " + " ".join(f"{c:>4}" for c in s.colors)
                     + f" {'total':>6}")
        for p, name in enumerate(s.players):
            lines.append(f"  {name:<{width}} " + " ".join(f"{v:>4}" for v in s.expeditions[p])
                         + f" {s.totals[p]:>6}")
        # Header values and paths may hold anything: shown, never obeyed.
        write("".join(printable(line) + "\n" for line in lines) + "\n")
        yield s


def _totals_table(totals: Dict[str, int]) -> str:
    if not totals:
        return ""
    width = max(8, *(len(n) for n in totals))
    lines = ["match totals"] + [f"  {name:<{width}} {total:>6}"
                                for name, total in sorted(totals.items(), key=lambda kv: -kv[1])]
    return "".join(printable(line) + "\n" for line in lines)
