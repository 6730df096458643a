"""GameState: stepping through a round, what it knows, and legal moves."""

from __future__ import annotations

import itertools

import pytest

from lcnotation.ast import HANDSHAKE, Card, Draw, Move, Placement
from lcnotation.formatter import format_move
from lcnotation.generator import generate_game
from lcnotation.headers import parse_cards
from lcnotation.reader import parse_game, parse_move
from lcnotation.state import GameState, Location, draw_pile_start, read_setup

RANKS = (HANDSHAKE, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def replay(game, upto=None) -> GameState:
    state = GameState.from_game(game)
    for move in game.moves[:upto]:
        assert state.apply(move) == []
    return state


def every_move(colors) -> list:
    """Every move that can be written with ``colors``."""
    sources = [Draw(None)] + [Draw(c) for c in colors]
    return [Move(Placement(Card(c, r), discard), draw)
            for c in colors for r in RANKS for discard in (False, True) for draw in sources]


def test_a_fresh_state() -> None:
    state = GameState()
    assert (state.turn, state.to_move, state.draw_pile_size, state.is_over) == (0, 0, 44, False)
    assert state.certain and state.draw_pile_range == (44, 44)
    assert state.players == ("Player 1", "Player 2")
    assert GameState(colors="RGWBYK").draw_pile_size == 56 == draw_pile_start(6)
    assert state.hand(0) is None and state.unknown_count(1) == 8


def test_stepping_through_moves() -> None:
    state = GameState(players=("Ann", "Bob"))
    for text in ["RH-D", "B4D-D", "R3-B", "G2D-D"]:
        assert state.apply(parse_move(text)) == []
    assert state.turn == 4 and state.to_move == 0
    assert state.expedition(0, "R") == (Card("R", HANDSHAKE), Card("R", 3))
    assert state.expedition(1, "R") == ()
    assert state.discard_pile("B") == () and state.discard_pile("G") == (Card("G", 2),)
    # Ann drew the blue 4: it is known to be in her hand.
    assert state.known_cards(0) == (Card("B", 4),)
    assert (state.unknown_count(0), state.unknown_count(1)) == (7, 8)
    assert state.draw_pile_size == 41
    assert state.scores().totals == (-34, 0)


def test_locate_follows_a_card() -> None:
    state = GameState()
    r5 = Card("R", 5)
    assert state.locate(r5) == (Location("unknown"),)
    state.apply(parse_move("R5D-D"))
    assert state.locate(r5) == (Location("discard"),)
    state.apply(parse_move("G2-R"))
    assert state.locate(r5) == (Location("hand", 1),)
    state.apply(parse_move("B2-D"))
    state.apply(parse_move("R5-D"))
    assert state.locate(r5) == (Location("expedition", 1),)
    assert len(state.locate(Card("G", HANDSHAKE))) == 3
    assert state.locate(Card("K", 5)) == ()


def test_locate_with_the_deal() -> None:
    game = generate_game(seed=4, colors="RGWBY", deal=True)
    state = GameState.from_game(game)
    top = parse_cards(game.header("Deck"))[0]
    assert Location("draw pile") in state.locate(top)
    first = parse_cards(game.header("Hand1"))[0]
    assert Location("hand", 0) in state.locate(first)
    assert state.draw_pile()[0] == top


def test_moves_without_turn_numbers_alternate() -> None:
    state = GameState()
    state.apply(Move(Placement(Card("R", 7)), Draw(None)))
    found = state.apply(Move(Placement(Card("R", 4)), Draw(None)))
    assert found == [] and state.expedition(1, "R") == (Card("R", 4),)


def test_skipped_turns_flip_the_side_and_widen_the_draw_pile() -> None:
    state = GameState()
    state.apply(parse_move("R7-D")._replace(turn=0))
    state.apply(parse_move("R8-D")._replace(turn=2))
    assert state.to_move == 1 and state.turn == 3
    assert state.expedition(0, "R") == (Card("R", 7), Card("R", 8))
    assert state.draw_pile_range == (41, 42) and not state.certain


def test_legal_moves_need_the_hand() -> None:
    with pytest.raises(ValueError, match="hand of Player 1 is not known"):
        GameState().legal_moves()


def test_legal_moves_are_exactly_the_moves_without_diagnostics() -> None:
    game = generate_game(seed=11, colors="RGWBY", deal=True, take=0.5)
    candidates = every_move("RGWBY")
    for upto in (0, 1, 17, 30, len(game.moves) - 1):
        state = replay(game, upto)
        legal = {format_move(m) for m in state.legal_moves()}
        clean = {format_move(m) for m in candidates if state.copy().apply(m) == []}
        assert legal == clean, upto
        assert format_move(game.moves[upto]) in legal


def test_every_move_of_a_generated_game_is_listed_as_legal() -> None:
    game = generate_game(seed=5, colors="RGWBYK", deal=True, take=0.4)
    state = GameState.from_game(game)
    for move in game.moves:
        assert move in state.legal_moves()
        assert state.apply(move) == []
    assert state.is_over and state.legal_moves() == []


def test_legal_moves_never_draw_back_the_discard() -> None:
    game = generate_game(seed=2, deal=True, take=0.6)
    state = replay(game, 20)
    for move in state.legal_moves():
        assert not (move.placement.discard and move.draw.color == move.card.color)


def test_copy_is_independent() -> None:
    state = GameState()
    state.apply(parse_move("R5D-D"))
    trial = state.copy()
    trial.apply(parse_move("G2-R"))
    assert state.discard_pile("R") == (Card("R", 5),) and trial.discard_pile("R") == ()
    assert state.turn == 1 and trial.turn == 2


def test_a_wrong_deal_is_refused_by_the_constructor() -> None:
    with pytest.raises(ValueError, match="Hand1 holds 1 card: each player is dealt 8"):
        GameState(hands=([Card("R", 2)], None))
    hand = [Card("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 8)]
    with pytest.raises(ValueError, match="Red 8 is dealt twice"):
        GameState(hands=(hand, None))
    with pytest.raises(ValueError, match="not a colour letter"):
        GameState(colors="RGD")


def test_state_accepts_pairs_for_the_deal() -> None:
    hand1 = [("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 9)]
    state = GameState(hands=(hand1, None))
    assert state.hand(0) == tuple(Card("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 9))


def test_game_over_after_the_last_draw() -> None:
    cards = [f"{c}{n}" for c in "RGWBY" for n in range(2, 11)][:44]
    game = parse_game(" ".join(f"{k}D-D" for k in cards))
    state = replay(game)
    assert state.is_over and state.draw_pile_size == 0
    found = state.apply(parse_move("Y10-D"))
    assert [d.code for d in found] == ["R109"] and "turn 44" in found[0].message


def test_read_setup_players_and_colors() -> None:
    setup = read_setup(parse_game('[Player1 " Ann "]\n[Player2 ""]\n[Colors "rgwbyp"]\n'))
    assert setup.players == ("Ann", "Player 2")
    assert setup.colors == ("R", "G", "W", "B", "Y", "P")
    assert setup.diagnostics == ()


def test_deal_headers_with_odd_spacing_use_the_grammar() -> None:
    game = generate_game(seed=8, colors="RGWBY", deal=True)
    spaced = [h._replace(value="  " + h.value.replace(" ", "\t ")) if h.name == "Deck" else h
              for h in game.headers]
    setup = read_setup(game._replace(headers=tuple(spaced)))
    assert setup.diagnostics == () and setup.deck == read_setup(game).deck


@pytest.mark.parametrize("seed", range(3))
def test_every_card_is_somewhere(seed: int) -> None:
    game = generate_game(seed=seed, colors="RGWBY", deal=bool(seed % 2))
    state = replay(game)
    for c, r in itertools.product("RGWBY", RANKS):
        assert len(state.locate(Card(c, r))) == (3 if r == HANDSHAKE else 1)
