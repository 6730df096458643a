"""Figures over collections of games: a record per game and a mergeable total.

:func:`game_stats` replays one game (with :func:`~lcnotation.lostcities.game.checker.check`,
so its scores are those ``lcn score`` prints) into a :class:`GameStats`
record; :class:`StatsAccumulator` adds records up.  Accumulators hold only
counts, sums and histograms of whole numbers, so two of them combine exactly
(:meth:`StatsAccumulator.combine`): figures computed per chunk of an archive
and combined are the figures of the whole, whatever the chunks.
:meth:`StatsAccumulator.summary` gives the figures ``lcn stats`` prints and
writes as JSON.

Which games count for what (as ``lcn score`` has it):

- a game with an error (a syntax error, a broken rule, a Result header the
  moves contradict) is *not a result*: it is counted in ``unusable`` and in
  nothing else;
- the others are *results*: every score figure (mean scores, the score
  distribution, the per-colour figures, moves) is over them;
- outcomes (wins, losses, draws, the first mover's win rate) and the mean
  game length are over *complete* results, those that end with the draw
  pile spent.

>>> from lcnotation.lostcities.game.generator import generate_games
>>> total = StatsAccumulator()
>>> for game in generate_games(20, seed=5):
...     total.add(game_stats(game))
>>> s = total.summary()
>>> s["games"], s["complete"], s["unusable"], s["first_mover"]["games"]
(20, 20, 0, 20)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple

from ..lostcities.game.checker import check
from ..lostcities.game.scoring import BONUS_LENGTH
from ..lostcities.text.ast import HANDSHAKE, Game
from ..core.diagnostics import Diagnostic, Severity
from ..lostcities.text.headers import DEFAULT_COLORS
from .reader import GameEntry

__all__ = ["ExpeditionStats", "GameStats", "game_stats", "entry_stats", "StatsAccumulator", "wilson_interval",
           "PERCENTILES", "STATS_VERSION"]

#: The version of the summary's layout (the keys of ``lcn stats --format json``).
STATS_VERSION = 1
#: The percentiles of the score distribution in the summary.
PERCENTILES = (0, 5, 10, 25, 50, 75, 90, 95, 100)
#: The normal quantile of a two-sided 95 % interval.
_Z95 = 1.959963984540054


class ExpeditionStats(NamedTuple):
    """One player's expedition of one colour at the end of a game."""

    color: str
    #: Cards on the expedition, handshakes included (0: never opened).
    cards: int
    #: Handshake (wager) cards on it.
    wagers: int
    #: Its score (0 when it was never opened).
    score: int

    @property
    def opened(self) -> bool:
        return self.cards > 0

    @property
    def bonus(self) -> bool:
        """Whether it reached the bonus of 8 cards or more."""
        return self.cards >= BONUS_LENGTH


class GameStats(NamedTuple):
    """What one game adds to the figures (see the module's docstring).

    ``error`` is the game's first error (with its path, line and column),
    None for a result.  ``expeditions[p]`` are player ``p``'s expeditions
    (0: Player1, who moves first), one per colour of the game, in its order.
    """

    path: Optional[str]
    number: int
    offset: int
    line: int
    players: Tuple[str, str]
    colors: Tuple[str, ...]
    moves: int
    complete: bool
    totals: Tuple[int, int]
    expeditions: Tuple[Tuple[ExpeditionStats, ...], Tuple[ExpeditionStats, ...]]
    error: Optional[Diagnostic] = None

    @property
    def usable(self) -> bool:
        """Whether the game is a result (it has no error)."""
        return self.error is None

    @property
    def winner(self) -> Optional[int]:
        """0 or 1, the player with the higher total; None for a draw."""
        a, b = self.totals
        return None if a == b else 0 if a > b else 1


def game_stats(game: Game, *, path: Optional[str] = None, number: int = 0, offset: int = -1,
               default_colors: Tuple[str, ...] = DEFAULT_COLORS) -> GameStats:
    """Replay and score ``game`` into a :class:`GameStats` record.

    ``path``, ``number`` (from 1) and ``offset`` (bytes; -1: not known) say
    where the game is; ``default_colors`` are the colours of a game without
    a Colors header (the configuration's, as for ``lcn score``).
    """
    report = check(game, path=path, default_colors=default_colors)
    error = next((d for d in report.diagnostics if d.severity is Severity.ERROR), None)
    state, score = report.state, report.score
    expeditions = tuple(
        tuple(_expedition(c, [card.rank for card in state.expedition(p, c)], points)
              for c, points in zip(score.colors, score.expeditions[p]))
        for p in (0, 1))
    return GameStats(path, number, offset, game.span.line, score.players, score.colors,
                     len(game.moves), score.complete, score.totals,
                     (expeditions[0], expeditions[1]), error)


