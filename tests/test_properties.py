"""Properties, checked on generated trees and text (see strategies.py).

- parse(format(tree)) == tree, in every dialect, for one game and for files
  of several games;
- format(parse(text)) == text for canonical text;
- a game written in any accepted way reads as the same game, every move's
  span pointing at what was written;
- any text at all: nothing but NotationError ever escapes, lax reading never
  raises, strict reading raises exactly the first error of lax reading, and
  every position lies inside the text.
"""

from __future__ import annotations

import re

import io

from hypothesis import given
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedInput

from lcnotation.lostcities.text.ast import Card, Comment, Draw, Game, Header, Move, Placement
from lcnotation.core.diagnostics import NotationError
from lcnotation.lostcities.text.formatter import format_game, format_games, format_move
from lcnotation.lostcities.text.headers import parse_cards, parse_colors, parse_result
from lcnotation.core.grammar import grammar_text
from lcnotation.lostcities.text.reader import parse_game, parse_games, parse_move, read_games
from strategies import examples, game_lists, games, notation_text, written_games

DIALECTS = ("v1", "x-discard", "lower")
any_text = st.text() | notation_text


def position(text: str, offset: int) -> tuple:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def assert_inside(text: str, span, lone_cr_ends_a_line: bool = True) -> None:
    # The reading functions take a lone CR as a line end (same length, same
    # offsets); a header value, which holds no line end in a file, does not.
    if lone_cr_ends_a_line:
        text = re.sub(r"\r(?!\n)", "\n", text)
    assert 0 <= span.start <= span.end <= len(text), span
    assert (span.line, span.column) == position(text, span.start), span
    assert (span.end_line, span.end_column) == position(text, span.end), span


# ---------------------------------------------------------------- round trips


@examples(40)
@given(games())
def test_parse_of_format_is_the_game(game):
    again = parse_game(format_game(game))
    assert again == game
    assert again.errors == ()


@examples(25)
@given(games())
def test_format_of_parse_is_canonical_text(game):
    text = format_game(game)
    assert format_game(parse_game(text)) == text
    assert format_game(parse_game(text, strict=True)) == text


@examples(25)
@given(games(), st.sampled_from(DIALECTS))
def test_every_dialect_reads_back_as_the_same_game(game, dialect):
    text = format_game(game, dialect)
    again = parse_game(text)
    assert again == game and not again.errors
    assert format_game(again) == format_game(game)
    assert format_game(again, dialect) == text


@examples(20)
@given(game_lists(), st.sampled_from(DIALECTS))
def test_files_of_several_games_read_back(game_list, dialect):
    text = format_games(game_list, dialect)
    assert list(parse_games(text)) == game_list
    assert format_games(list(parse_games(text))) == format_games(game_list)
    if "\r" not in text:  # read_games reads a CR as a line end, even in a comment
        assert list(read_games(io.BytesIO(text.encode("utf-8")))) == game_list
        crlf = text.replace("\n", "\r\n").encode("utf-8")
        assert list(read_games(io.BytesIO(crlf))) == game_list


@examples(40)
@given(written_games())
def test_a_game_written_any_accepted_way_reads_as_the_game(case):
    game, text = case
    again = parse_game(text)
    assert again.errors == ()
    assert again == game
    assert [m.turn for m in again.moves] == list(range(len(game.moves)))
    for written, m in zip(again.moves, game.moves):
        assert_inside(text, written.span)
        assert parse_move(text[written.span.start:written.span.end]) == \
            Move(m.placement, m.draw)
        assert format_move(written) == format_move(m)
    for header in again.headers:
        assert_inside(text, header.span)
        assert text[header.span.start:header.span.end].startswith("[" + header.name)


# ---------------------------------------------------------------- any text


@examples(150)
@given(any_text)
def test_lax_parse_game_never_raises_and_positions_are_inside(text):
    game = parse_game(text)
    assert_inside(text, game.span)
    for err in game.errors:
        assert isinstance(err, NotationError) and err.code.startswith("N")
        assert_inside(text, err.span)
    starts = [e.span.start for e in game.errors]
    assert starts == sorted(starts)
    previous_end, previous_turn = 0, -1
    for move in game.moves:
        assert_inside(text, move.span)
        assert move.span.start >= previous_end and move.turn > previous_turn
        previous_end, previous_turn = move.span.end, move.turn
        assert parse_move(text[move.span.start:move.span.end]) == Move(move.placement, move.draw)
    for node in [*game.headers, *game.comments,
                 *(c for n in (*game.headers, *game.moves) for c in n.comments)]:
        assert_inside(text, node.span)


@examples(150)
@given(any_text)
def test_strict_raises_exactly_the_first_lax_error(text):
    lax = parse_game(text)
    try:
        strict = parse_game(text, strict=True)
    except NotationError as err:
        assert lax.errors, "strict mode raised on text that lax mode reads cleanly"
        first = lax.errors[0]
        assert (err.code, err.span, err.message) == (first.code, first.span, first.message)
    else:
        assert not lax.errors
        assert strict == lax


