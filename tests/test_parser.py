"""Reading notation from strings: parse_move and parse_game.

What is read (cards, placements, draws, numbers, turns, comments, headers),
where it stands (every node's span), and what happens to text that is not
notation (the diagnostics, lax recovery, strict mode).
"""

from __future__ import annotations

import pickle
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import PIECES, examples

from lcnotation.lostcities.text.ast import HANDSHAKE, Card, Comment, Draw, Game, Header, Move, Placement, Span
from lcnotation.core.diagnostics import Diagnostic, NotationError, Severity
from lcnotation.lostcities.text.formatter import format_move
from lcnotation.lostcities.text.messages import SYNTAX_CODES
from lcnotation.lostcities.text.reader import parse_game, parse_move
from lcnotation.core.span import NO_SPAN
from paths import read_game


def moves(game: Game) -> list:
    return [format_move(m) for m in game.moves]


def turns(game: Game) -> list:
    return [(m.turn, format_move(m)) for m in game.moves]


def errors(game: Game) -> list:
    return [(e.code, e.line, e.column, e.end_line, e.end_column) for e in game.errors]


def where(span: Span) -> tuple:
    """Where a span starts and ends, as lines and columns."""
    return span.line, span.column, span.end_line, span.end_column


def at(text: str, span: Span) -> str:
    """The text a span covers, found by its offsets."""
    return text[span.start:span.end]


def line_col(text: str, offset: int) -> tuple:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def check_span(text: str, span: Span) -> None:
    """A span's lines and columns agree with its offsets."""
    assert 0 <= span.start <= span.end <= len(text)
    assert (span.line, span.column) == line_col(text, span.start)
    assert (span.end_line, span.end_column) == line_col(text, span.end)


# ---------------------------------------------------------------- single moves


def test_the_drafts_own_examples():
    r3, bhd, r4 = parse_move("R3-D"), parse_move("BHD-D"), parse_move("R4-B")
    assert r3 == Move(Placement(Card("R", 3)), Draw(None))
    assert (r3.card, r3.placement.discard, r3.draw.from_draw_pile) == (Card("R", 3), False, True)
    assert bhd == Move(Placement(Card("B", HANDSHAKE), discard=True), Draw(None))
    assert bhd.card.is_handshake and bhd.card.rank == 0
    assert r4 == Move(Placement(Card("R", 4)), Draw("B"))
    assert r4.draw.color == "B" and not r4.draw.from_draw_pile


@pytest.mark.parametrize("rank_text, rank", [("H", HANDSHAKE), ("h", HANDSHAKE)]
                         + [(str(n), n) for n in range(2, 11)])
def test_every_rank(rank_text, rank):
    assert parse_move(f"G{rank_text}-D").card == Card("G", rank)


@pytest.mark.parametrize("text", ["bhd-d", "BHD-D", "BHX-D", "bhx-d", "Bhx-D", "bHd-d"])
def test_every_spelling_of_a_discard_is_the_same_move(text):
    assert parse_move(text) == parse_move("BHD-D")


@pytest.mark.parametrize("text, color, draw", [
    ("KH-K", "K", "K"), ("k5-d", "K", None), ("P7D-R", "P", "R"), ("a2-z", "A", "Z"),
])
def test_any_letter_but_d_h_x_is_a_colour(text, color, draw):
    move = parse_move(text)
    assert (move.card.color, move.draw.color) == (color, draw)


def test_a_move_keeps_its_written_number_outside_equality():
    move = parse_move("12. R3-D")
    assert move.number == 12
    assert move == parse_move("R3-D") and parse_move("R3-D").number is None
    assert parse_move("1.R3-D").number == 1


def test_the_spans_of_a_move_and_its_parts():
    text = "  12.  r10x-b "
    move = parse_move(text)
    assert at(text, move.span) == "r10x-b"  # the number is not part of the move
    assert at(text, move.placement_span) == "r10x"
    assert at(text, move.card_span) == "r10"
    assert at(text, move.draw_span) == "b"
    assert move.span == Span(1, 8, 1, 14, 7, 13)
    assert move.card_span == Span(1, 8, 1, 11, 7, 10)
    assert move.draw_span == Span(1, 13, 1, 14, 12, 13)


