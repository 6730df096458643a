"""The legal-game generator: determinism, options, and records in our format."""

from __future__ import annotations

from collections import Counter

import pytest

from lcnotation.lostcities.game.checker import check, match_totals, score
from lcnotation.lostcities.text.formatter import format_game, format_games
from lcnotation.lostcities.game.generator import generate_game, generate_games, generate_match
from lcnotation.lostcities.text.headers import parse_cards, parse_result
from lcnotation.lostcities.text.reader import parse_game, parse_games


def pile_draws(game) -> int:
    return sum(1 for m in game.moves if m.draw.color is not None)


def test_same_seed_same_game() -> None:
    assert generate_game(seed=42) == generate_game(seed=42)
    assert format_game(generate_game(seed=42, deal=True)) == \
        format_game(generate_game(seed=42, deal=True))


def test_different_seeds_differ() -> None:
    games = {format_game(generate_game(seed=s, colors="RGWBY", players=("A", "B")))
             for s in range(20)}
    assert len(games) == 20


def test_games_play_to_the_end_of_the_draw_pile() -> None:
    for seed in range(10):
        game = generate_game(seed=seed, colors="RGWBY")
        deck_draws = sum(1 for m in game.moves if m.draw.color is None)
        assert deck_draws == 44
        assert game.moves[-1].draw.color is None


def test_six_colours_and_custom_colour_sets() -> None:
    game = generate_game(seed=3, colors="RGWBYK")
    assert game.header("Colors") == "RGWBYK"
    assert sum(1 for m in game.moves if m.draw.color is None) == 56
    custom = generate_game(seed=3, colors="acefg", deal=True)
    assert custom.header("Colors") == "ACEFG"
    assert {m.card.color for m in custom.moves} <= set("ACEFG")
    assert check(custom).ok
    # The five base colours need no Colors header.
    assert generate_game(seed=3, colors="RGWBY").header("Colors") is None


def test_default_colours_are_drawn_from_the_seed() -> None:
    sets = Counter(generate_game(seed=s).header("Colors", "RGWBY") for s in range(60))
    assert set(sets) == {"RGWBY", "RGWBYK", "RGWBYP"}


def test_deal_headers_are_the_full_deck_in_play_order() -> None:
    game = generate_game(seed=9, colors="RGWBY", deal=True)
    hand1, hand2, deck = (parse_cards(game.header(n)) for n in ("Hand1", "Hand2", "Deck"))
    assert (len(hand1), len(hand2), len(deck)) == (8, 8, 44)
    everything = Counter((k.color, k.rank) for k in hand1 + hand2 + deck)
    assert everything == Counter({(c, r): (3 if r == 0 else 1)
                                  for c in "RGWBY" for r in (0, 2, 3, 4, 5, 6, 7, 8, 9, 10)})
    # Player1's first card comes from Hand1.
    assert game.moves[0].card in hand1


def test_headers_option_and_players() -> None:
    bare = generate_game(seed=1, colors="RGWBY", headers=False)
    assert bare.headers == ()
    named = generate_game(seed=1, colors="RGWBY", players=("Ann", "Bob"))
    assert (named.header("Player1"), named.header("Player2")) == ("Ann", "Bob")
    assert named.moves == bare.moves


def test_result_header_is_the_score() -> None:
    for seed in range(5):
        game = generate_game(seed=seed)
        assert parse_result(game.header("Result")) == score(game).totals


def test_turns_stops_early_with_an_open_result() -> None:
    game = generate_game(seed=6, turns=10)
    assert len(game.moves) == 10 and game.header("Result") == "*"
    report = check(game)
    assert [d.code for d in report.diagnostics] == ["R110"] and not report.complete


def test_take_controls_draws_from_discard_piles() -> None:
    never = sum(pile_draws(generate_game(seed=s, take=0.0)) for s in range(10))
    often = sum(pile_draws(generate_game(seed=s, take=0.8)) for s in range(10))
    assert never == 0 and often > 100


def test_build_controls_expeditions() -> None:
    def played(build: float) -> int:
        return sum(1 for s in range(10) for m in generate_game(seed=s, build=build).moves
                   if not m.placement.discard)
    assert played(0.0) == 0
    assert played(1.0) > played(0.5) > 0


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="take"):
        generate_game(take=1.0)
    with pytest.raises(ValueError, match="build"):
        generate_game(build=1.5)
    with pytest.raises(ValueError, match="not a colour letter"):
        generate_game(colors="RGD")
    with pytest.raises(ValueError, match="too few cards"):
        generate_game(colors="R")


def test_records_round_trip_through_text() -> None:
    for seed in range(10):
        game = generate_game(seed=seed, deal=bool(seed % 2))
        again = parse_game(format_game(game))
        assert again == game and again.errors == ()
        assert [m.turn for m in again.moves] == list(range(len(game.moves)))


def test_generate_games_streams_distinct_games() -> None:
    games = list(generate_games(5, seed=1, colors="RGWBY", deal=True))
    assert len(games) == 5 and len({format_game(g) for g in games}) == 5
    assert games == list(generate_games(5, seed=1, colors="RGWBY", deal=True))
    text = format_games(games)
    assert list(parse_games(text)) == games


def test_generate_match_swaps_seats() -> None:
    games = generate_match(2, players=("Ann", "Bob"))
    assert [g.header("Player1") for g in games] == ["Ann", "Bob", "Ann"]
    totals = match_totals(games)
    expected = {"Ann": 0, "Bob": 0}
    for game in games:
        a, b = parse_result(game.header("Result"))
        expected[game.header("Player1")] += a
        expected[game.header("Player2")] += b
    assert totals == expected