def entry_stats(entry: GameEntry, *,
                default_colors: Tuple[str, ...] = DEFAULT_COLORS) -> GameStats:
    """:func:`game_stats` of a game found by :func:`~lcnotation.archive.reader.scan`."""
    return game_stats(entry.game(), path=entry.path, number=entry.number, offset=entry.offset,
                      default_colors=default_colors)


def _expedition(color: str, ranks: List[int], points: int) -> ExpeditionStats:
    return ExpeditionStats(color, len(ranks), ranks.count(HANDSHAKE), points)


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); (0, 1)
    without trials.

    >>> [round(x, 4) for x in wilson_interval(60, 100)]
    [0.502, 0.6906]
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


# The counters of one player: games, wins, losses, draws, incomplete, points.
_PLAYER_FIELDS = ("games", "wins", "losses", "draws", "incomplete", "points")
# The counters of one colour: games it is in play in, expeditions opened, the
# points of those, bonuses reached.
_COLOR_FIELDS = ("games", "opened", "points", "bonus")


def _add_into(into: Dict[int, int], other: Dict[int, int]) -> None:
    for key, n in other.items():
        into[key] = into.get(key, 0) + n


@dataclass
class StatsAccumulator:
    """Counts, sums and histograms of :class:`GameStats` records, combined exactly.

    Every field is a whole number or a dict of them: :meth:`add` adds a
    game, :meth:`combine` (also ``+``) adds two accumulators, in any order
    and grouping, to the same result.  Accumulators pickle, for processes
    and clusters.
    """

    games: int = 0
    unusable: int = 0
    results: int = 0
    complete: int = 0
    #: Moves of the results, and of the complete ones.
    moves: int = 0
    complete_moves: int = 0
    #: The first mover's outcomes in complete results: wins, losses, draws.
    first_wins: int = 0
    first_losses: int = 0
    draws: int = 0
    #: Per player name: the counters of _PLAYER_FIELDS.
    players: Dict[str, List[int]] = field(default_factory=dict)
    #: How many times each round score was made (each player of each result).
    scores: Dict[int, int] = field(default_factory=dict)
    #: How many times each winning margin occurred (complete results).
    margins: Dict[int, int] = field(default_factory=dict)
    #: Per colour letter: the counters of _COLOR_FIELDS.
    colors: Dict[str, List[int]] = field(default_factory=dict)
    #: Per colour letter: per number of wagers, [opened expeditions, their points].
    wagers: Dict[str, Dict[int, List[int]]] = field(default_factory=dict)

    def add(self, game: GameStats) -> None:
        """Count one game."""
        self.games += 1
        if game.error is not None:
            self.unusable += 1
            return
        self.results += 1
        self.moves += game.moves
        winner = game.winner
        if game.complete:
            self.complete += 1
            self.complete_moves += game.moves
            if winner is None:
                self.draws += 1
            elif winner == 0:
                self.first_wins += 1
            else:
                self.first_losses += 1
            margin = abs(game.totals[0] - game.totals[1])
            self.margins[margin] = self.margins.get(margin, 0) + 1
        for p, name in enumerate(game.players):
            row = self.players.get(name)
            if row is None:
                row = self.players[name] = [0] * len(_PLAYER_FIELDS)
            row[0] += 1
            if game.complete:
                row[3 if winner is None else 1 if winner == p else 2] += 1
            else:
                row[4] += 1
            points = game.totals[p]
            row[5] += points
            self.scores[points] = self.scores.get(points, 0) + 1
        for p in (0, 1):
            for e in game.expeditions[p]:
                counters = self.colors.get(e.color)
                if counters is None:
                    counters = self.colors[e.color] = [0] * len(_COLOR_FIELDS)
                counters[0] += 1
                if e.cards:
                    counters[1] += 1
                    counters[2] += e.score
                    counters[3] += e.cards >= BONUS_LENGTH
                    by_wagers = self.wagers.setdefault(e.color, {})
                    cell = by_wagers.get(e.wagers)
                    if cell is None:
                        cell = by_wagers[e.wagers] = [0, 0]
                    cell[0] += 1
                    cell[1] += e.score

    def add_all(self, games: Iterable[GameStats]) -> "StatsAccumulator":
        """Count every game of ``games``; returns this accumulator."""
        for game in games:
            self.add(game)
        return self

    def combine(self, other: "StatsAccumulator") -> "StatsAccumulator":
        """A new accumulator holding both this one's games and ``other``'s."""
        new = StatsAccumulator()
        for part in (self, other):
            new.games += part.games
            new.unusable += part.unusable
            new.results += part.results
            new.complete += part.complete
            new.moves += part.moves
            new.complete_moves += part.complete_moves
            new.first_wins += part.first_wins
            new.first_losses += part.first_losses
            new.draws += part.draws
            for name, row in part.players.items():
                mine = new.players.setdefault(name, [0] * len(_PLAYER_FIELDS))
                for i, n in enumerate(row):
                    mine[i] += n
            _add_into(new.scores, part.scores)
            _add_into(new.margins, part.margins)
            for color, counters in part.colors.items():
                mine = new.colors.setdefault(color, [0] * len(_COLOR_FIELDS))
                for i, n in enumerate(counters):
                    mine[i] += n
            for color, by_wagers in part.wagers.items():
                cells = new.wagers.setdefault(color, {})
                for wagers, (n, points) in by_wagers.items():
                    cell = cells.setdefault(wagers, [0, 0])
                    cell[0] += n
                    cell[1] += points
        return new

    __add__ = combine

    def summary(self) -> Dict[str, object]:
        """The figures, as ``lcn stats --format json`` writes them (``spec/stats.md``)."""
        complete = self.complete
        first = {"games": complete, "wins": self.first_wins, "losses": self.first_losses,
                 "draws": self.draws, "rate": _ratio(self.first_wins, complete),
                 "interval": list(wilson_interval(self.first_wins, complete))}
        players = {}
        for name in sorted(self.players):
            games, wins, losses, draws, incomplete, points = self.players[name]
            players[name] = {"games": games, "wins": wins, "losses": losses, "draws": draws,
                             "incomplete": incomplete, "points": points,
                             "mean_score": _ratio(points, games)}
        colors = {}
        for color in sorted(self.colors, key=_color_order):
            in_play, opened, points, bonus = self.colors[color]
            by_wagers = self.wagers.get(color, {})
            colors[color] = {
                "expeditions": in_play, "opened": opened,
                "opened_rate": _ratio(opened, in_play),
                "mean_score": _ratio(points, opened),
                "bonus": bonus, "bonus_rate": _ratio(bonus, opened),
                "wagers": {str(k): {"expeditions": n, "mean_score": _ratio(p, n)}
                           for k, (n, p) in sorted(by_wagers.items())},
            }
        return {
            "version": STATS_VERSION,
            "games": self.games, "results": self.results, "unusable": self.unusable,
            "complete": complete, "incomplete": self.results - complete,
            "moves": self.moves,
            "mean_length": _ratio(self.complete_moves, complete),
            "first_mover": first,
            "players": players,
            "scores": _distribution(self.scores),
            "margins": _distribution(self.margins),
            "colors": colors,
        }