@pytest.mark.parametrize("fast", [True, False])
def test_the_parts_of_a_move_are_values_shared_between_moves(fast):
    first, second, third = read_game("R3-D\nr3-d R3D-D", fast).moves
    assert first.placement is second.placement and first.draw is second.draw
    assert third.placement != first.placement and third.draw is first.draw
    # The parts have no position of their own: the move gives theirs.
    assert first.card.span is NO_SPAN and first.card_span != second.card_span
    assert (first.card_span.line, second.card_span.line) == (1, 2)


def test_a_move_built_without_a_position_has_none_for_its_parts():
    move = Move(Placement(Card("R", 10), True), Draw("B"))
    assert (move.span, move.card_span, move.placement_span, move.draw_span) == (NO_SPAN,) * 4


def test_spans_do_not_take_part_in_equality():
    assert parse_move("R3-D") == parse_move("   R3-D")
    assert hash(parse_move("R3-D")) == hash(parse_move("\nr3-d"))


@pytest.mark.parametrize("text, code, column, expected", [
    ("", "N101", 1, "expected a move"),
    ("R11-D", "N103", 2, "rank"),
    ("D3-D", "N102", 1, "reserved for the draw pile"),
    ("R3-", "N105", 4, "draw"),
    ("R3", "N104", 3, "'-'"),
    ("R3-BD", "N106", 5, "before the hyphen"),
    ("R3-D!!", "N107", 5, "'!!'"),
    ("R3-D G4-D", "N107", 6, "parse_move reads one move"),
    ("R3-D {c}", "N107", 6, "parse_move reads one move"),
    ("BHD-D  [x", "N107", 8, "unexpected '[x' after the move 'BHD-D'"),  # was "''"
    ("{c} R3-D", "N101", 1, "comment"),
    ("[Event \"x\"]", "N109", 1, "found a header"),
    ("1.", "N111", 1, "'1.'"),
])
def test_parse_move_raises_notation_errors(text, code, column, expected):
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    err = caught.value
    assert (err.code, err.line, err.column) == (code, 1, column)
    assert expected in err.message
    assert isinstance(err, ValueError)


# ---------------------------------------------------------------- games


def test_moves_with_and_without_numbers():
    per_turn = parse_game("1. R3-D 2. BHD-D 3. R4-B")
    per_round = parse_game("1. R3-D BHD-D 2. R4-B")
    none = parse_game("R3-D\nBHD-D\n\n\tR4-B")
    for game in (per_turn, per_round, none):
        assert moves(game) == ["R3-D", "BHD-D", "R4-B"] and not game.errors
        assert [m.turn for m in game.moves] == [0, 1, 2]
    assert [m.number for m in per_turn.moves] == [1, 2, 3]
    assert [m.number for m in per_round.moves] == [1, None, 2]
    assert [m.number for m in none.moves] == [None, None, None]
    assert per_turn == per_round == none  # numbers are not part of equality


def test_numbers_are_kept_as_written_not_checked():
    game = parse_game("5. R3-D 5. G4-D 0. B2-D")
    assert [m.number for m in game.moves] == [5, 5, 0] and not game.errors


def test_the_spans_in_a_game():
    text = ('[Event "Club"]\n'
            '[Site "a \\"b\\""] {c1}\n'
            '\n'
            '1. R3-D {c2\n'
            'still c2} 2. BHD-D ; c3\n'
            '   3.R4-B')
    game = parse_game(text)
    assert not game.errors
    event, site = game.headers
    assert at(text, event.span) == '[Event "Club"]' and where(event.span) == (1, 1, 1, 15)
    assert at(text, event.value_span) == "Club" and where(event.value_span) == (1, 9, 1, 13)
    assert at(text, site.value_span) == 'a \\"b\\"' and site.value == 'a "b"'
    c1, = site.comments
    assert at(text, c1.span) == "{c1}" and where(c1.span) == (2, 18, 2, 22)
    r3, bhd, r4 = game.moves
    assert where(r3.span) == (4, 4, 4, 8)
    c2, = r3.comments
    assert c2.text == "c2\nstill c2" and where(c2.span) == (4, 9, 5, 10)
    assert where(bhd.span) == (5, 14, 5, 19) and at(text, bhd.placement_span) == "BHD"
    c3, = bhd.comments
    assert (c3.kind, c3.text, where(c3.span)) == ("line", " c3", (5, 20, 5, 24))
    assert where(r4.span) == (6, 6, 6, 10) and r4.number == 3
    assert game.span == Span(1, 1, 6, 10, 0, len(text))
    for node in [event, site, c1, r3, c2, bhd, c3, r4, game]:
        check_span(text, node.span)
    for move in game.moves:
        for span in (move.placement_span, move.card_span, move.draw_span):
            check_span(text, span)


