"""``lcn score``: a table per game and the match totals."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import textwrap
from typing import Any, Dict, Iterable, Iterator, List, Optional, TextIO, Tuple, TypeVar

from ..lostcities.game.checker import check
from ..lostcities.game.matches import Match, Matches, is_result
from ..lostcities.game.scoring import GameScore
from ..lostcities.text.ast import Game
from ..lostcities.lint import colors_of
from ..core import notation as core_notation
from ..core.diagnostics import Diagnostic, NotationError, Severity
from ..lostcities.text.reader import parse_games, read_games
from ..lostcities.parallel import Cut, Source, checked_piece
from ..core.terminal import printable
from ..tools.output import json_text
from .inputs import imported_or_none
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, Settings, add_command,
                     add_config_options, cannot_read, err, process_count, read_input,
                     readable_games, streamable)

_SCORE_EXAMPLES = """\
examples:
  lcn score match.lcn                a table per game and the match totals
  lcn score match.lcn --format json  {"games": [...], "totals": {...}}

A match is a file, or the games of one Event within it: each has its own
totals, and two files are never one match. Only results count: a game with
syntax or rules errors is named on stderr, left out of the totals, and the
exit status is 1 (0 with --allow-errors); an incomplete game (its draw pile
not spent) is shown and left out of the totals.
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
    score.add_argument("-j", "--jobs", type=process_count, default=1, metavar="N",
                       help="score a large file in N processes, cut at game boundaries "
                       "(0: one per core); the output is that of one process")
    score.set_defaults(handler=run)


Row = Tuple[str, int, Game, GameScore, List[Diagnostic]]
_T = TypeVar("_T")


def run(args: argparse.Namespace) -> int:
    """Score each game as it is read and print its table (or JSON object) at
    once: memory holds one game and the match totals, not the file."""
    settings = Settings(args)
    status = EXIT_OK
    matches: List[Tuple[str, Match]] = []  # every file's, in order
    out = _JsonGames(sys.stdout) if args.format == "json" else None
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    seen = False
    imported = args.from_format is not None
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    for path in settings.expand(paths, ["lostcities"]) if not imported else args.paths:
        seen = True
        name = settings.named(path)
        games = _games(path, name, args.from_format, jobs)
        if games is None:
            status = EXIT_USAGE
            continue
        colors = colors_of(settings.lint(path))
        counted = Matches()
        numbers: Dict[int, int] = {}  # id of a match of this file -> its number in the output
        try:
            for index, (shown, note, result) in enumerate(
                    _shown(path, name, games, colors, jobs, imported, out is not None), 1):
                match = None if result is None else counted.add_result(*result)
                if match is not None and id(match) not in numbers:
                    numbers[id(match)] = len(matches)
                    matches.append((name, match))
                if out is not None:
                    shown["index"] = index
                    shown["match"] = None if match is None else numbers[id(match)]
                    out.game_text(_JsonGames.indented(shown))
                else:
                    sys.stdout.write(_numbered(shown, index))
                if note is not None:
                    err(_numbered(note, index))
                    if not args.allow_errors:
                        status = max(status, EXIT_FINDINGS)
        except _ReadFailed as failed:  # the file changed since it was checked
            cannot_read(name, failed.cause)
            status = EXIT_USAGE
    if not seen:
        err("warning: no *.lcn files found in " + ", ".join(paths))
    if out is not None:
        out.end([_match_json(name, match) for name, match in matches])
    else:
        sys.stdout.write("\n".join(_totals_table(name, match) for name, match in matches))
    return status


#: A game as ``lcn score`` shows it, its number left out: its table, as the
#: text before the number and after it (or its JSON object, whose index and
#: match the main process sets), for a game that is not a result the message
#: that says so (the text before the number and after it), and for a result
#: what its match counts: its Event, players and totals.  A worker of
#: ``-j N`` sends the main process this alone.
Shown = Tuple[Any, Optional[Tuple[str, str]],
              Optional[Tuple[Optional[str], Tuple[str, str], Tuple[int, int]]]]


def _numbered(text: Tuple[str, str], index: int) -> str:
    return f"{text[0]}{index}{text[1]}"


def _show(name: str, game: Game, game_score: GameScore, errors: List[Diagnostic],
          as_json: bool) -> Shown:
    """A checked game as ``lcn score`` shows it (see :data:`Shown`)."""
    row = (name, 0, game, game_score, errors)
    shown: Any = _game_json(row, None) if as_json else _game_table(row)
    result = ((game.header("Event"), game_score.players, game_score.totals)
              if is_result(game_score, len(errors)) else None)
    if not errors:
        return shown, None, result
    first = errors[0]
    note = (f"{name}:{first.line}:{first.column}: game ",
            f" is not a result: {len(errors)} error{'s' if len(errors) != 1 else ''} (first: "
            f"{first.code} {first.message}); its scores are left out of the totals")
    return shown, note, result


def _shown_piece(job: Tuple[Cut, Tuple[Source, str, Tuple[str, ...], bool]]) -> List[Shown]:
    """The games of a piece of a file checked and shown (in a worker of ``-j N``)."""
    cut, (source, name, colors, as_json) = job
    return [_show(name, *checked, as_json)
            for checked in checked_piece(cut, source, name, colors)]


