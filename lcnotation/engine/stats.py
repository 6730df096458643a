"""The statistics of a match: Elo difference with its error, the score
difference with its interval, and the sequential probability ratio test.

Games come in pairs (one deal, the seats swapped), so the games of a pair are
not independent: a strong deal for the first seat helps whoever has it.  The
errors are therefore computed over pairs, as fastchess does (the
*pentanomial* model: a pair scores 0, 0.5, 1, 1.5 or 2 for the first engine),
which removes the deal's luck from the error instead of counting it twice.
A game without its pair (an odd last game) is counted in the wins, losses,
draws and points, not in the errors, the Elo difference or the test.

Elo is the logistic model: a score fraction ``p`` is ``-400 log10(1/p - 1)``
Elo; its 95 % error is half the distance between the Elo of the two ends of
``p``'s 95 % interval (cutechess-cli's way).  The test is the generalised
SPRT of fishtest and fastchess: the log-likelihood ratio of ``elo1`` against
``elo0`` in the normal approximation, ``N (s1 - s0) (2 m - s0 - s1) / (2 v)``
(``m`` and ``v`` the mean and variance of a pair's score fraction, ``s0`` and
``s1`` the score fractions of the two Elo values), stopped at
``log(beta / (1 - alpha))`` (H0 accepted) or ``log((1 - beta) / alpha)`` (H1).

>>> elo(0.75)
190.848...
>>> round(student_t_quantile(0.975, 4), 3), round(student_t_quantile(0.975, 1000), 3)
(2.776, 1.962)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Dict, List, Optional, Sequence, Tuple

from .records import FORFEITS, Outcome

__all__ = ["elo", "elo_error", "student_t_quantile", "Sprt", "SprtState", "Summary",
           "summarize"]

_Z975 = NormalDist().inv_cdf(0.975)


def elo(p: float) -> float:
    """The Elo difference of a score fraction ``p`` (infinite at 0 and 1)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


def score_of(elo_difference: float) -> float:
    """The score fraction of an Elo difference (the inverse of :func:`elo`)."""
    return 1 / (1 + 10 ** (-elo_difference / 400))


def _mean_var(values: Sequence[float]) -> Tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return mean, sum((v - mean) ** 2 for v in values) / n


def elo_error(pair_scores: Sequence[float]) -> float:
    """The 95 % error of the Elo difference of pairs with these score fractions."""
    n = len(pair_scores)
    if n < 2:
        return math.inf
    mean, var = _mean_var(pair_scores)
    spread = _Z975 * math.sqrt(var / n)
    low, high = elo(mean - spread), elo(mean + spread)
    if math.isinf(low) or math.isinf(high):
        return math.inf
    return (high - low) / 2


def _t_cdf(t: float, df: int) -> float:
    """Student's t distribution function for whole ``df`` (Abramowitz and Stegun
    26.7.3 and 26.7.4, which are exact)."""
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    if df % 2:
        total, term = 0.0, c
        for k in range(1, df - 1, 2):
            total += term
            term *= c * c * (k + 1) / (k + 2)
        a = (2 / math.pi) * (theta + (s * total if df > 1 else 0.0))
    else:
        total, term = 0.0, 1.0
        for k in range(0, df - 1, 2):
            total += term
            term *= c * c * (k + 1) / (k + 2)
        a = s * total
    return 0.5 + a / 2


def student_t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (``p`` above 0.5) of Student's t with ``df`` degrees of freedom."""
    if df > 2000:
        return NormalDist().inv_cdf(p)
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        high *= 2
    for _ in range(60):
        mid = (low + high) / 2
        if _t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of ``elo1`` against ``elo0`` (the first
    engine's Elo advantage), with the chances ``alpha`` (accepting H1 when H0
    holds) and ``beta`` (accepting H0 when H1 holds)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT: elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ValueError(f"SPRT: {name} must be between 0 and 0.5")

    @property
    def bounds(self) -> Tuple[float, float]:
        """The log-likelihood ratios at which H0 and H1 are accepted."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of the pairs counted in ``pentanomial`` (how many
        pairs scored 0, 0.5, 1, 1.5 and 2).

        The mean and variance are those of the counts with half a pair added to
        each of the five (a Jeffreys prior): without it, pairs that all score
        the same have no variance, and a test would be decided by its first pair.
        Over the hundreds of pairs a test takes, the half pairs weigh nothing.

        >>> round(Sprt(0, 10).llr([0, 0, 0, 0, 1]), 2), Sprt(0, 10).llr([0] * 5)
        (0.01, 0.0)
        """
        pairs = sum(pentanomial)
        if not pairs:
            return 0.0
        counts = [c + 0.5 for c in pentanomial]
        n = sum(counts)
        mean = sum(c * k / 4 for k, c in enumerate(counts)) / n
        var = sum(c * (k / 4 - mean) ** 2 for k, c in enumerate(counts)) / n
        s0, s1 = score_of(self.elo0), score_of(self.elo1)
        return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def state(self, pentanomial: Sequence[int]) -> SprtState:
        llr = self.llr(pentanomial)
        low, high = self.bounds
        verdict = "H1" if llr >= high else "H0" if llr <= low else None
        return SprtState(self, llr, verdict)


