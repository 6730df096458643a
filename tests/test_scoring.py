"""Scoring: the test vectors of RULES.md, round scores and match totals."""

from __future__ import annotations

import pytest

from lcnotation.lostcities.text.ast import HANDSHAKE, Card
from lcnotation.lostcities.text.reader import parse_game, parse_games
from lcnotation.lostcities.game.checker import match_totals, score
from lcnotation.lostcities.game.scoring import GameScore, score_expedition

# Every vector of /work/shared/RULES.md (expedition -> score).
VECTORS = [
    ("2 3 7 8 10", 10),
    ("H H 4 5 6 7 8 10", 80),
    ("H 4 6 7", -6),
    ("5 8 10", 3),
    ("H", -40),
    ("H 3 5 7", -10),
    ("H H 2 3 5 7 8 10", 65),
    ("H H 6 8 10", 12),
    ("H H H 2 3 4 5 6 7 8 9 10", 156),
    ("H H H", -80),
    ("", 0),
]


def ranks(text: str) -> list:
    return [HANDSHAKE if word == "H" else int(word) for word in text.split()]


@pytest.mark.parametrize("expedition, expected", VECTORS)
def test_rules_vectors_from_ranks(expedition: str, expected: int) -> None:
    assert score_expedition(ranks(expedition)) == expected


@pytest.mark.parametrize("expedition, expected", VECTORS)
def test_rules_vectors_from_cards(expedition: str, expected: int) -> None:
    assert score_expedition([Card("Y", r) for r in ranks(expedition)]) == expected


@pytest.mark.parametrize("expedition, expected", VECTORS)
def test_rules_vectors_through_a_record(expedition: str, expected: int) -> None:
    # Player1 plays the expedition in red; Player2 only discards blue cards.
    moves = []
    blues = iter(["B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "BH", "BH", "BH"])
    for rank in ranks(expedition):
        moves.append(f"R{'H' if rank == HANDSHAKE else rank}-D")
        moves.append(f"{next(blues)}D-D")
    result = score(parse_game(" ".join(moves)))
    assert result.by_color(0)["R"] == expected
    assert result.totals == (expected, 0)


def test_eight_cards_bonus_is_not_multiplied() -> None:
    # (2+3+4+5+6+7 - 20) * 3 + 20 = 41 with two handshakes: 8 cards.
    assert score_expedition(ranks("H H 2 3 4 5 6 7")) == 41
    # Seven cards: no bonus.
    assert score_expedition(ranks("H 2 3 4 5 6 7")) == 14


def test_game_score_fields() -> None:
    game = parse_game('[Player1 "Ann"]\n[Player2 "Bob"]\n1. RH-D 2. G9-D 3. R10-D 4. G10-D')
    result = score(game)
    assert result.players == ("Ann", "Bob")
    assert result.colors == ("R", "G", "W", "B", "Y")
    assert result.expeditions == ((-20, 0, 0, 0, 0), (0, -1, 0, 0, 0))
    assert result.totals == (-20, -1)
    assert result.complete is False
    assert result.winner == "Bob"


def test_score_counts_discards_for_nobody() -> None:
    result = score(parse_game("R5D-D G5D-R"))
    assert result.totals == (0, 0)


def test_tie_has_no_winner() -> None:
    assert GameScore(("A", "B"), ("R",), ((3,), (3,))).winner is None


def test_match_totals_follow_names_across_seats() -> None:
    text = ('[Round "1"]\n[Player1 "Ann"]\n[Player2 "Bob"]\nR10-D G2-D\n'
            '[Round "2"]\n[Player1 "Bob"]\n[Player2 "Ann"]\nB10-D Y9-D\n')
    games = list(parse_games(text))
    assert [score(g).totals for g in games] == [(-10, -18), (-10, -11)]
    assert match_totals(games) == {"Ann": -21, "Bob": -28}
    assert match_totals([score(g) for g in games]) == {"Ann": -21, "Bob": -28}


def test_match_totals_without_names_use_seats() -> None:
    games = list(parse_games('[Round "1"]\nR10-D\n[Round "2"]\nR9-D\n'))
    assert match_totals(games) == {"Player 1": -21, "Player 2": 0}
