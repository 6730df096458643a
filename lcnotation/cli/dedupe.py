"""``lcn dedupe``: each game once, by meaning: the first copy kept, byte for byte."""

from __future__ import annotations

import argparse
import json
import sys
from typing import (IO, TYPE_CHECKING, Dict, Iterator, List, NamedTuple, Optional, Sequence,
                    Tuple)

from .archives import (GameWriter, ReadFailed, add_paths, cannot_follow, entries, inputs,
                       not_readable, read_failed)
from .common import (EXIT_OK, EXIT_USAGE, Parser, Settings, add_command, err, output_path,
                     written_over)

if TYPE_CHECKING:
    from ..archive.reader import GameEntry
    from ..lostcities.text.ast import Game

_DEDUPE_EXAMPLES = """\
examples:
  lcn dedupe games/ -o unique.lcn             every game once (by meaning)
  lcn dedupe a.lcn b.lcn -o all.lcn --report dropped.txt
  lcn dedupe a.lcn --deal --prefix -o out.lcn also games that share a deal, and
                                              records that are the start of another

Two records are the same game when they say the same (spec/digest.md): the
same headers and moves, whatever their dialect, letter case, layout, header
order or comments. The first copy is kept, exactly as written; what is
dropped, and why, goes to standard error (or --report). A game with syntax
errors is never dropped (what could not be read may differ). With --prefix
a record whose moves are the first moves of another game with the same
colours, players and deal (or the same moves under other headers) is
dropped for the longer one; it reads each file twice, so not standard input.
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    p = add_command(sub, "dedupe", "keep each game once, by meaning", _DEDUPE_EXAMPLES)
    add_paths(p)
    p.add_argument("-o", "--output", type=output_path, metavar="FILE",
                   help="write the games kept there (default: standard output)")
    p.add_argument("--deal", action="store_true",
                   help="also drop a game that shares its deal (Hand1, Hand2, Deck) with an "
                   "earlier one")
    p.add_argument("--prefix", action="store_true",
                   help="also drop a record that is a prefix of another game (its first "
                   "moves, with the same colours, players and deal), or the same moves "
                   "under other headers")
    p.add_argument("--report", metavar="FILE",
                   help="write what was dropped, and why, there (default: standard error)")
    p.add_argument("--report-format", choices=["text", "json"], default="text",
                   help="text: a line per game dropped; json: an array of objects")
    p.add_argument("--config", metavar="FILE",
                   help="a pyproject.toml to read [tool.lcnotation] from")
    p.set_defaults(handler=run)


_LABELS = {"duplicate": ("duplicate", "duplicates"), "same play": ("same play", "same plays"),
           "same deal": ("sharing a deal", "sharing a deal"), "prefix": ("prefix", "prefixes")}


class Place(NamedTuple):
    """Where a game is: file, number in it, line, byte offset."""

    path: str
    number: int
    line: int
    offset: int

    def shown(self) -> str:
        return f"{self.path}:{self.line} (game {self.number})"


class _Seen:
    """The digests met so far, each with where its first game is.  Digests are
    kept as numbers (128 bits): a game costs about a hundred bytes."""

    def __init__(self) -> None:
        self.first: Dict[int, int] = {}
        self.places: List[Place] = []

    def place(self, at: Place) -> int:
        self.places.append(at)
        return len(self.places) - 1

    def get(self, digest: str) -> Optional[Place]:
        i = self.first.get(int(digest, 16))
        return None if i is None else self.places[i]

    def add(self, digest: str, place: int) -> None:
        self.first.setdefault(int(digest, 16), place)

    def __contains__(self, digest: str) -> bool:
        return int(digest, 16) in self.first


def run(args: argparse.Namespace) -> int:
    settings = Settings(args)
    paths = inputs(settings, args.paths)
    if args.prefix and "-" in paths:
        err("dedupe: --prefix reads each file twice: give files, not standard input")
        return EXIT_USAGE
    if any(written_over(target, paths, "dedupe") for target in (args.output, args.report)):
        return EXIT_USAGE
    if args.output is not None and args.report is not None and args.output == args.report:
        err("dedupe: -o and --report name the same file")
        return EXIT_USAGE
    if args.report is None:
        return _to_output(args, paths, sys.stderr)
    try:
        report = open(args.report, "w", encoding="utf-8")
    except OSError as exc:
        err(f"{args.report}: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE
    with report:
        return _to_output(args, paths, report)


def _to_output(args: argparse.Namespace, paths: List[str], report: IO[str]) -> int:
    if args.output is None:
        return _Dedupe(args, paths, report).run(sys.stdout.buffer)
    from ..core.files import atomic_writer

    try:
        with atomic_writer(args.output) as handle:
            return _Dedupe(args, paths, report).run(handle)
    except OSError as exc:
        err(f"{args.output}: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE


class _Dedupe:
    def __init__(self, args: argparse.Namespace, paths: List[str], report: IO[str]) -> None:
        self.args, self.paths, self.report = args, paths, report
        self.status = EXIT_OK
        self.games = self.unreadable = self.refused = 0
        self.dropped: Dict[str, int] = {"duplicate": 0, "same play": 0, "same deal": 0,
                                        "prefix": 0}
        self.records: List[Dict[str, object]] = []
        self.seen = _Seen()
        self.plays = _Seen()       # whole plays (setup and every move)
        self.deals = _Seen()
        self.prefix_of: Dict[int, Tuple[Place, int]] = {}   # a play -> the longer game

    def games_of(self, quiet: bool = False) -> Iterator[Tuple["GameEntry", "Game", Place]]:
        for path in self.paths:
            try:
                for entry in entries(path, path):
                    yield entry, entry.game(), Place(path, entry.number, entry.line,
                                                     entry.offset)
            except ReadFailed as exc:
                if not quiet:  # the second pass says it
                    read_failed(path, exc)
                    self.status = EXIT_USAGE

    def run(self, out: IO[bytes]) -> int:
        from ..archive import deal_digest, game_digest, play_key

        if self.args.prefix:
            self._first_pass()
        writer = GameWriter(out.write)
        where = self.args.output or "standard output"
        for entry, game, place in self.games_of():
            self.games += 1
            if game.errors:
                self.unreadable += 1
                not_readable(entry, game)
                if not writer.write(entry):
                    self._cannot_follow(entry, where)
                continue
            digest = game_digest(game)
            reason: Optional[Tuple[str, Place, str]] = None
            first = self.seen.get(digest)
            if first is not None:
                reason = ("duplicate", first, f"the same game as {first.shown()}")
            plays: Sequence[str] = ()
            if reason is None and self.args.prefix:
                _, plays = play_key(game)
                for k, h in enumerate(plays[:-1]):
                    if h in self.plays and int(h, 16) not in self.prefix_of:
                        self.prefix_of[int(h, 16)] = (place, k)
                same = self.plays.get(plays[-1])
                longer = self.prefix_of.get(int(plays[-1], 16))
                if longer is not None:
                    reason = ("prefix", longer[0], f"its {longer[1]} moves are the first "
                              f"of {longer[0].shown()}")
                elif same is not None and same != place:
                    reason = ("same play", same, f"the same moves as {same.shown()}, under "
                              "other headers")
            if reason is None and self.args.deal:
                deal = deal_digest(game)
                if deal is not None:
                    dealt = self.deals.get(deal)
                    if dealt is not None:
                        reason = ("same deal", dealt, f"the same deal as {dealt.shown()}")
                    else:
                        self.deals.add(deal, self.deals.place(place))
            if reason is not None:
                self._drop(place, digest, *reason)
                continue
            self.seen.add(digest, self.seen.place(place))
            if not writer.write(entry):
                self._cannot_follow(entry, where)
        return self._end(writer)

    def _first_pass(self) -> None:
        """Every whole play, and which games are prefixes of a later one."""
        from ..archive import play_key

        for _, game, place in self.games_of(quiet=True):
            if game.errors:
                continue
            _, plays = play_key(game)
            for k, h in enumerate(plays[:-1]):
                if h in self.plays and int(h, 16) not in self.prefix_of:
                    self.prefix_of[int(h, 16)] = (place, k)
            if plays[-1] not in self.plays:
                self.plays.add(plays[-1], self.plays.place(place))

    def _drop(self, place: Place, digest: str, kind: str, kept: Place, why: str) -> None:
        self.dropped[kind] += 1
        if self.args.report_format == "json":
            self.records.append({"path": place.path, "number": place.number,
                                 "line": place.line, "offset": place.offset,
                                 "digest": digest, "reason": kind,
                                 "kept": kept._asdict()})
        else:
            self.report.write(f"{place.path}:{place.line}:1: game {place.number} dropped: "
                              f"{why}\n")

    def _cannot_follow(self, entry: "GameEntry", where: str) -> None:
        self.refused += 1
        cannot_follow(entry, where)
        self.status = EXIT_USAGE

    def _end(self, writer: GameWriter) -> int:
        if self.args.report_format == "json":
            json.dump(self.records, self.report, ensure_ascii=False, indent=1)
            self.report.write("\n")
        dropped = sum(self.dropped.values())
        why = ", ".join(f"{n} {_LABELS[kind][n != 1]}" for kind, n in self.dropped.items() if n)
        err(f"dedupe: kept {writer.games} of {self.games} game{'s' if self.games != 1 else ''}"
            + (f"; dropped {dropped} ({why})" if dropped else "")
            + (f"; {self.unreadable} with syntax errors kept" if self.unreadable else ""))
        return self.status
