"""``lcn match``: two engines play each other; every game a record, and a summary."""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
from typing import IO, TYPE_CHECKING, Dict, List, Optional

from .common import (EXIT_OK, EXIT_USAGE, Parser, UsageError, add_command, count, err,
                     process_count)

if TYPE_CHECKING:
    from ..engine.match import Settings
    from ..engine.stats import Sprt, Summary
    from ..lostcities.text.ast import Game

_MATCH_EXAMPLES = """\
examples:
  lcn match "lcn bot greedy" "lcn bot random" --games 100 -o games.lcn
  lcn match "python mybot.py" "lcn bot greedy" --time-per-move 0.2 -j 2 -o m.lcn
  lcn match A B --games 1000 -o m.lcn --resume     continue an interrupted run
  lcn match A B --games 20000 --sprt 0,10          stop once the test decides

Each deal is played twice, the seats swapped (games 1 and 2, 3 and 4, ...).
A time-out, a crash, an illegal move or a line that is not the protocol loses
the game by forfeit (the record's Termination header says why); the engine is
restarted for its next game.  The summary is from the first engine's side.
The protocol: spec/engine-protocol.md.

exit status: 0 the match was played (forfeits are results), 2 a usage error, an
output file that exists (without --resume), or an engine that cannot start or
fails twice before the first move of a game; 130 and 143 interrupted (the file
holds every game that was over: --resume plays the rest).
"""


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not (0 < seconds < 1e6):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {value!r}")
    return seconds


def _chance(value: str) -> float:
    try:
        p = float(value)
    except ValueError:
        p = math.nan
    if not 0 < p < 0.5:
        raise argparse.ArgumentTypeError(f"expected a chance between 0 and 0.5, not {value!r}")
    return p


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    m = add_command(sub, "match", "play two engines against each other", _MATCH_EXAMPLES)
    m.add_argument("engine1", metavar="CMD1", help="the first engine's command line (quoted)")
    m.add_argument("engine2", metavar="CMD2", help="the second engine's command line")
    m.add_argument("--games", type=count(1), default=100, metavar="N",
                   help="games to play, in pairs of one deal (default: 100)")
    m.add_argument("--seed", default="1", metavar="S", help="the seed of the deals (default: 1)")
    m.add_argument("--time-per-move", type=_seconds, default=1.0, metavar="SECONDS",
                   help="the time for each move (default: 1)")
    m.add_argument("--time-per-game", type=_seconds, metavar="SECONDS",
                   help="the time for all of an engine's moves of a game (default: no limit)")
    m.add_argument("-j", "--jobs", type=process_count, default=1, metavar="N",
                   help="games at once, each with its own engines (0: one per core)")
    m.add_argument("-o", "--output", metavar="FILE.lcn", help="write every game here")
    m.add_argument("--resume", action="store_true",
                   help="continue the interrupted run that wrote --output")
    m.add_argument("--sprt", metavar="ELO0,ELO1",
                   help="stop when the SPRT of elo1 against elo0 (the first engine's Elo "
                        "advantage) is decided")
    m.add_argument("--alpha", type=_chance, default=0.05, help="the SPRT's alpha (0.05)")
    m.add_argument("--beta", type=_chance, default=0.05, help="the SPRT's beta (0.05)")
    m.add_argument("--colors", default="RGWBY", help="the colour set (default: RGWBY)")
    m.add_argument("--max-moves", type=count(1), default=1000, metavar="N",
                   help="a game that reaches N moves is scored as it stands (default: 1000)")
    m.add_argument("--option1", action="append", default=[], metavar="NAME=VALUE",
                   help="set an option of the first engine (repeat for more)")
    m.add_argument("--option2", action="append", default=[], metavar="NAME=VALUE",
                   help="set an option of the second engine")
    m.add_argument("--event", help="the Event header (default: lcn match, seed S)")
    m.add_argument("--start-time", type=_seconds, default=10.0, metavar="SECONDS",
                   help="the time an engine has to start and answer the handshake (10)")
    m.add_argument("--format", choices=("text", "json"), default="text",
                   help="the summary as text or JSON")
    m.add_argument("--no-progress", action="store_true", help="never draw a progress bar")
    m.set_defaults(handler=run)


def _command(text: str, which: int) -> List[str]:
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"CMD{which}: {exc}") from None
    if not words:
        raise UsageError(f"CMD{which} is empty")
    return words


