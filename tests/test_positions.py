"""Games without positions: every public function takes them.

A game read from text has a position on every node; one built by hand or
read from the JSON form has none (``NO_SPAN``).  Each public function of
``lcnotation.__all__`` that takes games is run here on both kinds and must
give what it gives for the same game read from text (positions aside).
"""

from __future__ import annotations

import pytest

import lcnotation as lcn
from lcnotation import (Card, Comment, Draw, Game, Header, Move, Placement, Span,
                        format_game, parse_game, parse_move)
from lcnotation.core.span import NO_SPAN
from lcnotation.lostcities.style import check_style

TEXT = """[Event "Club"]
[Event "Again"]
[Player1 "Ann"]
[Player2 "Bo"]
[Colors "RGWBY"]
[Hand1 "R3 R4 R5 G2 G3 BH WH Y9"]
[Hand2 "R6 R7 B2 B3 B4 W5 W6 YH"]
{before}
1. R3-D {a start}
2. R6-D
3. BHD-R
4. B2-D ; fine
"""


def _by_hand(game: Game) -> Game:
    """The same game, built by hand: nothing has a position."""
    def comments(cs):
        return tuple(Comment(c.text, c.kind) for c in cs)
    return Game(
        tuple(Header(h.name, h.value, comments(h.comments)) for h in game.headers),
        tuple(Move(Placement(Card(m.card.color, m.card.rank), m.placement.discard),
                   Draw(m.draw.color), comments(m.comments), m.number, m.turn)
              for m in game.moves),
        comments(game.comments))


READ = parse_game(TEXT)
KINDS = {"by hand": _by_hand(READ), "from JSON": lcn.from_json(lcn.to_json([READ]))[0]}


def test_games_without_positions_have_the_one_sentinel():
    for game in KINDS.values():
        nodes = [game, *game.headers, *game.moves, *game.comments,
                 *(c for m in game.moves for c in m.comments)]
        assert all(n.span is NO_SPAN or n.span == NO_SPAN for n in nodes)
        assert not any(n.span.known for n in nodes)
    assert all(n.span.known for n in (READ, *READ.headers, *READ.moves))


def test_a_move_read_from_text_has_a_position():
    move = parse_move("R3-D")
    assert (move.span.line, move.span.column, move.card_span.end_column) == (1, 1, 3)


@pytest.mark.parametrize("kind", KINDS)
def test_detect_dialect_with_games_without_positions(kind):
    # It used to fail with AttributeError ('NoneType' has no attribute 'start').
    detection = lcn.detect_dialect(TEXT, [KINDS[kind]])
    assert detection.dialect == lcn.detect_dialect(TEXT).dialect == "v1"
    assert detection.moves == 4


@pytest.mark.parametrize("kind", KINDS)
def test_style_of_a_game_without_positions_with_a_repeated_header(kind):
    # It used to fail with AttributeError ('NoneType' has no attribute 'line').
    findings = check_style(KINDS[kind], format_game(KINDS[kind]))
    repeated = [f.diagnostic for f in findings if f.diagnostic.code == "S106"]
    assert [d.message for d in repeated] == [
        "tag 'Event' is given twice; the first one counts"]
    read = [f.diagnostic.message for f in check_style(READ, TEXT)
            if f.diagnostic.code == "S106"]
    assert read == ["tag 'Event' is given twice (first on line 1); the first one counts"]


def _codes(report):
    return [(d.code, d.message, d.turn) for d in report.diagnostics]


@pytest.mark.parametrize("kind", KINDS)
def test_every_public_function_that_takes_games(kind):
    game = KINDS[kind]
    taking_games = {
        "format_game": lambda g: lcn.format_game(g),
        "format_games": lambda g: lcn.format_games([g, g], "x-discard"),
        "game_colors": lambda g: lcn.game_colors(g),
        "check": lambda g: _codes(lcn.check(g)),
        "score": lambda g: lcn.score(g),
        "match_totals": lambda g: lcn.match_totals([g, g]),
        "to_json": lambda g: lcn.to_json([g]),
        "detect_dialect": lambda g: lcn.detect_dialect(TEXT, [g])[:2],
        "GameState": lambda g: lcn.GameState.from_game(g).scores(),
        "convert_text": lambda g: lcn.convert_text(lcn.format_game(g), "lower"),
    }
    public = {name for name in lcn.__all__ if name in taking_games}
    assert public == set(taking_games)  # every one of them is public
    for name, call in taking_games.items():
        assert call(game) == call(READ), name


def test_no_span_is_a_span_of_zeros_and_known_only_from_text():
    assert NO_SPAN == Span(0, 0, 0, 0, 0, 0) and not NO_SPAN.known
    assert Span(1, 1, 1, 2, 0, 1).known
    assert Move(Placement(Card("R", 3)), Draw(None)).card_span is NO_SPAN


@pytest.mark.parametrize("kind", KINDS)
def test_the_discard_marker_of_a_game_without_positions_is_not_known(kind):
    # The style code reads the marker from the text; without positions there
    # is no text to read (it used to fail: ''.index('-')).
    from lcnotation.lostcities.style import discard_marker, first_discard_marker

    game = KINDS[kind]
    discard = next(m for m in game.moves if m.placement.discard)
    assert discard_marker(discard, TEXT) is None
    assert first_discard_marker(game, TEXT) is None
    assert first_discard_marker(READ, TEXT) == "D"
