"""Importers and exporters of other programs' records (lcnotation.formats).

The samples in tests/data/formats are real output of the two engines (see
its README); the property tests write generated games in the other format
with the small writers of tests/formatwriters.py.
"""

from __future__ import annotations

import base64
import json
import re
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import lcnotation as lcn
from formatwriters import chikinn_round, chikinn_transcript, replay, replay_of
from lcnotation.formats import (FORMATS, Format, UnknownFormatError, detect_format,
                                export_game, import_games, load_plugins)
from lcnotation.formats.metapyziks import engine_scores
from lcnotation.lostcities.text.ast import HANDSHAKE, Card
from lcnotation.core.lineends import as_lf
from strategies import examples

DATA = Path(__file__).parent / "data" / "formats"
TRANSCRIPTS = sorted((DATA / "chikinn").glob("*.txt"))
REPLAY = DATA / "metapyziks" / "replay-v3.txt"
R = lambda rank: Card("R", rank)  # noqa: E731


def _printed(path: Path):
    """The scores and winner a transcript prints, read here by its own regex."""
    text = path.read_text()
    scores = [int(s) for s in re.findall(r"^Player [01] scores (-?\d+)$", text, re.M)]
    winner = re.search(r"^Winner: (.*?) *$", text, re.M).group(1)
    return tuple(scores), winner


# ---------------------------------------------------------------- the samples


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_chikinn_sample_imports_clean_with_the_printed_scores(path):
    (game,) = import_games(path)
    for tag in ("Player1", "Player2", "Colors", "Hand1", "Hand2", "Deck", "Result"):
        assert game.header(tag), tag
    report = lcn.check(game)
    assert report.diagnostics == ()
    assert report.complete
    scores, winner = _printed(path)
    assert report.score.totals == scores
    assert lcn.parse_result(game.header("Result")) == scores
    # The engine names the first of the best scores; player 0 moves first.
    best = 0 if scores[0] >= scores[1] else 1
    assert report.score.players[best] == winner
    # The first mover is the second name of the file: wrapper.py swaps the seats.
    assert game.header("Player1").lower() == path.stem.split("-")[-1]


def test_chikinn_sample_deal_is_the_whole_deck_and_says_what_it_guessed():
    (game,) = import_games(TRANSCRIPTS[0])
    cards = [c for tag in ("Hand1", "Hand2", "Deck") for c in lcn.parse_cards(game.header(tag))]
    assert len(cards) == 72 and game.header("Colors") == "RGWBYP"
    deck = next(h for h in game.headers if h.name == "Deck")
    # Both final draws come from the draw pile: the last two cards are guessed.
    last = " ".join(game.header("Deck").split()[-2:])
    assert deck.comments and f"({last})" in deck.comments[0].text


def test_chikinn_moves_point_into_the_transcript():
    text = TRANSCRIPTS[0].read_text()
    (game,) = import_games(text, format="chikinn")
    first = game.moves[0]
    assert text[first.span.start:first.span.end] == "w0"
    assert (first.span.line, first.span.column) == (4, 18)
    with_draw = next(m for m in game.moves if not m.draw.from_draw_pile)
    written = text[with_draw.span.start:with_draw.span.end]
    assert re.fullmatch(r"[bgprwy]\d\n +Draws [bgprwy]\d", written)


@pytest.mark.parametrize("way", ["compiled", "at once", "by lines"])
def test_chikinn_game_spans_its_round(way, monkeypatch):
    """A round's game spans the round, from ``ROUND N:`` to its last line
    (the winner's, without the spaces after the name), whether it is read by
    the compiled reader, or in Python with its turns read at once or line by
    line (it was once the span of the last move)."""
    from lcnotation.formats import chikinn

    if way == "compiled":
        if chikinn.compiled_round() is None:
            pytest.skip("the compiled reader is not built (or is turned off)")
    else:
        monkeypatch.setattr(chikinn, "compiled_round", lambda: None)
    if way == "by lines":
        monkeypatch.setattr(chikinn, "_TURN", re.compile(r"(?!)"))
    text = TRANSCRIPTS[0].read_text()
    (game,) = import_games(text, format="chikinn")
    span = game.span
    assert text[span.start:span.end] == text[1:text.rindex("Kenny") + len("Kenny")]
    assert (span.line, span.column) == (2, 1)
    assert (span.end_line, span.end_column) == (text.count("\n"), len("Winner: Kenny") + 1)
    several = chikinn_round(lcn.generate_game(1, colors="RGWBYP", deal=True), 0) \
        + chikinn_round(lcn.generate_game(2, colors="RGWBYP", deal=True), 1)
    second = import_games(several, format="chikinn")[1].span
    written = several[second.start:second.end]
    assert written.startswith("ROUND 1:\n") and written.endswith(several.rstrip("\n")[-20:])
    assert several.count("\n", 0, second.start) + 1 == second.line