def _options(pairs: List[str], which: int) -> Dict[str, str]:
    found: Dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--option{which} {pair!r}: expected NAME=VALUE")
        found[name.strip()] = value
    return found


def _sprt(args: argparse.Namespace) -> Optional[Sprt]:
    if args.sprt is None:
        return None
    from ..engine.stats import Sprt

    try:
        low, high = (float(x) for x in args.sprt.split(","))
        return Sprt(low, high, args.alpha, args.beta)
    except ValueError as exc:
        detail = str(exc) if "SPRT" in str(exc) else "expected two Elo values, as in 0,10"
        raise UsageError(f"--sprt {args.sprt!r}: {detail}") from None


def run(args: argparse.Namespace) -> int:
    import asyncio
    import time

    from ..engine.match import Limits, Match, MatchAborted, Settings
    from ..engine.process import stop_all
    from ..lostcities.text.headers import parse_colors
    from ..core.diagnostics import NotationError
    from ..lostcities.game.setup import COLOR_COUNTS
    from ..tools.progress import Progress

    commands = (_command(args.engine1, 1), _command(args.engine2, 2))
    options = (_options(args.option1, 1), _options(args.option2, 2))
    try:
        colors = parse_colors(args.colors)
    except NotationError as exc:
        raise UsageError(f"--colors {args.colors!r}: {exc.message}") from None
    if len(colors) not in COLOR_COUNTS:
        counts = " or ".join(map(str, COLOR_COUNTS))
        raise UsageError(f"--colors {args.colors!r}: a game has {counts} colours")
    if args.event is not None and not args.event.isprintable():
        raise UsageError("--event: a header's value holds no line break nor control "
                         "character")
    if args.resume and not args.output:
        raise UsageError("--resume continues the file of --output: give -o FILE")
    done: List[Game] = []
    if args.output:
        found = _existing(args.output, args.resume)
        if found is None:
            return EXIT_USAGE
        done = found
    jobs = args.jobs or os.cpu_count() or 1
    settings = Settings(
        commands=commands, games=args.games, seed=args.seed,
        limits=Limits(args.time_per_move, args.time_per_game, args.max_moves),
        jobs=jobs, options=options, colors=colors, event=args.event,
        date=time.strftime("%Y.%m.%d"), start_time=args.start_time,
        sprt=_sprt(args))
    output = _Output(args.output) if args.output else None
    bar = Progress(args.games, label="match", enabled=False if args.no_progress else None)
    bar.update(len(done))

    def on_record(record: Game, summary: Summary) -> None:
        if output is not None:
            output.write(record)
        bar.note = _progress_note(summary)
        bar.update(summary.games)

    def on_event(text: str) -> None:
        bar.clear()
        for line in text.splitlines():
            err(line)

    match = Match(settings, on_record, on_event, done)
    status = EXIT_OK
    try:
        with bar:
            asyncio.run(match.run())
    except MatchAborted as exc:
        on_event(str(exc))
        status = EXIT_USAGE
    except BaseException:  # interrupted: say what was kept, then lcn says why it ended
        bar.clear()
        if output is not None and match.records:
            err(f"stopped after {len(match.records)} games: {args.output} holds them "
                "(--resume continues)")
        elif output is not None:
            err("stopped before a game was over: nothing was written")
        raise
    finally:
        stop_all()
        if output is not None:
            output.close()
    if match.summary is not None and (match.summary.games or status == EXIT_OK):
        _print_summary(match.summary, settings, args.format)
    return status