def _shown(path: str, name: str, games: Iterable[Game], colors: Tuple[str, ...], jobs: int,
           imported: bool, as_json: bool) -> Iterator[Shown]:
    """Each game of ``games`` (of the file ``path``) checked and shown; a large
    regular file is read again in ``jobs`` processes, cut at game boundaries."""
    if not imported and _parallel(path, jobs):
        from ..lostcities.parallel import cuts, mapped, source_of  # only with -j

        try:
            handle = open(path, "rb")
        except OSError as exc:
            raise _ReadFailed(exc) from exc
        with handle:
            source = source_of(handle)
            if source is not None:
                done = mapped(cuts(handle, source.size), jobs, _shown_piece,
                              (source, name, colors, as_json), forked=True)
                with contextlib.closing(done):
                    yield from (shown for _, piece in _reading(done) for shown in piece)
                return
    for game in games:
        report = check(game, path=name, default_colors=colors)
        yield _show(name, game, report.score, [d for d in report.diagnostics
                                               if d.severity is Severity.ERROR], as_json)


def _parallel(path: str, jobs: int) -> bool:
    """Whether the file ``path`` is scored in ``jobs`` processes."""
    return jobs > 1 and streamable(path) and _size(path) >= core_notation.PARALLEL_BYTES


def _readable_at_a_glance(path: str) -> bool:
    from ..lostcities.parallel import readable_at_a_glance  # only with -j

    try:
        with open(path, "rb") as handle:
            return readable_at_a_glance(handle, os.fstat(handle.fileno()).st_size)
    except OSError:
        return False  # the close look says why


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _games(path: str, name: str, from_format: Optional[str], jobs: int = 1
           ) -> Optional[Iterable[Game]]:
    """The games of ``path``, read one at a time from a regular file (checked
    first to be readable to its end, as a file read whole is: at a glance
    for a file that ``jobs`` processes score, whose pieces are read anyway,
    closely when that does not tell); None, with a message, when it cannot
    be read."""
    if from_format is not None:
        return imported_or_none(path, from_format)
    if streamable(path):
        readable = _parallel(path, jobs) and _readable_at_a_glance(path)
        return _reading(read_games(path, path=name)) if readable or readable_games(path) \
            else None
    source = read_input(path)
    return None if source is None else parse_games(source.text, path=name)


class _ReadFailed(Exception):
    """Reading failed (not writing the output, which ``lcn`` reports itself)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _reading(games: Iterator[_T]) -> Iterator[_T]:
    """``games``, a failure to read them raised as :class:`_ReadFailed`."""
    while True:
        try:
            game = next(games)
        except StopIteration:
            return
        except (OSError, NotationError) as exc:  # not MemoryError: lcn says it
            raise _ReadFailed(exc) from exc
        yield game


class _JsonGames:
    """``{"games": [...], "matches": [...]}`` as :func:`json_text` lays it
    out, written a game at a time."""

    def __init__(self, stream: TextIO) -> None:
        self._stream, self._count = stream, 0

    @staticmethod
    def indented(value: Dict[str, object]) -> str:
        """The text of a game's object in the document."""
        return textwrap.indent(json_text(value), "    ")

    def game_text(self, text: str) -> None:
        """Write a game's object, its text made by :meth:`indented`."""
        self._stream.write(('{\n  "games": [\n' if not self._count else ",\n") + text)
        self._count += 1

    def end(self, matches: List[Dict[str, object]]) -> None:
        self._stream.write(('{\n  "games": [],\n' if not self._count else "\n  ],\n")
                           + '  "matches": ' + json_text(matches).replace("\n", "\n  ")
                           + "\n}\n")


def _game_json(row: Row, match: Optional[int]) -> Dict[str, object]:
    """A game for JSON; ``match`` is the index of its match in ``matches``
    (None: the game is not a result, and in no match's totals)."""
    path, index, game, s, errors = row
    return {
        "path": path, "index": index,
        "players": list(s.players), "scores": list(s.totals), "complete": s.complete,
        "by_color": [s.by_color(0), s.by_color(1)],
        "event": game.header("Event"), "round": game.header("Round"),
        "syntax_errors": len(game.errors),
        "errors": len(errors), "result": not errors, "match": match,
    }


def _match_json(path: str, match: Match) -> Dict[str, object]:
    return {"path": path, "event": match.event, "games": match.games,
            "totals": match.totals}


def _game_table(row: Row) -> Tuple[str, str]:
    """The game's table: the text before its number and after it."""
    path, _, game, s, errors = row
    out = io.StringIO()
    title = printable(game.header("Event") or path)
    rnd = game.header("Round")
    notes = [] if s.complete else ["incomplete"]
    if errors:
        notes.append(f"not a result: {len(errors)} error{'s' if len(errors) != 1 else ''}")
    state = f" ({'; '.join(notes)})" if notes else ""
    head = f"{title}, game "
    out.write(f"{f', round {printable(rnd)}' if rnd else ''}{state}\n")
    width = max(8, *(len(p) for p in s.players))
    out.write(f"  {'player':<{width}} " + " ".join(f"{c:>4}" for c in s.colors)
              + f" {'total':>6}\n")
    for p, name in enumerate(s.players):
        out.write(f"  {printable(name):<{width}} "
                  + " ".join(f"{v:>4}" for v in s.expeditions[p])
                  + f" {s.totals[p]:>6}\n")
    out.write("\n")
    return head, out.getvalue()


def _totals_table(path: str, match: Match) -> str:
    totals = match.totals
    out = io.StringIO()
    named = path if match.event is None else f"{match.event} ({path})"
    out.write(f"match totals: {printable(named)}\n")
    width = max(8, *(len(n) for n in totals))
    for name, total in sorted(totals.items(), key=lambda kv: -kv[1]):
        out.write(f"  {printable(name):<{width}} {total:>6}\n")
    return out.getvalue()