def test_metapyziks_sample_round_trips_exactly_and_names_the_engine_winner():
    text = REPLAY.read_text()
    (game,) = import_games(text)
    report = lcn.check(game)
    assert report.diagnostics == ()
    assert export_game(game, "metapyziks") == text.strip()
    # The engine reported its Player 2 as the winner; Player 2 moved first.
    assert game.header("FirstSeat") == "2" and game.header("Player1") == "Player 2"
    a, b = report.score.totals
    assert a > b and lcn.parse_result(game.header("Result")) == (a, b)
    assert base64.b64decode(text)[2] == 2


def _engine_json(*replays):
    """The engine's --output file (GameResults, compact JSON whose encoder
    writes + as \\u002B), around ``replays``."""
    summaries = ",".join(
        '{"Config":{"GameSeed":"' + "00" * 32 + '","Player1Seed":1,"Player2Seed":2,'
        '"StartPlayer":"Player1"},"FirstTurn":"Player1","Winner":"Player1",'
        '"Disqualified":"None","Player1Score":0,"Player2Score":0,"Replay":"'
        + r.replace("+", "\\u002B") + '"}' for r in replays)
    return '{"Summaries":[' + summaries + '],"Results":null}'


def test_the_engines_json_output_imports_each_replay():
    games = [lcn.generate_game(seed, colors="RGWBY", deal=True) for seed in (9, 10)]
    replays = [export_game(g, "metapyziks") for g in games]
    assert "+" in replays[0]
    text = _engine_json(*replays)
    assert detect_format(text).name == "metapyziks"
    again = import_games(text)
    assert [g.moves for g in again] == [g.moves for g in games]
    # A move's position is its byte's characters, escapes and all.
    for game in again:
        for move in game.moves:
            written = text[move.span.start:move.span.end]
            assert re.fullmatch(r"(?:[A-Za-z0-9/=]|\\u002B){1,2}", written), written
    # An error in the second replay: its column counts the escapes before it.
    broken = replays[1][:-8] + "*" + replays[1][-7:]
    text = _engine_json(replays[0], broken)
    err = _error(text, "metapyziks")
    assert err.code == "I201" and text[err.span.start] == "*"
    # The console's "End: {...}" lines hold the same summaries.
    log = "Game: 1\nEnd: " + _engine_json(replays[0])[14:-17] + "\n"
    assert import_games(log, format="metapyziks")[0].moves == games[0].moves
    assert _error(_engine_json("AB\\u00"), "metapyziks").code == "I201"


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("colors", ["RGWBY", "RGWBYP"])
@given(seed=st.integers(0, 10**6), build=st.floats(0, 1), take=st.floats(0, 0.9))
@examples(15)
def test_export_then_import_reads_the_same_game(colors, seed, build, take):
    game = lcn.generate_game(seed, colors=colors, deal=True, build=build, take=take)
    again = import_games(export_game(game, "metapyziks"), format="metapyziks")[0]
    assert again.moves == game.moves
    for tag in ("Hand1", "Hand2", "Deck", "Result"):
        assert again.header(tag) == game.header(tag)
    assert lcn.game_colors(again) == lcn.game_colors(game)
    assert lcn.check(again).ok


@given(seed=st.integers(0, 10**6), first=st.sampled_from([1, 2]))
@examples(15)
def test_a_replay_written_by_the_tests_imports_as_the_game(seed, first):
    game = lcn.generate_game(seed, colors="RGWBYP", deal=True)
    written = replay_of(game, first)
    again = import_games(written, format="metapyziks")[0]
    assert again.moves == game.moves
    assert [again.header(t) for t in ("Hand1", "Hand2", "Deck", "Result")] == \
        [game.header(t) for t in ("Hand1", "Hand2", "Deck", "Result")]
    assert again.header("FirstSeat") == str(first)
    assert export_game(again, "metapyziks") == written