class _Output:
    """The match's file: each record appended whole, in one write."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._file: Optional[IO[bytes]] = None  # opened by the first record

    def write(self, record: Game) -> None:
        from ..lostcities.text.formatter import format_game

        if self._file is None:
            self._file = open(self.path, "ab", buffering=0)
        text = format_game(record)
        self._file.write((text if self._file.tell() == 0 else "\n" + text).encode("utf-8"))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _existing(path: str, resume: bool) -> Optional[List[Game]]:
    """The records of an interrupted run (``--resume``); [] for a new file; None,
    with a message, when the file cannot be used."""
    from .common import read_records

    if not os.path.exists(path):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
            why = "is not writable" if os.path.isdir(folder) else "does not exist"
            err(f"cannot write {path}: its folder {why}")
            return None
        return []
    if not resume:
        err(f"{path} exists: --resume continues the run that wrote it (or choose another "
            "file)")
        return None
    if not os.path.isfile(path):
        err(f"{path} is not a regular file")
        return None
    return read_records(path)


def _signed(value: float, digits: int = 1) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.{digits}f}"


def _progress_note(s: Summary) -> str:
    note = f"{s.wins}-{s.losses}-{s.draws}"
    if s.elo is not None:
        rating, error = s.elo
        note += f" Elo {_signed(rating)}" + ("" if math.isinf(error) else f" ±{error:.0f}")
    if s.sprt is not None:
        note += f" LLR {s.sprt.llr:.2f}"
    return note


def summary_json(s: Summary) -> Dict[str, object]:
    """The summary as ``--format json`` writes it."""
    def number(x: float) -> Optional[float]:
        return None if math.isinf(x) or math.isnan(x) else round(x, 3)

    data: Dict[str, object] = {
        "engines": list(s.names), "games": s.games, "wins": s.wins, "losses": s.losses,
        "draws": s.draws, "score": round(s.score_fraction, 4),
        "points": dict(zip(s.names, s.points)),
        "forfeits": {name: dict(f) for name, f in zip(s.names, s.forfeits)},
        "pairs": s.pairs, "pentanomial": list(s.pentanomial),
        "score_difference": None if s.difference is None else {
            "mean": number(s.difference[0]), "low": number(s.difference[1]),
            "high": number(s.difference[2])},
        "elo": None if s.elo is None else {"difference": number(s.elo[0]),
                                           "error": number(s.elo[1])},
        "sprt": None,
    }
    if s.sprt is not None:
        low, high = s.sprt.test.bounds
        data["sprt"] = {"elo0": s.sprt.test.elo0, "elo1": s.sprt.test.elo1,
                        "alpha": s.sprt.test.alpha, "beta": s.sprt.test.beta,
                        "llr": number(s.sprt.llr), "bounds": [number(low), number(high)],
                        "verdict": s.sprt.verdict}
    return data


def summary_text(s: Summary, settings: Settings) -> str:
    """The summary as ``lcn match`` prints it."""
    from ..engine.stats import forfeit_text

    first, second = s.names
    limits = settings.limits
    clock = f"{limits.move_time:g} s a move"
    if limits.game_time is not None:
        clock += f", {limits.game_time:g} s a game"
    lines = [f"{first} vs {second}: {s.games} game{'s' if s.games != 1 else ''} "
             f"({s.pairs} pair{'s' if s.pairs != 1 else ''}), seed "
             f"{settings.seed}, {clock}",
             f"  {first}: {s.wins} win{'s' if s.wins != 1 else ''}, {s.losses} "
             f"loss{'es' if s.losses != 1 else ''}, {s.draws} draw{'s' if s.draws != 1 else ''}"
             f" (score {s.score_fraction:.3f})",
             f"  forfeits: {first} {forfeit_text(s.forfeits[0])}, "
             f"{second} {forfeit_text(s.forfeits[1])}",
             f"  points (as lcn score totals them): {first} {s.points[0]}, "
             f"{second} {s.points[1]}"]
    if s.difference is not None:
        mean, low, high = s.difference
        lines.append(f"  score difference a game: {_signed(mean)} (95 % interval "
                     f"{_signed(low)} to {_signed(high)})")
    if s.elo is not None:
        rating, error = s.elo
        shown = "inf" if math.isinf(error) else f"{error:.1f}"
        lines.append(f"  Elo difference: {_signed(rating)} ± {shown} (95 %), pairs "
                     f"{list(s.pentanomial)}")
    if s.sprt is not None:
        t = s.sprt.test
        low, high = t.bounds
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "not decided"}[s.sprt.verdict]
        lines.append(f"  SPRT elo0 {t.elo0:g}, elo1 {t.elo1:g} (alpha {t.alpha:g}, beta "
                     f"{t.beta:g}): LLR {s.sprt.llr:.2f} (bounds {low:.2f}, {high:.2f}), "
                     f"{verdict}")
    return "\n".join(lines) + "\n"


def _print_summary(s: Summary, settings: Settings, form: str) -> None:
    if form == "json":
        from ..tools.output import json_text

        sys.stdout.write(json_text(summary_json(s)) + "\n")
    else:
        sys.stdout.write(summary_text(s, settings))
