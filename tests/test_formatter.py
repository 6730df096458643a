"""Writing trees back: the canonical layout, the dialects, and refusing what
cannot be written without changing its meaning."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from lcnotation.lostcities.text.ast import HANDSHAKE, Card, Comment, Draw, Game, Header, Move, Placement
from lcnotation.lostcities.text.dialects import DIALECTS, Dialect, get_dialect
from lcnotation.lostcities.text.formatter import (format_card, format_comment, format_game, format_games,
                                  format_header, format_move, head_lines, _with_comments)
from lcnotation.lostcities.text.reader import parse_game, parse_games, parse_move

from strategies import games as game_trees


def move(card: str, discard: bool = False, draw=None, comments=()) -> Move:
    color, rank = card[0], card[1:]
    rank = HANDSHAKE if rank == "H" else int(rank)
    return Move(Placement(Card(color, rank), discard), Draw(draw), tuple(comments))


GAME = Game(
    headers=(Header("Event", 'The "Open"', (Comment(" first", "line"),)),
             Header("Site", "C:\\club"),
             Header("Colors", "RGWBYK", (Comment("six"), Comment("colours")))),
    moves=(move("R3"), move("BH", True, comments=[Comment("a\nb")]),
           move("K10", False, "B", [Comment("", "line"), Comment("after")]),
           move("W2", True, "K")),
    comments=(Comment(" a record", "line"), Comment("before the headers")),
)

CANONICAL = """\
; a record
{before the headers}
[Event "The \\"Open\\""] ; first
[Site "C:\\\\club"]
[Colors "RGWBYK"] {six} {colours}