def test_a_file_of_generated_games_round_trips_through_replay_strings(tmp_path, run):
    games = list(lcn.generate_games(6, seed=11, deal=True, colors="RGWBYP")) + \
        list(lcn.generate_games(6, seed=12, deal=True, colors="RGWBY"))
    (tmp_path / "m.lcn").write_text(lcn.format_games(games))
    assert run("export", "--to", "metapyziks", "m.lcn", "-o", "r.txt").status == 0
    again = import_games(tmp_path / "r.txt")
    assert [g.moves for g in again] == [g.moves for g in games]
    assert [g.header("Deck") for g in again] == [g.header("Deck") for g in games]


def test_a_sixth_colour_other_than_purple_is_written_as_purple():
    game = lcn.generate_game(5, colors="RGWBYK", deal=True)
    again = import_games(export_game(game, "metapyziks"), format="metapyziks")[0]
    assert lcn.game_colors(again) == tuple("RGWBYP")
    assert [m.card.color for m in again.moves] == \
        [{"K": "P"}.get(m.card.color, m.card.color) for m in game.moves]


@given(seed=st.integers(0, 10**6), build=st.floats(0, 1), take=st.floats(0, 0.9))
@examples(15)
def test_a_transcript_written_by_the_tests_imports_as_the_game(seed, build, take):
    game = lcn.generate_game(seed, colors="RGWBYP", deal=True, build=build, take=take)
    (again,) = import_games(chikinn_transcript(game), format="chikinn")
    assert again.moves == game.moves
    for tag in ("Hand1", "Hand2"):
        assert Counter(lcn.parse_cards(again.header(tag))) == \
            Counter(lcn.parse_cards(game.header(tag)))
    deck, expected = again.header("Deck").split(), game.header("Deck").split()
    # Only the cards drawn by the last two turns are never shown.
    assert deck[:-2] == expected[:-2] and Counter(deck) == Counter(expected)
    if not game.moves[-2].draw.from_draw_pile:
        assert deck == expected
    assert again.header("Result") == game.header("Result")
    assert lcn.check(again).diagnostics == ()


def test_a_transcript_of_several_rounds_is_a_file_of_several_games():
    one, two = (lcn.generate_game(s, colors="RGWBYP", deal=True) for s in (1, 2))
    text = chikinn_round(one, 0) + chikinn_round(two, 1) + "Ada wins 0.5000 +/- 0.3536\n"
    games = import_games(text, format="chikinn")
    assert [g.moves for g in games] == [one.moves, two.moves]
    assert [g.header("Round") for g in games] == ["1", "2"]
    assert list(lcn.parse_games(lcn.format_games(games))) == games


# ---------------------------------------------------------------- malformed input


def _error(text, fmt):
    with pytest.raises(lcn.NotationError) as info:
        import_games(text, format=fmt)
    return info.value


def test_a_transcript_cut_mid_turn():
    text = TRANSCRIPTS[0].read_text()
    lines = text.split("\n")
    cut = next(i for i, line in enumerate(lines) if "Plays" in line and i > 100)
    err = _error("\n".join(lines[:cut + 1]), "chikinn")  # at the end of the text
    assert (err.code, err.line, err.column) == ("I103", cut + 1, len(lines[cut]) + 1)
    assert "ends in the middle of turn" in err.message
    err = _error("\n".join(lines[:cut]), "chikinn")  # just after a hand line
    assert err.code == "I103" and "expected 'Plays CARD'" in err.message
    err = _error(text[:text.index("Player 0 scores")], "chikinn")
    assert err.code == "I103" and "before the final scores" in err.message


def test_a_transcript_card_that_does_not_exist():
    text = TRANSCRIPTS[0].read_text().replace("Plays w0", "Plays q0", 1)
    err = _error(text, "chikinn")
    assert (err.code, err.line, err.column, err.end_column) == ("I102", 4, 18, 20)
    assert "'q0' is not a card" in err.message


def test_a_transcript_that_contradicts_itself():
    text = TRANSCRIPTS[0].read_text()
    # Committer's second hand loses a card it never placed.
    bad = text.replace("Committer: b6 g1 g3 p6 r0 w7 y0 y1", "Committer: b6 g1 g3 p6 r0 w7 y0 y9", 1)
    err = _error(bad, "chikinn")
    assert err.code == "I104" and err.line == 23 and "does not follow from line 3" in err.message
    bad = text.replace("Winner: Kenny", "Winner: Committer")
    assert _error(bad, "chikinn").code == "I104"