def test_columns_count_characters_not_bytes():
    text = "{é🎲} R3-D\n[Event \"Zoë\"]"
    game = parse_game(text)
    assert where(game.moves[0].span)[:2] == (1, 6)
    assert game.errors[0].code == "N109"  # the header after the moves, at its place
    assert where(game.errors[0].span)[:2] == (2, 1)


class TestComments:
    def test_kinds_and_exact_text(self):
        game = parse_game("R3-D {  two  spaces } ;;semi{colons}\n{}")
        assert game.moves[0].comments == (
            Comment("  two  spaces ", "brace"), Comment(";semi{colons}", "line"),
            Comment("", "brace"))

    def test_comments_attach_to_what_they_follow(self):
        text = ("; before everything\n{also before}\n"
                "[Event \"x\"] ;on the header's line\n{after the header}\n"
                "[Site \"y\"]\n\n"
                "1. {between number and move} R3-D {after R3-D}\n"
                "2. BHD-D\n; at the end\n")
        game = parse_game(text)
        assert [c.text for c in game.comments] == [" before everything", "also before"]
        event, site = game.headers
        assert [c.text for c in event.comments] == ["on the header's line", "after the header"]
        # A move starts at its colour letter: a comment after its number
        # follows the header (or move) before it.
        assert [c.text for c in site.comments] == ["between number and move"]
        r3, bhd = game.moves
        assert [c.text for c in r3.comments] == ["after R3-D"]
        assert [c.text for c in bhd.comments] == [" at the end"]

    def test_comments_before_the_first_move_of_a_game_without_headers(self):
        game = parse_game("{a} ;b\n1. {c} R3-D")
        assert [c.text for c in game.comments] == ["a", "b", "c"]
        assert game.moves[0].comments == ()

    def test_a_game_of_comments_only(self):
        game = parse_game("{a}\n;b")
        assert (game.headers, game.moves) == ((), ())
        assert [c.text for c in game.comments] == ["a", "b"]

    def test_a_line_comment_ends_before_a_carriage_return(self):
        game = parse_game("R3-D ;text\r\nG4-D")
        assert game.moves[0].comments[0].text == "text"
        assert moves(game) == ["R3-D", "G4-D"]

    def test_comment_spans_in_crlf_text(self):
        text = "R3-D {a\r\nb}\r\nG4-D ;c\r\n"
        game = parse_game(text)
        brace = game.moves[0].comments[0]
        assert brace.text == "a\r\nb" and where(brace.span) == (1, 6, 2, 3)
        assert where(game.moves[1].span)[:2] == (3, 1)
        for m in game.moves:
            check_span(text, m.span)

    def test_no_comment_is_lost_around_errors(self):
        text = "{a} R3-D {b} R11-D {c} ;d\nG4-D R3 {e} B5-D {f}"
        game = parse_game(text)
        found = [c.text for c in game.comments]
        found += [c.text for m in game.moves for c in m.comments]
        assert found == ["a", "b", "c", "d", "e", "f"]