1. R3-D
2. BHD-D {a
b}
3. K10-B ;
{after}
4. W2D-K
"""


class TestPieces:
    @pytest.mark.parametrize("card, text", [
        (Card("R", 3), "R3"), (Card("B", HANDSHAKE), "BH"), (Card("W", 10), "W10"),
        (Card("K", 2), "K2"), (Card("P", 9), "P9"),
    ])
    def test_format_card(self, card, text):
        assert format_card(card) == text

    @pytest.mark.parametrize("card", [
        Card("r", 3), Card("D", 3), Card("H", 3), Card("X", 3), Card("", 3), Card("RG", 3),
        Card("R", 1), Card("R", 11), Card("R", -1), Card("R", "3"), Card("é", 3),
    ])
    def test_format_card_refuses_what_has_no_spelling(self, card):
        with pytest.raises(ValueError):
            format_card(card)

    @pytest.mark.parametrize("text, v1, x, lower", [
        ("R3-D", "R3-D", "R3-D", "r3-d"),
        ("bhx-d", "BHD-D", "BHX-D", "bhd-d"),
        ("R4-B", "R4-B", "R4-B", "r4-b"),
        ("k10d-p", "K10D-P", "K10X-P", "k10d-p"),
    ])
    def test_format_move_in_each_dialect(self, text, v1, x, lower):
        m = parse_move(text)
        assert format_move(m) == format_move(m, "v1") == v1
        assert format_move(m, "x-discard") == format_move(m, get_dialect("x-discard")) == x
        assert format_move(m, "lower") == lower
        for written in (v1, x, lower):
            assert parse_move(written) == m

    def test_format_move_refuses(self):
        with pytest.raises(ValueError):
            format_move(Move(Placement(Card("R", 3)), Draw("D")))  # D is the pile
        with pytest.raises(ValueError):
            format_move(Move(Placement(Card("R", 3)), Draw("b")))
        with pytest.raises(ValueError):
            format_move(parse_move("R3-D"), "no-such-dialect")
        with pytest.raises(ValueError):
            format_move(parse_move("P3-D"), "v1-draft")
        with pytest.raises(ValueError):
            format_move(parse_move("R3-P"), "v1-draft")
        assert format_move(parse_move("K3-D"), "v1-draft") == "K3-D"

    def test_a_dialect_of_ones_own(self):
        loud = Dialect("test-loud", "x-discard in lower case", discard="X", lowercase=True)
        assert format_move(parse_move("BHD-D"), loud) == "bhx-d"
        with pytest.raises(ValueError):
            Dialect("test-bad", "a discard marker that clashes", discard="H")

    @pytest.mark.parametrize("comment, text", [
        (Comment("x"), "{x}"), (Comment(" a ; b "), "{ a ; b }"), (Comment(""), "{}"),
        (Comment("a\nb"), "{a\nb}"), (Comment("{"), "{{}"),
        (Comment(" x", "line"), "; x"), (Comment("", "line"), ";"),
        (Comment("{}", "line"), ";{}"),
    ])
    def test_format_comment(self, comment, text):
        assert format_comment(comment) == text

    @pytest.mark.parametrize("comment", [
        Comment("a}b"), Comment("}"), Comment("a\nb", "line"), Comment("a\rb", "line"),
    ])
    def test_format_comment_refuses(self, comment):
        with pytest.raises(ValueError):
            format_comment(comment)

    def test_format_comment_refuses_an_unknown_kind(self):
        with pytest.raises(ValueError):
            format_comment(Comment("x", "note"))

    @pytest.mark.parametrize("header, text", [
        (Header("Event", "Club"), '[Event "Club"]'),
        (Header("Event", 'a "b" \\ c'), '[Event "a \\"b\\" \\\\ c"]'),
        (Header("x_2", ""), '[x_2 ""]'),
        (Header("Site", "  ]  "), '[Site "  ]  "]'),
        (Header("Player2", "Łukasz 🎲"), '[Player2 "Łukasz 🎲"]'),
    ])
    def test_format_header(self, header, text):
        assert format_header(header) == text
        assert parse_game(text).headers == (header,)

    @pytest.mark.parametrize("header", [
        Header("", "x"), Header("1st", "x"), Header("_x", "x"), Header("Ev ent", "x"),
        Header("Événement", "x"), Header("Ev-ent", "x"),
        Header("Event", "a\nb"), Header("Event", "a\rb"),
    ])
    def test_format_header_refuses(self, header):
        with pytest.raises(ValueError):
            format_header(header)


class TestGame:
    def test_the_canonical_layout(self):
        assert format_game(GAME) == CANONICAL

    def test_the_canonical_layout_reads_back_as_the_same_game(self):
        again = parse_game(CANONICAL)
        assert again == GAME and not again.errors
        assert format_game(again) == CANONICAL

    def test_layouts_are_normalised(self):
        text = '  [Event "x"]   {c}\n\n\n{d}\n 1.r3-d bhx-D {e} ;f\n\n  3. R4-b'
        assert format_game(parse_game(text)) == (
            '[Event "x"] {c} {d}\n\n1. R3-D\n2. BHD-D {e} ;f\n3. R4-B\n')

    @pytest.mark.parametrize("game, text", [
        (Game(), ""),
        (Game(comments=(Comment("c"),)), "{c}\n"),
        (Game(headers=(Header("Event", "x"),)), '[Event "x"]\n'),
        (Game(moves=(move("R3"),)), "1. R3-D\n"),
        (Game(moves=(move("R3"),), comments=(Comment("c", "line"),)), ";c\n1. R3-D\n"),
    ])
    def test_small_games(self, game, text):
        assert format_game(game) == text
        assert parse_game(text) == game

    def test_every_dialect(self):
        for name in ("v1", "x-discard", "lower"):
            text = format_game(GAME, name)
            assert parse_game(text) == GAME, name
            assert text.splitlines()[:5] == CANONICAL.splitlines()[:5]  # headers as they were
        assert "2. BHX-D {a" in format_game(GAME, "x-discard")
        assert "4. w2d-k" in format_game(GAME, "lower")
        assert set(DIALECTS) >= {"v1", "x-discard", "lower"}

    def test_a_dialect_without_comments_refuses_a_game_with_comments(self):
        silent = Dialect("test-silent", "no comments", comments=False)
        with pytest.raises(ValueError):
            format_game(GAME, silent)
        plain = Game(headers=(Header("Event", "x"),), moves=(move("R3"),))
        assert format_game(plain, silent) == '[Event "x"]\n\n1. R3-D\n'

    @given(game_trees(max_moves=3), st.integers(0, 300), st.sampled_from(["v1", "x-discard", "lower"]))
    def test_format_game_is_the_plain_layout_at_any_move_number(self, game, more, dialect):
        # format_game numbers moves from a table of prefixes while there is
        # one, and keeps each spelling; the plain layout, line by line:
        long = game._replace(moves=game.moves + (move("R3"),) * more)
        lines = head_lines(long)
        for i, m in enumerate(long.moves, 1):
            _with_comments(f"{i}. {format_move(m, dialect)}", m.comments, lines)
        assert format_game(long, dialect) == "".join(f"{line}\n" for line in lines)

    @pytest.mark.parametrize("game", [
        Game(headers=(Header("Bad name", "x"),)),
        Game(moves=(move("R3", comments=[Comment("}")]),)),
        Game(moves=(Move(Placement(Card("R", 11)), Draw(None)),)),
        Game(comments=(Comment("a\nb", "line"),)),
        Game(headers=(Header("Event", "x", (Comment("}"),)),)),
    ])
    def test_format_game_refuses_what_it_cannot_write(self, game):
        with pytest.raises(ValueError):
            format_game(game)


class TestGames:
    def test_games_are_separated_by_a_blank_line_and_read_back(self):
        first = Game(headers=(Header("Round", "1"),), moves=(move("R3"), move("G4")),
                     comments=(Comment("match"),))
        second = Game(headers=(Header("Round", "2"),),
                      moves=(move("B5", comments=[Comment("end", "line")]),))
        third = Game(headers=(Header("Round", "3"),))
        text = format_games([first, second, third])
        assert text == ('{match}\n[Round "1"]\n\n1. R3-D\n2. G4-D\n\n'
                        '[Round "2"]\n\n1. B5-D ;end\n\n[Round "3"]\n')
        assert list(parse_games(text)) == [first, second, third]
        assert format_games([first, second], "lower").count("r3-d") == 1
        assert format_games([]) == ""

    @pytest.mark.parametrize("games", [
        # A game without moves, then another: its header would join the first.
        [Game(headers=(Header("Round", "1"),)), Game(headers=(Header("Round", "2"),),
                                                     moves=(move("R3"),))],
        # A second game without headers would continue the first one's moves.
        [Game(moves=(move("R3"),)), Game(moves=(move("G4"),))],
        # Comments before a later game's headers would belong to the game before.
        [Game(moves=(move("R3"),)),
         Game(headers=(Header("Round", "2"),), moves=(move("G4"),),
              comments=(Comment("c"),))],
    ])
    def test_format_games_refuses_games_that_would_read_back_differently(self, games):
        with pytest.raises(ValueError):
            format_games(games)

    def test_format_games_takes_an_iterator(self):
        games = iter([Game(moves=(move("R3"),)), Game(headers=(Header("A", "1"),))])
        assert format_games(games) == '1. R3-D\n\n[A "1"]\n'