def test_a_transcript_that_breaks_the_rules_imports_and_lint_points_into_it(run, tmp_path):
    # Kenny's last move discards b8 (blue 9); played instead, it would follow his
    # blue 10: hands and draws still agree, the rules do not.
    text = TRANSCRIPTS[0].read_text()
    at = text.rindex("Discards b8")
    (tmp_path / "t.txt").write_text(text[:at] + "Plays b8   " + text[at + 11:])
    (game,) = import_games(tmp_path / "t.txt", format="chikinn")
    assert game.moves[-1].placement.discard is False
    ran = run("lint", "--from", "chikinn", "t.txt")
    assert ran.status == 1
    assert re.search(r"^t\.txt:598:18: R101 Blue 9 cannot follow Blue 10", ran.out, re.M)


def test_truncated_base64():
    text = REPLAY.read_text().strip()
    err = _error(text[:-5], "metapyziks")
    assert err.code == "I201" and err.column == len(text) - 4 and "cut short" in err.message
    err = _error(text[:60], "metapyziks")  # whole base64 groups: the bytes stop short
    assert err.code == "I203" and err.message == (
        "byte offset 45 of the decoded replay: the replay ends in the middle of the cards "
        "of the deck (it holds 45 bytes)")
    err = _error(text[:120], "metapyziks")
    assert err.code == "I203" and "holds 69 actions, but 15 bytes follow" in err.message
    err = _error(text[:40] + "*" + text[41:], "metapyziks")
    assert (err.code, err.column) == ("I201", 41)
    err = _error(text[:-4] + "====", "metapyziks")
    assert (err.code, err.column) == ("I201", len(text) - 1) and "padding" in err.message
    err = _error(text[:-4] + "AB=C", "metapyziks")
    assert (err.code, err.column) == ("I201", len(text)) and "'C'" in err.message


def test_wrong_version():
    err = _error(replay(version=2), "metapyziks")
    assert (err.code, err.line, err.column) == ("I202", 1, 1)
    assert "replay version 2: only version 3 is read" in err.message


def test_hand_index_past_the_hand():
    text = replay(deck=[R(9)], hand1=[R(2), R(3)], hand2=[R(4)], actions=[0x06])
    err = _error(text, "metapyziks")
    assert err.code == "I206" and "hand index 6 is past the hand of 2 cards" in err.message
    # Byte 19 (after the header, the player to move and the card lists) is held
    # by base64 characters 4 * (19 // 3) + 19 % 3 = 25 and 26 (from 0).
    assert "byte offset 19" in err.message and (err.column, err.end_column) == (26, 28)


def test_a_replay_from_a_position_says_which_list():
    err = _error(replay(hand1=[R(2)], table=((), (), (R(5),))), "metapyziks")
    assert err.code == "I207" and "on Player 2's expeditions" in err.message
    assert "byte offset 10 " in err.message  # 4 + 1 + deck 1 + piles 1 + 1 + hand 2


def test_replay_card_that_does_not_exist():
    for bad in (Card("P", 3), Card("R", 1), Card("R", 11)):
        text = replay(hand1=[R(2), bad])  # purple is no card of a 5-colour game
        err = _error(text, "metapyziks")
        assert err.code == "I205" and "is no card" in err.message


@pytest.mark.parametrize("change, code", [
    (dict(colors=4), "I204"), (dict(first=0), "I204"), (dict(winner=3), "I204"),
    (dict(tail=b"\x00"), "I203"), (dict(count=5), "I203"), (dict(winner=2), "I208"),
    (dict(table=((R(5),), (), ())), "I207"), (dict(actions=[0x70]), "I204"),
])
def test_replay_fields_out_of_range(change, code):
    args = dict(deck=[R(9)], hand1=[R(2), R(3)], hand2=[R(4)])
    args.update(change)
    assert _error(replay(**args), "metapyziks").code == code


def test_a_replay_that_breaks_the_rules_imports_and_the_checker_reports_it():
    # Player 1 plays red 5, then red 3: the engine's decoder would refuse it;
    # the import keeps it for the checker.
    text = replay(deck=[R(9), R(10), R(8)], hand1=[R(5), R(3)], hand2=[R(4)],
                  actions=[0x00, 0x00, 0x00], winner=1)
    (game,) = import_games(text, format="metapyziks")
    codes = [d.code for d in lcn.check(game).diagnostics]
    assert "R101" in codes
    with pytest.raises(lcn.NotationError) as info:
        export_game(game, "metapyziks")
    assert info.value.code == "I301"