class TestHeaders:
    def test_names_values_and_escapes(self):
        game = parse_game('[Event "The \\"Open\\""]\n[Site "C:\\\\x"]\n[ x_1\t"" ]\n'
                          '[Annotator "Sam"]\n[Event "again"]')
        assert [(h.name, h.value) for h in game.headers] == [
            ("Event", 'The "Open"'), ("Site", "C:\\x"), ("x_1", ""), ("Annotator", "Sam"),
            ("Event", "again")]
        assert game.header("Event") == 'The "Open"'  # the first of a repeated tag
        assert game.header("Round") is None and game.header("Round", "?") == "?"
        assert game.tags == {"Event": 'The "Open"', "Site": "C:\\x", "x_1": "",
                             "Annotator": "Sam"}
        assert not game.errors

    def test_a_header_after_the_moves_is_reported_and_the_moves_go_on(self):
        # Regression: the header used to end the movetext, and every move
        # after it was lost (N101 each).
        game = parse_game('R3-D [Event "x"] G4-D\n[Site "y"]\nB5-D Y6-D')
        assert moves(game) == ["R3-D", "G4-D", "B5-D", "Y6-D"]
        assert [m.turn for m in game.moves] == [0, 1, 2, 3]
        assert errors(game) == [("N109", 1, 6, 1, 17), ("N109", 2, 1, 2, 11)]
        assert "begin its own line" in game.errors[0].message
        assert "new game" in game.errors[1].message

    def test_a_header_not_at_the_start_of_its_line_in_the_header_block(self):
        game = parse_game('[Event "x"] [Site "y"]\n1. R3-D')
        assert [h.name for h in game.headers] == ["Event", "Site"]
        assert errors(game) == [("N109", 1, 13, 1, 23)]

    @pytest.mark.parametrize("line, column, end_column, expected", [
        ('[Event "x]', 8, 11, "closing '\"'"),
        ('[Event "a\\qb"]', 10, 12, "unknown escape '\\q'"),
        ('[Event "x"', 11, 11, "closing ']'"),
        ('["x"]', 1, 6, "expected a name"),
        ('[Event x]', 7, 10, "a space and a value in double quotes"),
        ('[Event"x"]', 7, 11, "a space and a value in double quotes"),
        ('[1Event "x"]', 1, 13, "expected a name"),
    ])
    def test_malformed_headers(self, line, column, end_column, expected):
        game = parse_game(line + '\n[Site "ok"]\n1. R3-D')
        assert errors(game) == [("N108", 1, column, 1, end_column)]
        assert expected in game.errors[0].message
        assert [h.name for h in game.headers] == ["Site"] and moves(game) == ["R3-D"]


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("text, code, position, expected", [
    ("R11-D", "N103", (1, 2, 1, 4), "expected a rank (2 to 10, or H) after the colour 'R', "
                                    "found '11'"),
    ("R1-D", "N103", (1, 2, 1, 3), "found '1'"),
    ("R100-D", "N103", (1, 2, 1, 5), "'100' is not a rank"),
    ("RH3-D", "N103", (1, 2, 1, 4), "'H3' is not a rank"),
    ("R-D", "N103", (1, 2, 1, 4), "expected a rank"),
    ("D3-D", "N102", (1, 1, 1, 2), "D is reserved for the draw pile"),
    ("H3-D", "N102", (1, 1, 1, 2), "H is the handshake rank"),
    ("x3-D", "N102", (1, 1, 1, 2), "X is the discard marker"),
    ("R3", "N104", (1, 3, 1, 3), "expected '-' and a draw"),
    ("R3D", "N104", (1, 4, 1, 4), "expected '-' and a draw"),
    ("R3a-D", "N104", (1, 3, 1, 6), "expected '-' (or the discard marker D or X)"),
    ("R3-", "N105", (1, 4, 1, 4), "missing draw"),
    ("R3-H", "N105", (1, 4, 1, 5), "'H' is not a draw source"),
    ("R3-1", "N105", (1, 4, 1, 5), "expected a draw"),
    ("R3-BD", "N106", (1, 5, 1, 6), "before the hyphen (as in 'R3D-B')"),
    ("R3-DX", "N106", (1, 5, 1, 6), "before the hyphen (as in 'R3X-D')"),
    ("R3-D!!", "N107", (1, 5, 1, 7), "unexpected '!!' after the move 'R3-D'"),
    ("R3-DB4-D", "N107", (1, 5, 1, 9), "a move ends with its draw"),
    ("[Event \"x]", "N108", (1, 8, 1, 11), "no closing"),
    ("R3-D\n[Event \"x\"]", "N109", (2, 1, 2, 12), "new game"),
    ("{abc", "N110", (1, 1, 1, 5), "never closed"),
    ("}", "N101", (1, 1, 1, 2), "without an opening '{'"),
    ("R3-D 2.", "N111", (1, 6, 1, 8), "'2.' is not followed by a move"),
    ("12 R3-D", "N101", (1, 1, 1, 3), "written with a dot, as '12.'"),
    ("R3-D ?", "N101", (1, 6, 1, 7), "unexpected '?'"),
])
def test_each_error_names_what_was_expected(text, code, position, expected):
    game = parse_game(text)
    assert errors(game)[:1] == [(code, *position)]
    assert expected in game.errors[0].message
    assert code in SYNTAX_CODES
    with pytest.raises(NotationError) as caught:
        parse_game(text, strict=True)
    assert (caught.value.code, *where(caught.value.span)) == (code, *position)