@dataclass(frozen=True)
class SprtState:
    """Where a test stands: its log-likelihood ratio, and ``verdict`` ``"H0"`` or
    ``"H1"`` once decided (None before)."""

    test: Sprt
    llr: float
    verdict: Optional[str]


@dataclass(frozen=True)
class Summary:
    """A match from the first engine's side; see :func:`summarize`."""

    names: Tuple[str, str]
    games: int
    wins: int
    losses: int
    draws: int
    #: Points of each engine, over the games that are results (as ``lcn
    #: score`` totals a match: not a forfeit or an adjudicated game).
    points: Tuple[int, int]
    #: Forfeits of each engine, by cause.
    forfeits: Tuple[Dict[str, int], Dict[str, int]]
    pairs: int
    #: How many pairs scored 0, 0.5, 1, 1.5 and 2 (the first engine's points).
    pentanomial: Tuple[int, int, int, int, int]
    #: The mean score difference a game (first minus second), over the pairs,
    #: and its 95 % interval; None before two pairs.
    difference: Optional[Tuple[float, float, float]]
    #: The Elo difference over the pairs and its 95 % error (None before a pair).
    elo: Optional[Tuple[float, float]]
    sprt: Optional[SprtState] = None
    extra: Dict[str, object] = field(default_factory=dict)

    @property
    def score_fraction(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5


def summarize(names: Tuple[str, str], outcomes: Sequence[Outcome],
              sprt: Optional[Sprt] = None) -> Summary:
    """The summary of the games ``outcomes`` (in the order of their rounds: the games
    of a pair are rounds 2k - 1 and 2k).

    >>> from lcnotation.engine.records import Termination
    >>> games = [Outcome(1, 1.0, (30, 5), Termination("normal"), None),
    ...          Outcome(2, 0.0, (-10, 12), Termination("normal"), None)]
    >>> s = summarize(("A", "B"), games)
    >>> s.wins, s.losses, s.points, s.pentanomial
    (1, 1, (20, 17), (0, 0, 1, 0, 0))
    """
    wins = sum(1 for o in outcomes if o.result == 1.0)
    losses = sum(1 for o in outcomes if o.result == 0.0)
    forfeits: Tuple[Dict[str, int], Dict[str, int]] = ({}, {})
    for o in outcomes:
        if o.forfeiter is not None:
            counts = forfeits[o.forfeiter]
            counts[o.termination.cause] = counts.get(o.termination.cause, 0) + 1
    by_round = {o.round_number: o for o in outcomes}
    penta = [0, 0, 0, 0, 0]
    pair_scores: List[float] = []
    pair_differences: List[float] = []
    for o in outcomes:
        if o.round_number % 2:
            other = by_round.get(o.round_number + 1)
            if other is None:
                continue
            both = o.result + other.result
            penta[int(both * 2)] += 1
            pair_scores.append(both / 2)
            pair_differences.append((o.points[0] - o.points[1] + other.points[0]
                                     - other.points[1]) / 2)
    difference = None
    if len(pair_differences) >= 2:
        mean, var = _mean_var(pair_differences)
        n = len(pair_differences)
        half = student_t_quantile(0.975, n - 1) * math.sqrt(var * n / (n - 1) / n)
        difference = (mean, mean - half, mean + half)
    rating = None
    if pair_scores:
        rating = (elo(sum(pair_scores) / len(pair_scores)), elo_error(pair_scores))
    return Summary(
        names, len(outcomes), wins, losses, len(outcomes) - wins - losses,
        (sum(o.points[0] for o in outcomes if o.counted),
         sum(o.points[1] for o in outcomes if o.counted)),
        forfeits, len(pair_scores), (penta[0], penta[1], penta[2], penta[3], penta[4]),
        difference, rating, sprt.state(penta) if sprt is not None else None)


def forfeit_text(counts: Dict[str, int]) -> str:
    """``2 (crash 1, time forfeit 1)``, or ``0``."""
    total = sum(counts.values())
    if not total:
        return "0"
    return f"{total} (" + ", ".join(f"{c} {counts[c]}" for c in FORFEITS if c in counts) + ")"
