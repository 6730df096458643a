"""The statistics of a match: Elo and its error, Student's t, the SPRT, the
summary of outcomes; and that greedy beats random clearly."""

from __future__ import annotations

import math
from typing import List, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lcnotation.engine.bots import GreedyBot, RandomBot
from lcnotation.engine.match import Referee
from lcnotation.engine.records import Outcome, Termination, deal_for
from lcnotation.engine.stats import (Sprt, elo, elo_error, score_of, student_t_quantile,
                                     summarize)

from enginetools import play_out


def test_elo_of_known_score_fractions() -> None:
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.9) == pytest.approx(381.70, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


@given(st.floats(0.001, 0.999))
def test_elo_is_odd_and_score_of_is_its_inverse(p: float) -> None:
    assert elo(1 - p) == pytest.approx(-elo(p), abs=1e-6)
    assert score_of(elo(p)) == pytest.approx(p, abs=1e-9)


# Student's t, 97.5 % quantile, from the printed tables.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}


@pytest.mark.parametrize("df", sorted(T975))
def test_student_t_quantiles(df: int) -> None:
    assert student_t_quantile(0.975, df) == pytest.approx(T975[df], abs=0.0015)


def test_student_t_tends_to_the_normal() -> None:
    assert student_t_quantile(0.975, 5000) == pytest.approx(1.95996, abs=1e-4)
    assert student_t_quantile(0.995, 9) == pytest.approx(3.250, abs=0.0015)


def test_the_elo_error_of_pairs() -> None:
    scores = [1.0, 0.5, 0.5, 0.0, 0.75, 0.25]
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / n / n)
    expected = (elo(mean + 1.959964 * sd) - elo(mean - 1.959964 * sd)) / 2
    assert elo_error(scores) == pytest.approx(expected, rel=1e-5)
    assert elo_error([0.5]) == math.inf and elo_error([1.0, 1.0]) == math.inf


pentanomials = st.lists(st.integers(0, 200), min_size=5, max_size=5)


@given(pentanomials, st.floats(-200, 200), st.floats(1, 100))
def test_the_sprt_is_symmetric(counts: List[int], elo0: float, width: float) -> None:
    test = Sprt(elo0, elo0 + width)
    mirrored = Sprt(-(elo0 + width), -elo0)
    assert mirrored.llr(counts[::-1]) == pytest.approx(-test.llr(counts), rel=1e-9,
                                                       abs=1e-9)


def test_the_sprt_decides_as_the_results_lean() -> None:
    test = Sprt(0, 10)
    low, high = test.bounds
    assert (low, high) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert test.llr([0, 0, 0, 0, 0]) == 0 and test.state([0] * 5).verdict is None
    # A first pair is no proof, however it ends.
    assert test.state([0, 0, 0, 0, 1]).verdict is None
    strong = [5, 20, 100, 40, 15]   # the first engine a little ahead
    weak = strong[::-1]
    assert test.llr([c * 10 for c in strong]) > test.llr(strong) > 0
    assert test.llr(weak) < 0
    assert test.state([c * 40 for c in strong]).verdict == "H1"
    assert test.state([c * 40 for c in weak]).verdict == "H0"
    with pytest.raises(ValueError, match="elo0"):
        Sprt(10, 10)
    with pytest.raises(ValueError, match="alpha"):
        Sprt(0, 5, alpha=0.6)


outcomes = st.lists(st.tuples(st.sampled_from((0.0, 0.5, 1.0)), st.integers(-200, 200),
                              st.integers(-200, 200), st.sampled_from((None, 0, 1))),
                    max_size=30)


@given(outcomes)
def test_a_summary_adds_up(games: List[Tuple[float, int, int, object]]) -> None:
    made = []
    for number, (result, a, b, forfeiter) in enumerate(games, 1):
        if forfeiter is not None:
            result = 0.0 if forfeiter == 0 else 1.0
            termination = Termination("crash", 0 if (forfeiter == 0) == (number % 2 == 1)
                                      else 1)
        else:
            termination = Termination("normal")
        made.append(Outcome(number, result, (a, b), termination, forfeiter))  # type: ignore[arg-type]
    s = summarize(("A", "B"), made)
    assert s.wins + s.losses + s.draws == s.games == len(made)
    assert s.points == (sum(o.points[0] for o in made), sum(o.points[1] for o in made))
    # A game that is not a result (a forfeit: the record stops early) adds no points.
    short = summarize(("A", "B"), [o._replace(counted=o.forfeiter is None) for o in made])
    assert short.points == (sum(o.points[0] for o in made if o.forfeiter is None),
                            sum(o.points[1] for o in made if o.forfeiter is None))
    assert s.pairs == len(made) // 2 == sum(s.pentanomial)
    assert sum(s.forfeits[0].values()) == sum(1 for o in made if o.forfeiter == 0)
    assert (s.elo is None) == (s.pairs == 0)
    if s.difference is not None:
        mean, low, high = s.difference
        assert low <= mean <= high


def test_greedy_beats_random_clearly() -> None:
    random_bot = RandomBot()
    random_bot.set_option("seed", 2)
    wins = 0
    difference = 0
    games = 20
    for number in range(1, games + 1):
        referee = Referee(deal_for("greedy", (number + 1) // 2, "RGWBY"), ("A", "B"))
        greedy_seat = number % 2
        bots = {greedy_seat: GreedyBot(), 1 - greedy_seat: random_bot}
        play_out(referee, [bots[0], bots[1]])
        totals = referee.state.scores().totals
        wins += totals[greedy_seat] > totals[1 - greedy_seat]
        difference += totals[greedy_seat] - totals[1 - greedy_seat]
    assert wins >= 18 and difference / games > 50