class TestRecovery:
    """Lax mode: an error costs the move it is in, never the rest of the game."""

    @pytest.mark.parametrize("bad", [
        "R11-D", "R1-D", "D3-D", "H3-D", "X3-D", "R3-", "R3", "R3-BD", "R3-DX",
        "R3-DB4-D", "RH3-D", "R3D", "R-D", "R3-1", "é3-D", "R3-é", "R3+D",
    ])
    def test_a_bad_move_is_a_turn_and_the_game_goes_on(self, bad):
        game = parse_game(f"1. R3-D 2. {bad} 3. G4-D\n4. B5-B {{c}} Y6-D")
        assert len(game.errors) == 1, errors(game)
        assert turns(game) == [(0, "R3-D"), (2, "G4-D"), (3, "B5-B"), (4, "Y6-D")]
        assert [m.number for m in game.moves] == [1, 3, 4, None]
        assert game.moves[2].comments == (Comment("c"),)

    @pytest.mark.parametrize("text, expected", [
        ("R3-D !! G4-D", [(0, "R3-D"), (1, "G4-D")]),       # punctuation is not a turn
        ("R3-D!! G4-D", [(0, "R3-D"), (1, "G4-D")]),        # the move before it stands
        ("R3-D 12 G4-D", [(0, "R3-D"), (1, "G4-D")]),       # a number without its dot
        ("1. 2. R3-D G4-D", [(0, "R3-D"), (1, "G4-D")]),    # a dangling number
        ("R3-D } G4-D", [(0, "R3-D"), (1, "G4-D")]),
        ("R3-D }G4-D", [(0, "R3-D"), (1, "G4-D")]),         # regression: G4-D was lost
        ("R3-D {unclosed\nG4-D", [(0, "R3-D"), (1, "G4-D")]),
        ("R3-D R3 {why?} B4-D", [(0, "R3-D"), (2, "B4-D")]),  # regression: B4-D was lost
        ("R3-D R3 ;why?\nB4-D", [(0, "R3-D"), (2, "B4-D")]),  # regression: 'why?' read as moves
        ("R3-D [Event \"x\"] G4-D", [(0, "R3-D"), (1, "G4-D")]),
        ("R11-D R11-D R11-D G4-D", [(3, "G4-D")]),
        ("R3-D foo bar G4-D", [(0, "R3-D"), (3, "G4-D")]),  # each word with a letter counts
    ])
    def test_turns_count_every_attempted_move(self, text, expected):
        game = parse_game(text)
        assert game.errors
        assert turns(game) == expected

    @pytest.mark.parametrize("text, expected, comment", [
        ('[E "x"] R{c}R3-D', [(1, "R3-D")], "c"),       # regression: R3-D was lost
        ('[E "x"] R;R3-D', [], "R3-D"),                 # regression: ';R3-D' read as a move
        ('[E "x"]\nR3 {c} G4-D', [(1, "G4-D")], "c"),   # regression: G4-D was lost
        ('[E "x"]\nR3 ; c G4-D', [], " c G4-D"),       # regression: 'c G4-D' read as moves
        ('[E "x"]\n1. R3-', [], None),
        ('[E "x"]\n1. R3- {a} {b} ;c\n2. G4-D', [(1, "G4-D")], "a"),
        ('{before}\n[E "x"]\nR3 {c} G4-D', [(1, "G4-D")], "c"),
    ])
    def test_a_comment_after_a_move_cut_short_after_the_headers(self, text, expected, comment):
        """spec/file-format.md 8.1 and 8.3: the fragment is dropped and
        reported, the comment is read as a comment (it follows the header),
        and what follows is read afresh; one error, for the fragment."""
        game = parse_game(text)
        assert [e.code for e in game.errors] in (["N103"], ["N104"], ["N105"]), errors(game)
        assert turns(game) == expected
        if comment is not None:
            assert game.headers[-1].comments[0].text == comment

    def test_errors_are_in_source_order_with_their_positions(self):
        text = "R11-D G4-D\nD3-D B5-B\n  R3- Y2-D"
        game = parse_game(text)
        assert errors(game) == [("N103", 1, 2, 1, 4), ("N102", 2, 1, 2, 2),
                                ("N105", 3, 6, 3, 6)]
        for err in game.errors:
            check_span(text, err.span)
            assert err.path is None
        assert turns(game) == [(1, "G4-D"), (3, "B5-B"), (5, "Y2-D")]

    def test_a_move_number_before_a_bad_move_is_not_reported_as_dangling(self):
        # Regression: '2. D3-D' also gave N111 for '2.'.
        game = parse_game("1. R3-D 2. D3-D 3. G4-D")
        assert errors(game) == [("N102", 1, 12, 1, 13)]
        assert turns(game) == [(0, "R3-D"), (2, "G4-D")]

    def test_a_comment_between_a_number_and_a_second_number(self):
        # Regression: the comment hid '1.' from recovery; N101 with a
        # nonsensical message, and the move took the number 1.
        game = parse_game("1. {c} 2. R3-D")
        assert errors(game) == [("N111", 1, 1, 1, 3)]
        assert game.moves[0].number == 2
        assert [c.text for c in game.comments] == ["c"]

    @pytest.mark.parametrize("text", ["1.{abc\nR3-D", "1.[ h;c\nR3-D", "1. {abc\nR3-D"])
    def test_an_unclosed_comment_or_bad_header_after_a_number_skips_its_line(self, text):
        # Regression: the rest of the line was read as moves, with spurious
        # errors, and a turn was counted for it.
        game = parse_game(text)
        assert [e.code for e in game.errors if e.code != "N111"] in (["N110"], ["N108"])
        assert turns(game) == [(0, "R3-D")]

    def test_an_error_at_the_end_of_the_text(self):
        for text in ("R3-D R3-", "R3-D R3", "R3-D R", "R3-D 2.", "R3-D {x"):
            game = parse_game(text)
            assert len(game.errors) == 1 and moves(game) == ["R3-D"], text
            assert game.errors[0].span.end <= len(text)