@examples(100)
@given(any_text)
def test_parse_move_raises_only_notation_errors(text):
    try:
        move = parse_move(text)
    except NotationError as err:
        assert_inside(text, err.span)
    else:
        game = parse_game(text)
        assert game.moves == (move,) and not game.errors


@examples(80)
@given(any_text)
def test_several_games_tile_the_text(text):
    games_read = list(parse_games(text))
    if not games_read:
        assert not text.strip(" \t\n\r\f\v\ufeff") or text.isspace()  # blank: no game
        return
    assert games_read[0].span.start == 0 and games_read[-1].span.end == len(text)
    for before, after in zip(games_read, games_read[1:]):
        assert before.span.end == after.span.start
        assert after.headers or after.errors  # only a header line starts a game
    for game in games_read:
        for node in (*game.moves, *game.errors):
            assert_inside(text, node.span)
    single = parse_game(text)
    if len(games_read) == 1:
        assert games_read[0] == single
        assert [e.span for e in games_read[0].errors] == [e.span for e in single.errors]
    else:  # a line that starts with '[' after movetext: one game cannot hold it
        assert single.errors
    try:
        list(parse_games(text, strict=True))
    except NotationError as err:
        assert_inside(text, err.span)
        assert any(g.errors for g in games_read)


@examples(80)
@given(any_text)
def test_read_games_of_a_text_file_is_parse_games(text):
    if "\r" in text:
        text = text.replace("\r", "")  # a text file reads a CR as a line end
    from_file = list(read_games(io.StringIO(text)))
    from_text = list(parse_games(text))
    assert from_file == from_text
    assert [[e.span for e in g.errors] for g in from_file] == \
        [[e.span for e in g.errors] for g in from_text]


@examples(80)
@given(st.binary() | notation_text.map(lambda t: t.encode("utf-8")))
def test_read_games_of_any_bytes_raises_only_notation_errors(data):
    decoded = data.decode("utf-8", errors="replace")
    if decoded.startswith("\ufeff"):
        decoded = decoded[1:]
    decoded = decoded.replace("\r\n", "\n").replace("\r", "\n")
    for game in read_games(io.BytesIO(data)):
        for err in game.errors:
            assert_inside(decoded, err.span)
    try:
        list(read_games(io.BytesIO(data), strict=True))
    except NotationError as err:
        assert_inside(decoded, err.span)


@examples(60)
@given(any_text)
def test_header_values_raise_only_notation_errors(text):
    for read in (parse_colors, parse_cards, parse_result):
        try:
            read(text)
        except NotationError as err:
            assert err.code in ("N120", "N121", "N122")
            assert_inside(text, err.span, lone_cr_ends_a_line=False)


_GRAMMAR = Lark(grammar_text("lcnotation.lark"), parser="lalr", lexer="contextual", start=["game", "file"])


def _accepts(start: str, text: str) -> bool:
    try:
        _GRAMMAR.parse(text, start=start)
    except UnexpectedInput:
        return False
    return True


@examples(100)
@given(notation_text)
def test_the_reader_agrees_with_the_grammar(text):
    """The reader finds an error exactly where the grammar rejects the text.

    The one difference is N109: the grammar takes a header anywhere (in a
    game, only before the moves), and the reader also asks that a header
    begin its own line."""
    codes = {e.code for e in parse_game(text).errors}
    if not codes:
        assert _accepts("game", text)
    if not _accepts("game", text):
        assert codes
    elif codes:
        assert codes == {"N109"}
    file_codes = {e.code for g in parse_games(text) for e in g.errors}
    assert _accepts("file", text) == (not file_codes - {"N109"})


_loose_comments = st.lists(st.builds(Comment, st.text(max_size=6),
                                     st.sampled_from(["brace", "line"])), max_size=2).map(tuple)
_loose_games = st.builds(
    Game,
    st.lists(st.builds(Header, st.text(max_size=4), st.text(max_size=6), _loose_comments),
             max_size=2).map(tuple),
    st.lists(st.builds(Move,
                       st.builds(Placement, st.builds(Card, st.text(max_size=2),
                                                      st.integers(-1, 12)), st.booleans()),
                       st.builds(Draw, st.none() | st.text(max_size=2)),
                       _loose_comments), max_size=3).map(tuple),
    _loose_comments)


@examples(60)
@given(_loose_games, st.sampled_from(DIALECTS))
def test_the_formatter_refuses_what_it_cannot_write(game, dialect):
    """Any tree at all: format_game raises ValueError, or writes text that
    reads back as the same tree (never a silent change)."""
    try:
        text = format_game(game, dialect)
    except ValueError:
        return
    assert parse_game(text) == game


@examples(100)
@given(notation_text)
def test_messages_quote_what_they_found(text):
    """No message quotes nothing (the sign of a message built from the wrong
    part of the text), and every message ends with a word, not a space."""
    found = list(parse_game(text).errors)
    try:
        parse_move(text)
    except NotationError as err:
        found.append(err)
    for err in found:
        assert "''" not in err.message, err
        assert err.message == err.message.strip() and "  " not in err.message, err
