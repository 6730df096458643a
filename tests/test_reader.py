"""Reading files: parse_games, read_games and split_games (several games,
positions in the file, sources of every kind, encodings, line ends,
streaming), and the typed header values of lcnotation.lostcities.text.headers."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from lcnotation.lostcities.text.ast import Card, HANDSHAKE
from lcnotation.core.diagnostics import NotationError
from lcnotation.lostcities.text.formatter import format_move
from lcnotation.lostcities.text.headers import (DEFAULT_COLORS, KNOWN_TAGS, RESERVED_LETTERS, game_colors,
                                parse_cards, parse_colors, parse_result)
from lcnotation.lostcities.text.reader import GameText, parse_game, parse_games, read_games, split_games

MATCH = ('; a match\n'
         '[Round "1"]\n'
         '1. R3-D 2. R11-D\n'
         '3. G4-D {end of round 1}\n'
         '\n'
         '[Round "2"]\n'
         '{round 2}\n'
         '1. B5-B\n'
         '2. D3-D 3. Y6-D\n'
         '[Round "3"]\n'
         'W7-D\n')


def summary(games) -> list:
    return [([(h.name, h.value) for h in g.headers],
             [(m.turn, format_move(m), m.span.line, m.span.column) for m in g.moves],
             [(e.code, e.line, e.column) for e in g.errors]) for g in games]


EXPECTED = [
    ([("Round", "1")], [(0, "R3-D", 3, 4), (2, "G4-D", 4, 4)], [("N103", 3, 13)]),
    ([("Round", "2")], [(0, "B5-B", 8, 4), (2, "Y6-D", 9, 12)], [("N102", 9, 4)]),
    ([("Round", "3")], [(0, "W7-D", 11, 1)], []),
]


class TestParseGames:
    def test_each_header_block_after_movetext_starts_a_game(self):
        assert summary(parse_games(MATCH)) == EXPECTED

    def test_positions_are_those_of_the_whole_text(self):
        for game in parse_games(MATCH):
            assert MATCH[game.span.start:game.span.end].lstrip("\n").startswith(("[", ";"))
            for move in game.moves:
                assert MATCH[move.span.start:move.span.end] == format_move(move)
            for err in game.errors:
                assert MATCH[err.span.start:err.span.end] in ("11", "D")
        spans = [g.span for g in parse_games(MATCH)]
        assert [s.line for s in spans] == [1, 6, 10]
        assert spans[0].start == 0 and spans[-1].end == len(MATCH)
        assert all(a.end == b.start for a, b in zip(spans, spans[1:]))

    def test_comments_stay_with_their_game(self):
        first, second, third = parse_games(MATCH)
        assert [c.text for c in first.comments] == [" a match"]
        assert [c.text for c in first.moves[-1].comments] == ["end of round 1"]
        assert [c.text for c in second.headers[0].comments] == ["round 2"]

    def test_a_game_without_moves_ends_only_at_the_end(self):
        games = list(parse_games('[A "1"]\n[B "2"]\n\n[C "3"]\n'))
        assert len(games) == 1 and [h.name for h in games[0].headers] == ["A", "B", "C"]

    def test_strict_raises_in_the_game_at_fault_after_the_good_ones(self):
        games = parse_games(MATCH, strict=True)
        with pytest.raises(NotationError) as caught:
            next(games)
        assert (caught.value.code, caught.value.line) == ("N103", 3)
        games = parse_games('[Round "1"]\nR3-D\n[Round "2"]\nR11-D\n[Round "3"]\nG4-D',
                            strict=True)
        assert next(games).header("Round") == "1"
        with pytest.raises(NotationError) as caught:
            next(games)
        assert (caught.value.code, caught.value.line, caught.value.column) == ("N103", 4, 2)

    def test_empty_text(self):
        assert list(parse_games("")) == []


class TestReadGames:
    @pytest.fixture
    def match_file(self, tmp_path) -> Path:
        path = tmp_path / "match.lcn"
        path.write_bytes(MATCH.encode("utf-8"))
        return path

    def test_from_a_path(self, match_file):
        for source in (match_file, str(match_file)):
            games = list(read_games(source))
            assert summary(games) == EXPECTED
            assert {e.path for g in games for e in g.errors} == {str(match_file)}

    def test_from_a_text_file_and_a_binary_file(self, match_file):
        with open(match_file, encoding="utf-8") as text_file:
            assert summary(read_games(text_file)) == EXPECTED
        with open(match_file, "rb") as binary_file:
            games = list(read_games(binary_file))
        assert summary(games) == EXPECTED
        assert games[0].errors[0].path == str(match_file)  # the file's name
        assert summary(read_games(io.StringIO(MATCH))) == EXPECTED
        assert summary(read_games(io.BytesIO(MATCH.encode()))) == EXPECTED

    def test_the_path_given_wins(self, match_file):
        games = list(read_games(io.BytesIO(MATCH.encode()), path="shown.lcn"))
        assert games[0].errors[0].path == "shown.lcn"
        assert list(read_games(io.BytesIO(MATCH.encode())))[0].errors[0].path is None
        assert list(read_games(match_file, path="x"))[0].errors[0].path == "x"

    def test_strict_raises_with_the_path(self, match_file):
        with pytest.raises(NotationError) as caught:
            list(read_games(match_file, strict=True))
        err = caught.value
        assert (err.code, err.line, err.column, err.path) == ("N103", 3, 13, str(match_file))
        assert str(err).startswith(f"{match_file}, line 3, column 13: ")

    def test_positions_in_later_games_are_the_files(self, match_file):
        text = match_file.read_text("utf-8")
        for game in read_games(match_file):
            for move in game.moves:
                assert text[move.span.start:move.span.end] == format_move(move)
                line = text.split("\n")[move.span.line - 1]
                assert line[move.span.column - 1:move.span.end_column - 1] == format_move(move)

    @pytest.mark.parametrize("newline", ["\r\n", "\r"])
    def test_crlf_and_cr_line_ends(self, newline, tmp_path):
        data = MATCH.replace("\n", newline).encode()
        path = tmp_path / "x.lcn"
        path.write_bytes(data)
        assert summary(read_games(path)) == EXPECTED
        assert summary(read_games(io.BytesIO(data))) == EXPECTED
        assert summary(read_games(io.StringIO(data.decode(), newline=""))) == EXPECTED
        with open(path, encoding="utf-8", newline="") as raw_text:
            assert summary(read_games(raw_text)) == EXPECTED
        # Offsets count the decoded text with its line ends read as LF.
        for game in read_games(path):
            for move in game.moves:
                assert MATCH[move.span.start:move.span.end] == format_move(move)

    def test_a_byte_order_mark_is_skipped(self):
        games = list(read_games(io.BytesIO(b"\xef\xbb\xbf" + MATCH.encode())))
        assert summary(games) == EXPECTED
        first = games[0].comments[0].span
        assert (first.line, first.column, games[0].span.start) == (1, 1, 0)

    def test_bytes_that_are_not_utf8(self):
        data = MATCH.encode().replace(b"1. B5-B", b"1. B\xff-B")
        games = list(read_games(io.BytesIO(data)))
        assert len(games) == 3
        second = games[1]
        assert [(e.code, e.line, e.column) for e in second.errors] == [
            ("N001", 8, 5), ("N103", 8, 5), ("N102", 9, 4)]
        n001 = second.errors[0]
        where = data.index(b"\xff")
        assert f"byte 0xff at byte offset {where}" in n001.message
        assert summary(games[2:]) == EXPECTED[2:]
        with pytest.raises(NotationError) as caught:
            list(read_games(io.BytesIO(data), strict=True))
        assert caught.value.code == "N103"  # game 1 fails first
        with pytest.raises(NotationError) as caught:
            list(read_games(io.BytesIO(b"R3-D\nG\xff4-D"), strict=True))
        assert (caught.value.code, caught.value.line, caught.value.column) == ("N001", 2, 2)

    def test_a_bad_byte_after_a_lone_cr(self):
        # Regression: the position was counted before the CR became a line end.
        games = list(read_games(io.BytesIO(b"R3-D\rG\xff4-D\rB5-D\n")))
        assert [(e.code, e.line, e.column) for e in games[0].errors] == [
            ("N001", 2, 2), ("N103", 2, 2)]
        assert [(m.turn, format_move(m)) for m in games[0].moves] == [(0, "R3-D"), (2, "B5-D")]

    def test_it_streams_one_game_at_a_time(self):
        class Lines(io.StringIO):
            """A text file that counts the lines taken from it."""
            taken = 0

            def __iter__(self):
                return self

            def __next__(self):
                line = self.readline()
                if not line:
                    raise StopIteration
                self.taken += 1
                return line

        source = Lines("".join(f'[Round "{i}"]\nR3-D G4-D\n\n' for i in range(10_000)))
        games = read_games(source)
        first = next(games)
        assert first.header("Round") == "0"
        assert source.taken <= 4  # its three lines and the header line after them
        assert next(games).header("Round") == "1" and source.taken <= 7

    def test_a_generator_of_games_from_a_path_closes_its_file(self, match_file):
        games = read_games(match_file)
        next(games)
        games.close()  # no ResourceWarning, no error


class TestSplitGames:
    def test_where_games_start(self):
        parts = list(split_games(io.StringIO(MATCH)))
        assert [(p.line, p.offset) for p in parts] == [(1, 0), (6, MATCH.index('[Round "2"]')),
                                                       (10, MATCH.index('[Round "3"]'))]
        assert "".join(p.text for p in parts) == MATCH
        assert all(isinstance(p, GameText) and p.problems == () for p in parts)

    @pytest.mark.parametrize("text, count", [
        ('[A "1"]\n{\n[B "2"]\n}\nR3-D\n[C "3"]\nG4-D', 2),   # a header inside a comment
        ('[A "1"]\n{R3-D}\n[B "2"]\nR3-D', 1),                # a move inside a comment
        ('[A "1"]\n; R3-D\n[B "2"]\nR3-D', 1),                # a move inside a line comment
        ('[A "1"]\nR3-D ; {\n[B "2"]\nG4-D', 2),              # '{' inside a line comment
        ('[A "1"] {x}\n[B "2"] ;y\n\nR3-D', 1),
        ('1.\n[A "1"]\nR3-D', 2),                             # a move number is movetext
        ('R3-D\n  [A "1"]\nG4-D', 2),                         # an indented header line
        ('R3-D\n[not a header\nG4-D', 2),                     # a malformed one too
        ('R3-D [A "1"]\nG4-D', 1),                            # not at the line start
        ('[A "{"]\nR3-D\n[B "2"]\nG4-D', 2),                  # '{' inside a header value
        ('[A "1"]\n\ufeff \n[B "2"]\nR3-D', 1),              # a BOM is white space (regression)
    ])
    def test_what_counts_as_a_new_game(self, text, count):
        assert len(list(split_games(io.StringIO(text)))) == count
        assert len(list(parse_games(text))) == count
        if count == 1:
            assert list(parse_games(text)) == [parse_game(text)]

    def test_an_unclosed_comment_does_not_swallow_the_next_games(self):
        text = '[Round "1"]\nR3-D {oops\n\n[Round "2"]\nG4-D\n\n[Round "3"]\nB5-D\n'
        games = list(read_games(io.StringIO(text)))
        assert [g.header("Round") for g in games] == ["1", "2", "3"]
        # A "{" comment never runs across a header line: the first game says so.
        assert [(e.code, e.line) for e in games[0].errors] == [("N110", 2)]
        assert [g.errors for g in games[1:]] == [(), ()]

    def test_a_brace_comment_may_span_lines_that_are_not_headers(self):
        text = '[Round "1"]\nR3-D {a\n  b [c]\n}\n[Round "2"]\nG4-D\n'
        games = list(read_games(io.StringIO(text)))
        assert [m.comments for m in games[0].moves][0][0].text == "a\n  b [c]\n"
        assert [g.header("Round") for g in games] == ["1", "2"]
        assert not any(g.errors for g in games)


# ---------------------------------------------------------------- header values


class TestHeaderValues:
    def test_known_tags_and_defaults(self):
        assert KNOWN_TAGS == ("Event", "Site", "Date", "Round", "Player1", "Player2",
                              "Colors", "Hand1", "Hand2", "Deck", "Result")
        assert DEFAULT_COLORS == ("R", "G", "W", "B", "Y") and RESERVED_LETTERS == "DHX"

    @pytest.mark.parametrize("value, colors", [
        ("RGWBY", ("R", "G", "W", "B", "Y")), ("RGWBYK", ("R", "G", "W", "B", "Y", "K")),
        ("RGWBYP", ("R", "G", "W", "B", "Y", "P")), ("rgwbyk", ("R", "G", "W", "B", "Y", "K")),
        (" R G ", ("R", "G")), ("Z", ("Z",)),
    ])
    def test_colors(self, value, colors):
        assert parse_colors(value) == colors

    @pytest.mark.parametrize("value, column, end_column, expected", [
        ("RGWBYD", 6, 7, "D is reserved for the draw pile"),
        ("RGWBYh", 6, 7, "H is the handshake rank"),
        ("RXG", 2, 3, "X is the discard marker"),
        ("RGWBR", 5, 6, "'R' is listed twice"),
        ("RGr", 3, 4, "'R' is listed twice"),
        ("R1", 2, 3, "a colour is a single letter"),
        ("", 1, 1, "at least one colour"),
        ("  ", 3, 3, "at least one colour"),
    ])
    def test_bad_colors(self, value, column, end_column, expected):
        with pytest.raises(NotationError) as caught:
            parse_colors(value)
        err = caught.value
        assert (err.code, err.line, err.column, err.end_column) == ("N120", 1, column, end_column)
        assert expected in err.message

    def test_cards(self):
        assert parse_cards("R3 BH w10\tkh") == (Card("R", 3), Card("B", HANDSHAKE),
                                                Card("W", 10), Card("K", HANDSHAKE))
        assert parse_cards("") == () and parse_cards("  ") == ()

    @pytest.mark.parametrize("value, column, end_column, expected", [
        ("R3 R11", 5, 7, "expected a rank (2 to 10, or H) after the colour 'R', found '11'"),
        ("R3 D3", 4, 6, "found 'D3'"),
        ("D3 R3", 1, 2, "D is reserved for the draw pile"),
        ("R3R4", 3, 5, "R3R4: cards are separated by spaces"),
        ("R3, B4", 3, 4, "found ','"),
        ("*", 1, 2, "expected cards such as \"R3 BH W10\""),
        ("R4x", 3, 4, "found 'x'"),
        ("R3-D", 3, 5, "found '-D'"),
        ("87", 1, 3, "found '87'"),
        ("R3 B", 5, 5, "after the colour 'B'"),
    ])
    def test_bad_cards(self, value, column, end_column, expected):
        # Regression: most of these spoke of moves ("expected a move",
        # "expected '-'", "a move number is written with a dot").
        with pytest.raises(NotationError) as caught:
            parse_cards(value)
        err = caught.value
        assert (err.code, err.line, err.column, err.end_column) == ("N121", 1, column, end_column)
        assert expected in err.message
        assert "move" not in err.message

    @pytest.mark.parametrize("value, result", [
        ("87-42", (87, 42)), ("-12--40", (-12, -40)), (" 0 - 0 ", (0, 0)), ("*", None),
        (" * ", None), ("120-5", (120, 5)),
    ])
    def test_result(self, value, result):
        assert parse_result(value) == result

    @pytest.mark.parametrize("value, column, end_column", [
        ("87 to 42", 1, 9), ("87-", 1, 4), ("1-2-3", 1, 6), ("", 1, 1), (" ", 2, 2),
        ("  x ", 3, 4), ("+1-2", 1, 5), ("\u0661-\u0662", 1, 4), ("87\u201442", 1, 6),
    ])
    def test_bad_result(self, value, column, end_column):
        with pytest.raises(NotationError) as caught:
            parse_result(value)
        err = caught.value
        assert (err.code, err.column, err.end_column) == ("N122", column, end_column)
        assert err.span.start <= err.span.end  # regression: ' ' ended before it started
        assert "87-42" in err.message

    def test_errors_of_a_header_are_positioned_in_the_file(self):
        text = ('[Event "x"]\n'
                '  [Colors "RGW BYD"]\n'
                '[Hand1 "R3 BH W11"]\n'
                '[Result "87 to 42"]\n')
        game = parse_game(text)
        colors, hand, result = game.headers[1:]
        for read, header, bad in ((parse_colors, colors, "D"), (parse_cards, hand, "11"),
                                  (parse_result, result, "87 to 42")):
            with pytest.raises(NotationError) as caught:
                read(header)
            span = caught.value.span
            assert text[span.start:span.end] == bad
            line = text.split("\n")[span.line - 1]
            assert line[span.column - 1:span.end_column - 1] == bad
        with pytest.raises(NotationError) as caught:
            parse_cards(hand)
        assert caught.value.message.startswith("Hand1: ")

    def test_errors_of_a_header_written_with_escapes_are_positioned_in_the_file(self):
        # Regression: they were relative to the value, so in file terms they
        # pointed at the first characters of the file.
        text = '[Event "x"]\n[Hand2 "R3 \\\\ R11"]\n[Colors "R\\"G"]\n[Result "\\"1-2"]\n'
        game = parse_game(text)
        hand, colors, result = game.headers[1:]
        for read, header, bad in ((parse_cards, hand, "\\\\"), (parse_colors, colors, '\\"'),
                                  (parse_result, result, '\\"1-2')):
            with pytest.raises(NotationError) as caught:
                read(header)
            span = caught.value.span
            assert text[span.start:span.end] == bad, read.__name__
            assert span.line == header.span.line
            line = text.split("\n")[span.line - 1]
            assert line[span.column - 1:span.end_column - 1] == bad
        with pytest.raises(NotationError) as caught:
            parse_cards(hand)
        assert caught.value.message.startswith("Hand2: ")

    def test_game_colors(self):
        assert game_colors(parse_game("R3-D")) == DEFAULT_COLORS
        assert game_colors(parse_game('[Colors "RGWBYK"]')) == ("R", "G", "W", "B", "Y", "K")
        assert game_colors(parse_game('[Colors "rgwbyp"]\n[Colors "RG"]'))[-1] == "P"
        with pytest.raises(NotationError) as caught:
            game_colors(parse_game('[Event "x"]\n[Colors "RGWBYX"]'))
        assert (caught.value.line, caught.value.column) == (2, 15)