def _color_order(letter: str) -> Tuple[int, str]:
    """The base colours in their order, then the others by letter."""
    return (DEFAULT_COLORS.index(letter) if letter in DEFAULT_COLORS else len(DEFAULT_COLORS),
            letter)


def _ratio(a: int, b: int) -> Optional[float]:
    return a / b if b else None


def _distribution(histogram: Dict[int, int]) -> Dict[str, object]:
    """Count, mean, percentiles (linear between ranks, as numpy's default and
    DuckDB's ``quantile_cont``) and the histogram of whole-number values."""
    values = sorted(histogram)
    count = sum(histogram.values())
    total = sum(v * n for v, n in histogram.items())
    percentiles: Dict[str, Optional[float]] = {}
    for p in PERCENTILES:
        percentiles[str(p)] = _percentile(values, histogram, count, p) if count else None
    return {"count": count, "mean": _ratio(total, count), "percentiles": percentiles,
            "histogram": [[v, histogram[v]] for v in values]}


def _percentile(values: List[int], histogram: Dict[int, int], count: int, p: int) -> float:
    rank = (count - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, count - 1)
    low_value = high_value = None
    seen = 0
    for v in values:
        seen += histogram[v]
        if low_value is None and seen > low:
            low_value = v
        if seen > high:
            high_value = v
            break
    assert low_value is not None and high_value is not None
    return low_value + (high_value - low_value) * (rank - low)