def test_export_refuses_what_the_format_cannot_hold():
    no_deal = lcn.generate_game(1, colors="RGWBY")
    assert "no Hand1 header" in _export_error(no_deal)
    odd = lcn.generate_game(1, colors="RGWBA", deal=True)
    assert "not the engine's" in _export_error(odd)


def _export_error(game):
    with pytest.raises(lcn.NotationError) as info:
        export_game(game, "metapyziks")
    assert info.value.code == "I301"
    return info.value.message


def test_disqualification_round_trips():
    full = lcn.generate_game(4, colors="RGWBY", deal=True)
    cut = full._replace(moves=full.moves[:11], headers=full.headers + (
        lcn.Header("Disqualified", "2"),))
    text = export_game(cut, "metapyziks")
    data = base64.b64decode(text)
    assert data[2:4] == bytes((1, 2))  # the winner is the other player
    (again,) = import_games(text, format="metapyziks")
    assert again.moves == cut.moves and again.header("Result") == "*"
    assert again.header("Disqualified") == "2"
    assert export_game(again, "metapyziks") == text


# ---------------------------------------------------------------- fuzzing


@given(st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fuzz_chikinn(data):
    text = TRANSCRIPTS[1].read_text()
    lines = text.split("\n")
    start = data.draw(st.integers(0, len(lines) - 1))
    stop = data.draw(st.integers(start, min(len(lines), start + 30)))
    middle = data.draw(st.sampled_from(["", "Plays b3", "  Draws x9", "Kenny: b0", "-" * 79,
                                        "Player 1 scores 4", "ROUND 1:", "\t", "é"]))
    mutated = "\n".join(lines[:start] + [middle] + lines[stop:])
    _imports_or_says_where(mutated, "chikinn")
    _imports_or_says_where(data.draw(st.text(max_size=80)), "chikinn")


@given(st.data())
@settings(max_examples=80, deadline=None)
def test_fuzz_metapyziks(data):
    raw = bytearray(base64.b64decode(REPLAY.read_text()))
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    raw = raw[:data.draw(st.integers(0, len(raw) + 2))] + data.draw(st.binary(max_size=2))
    _imports_or_says_where(base64.b64encode(bytes(raw)).decode(), "metapyziks")
    _imports_or_says_where(data.draw(st.text("AQgw+/=x \n", max_size=40)), "metapyziks")


def _read_both_ways(text, monkeypatch):
    """What the chikinn importer gives for ``text`` (the games' repr, or the
    error), with its turn-at-once reading and with its line-by-line one, in
    Python (tests/test_chikinn_compiled.py holds the compiled reader to these)."""
    from lcnotation.formats import chikinn

    monkeypatch.setattr(chikinn, "compiled_round", lambda: None)

    def every_field(value):  # the nodes print by their meaning only: spans too here
        return tuple(map(every_field, value)) if isinstance(value, tuple) else value

    def outcome():
        try:
            return every_field(tuple(chikinn.read(text, "t.txt")))
        except lcn.NotationError as err:
            return (err.code, err.message, err.span, err.path)

    fast = outcome()
    with monkeypatch.context() as patch:
        patch.setattr(chikinn, "_TURN", re.compile(r"(?!)"))  # never: every turn by lines
        slow = outcome()
    return fast, slow


@given(seed=st.integers(0, 10**6), data=st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
def test_a_transcript_reads_the_same_turn_at_once_as_line_by_line(seed, data, monkeypatch):
    """Turns and rounds read at once (what _TURN matches, and the rounds made
    of them), and line by line: the same games, spans and errors."""
    game = lcn.generate_game(seed, colors="RGWBYP", deal=True)
    if seed % 3 == 0:  # several rounds, perhaps the win ratios, perhaps no last line end
        rounds = [lcn.generate_game(seed + k, colors="RGWBYP", deal=True) for k in range(3)]
        text = "".join(chikinn_round(g, k) for k, g in enumerate(rounds)) + data.draw(
            st.sampled_from(["", "Ann wins 0.67 +/- 0.27\n", "\n\n"]))
        text = text[:len(text) - data.draw(st.sampled_from([0, 0, 1]))]
    else:
        text = chikinn_transcript(game) if seed % 2 else TRANSCRIPTS[seed % 5].read_text()
    fast, slow = _read_both_ways(text, monkeypatch)
    assert fast == slow and not isinstance(fast[0], str)
    # The same with a line changed, cut, doubled or given white space at its end.
    lines = text.split("\n")
    at = data.draw(st.integers(0, len(lines) - 1))
    line = lines[at]
    lines[at:at + 1] = data.draw(st.sampled_from([
        [], [line, line], [line + data.draw(st.sampled_from([" ", "\t", "\x85", " x"]))],
        [data.draw(st.sampled_from(["", "  Draws b9", "  Draws q9", "\tx", "--", "Winner: A",
                                    "Ann: b0 zz", "  Plays b1", "-" * 5 + " ", " " * 12,
                                    "ROUND 7:", "ROUND 1234567890123456789:", "Winner: Ann",
                                    "Player 0 scores 12", "Player 1 scores -3",
                                    "Player 1 scores 12345678901234567890", "ROUND 2: ",
                                    "Ann wins 0.5 +/- 0.1"]))],
        [line[:data.draw(st.integers(0, max(0, len(line) - 1)))]]]))
    fast, slow = _read_both_ways("\n".join(lines), monkeypatch)
    assert fast == slow


def test_a_lone_cr_ends_a_line_in_the_position_of_an_error():
    # Found by test_fuzz_chikinn: the importer counts a lone CR as a line end,
    # as every reader does; the error stands on the line after it.
    with pytest.raises(lcn.NotationError) as caught:
        import_games("ROUND 0:\r", format="chikinn")
    assert (caught.value.line, caught.value.column, caught.value.code) == (2, 1, "I103")
    _imports_or_says_where("ROUND 0:\r", "chikinn")


def _imports_or_says_where(text, fmt):
    try:
        games = import_games(text, format=fmt)
    except lcn.NotationError as err:
        assert err.code.startswith("I") and err.message
        lines = as_lf(text).split("\n")  # a lone CR ends a line too, as everywhere
        assert 1 <= err.line <= len(lines)
        assert 1 <= err.column <= len(lines[err.line - 1]) + 1
        return
    for game in games:
        lcn.check(game)  # whatever was imported can be checked
        assert list(lcn.parse_games(lcn.format_games([game]))) == [game]


# ---------------------------------------------------------------- detection


def test_each_sample_is_recognised():
    for path in TRANSCRIPTS:
        assert detect_format(path.read_text()).name == "chikinn"
    assert detect_format(REPLAY.read_text()).name == "metapyziks"


@pytest.mark.parametrize("text", ["", "R3-D B4-D", "hello world", "QUJDREVGR0g=",
                                  "[Event \"x\"]\n1. R3-D"])
def test_detection_refuses_when_unsure(text):
    with pytest.raises(UnknownFormatError) as info:
        import_games(text)
    assert info.value.code == "I100"


# ---------------------------------------------------------------- plugins


PLUGIN = '''
from lcnotation import Card, Draw, Game, Move, Placement
from lcnotation.formats import Format

def read(text, path=None):
    """One move a line: COLOUR RANK play|discard [DRAW]."""
    moves = []
    for line in text.split("\\n"):
        if line.strip() and not line.startswith("#"):
            color, rank, how, *draw = line.split()
            moves.append(Move(Placement(Card(color, int(rank)), how == "discard"),
                              Draw(draw[0] if draw else None)))
    return [Game(moves=tuple(moves))]

FORMAT = Format("spelled", "moves spelt out, one a line", read=read,
                detect=lambda text: text.startswith("#spelled"))
'''


@pytest.fixture
def plugin_path(tmp_path, monkeypatch):
    (tmp_path / "lcn_spelled.py").write_text(PLUGIN)
    info = tmp_path / "lcn_spelled-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lcn-spelled\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[lcnotation.formats]\nspelled = lcn_spelled:FORMAT\n"
        "broken = lcn_spelled:MISSING\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    FORMATS.pop("spelled", None)
    sys.modules.pop("lcn_spelled", None)


def test_a_format_registers_through_the_entry_point_group(plugin_path, run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_plugins(again=True)
    assert "spelled" in FORMATS and isinstance(FORMATS["spelled"], Format)
    assert any("'broken'" in str(w.message) for w in caught)  # skipped, not fatal
    (game,) = import_games("R 3 play\nB 0 discard R\n", format="spelled")
    assert lcn.format_game(game) == "1. R3-D\n2. BHD-R\n"
    (plugin_path / "m.txt").write_text("#spelled\nR 3 play\n")
    ran = run("import", "m.txt")  # recognised by its detect()
    assert ran.status == 0 and ran.out == "1. R3-D\n"
    ran = run("import", "m.txt", "m.txt")  # two games without headers: not one file
    assert ran.status == 1 and "needs a header first" in ran.err


def test_a_detector_that_fails_says_no(monkeypatch):
    def broken(text):
        raise RuntimeError("boom")

    monkeypatch.setitem(FORMATS, "broken", Format("broken", "x", read=lambda t, p: [],
                                                  detect=broken))
    with pytest.warns(RuntimeWarning, match="boom"):
        assert detect_format(REPLAY.read_text()).name == "metapyziks"


# ---------------------------------------------------------------- the command line


def test_cli_import_writes_canonical_lcn(run, tmp_path):
    paths = [str(p) for p in TRANSCRIPTS[:2]] + [str(REPLAY)]
    ran = run("import", *paths, "-o", "out.lcn")
    assert ran.status == 0 and ran.out == ""
    text = (tmp_path / "out.lcn").read_text()
    games = list(lcn.parse_games(text))
    assert len(games) == 3 and lcn.format_games(games) == text
    assert all(lcn.check(g).diagnostics == () for g in games)
    assert run("lint", "out.lcn").status == 0


@pytest.mark.parametrize("out", ["out", "new/", "new"])
def test_cli_import_into_a_folder_writes_one_file_per_input(run, tmp_path, out):
    """As lcn convert: -o names a folder (one that exists, or a name ending
    in '/') into which each input is written, as NAME.lcn."""
    (tmp_path / "out").mkdir()
    paths = [str(p) for p in TRANSCRIPTS[:2]] + [str(REPLAY)]
    ran = run("import", *paths, "-o", out)
    if out == "new":  # no folder of that name: one file, all the games
        assert ran.status == 0 and len(list(lcn.parse_games((tmp_path / "new").read_text()))) == 3
        return
    assert ran.status == 0, ran.err
    folder = tmp_path / out
    written = sorted(p.name for p in folder.iterdir())
    assert written == sorted(Path(p).stem + ".lcn" for p in paths)
    for path in paths:
        alone = run("import", path)
        assert (folder / (Path(path).stem + ".lcn")).read_text() == alone.out


def test_cli_import_of_a_freecell_solution_into_a_folder(run, tmp_path):
    solution = Path(__file__).parent / "data" / "freecell" / "fc-solve-617.snx.txt"
    alone = run("import", "--from", "fc-solve", str(solution), "--deal", "617")
    ran = run("import", "--from", "fc-solve", str(solution), "--deal", "617", "-o", "fc/")
    assert ran.status == 0 and alone.status == 0
    assert (tmp_path / "fc" / "fc-solve-617.snx.sfn").read_text() == alone.out


def test_cli_export_and_back(run, tmp_path):
    assert run("import", str(REPLAY), "-o", "r.lcn").status == 0
    ran = run("export", "--to", "metapyziks", "r.lcn")
    assert ran.status == 0 and ran.out == REPLAY.read_text()


def test_cli_export_refuses_with_a_position(run, tmp_path):
    (tmp_path / "g.lcn").write_text("R3-D\n")
    ran = run("export", "--to", "metapyziks", "g.lcn", "-o", "x.txt")
    assert ran.status == 1 and "I301" in ran.err and not (tmp_path / "x.txt").exists()
    assert run("export", "--to", "chikinn", "g.lcn").status == 2  # import only


def test_cli_import_errors(run, tmp_path):
    (tmp_path / "bad.txt").write_text(TRANSCRIPTS[0].read_text().replace("Plays w0", "Plays q0"))
    ran = run("import", "--from", "chikinn", "bad.txt", "-o", "out.lcn")
    assert ran.status == 1 and "bad.txt:4:18: I102" in ran.err
    assert not (tmp_path / "out.lcn").exists()
    (tmp_path / "what.txt").write_text("R3-D\n")
    ran = run("import", "what.txt")
    assert ran.status == 2 and "use --from FORMAT" in ran.err
    assert run("import", "--from", "nope", "what.txt").status == 2


@pytest.mark.parametrize("fmt", ["metapyziks", "chikinn"])
def test_cli_lint_of_another_programs_record_suggests_from(run, tmp_path, fmt):
    """Linted as notation, a replay string or a transcript gives short
    findings, the first of which names the format to lint it with."""
    path = REPLAY if fmt == "metapyziks" else TRANSCRIPTS[0]
    ran = run("lint", "--format", "concise", str(path))
    assert ran.status == 1
    lines = ran.out.splitlines()
    first = next(line for line in lines if ": N1" in line)
    assert first.endswith(f"; this looks like a {fmt} record: lint it with --from {fmt}")
    assert ran.out.count("--from") == 1
    assert all(len(line) - len(str(path)) < 180 for line in lines)  # was 270
    # Not for a notation's file, nor for text no format recognises.
    (tmp_path / "r.lcn").write_text(path.read_text())
    (tmp_path / "w.txt").write_text("R11-D\n")
    for name in ("r.lcn", "w.txt"):
        ran = run("lint", name)
        assert ran.status == 1 and "N1" in ran.out and "--from" not in ran.out


def test_cli_lint_and_score_from(run, tmp_path):
    ran = run("lint", "--from", "chikinn", *map(str, TRANSCRIPTS))
    assert ran.status == 0 and "5 files, 5 games" in ran.out
    ran = run("score", "--from", "metapyziks", str(REPLAY), "--format", "json")
    assert ran.status == 0 and json.loads(ran.out)["games"][0]["scores"] == [34, -105]
    # A rule broken in a replay is reported at the base64 characters of the action.
    bad = replay(deck=[R(9), R(10), R(8)], hand1=[R(5), R(3)], hand2=[R(4)],
                 actions=[0x00, 0x00, 0x00], winner=1)
    (tmp_path / "bad.txt").write_text(bad + "\n")
    ran = run("lint", "--from", "auto", "bad.txt")
    assert ran.status == 1 and re.search(r"bad\.txt:1:\d+: R101", ran.out)
    ran = run("lint", "--from", "chikinn", "bad.txt")
    assert ran.status == 2 and "cannot read" in ran.err


def test_engine_scores_leave_out_the_bonus():
    eight = [Card("R", r) for r in (HANDSHAKE, 2, 3, 4, 5, 6, 7, 8)]
    assert engine_scores(({"R": eight}, {})) == ((35 - 20) * 2, 0)
    assert lcn.score_expedition(eight) == (35 - 20) * 2 + 20


# ---------------------------------------------------------------- spec/formats.md

SPEC = (Path(__file__).resolve().parent.parent / "spec" / "formats.md").read_text()


def test_spec_example_replay_imports_as_shown_and_round_trips():
    blocks = re.findall(r"^```(\w+)\n(.*?)^```$", SPEC, re.M | re.S)
    pairs = [(a[1], b[1]) for a, b in zip(blocks, blocks[1:])
             if a[0] == "metapyziks" and b[0] == "canonical"]
    assert pairs
    for replay_text, canonical in pairs:
        games = import_games(replay_text, format="metapyziks")
        assert lcn.format_games(games) == canonical
        assert export_game(games[0], "metapyziks") + "\n" == replay_text


def test_spec_tables_are_the_code_tables():
    from lcnotation.formats import FORMAT_CODES
    from lcnotation.formats.chikinn import SUITS
    from lcnotation.formats.metapyziks import ENGINE_COLORS

    codes = dict(re.findall(r"^\| `(I\d{3})` \| (.*?) \|$", SPEC, re.M))
    assert codes == FORMAT_CODES
    suits = dict(re.findall(r"^\| `([a-z])` \| `([A-Z])` ", SPEC, re.M))
    assert suits == SUITS
    colours = re.search(r"^\| colour \| (.*?) \|$", SPEC, re.M).group(1)
    assert "".join(letter for _, letter in re.findall(r"\d ([a-z]+) `([A-Z])`", colours)) \
        == "".join(ENGINE_COLORS)


@pytest.mark.parametrize("replay_text", [REPLAY.read_text(), "not base64!"])
def test_lcn_import_pauses_the_collector_while_it_reads_and_no_longer(
        replay_text, tmp_path, monkeypatch, capsys):
    import contextlib
    import gc
    import io

    from lcnotation.cli import importcmd, main

    seen = []
    real = importcmd.imported

    def imported(path, fmt):
        seen.append(gc.isenabled())
        return real(path, fmt)

    monkeypatch.setattr(importcmd, "imported", imported)
    source = tmp_path / "replays.txt"
    source.write_text(replay_text)
    assert gc.isenabled()
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["import", "--from", "metapyziks", str(source)])
    assert status == (0 if "!" not in replay_text else 1)
    assert seen == [False] and gc.isenabled()