# Movetext from the notation's pieces, without the ones that make or break a
# header line (those are about headers, not about what follows them).
_MOVETEXT = st.lists(st.sampled_from([p for p in PIECES if "[" not in p and "]" not in p]),
                     max_size=30).map("".join)


def _read(game: Game, line_delta: int) -> tuple:
    """What a game's movetext reads as: its moves with their turns and
    numbers, every comment's text in the order of the text, and the errors
    with their places (lines counted from ``line_delta``)."""
    comments = [c.text for c in game.comments]
    comments += [c.text for h in game.headers for c in h.comments]
    comments += [c.text for m in game.moves for c in m.comments]
    return ([(m.turn, m.number, format_move(m)) for m in game.moves], comments,
            [(e.code, str(e.message), e.line - line_delta, e.column) for e in game.errors])


@examples(300)
@given(_MOVETEXT)
def test_a_header_line_before_the_movetext_does_not_change_how_it_reads(text):
    """A header line is not movetext: with one before it, the same text reads
    as the same moves, comments and errors (regression: after a header, an
    unfinished move followed by a comment read the comment as moves, or lost
    what followed it)."""
    header = '[Event "x"]\n'
    alone, headed = parse_game(text), parse_game(header + text)
    assert [h.name for h in headed.headers] == ["Event"]
    assert _read(headed, 1) == _read(alone, 0)


# Long words: what the messages quote of them must stay short.
_LONG = st.integers(30, 300).flatmap(lambda n: st.sampled_from([
    "A" + "wUCAAIsRih" * (n // 10), "R" + "3" * n, "R3" + "x" * n, "R3-" + "Q" * n,
    "R3-D" + "," * n, "[" + "Name" * n, '[E "' + "v" * n, "7" * n, "é" * n, "1." + "R" * n]))


@examples(200)
@given(st.lists(st.one_of(st.sampled_from(PIECES), _LONG), max_size=8).map("".join))
def test_messages_quote_long_words_shortened(text):
    """A syntax error quotes a few characters of what it found, not a whole
    long word (regression: a replay string of another program gave an N103
    of 200 characters); the span still covers the whole word."""
    for e in parse_game(text).errors:
        assert len(e.message) <= 160, e.message


def test_a_long_word_is_quoted_shortened_and_spanned_whole():
    word = "wUCAAIsRihQEyZEUxZUWSAwR0lSJCBAWEo6NDAXNjJFNyBCVxAlM0g5Jx"
    (e,) = [e for e in parse_game("A" + word).errors if e.code == "N103"]
    assert e.message == ("expected a rank (2 to 10, or H) after the colour 'A', found "
                         f"'{word[:23]}\u2026'")
    assert (e.column, e.end_column) == (2, 2 + len(word))


class TestStrict:
    def test_strict_raises_the_first_error(self):
        text = "R3-D\nG4-D R11-D D3-D"
        with pytest.raises(NotationError) as caught:
            parse_game(text, strict=True)
        err = caught.value
        assert (err.code, err.line, err.column, err.end_line, err.end_column) == \
            ("N103", 2, 7, 2, 9)
        assert str(err) == ("line 2, column 7: expected a rank (2 to 10, or H) after the "
                            "colour 'R', found '11' (N103)")
        assert parse_game(text).errors[0].span == err.span

    def test_strict_names_the_path(self):
        with pytest.raises(NotationError) as caught:
            parse_game("R11-D", strict=True, path="games/a.lcn")
        assert caught.value.path == "games/a.lcn"
        assert str(caught.value).startswith("games/a.lcn, line 1, column 2: ")
        lax = parse_game("R11-D", path="games/a.lcn")
        assert lax.errors[0].path == "games/a.lcn"

    def test_strict_reads_valid_text_like_lax(self):
        text = '{a}\n[Event "x"]\n1. R3-D {b} BHD-D\n2. R4-B'
        assert parse_game(text, strict=True) == parse_game(text)
        assert not parse_game(text, strict=True).errors


class TestNotationError:
    def test_it_is_a_value_error_with_a_position(self):
        err = parse_game("R11-D").errors[0]
        assert isinstance(err, ValueError)
        assert (err.line, err.column, err.end_line, err.end_column) == (1, 2, 1, 4)
        assert repr(err) == ("NotationError(\"expected a rank (2 to 10, or H) after the "
                             "colour 'R', found '11'\", line=1, column=2, code='N103')")

    def test_it_survives_pickling(self):
        err = parse_game("R11-D", path="x.lcn").errors[0]
        again = pickle.loads(pickle.dumps(err))
        assert (again.message, again.span, again.code, again.path) == \
            (err.message, err.span, err.code, err.path)

    def test_as_a_diagnostic(self):
        err = parse_game("R11-D", path="x.lcn").errors[0]
        d = err.to_diagnostic()
        assert d == Diagnostic("N103", err.message, err.span, Severity.ERROR, "x.lcn")
        assert str(d) == f"x.lcn:1:2: N103 {err.message}"
        assert (d.line, d.column, d.end_line, d.end_column) == (1, 2, 1, 4)


def test_the_tree_compares_by_meaning():
    a = parse_game('[Event "x"] {c}\n1. R3-D {d}\n2. BHD-D')
    b = parse_game('[Event "x"]{c} r3-d{d} bhx-d R11-D')
    assert a == b and hash(a) == hash(b)
    assert a != parse_game('[Event "x"] {c}\n1. R3-D {e}\n2. BHD-D')
    assert a != parse_game('[Event "y"] {c}\n1. R3-D {d}\n2. BHD-D')
    assert Comment("x", "brace") != Comment("x", "line")
    assert Header("A", "1") != Header("A", "1", (Comment("c"),))


def test_parsing_in_threads_gives_the_same_games():
    texts = [f"[Round \"{i}\"]\n" + " ".join(["R3-D", "BHD-D", f"G{2 + i % 9}-D"] * 20)
             for i in range(8)]
    expected = [parse_game(t) for t in texts]
    results = {}

    def work(i):
        for _ in range(3):
            game = parse_game(texts[i])
            if game != expected[i] or game.moves[-1].span != expected[i].moves[-1].span:
                results[i] = "differs"
                return
        results[i] = "same"

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: "same" for i in range(8)}
