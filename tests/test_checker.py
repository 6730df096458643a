"""The rules checker: one test (at least) per diagnostic code, and recovery."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples, notation_text

from lcnotation.lostcities.game.checker import RULE_CODES, CheckReport, check
from lcnotation.core.diagnostics import Diagnostic, Severity
from lcnotation.lostcities.text.reader import parse_game, parse_games

NAMES = '[Player1 "North"]\n[Player2 "South"]\n'
FULL_DECK = [f"{c}{r}" for c in "RGWBY" for r in ["H", "H", "H"] + [str(n) for n in range(2, 11)]]


def run(text: str) -> CheckReport:
    game = parse_game(text)
    return check(game)


def only(report: CheckReport, code: str) -> Diagnostic:
    found = [d for d in report.diagnostics if d.code == code]
    assert len(found) == 1, report.diagnostics
    return found[0]


def codes(report: CheckReport) -> List[str]:
    return [d.code for d in report.diagnostics]


def deal_headers(hand1: List[str], hand2: List[str], deck: List[str]) -> str:
    return (f'[Hand1 "{" ".join(hand1)}"]\n[Hand2 "{" ".join(hand2)}"]\n'
            f'[Deck "{" ".join(deck)}"]\n')


def standard_deal() -> str:
    """North holds the red 2-9, South the green 2-9; the rest is the draw pile."""
    hand1 = [f"R{n}" for n in range(2, 10)]
    hand2 = [f"G{n}" for n in range(2, 10)]
    deck = [k for k in FULL_DECK if k not in hand1 and k not in hand2]
    return deal_headers(hand1, hand2, deck)


def discard_everything() -> List[str]:
    """44 legal moves that spend the draw pile (every number card but Y10 discarded)."""
    cards = [f"{c}{n}" for c in "RGWBY" for n in range(2, 11)][:44]
    return [f"{card}D-D" for card in cards]


# ------------------------------------------------------------------ moves


def test_r101_number_not_higher() -> None:
    report = run(NAMES + "\n1. R7-D\n2. B3-D\n3. R4-D\n")
    d = only(report, "R101")
    assert (d.line, d.column, d.turn, d.severity) == (6, 4, 2, Severity.ERROR)
    assert d.message == "Red 4 cannot follow Red 7 on North's expedition: number cards must go up"


def test_r101_equal_card_is_not_higher() -> None:
    report = run("1. G5-D 2. G5-D")
    # South's G5 is also the card North already played.
    assert "R103" in codes(report)
    report = run("1. G5-D 2. B2-D 3. G5-D")
    d = only(report, "R101")
    assert d.message.startswith("Green 5 cannot follow Green 5")


def test_r102_handshake_after_number() -> None:
    report = run(NAMES + "\n1. B3-D\n2. W5-D\n3. W10-D\n4. WH-D\n")
    d = only(report, "R102")
    assert (d.line, d.column, d.turn) == (7, 4, 3)
    assert "South" in d.message and "White handshake" in d.message and "after White 5" in d.message


def test_handshakes_before_numbers_are_fine() -> None:
    report = run("1. RH-D 2. BH-D 3. RH-D 4. B2-D 5. RH-D 6. B3-D 7. R2-D")
    assert not report.errors


def test_r103_card_already_on_an_expedition() -> None:
    report = run(NAMES + "1. R7-D 2. R7D-D")
    d = only(report, "R103")
    assert (d.line, d.column, d.turn) == (3, 12, 1)
    assert d.message == ("South cannot place Red 7: it is already on North's expedition, "
                         "and there is only one Red 7")


def test_r103_card_in_a_discard_pile() -> None:
    report = run(NAMES + "1. Y9D-D 2. Y9-D")
    d = only(report, "R103")
    assert d.turn == 1 and "Yellow 9" in d.message and "Yellow discard pile" in d.message


def test_r103_fourth_handshake() -> None:
    report = run(NAMES + "1. BH-D 2. BH-D 3. BHD-D 4. BH-D")
    d = only(report, "R103")
    assert d.turn == 3
    assert d.message == ("South cannot place a Blue handshake: all three Blue handshakes "
                         "are already on the table")


def test_discarded_drawn_back_and_played_again_is_fine() -> None:
    report = run("1. R5D-D 2. B3-R 3. R2-D 4. R5-D 5. R6-D 6. R7-D")
    assert report.errors == ()


def test_r104_card_in_the_other_hand() -> None:
    report = run(NAMES + "\n1. R5D-D\n2. B3-R\n3. R5-D\n")
    d = only(report, "R104")
    assert (d.line, d.column, d.turn) == (6, 4, 2)
    assert d.message == "North cannot place Red 5: South holds it"


def test_r104_with_the_deal() -> None:
    report = run(NAMES + standard_deal() + "\n1. G2-D\n")
    d = only(report, "R104")
    assert (d.line, d.column, d.turn) == (7, 4, 0)
    assert d.message == "North cannot place Green 2: South holds it"


def test_r105_card_still_in_the_draw_pile() -> None:
    report = run(NAMES + standard_deal() + "\n1. R2-D\n2. B5D-D\n")
    d = only(report, "R105")
    assert (d.line, d.column, d.turn) == (8, 4, 1)
    assert d.message == "South does not hold Blue 5: by the deal it is still in the draw pile"


def test_draws_from_the_draw_pile_are_known_with_the_deal() -> None:
    # The draw pile starts RH RH RH R10 GH ...: North draws RH, then plays it.
    report = run(standard_deal() + "1. R2-D 2. G2-D 3. RH-D")
    d = only(report, "R102")
    assert d.turn == 2
    report = run(standard_deal() + "1. R2D-D 2. G2-D 3. RH-D")
    assert report.errors == ()
    # South has not drawn a red handshake: the first came to North.
    report = run(standard_deal() + "1. R2D-D 2. RH-D")
    assert codes(report)[0] == "R104"


def test_r105_hand_known_without_the_draw_pile() -> None:
    hands = ('[Hand1 "R2 R3 R4 R5 R6 R7 R8 R9"]\n'
             '[Hand2 "G2 G3 G4 G5 G6 G7 G8 G9"]\n')
    report = run(hands + "1. B2-D")
    d = only(report, "R105")
    assert d.message.startswith("Player 1 does not hold Blue 2: Player 1's hand is Red 2, Red 3")
    # Once North drew an unknown card, a card it might hold is not refused.
    report = run(hands + "1. R2-D 2. G2-D 3. B2-D")
    assert report.errors == ()


def test_r106_placement_colour_outside_the_set() -> None:
    report = run(NAMES + "1. K5-D")
    d = only(report, "R106")
    assert (d.line, d.column, d.turn) == (3, 4, 0)
    assert d.message == ("North plays Black 5, but K is not one of this game's colours "
                         "(RGWBY)")


def test_r106_draw_colour_outside_the_set() -> None:
    report = run('[Colors "RGWBYP"]\n1. R5D-D 2. P5-K')
    d = only(report, "R106")
    assert (d.line, d.turn) == (2, 1)
    assert d.message == ("Player 2 draws from the K discard pile, but K is not one of this "
                         "game's colours (RGWBYP)")


def test_six_colours_accept_the_sixth() -> None:
    assert run('[Colors "RGWBYK"]\n1. K5-D 2. KHD-D').errors == ()


def test_r107_draw_from_an_empty_pile() -> None:
    report = run(NAMES + "1. R5D-D 2. G3-B")
    d = only(report, "R107")
    assert (d.line, d.column, d.turn) == (3, 13, 1)
    assert d.message == "South draws from the Blue discard pile, but it is empty"


def test_r107_after_the_pile_was_emptied() -> None:
    report = run("1. R5D-D 2. G3-R 3. B4-R")
    assert [(d.code, d.turn) for d in report.errors] == [("R107", 2)]


def test_r108_drawing_back_ones_own_discard() -> None:
    report = run(NAMES + "1. G2-D 2. R5D-R")
    d = only(report, "R108")
    assert (d.line, d.column, d.turn) == (3, 12, 1)
    assert "South" in d.message and "Red 5" in d.message


def test_r108_no_follow_on_when_the_card_is_played_later() -> None:
    report = run("1. G2-D 2. R5D-R 3. G3-D 4. R5-D")
    assert codes(report) == ["R108", "R110"]


def test_r109_move_after_the_draw_pile_is_spent() -> None:
    moves = discard_everything() + ["Y10-D", "BH-D"]
    text = NAMES + "\n" + "\n".join(f"{i}. {m}" for i, m in enumerate(moves, 1)) + "\n"
    report = run(text)
    assert report.complete
    d = only(report, "R109")
    assert (d.line, d.column, d.turn) == (48, 5, 44)
    assert d.message == ("the round is over: the last card of the draw pile was drawn on "
                         "turn 44, and no move may follow it (1 more move follows)")
    assert codes(report) == ["R109"]


def test_r110_incomplete_record() -> None:
    report = run(NAMES + "1. R5-D 2. G3-D\n")
    d = only(report, "R110")
    assert d.severity is Severity.INFO
    assert (d.line, d.column, d.turn) == (3, 16, None)
    assert "42 cards" in d.message
    assert report.ok and not report.complete
    assert report.score.totals == (-15, -17)


@pytest.mark.parametrize("game, where", [
    ('[Event "a"]\nR11\n\n', (2, 4)),         # after the unreadable move
    ('[Event "a"]\nR3 {c}\n\n\n', (2, 7)),    # after its comment
    ('[Event "a"]\n\n', (1, 12)),             # after the headers
    ('[Event "a"] ;c\n', (1, 15)),
])
def test_r110_of_a_game_without_a_readable_move_is_in_that_game(game, where) -> None:
    """Regression: R110 stood on the next game's first line (the end of the
    game's text, blank lines included)."""
    first = list(parse_games(game + '[Event "b"]\n1. R3-D\n'))[0]
    if len(first.headers) > 1:  # no movetext: the next headers are this game's
        first = parse_game(game)
    d = only(check(first), "R110")
    assert (d.line, d.column) == where
    assert d.span.end <= len(game.rstrip())


def _in_own_game(text: str) -> None:
    for game in parse_games(text):
        written = text[game.span.start:game.span.end]
        # The end of the game's last line that holds more than white space.
        line_end = re.compile(r"[\r\n]|$").search(written, len(written.rstrip()))
        assert line_end is not None
        last = game.span.start + line_end.start()
        for d in check(game).diagnostics:
            if d.span.known:
                assert game.span.start <= d.span.start <= d.span.end <= last, (d, written)


@examples(200)
@given(st.lists(notation_text, min_size=1, max_size=4))
def test_every_diagnostic_stands_in_its_own_game(games) -> None:
    """Whatever a game holds, what the checker reports on it is placed within
    its own text, never on the blank lines after it or in the next game."""
    _in_own_game("".join(f'[Event "{n}"]\n{text}\n\n' for n, text in enumerate(games)))


def test_complete_record_has_no_r110() -> None:
    report = run("\n".join(discard_everything()))
    assert report.complete and report.diagnostics == ()
    assert report.state.draw_pile_size == 0


# ------------------------------------------------------------------ headers


def test_r201_hand_with_the_wrong_number_of_cards() -> None:
    report = run('[Hand1 "R2 R3 R4"]\n1. R2-D')
    d = only(report, "R201")
    assert (d.line, d.column, d.turn) == (1, 9, None)
    assert d.message == "Hand1 holds 3 cards: each player is dealt 8"
    # The broken deal is not used: R2 is not refused.
    assert codes(report) == ["R201", "R110"]


def test_r201_deck_with_the_wrong_number_of_cards() -> None:
    report = run('[Deck "R2 R3"]\n1. R4-D')
    d = only(report, "R201")
    assert d.message == "Deck holds 2 cards: after the deal the draw pile holds 44"


def test_r202_card_dealt_twice() -> None:
    report = run('[Hand1 "R2 R3 R4 R5 R6 R7 R8 R3"]\n1. R2-D')
    d = only(report, "R202")
    assert (d.line, d.column) == (1, 30)
    assert d.message == "Red 3 is dealt twice (Hand1): there is only one Red 3"


def test_r202_card_outside_the_colours() -> None:
    report = run('[Hand2 "R2 R3 R4 R5 R6 R7 R8 K3"]\n1. R2-D')
    d = only(report, "R202")
    assert (d.line, d.column) == (1, 30)
    assert d.message == "Black 3 is not a card of this game: its colours are RGWBY"


def test_r203_deal_misses_cards() -> None:
    hand1 = [f"R{n}" for n in range(2, 10)]
    hand2 = [f"G{n}" for n in range(2, 10)]
    deck = [k for k in FULL_DECK if k not in hand1 and k not in hand2]
    deck[deck.index("B7")] = "B6"
    report = run(deal_headers(hand1, hand2, deck) + "1. R2-D")
    assert sorted(codes(report)[:2]) == ["R202", "R203"]
    d = only(report, "R203")
    assert d.line == 3
    assert d.message == "the deal misses 1 card of the full deck: Blue 7"


def test_r204_result_disagrees() -> None:
    text = '[Result "1-0"]\n' + " ".join(discard_everything())
    d = only(run(text), "R204")
    assert (d.line, d.column) == (1, 10)
    assert d.message == "Result says 1-0, but the moves score 0-0 (Player 1 0, Player 2 0)"
    assert run('[Result "0-0"]\n' + " ".join(discard_everything())).diagnostics == ()


def test_result_of_an_incomplete_record_is_not_compared() -> None:
    assert codes(run('[Result "50-10"]\n1. R5-D')) == ["R110"]


def test_r205_unusual_number_of_colours() -> None:
    report = run('[Colors "RGWB"]\n1. R5-D')
    d = only(report, "R205")
    assert d.severity is Severity.WARNING and (d.line, d.column) == (1, 10)
    assert "4 colours" in d.message
    # Four colours: 48 cards, 32 in the draw pile.
    assert report.state.draw_pile_size == 31


# ------------------------------------------------------------------ syntax and setup


def test_syntax_errors_are_reported_with_the_rules() -> None:
    report = run(NAMES + "1. R7-D 2. R11-D 3. R4-D")
    assert [(d.code, d.line) for d in report.diagnostics[:2]] == [("N103", 3), ("R101", 3)]
    assert report.diagnostics[0].column < report.diagnostics[1].column


def test_header_syntax_errors_become_diagnostics() -> None:
    report = run('[Colors "RGWBYD"]\n[Hand1 "R3 R33"]\n[Result "a lot"]\n1. R5-D')
    assert [d.code for d in report.diagnostics] == ["N120", "N121", "N122", "R110"]
    # The readable colours of a broken Colors header stay in use.
    assert report.state.colors == ("R", "G", "W", "B", "Y")


def test_diagnostics_are_sorted_by_position() -> None:
    report = run('[Colors "RGWB"]\n1. R11-D 2. R7-D 3. Z3-D 4. R4-D')
    starts = [d.span.start for d in report.diagnostics]
    assert starts == sorted(starts)
    assert codes(report) == ["R205", "N103", "R106", "R101", "R110"]


def test_path_names_the_file() -> None:
    report = check(parse_game("1. R5-B"), path="games/a.lcn")
    assert str(report.diagnostics[0]).startswith("games/a.lcn:1:4: R107 ")


def test_rule_codes_table_is_complete() -> None:
    assert sorted(RULE_CODES) == ["R101", "R102", "R103", "R104", "R105", "R106", "R107",
                                  "R108", "R109", "R110", "R201", "R202", "R203", "R204",
                                  "R205"]
    for severity, summary in RULE_CODES.values():
        assert isinstance(severity, Severity) and summary


# ------------------------------------------------------------------ recovery


def test_no_cascade_after_a_lower_card() -> None:
    report = run("1. R7-D 2. B2-D 3. R4-D 4. B3-D 5. R5-D 6. B4-D 7. R8-D")
    assert [(d.code, d.turn) for d in report.errors] == [("R101", 2)]


def test_no_cascade_after_a_duplicated_card_with_the_deal() -> None:
    # North plays G2, which South holds; South can still play its G2 later,
    # and North's other cards are not refused either.
    report = run(standard_deal() + "1. G2-D 2. G2-D 3. R3-D 4. G3-D")
    assert [(d.code, d.turn) for d in report.errors] == [("R104", 0)]


def test_no_cascade_after_an_empty_pile() -> None:
    report = run("1. R5-B 2. G2-D 3. R6-D 4. G3-D")
    assert [(d.code, d.turn) for d in report.errors] == [("R107", 0)]


def test_unreadable_turn_keeps_the_alternation() -> None:
    report = run(NAMES + "1. R5-D 2. B?3-D 3. R4-D")
    assert [d.code for d in report.diagnostics][:2] == ["N103", "R101"]
    d = only(report, "R101")
    assert d.turn == 2 and "North" in d.message


def test_unreadable_turn_makes_piles_uncertain() -> None:
    # Turn 2 could not be read: it may have taken the red 5 (no R107 at turn 3)
    # or discarded a card (turn 4 may draw from any pile).
    report = run("1. R5D-D 2. B?3-D 3. G4-R 4. W2-B")
    assert [d.code for d in report.diagnostics if d.code.startswith("R1")] == ["R110"]
    assert not report.state.certain


def test_unreadable_turn_makes_the_hand_unknown_with_the_deal() -> None:
    # South's unreadable turn may have discarded a green card or drawn any card.
    report = run(standard_deal() + "1. R2-D 2. G?-D 3. R3-G 4. G2-D 5. R4-D 6. B5-D")
    assert [d.code for d in report.diagnostics if d.code.startswith("R")] == ["R110"]
    # North's hand is still known exactly: it cannot hold the green 2.
    report = run(standard_deal() + "1. R2-D 2. G?-D 3. G2-D")
    assert [d.code for d in report.diagnostics if d.code.startswith("R")] == ["R105", "R110"]


def test_result_not_compared_after_unreadable_moves() -> None:
    text = '[Result "1-0"]\n' + " ".join(discard_everything()[:-1]) + " R?-D Y9D-D"
    report = run(text)
    assert "R204" not in codes(report)


SPEC = Path(__file__).resolve().parent.parent / "spec" / "rules.md"


def spec_examples() -> dict:
    """The record given for each code in spec/rules.md, and what it reports."""
    text = SPEC.read_text("utf-8")
    found = re.findall(r"^### `(R\d{3})`\n+```lcn\n(.*?)^```\n+```diagnostics\n(.*?)^```",
                       text, re.M | re.S)
    return {code: (record, reported) for code, record, reported in found}


@pytest.mark.parametrize("code", sorted(RULE_CODES))
def test_spec_gives_a_record_for_every_code(code: str) -> None:
    record, reported = spec_examples()[code]
    game = parse_game(record)
    assert game.errors == ()
    report = check(game)
    assert code in codes(report)
    assert "".join(f"{d.line}:{d.column}-{d.end_line}:{d.end_column} {d.code} {d.message}\n"
                   for d in report.diagnostics) == reported


@pytest.mark.parametrize("code", sorted(RULE_CODES))
def test_spec_table_matches_rule_codes(code: str) -> None:
    severity, summary = RULE_CODES[code]
    assert f"| `{code}` | {severity} | {summary} |" in SPEC.read_text("utf-8")


def test_r110_gives_the_range_after_an_unreadable_move() -> None:
    d = only(run("1. R5-D 2. G?-D 3. B2-D"), "R110")
    assert "ends with 41 to 42 cards" in d.message


def test_result_not_compared_after_a_broken_move() -> None:
    moves = discard_everything()
    moves[3] = "R2D-D"  # the red 2 again, instead of the red 5
    report = run('[Result "1-0"]\n' + " ".join(moves))
    assert codes(report) == ["R103"]


# ---------------------------------------------------------------- found by mutation testing
# Each test below failed on a change to checker.py or state.py that the tests
# above let through (mutmut; see spec/guarantees.md and the hardening report).


def test_default_colors_reach_the_rules() -> None:
    # lcn lint's `colors` setting: a K move is fine when black is a default colour.
    assert codes(check(parse_game("1. K3-D"), default_colors=tuple("RGWBYK"))) == ["R110"]
    assert codes(check(parse_game("1. K3-D"))) == ["R106", "R110"]


def complete_record() -> str:
    from lcnotation.lostcities.text.formatter import format_game
    from lcnotation.lostcities.game.generator import generate_game

    return format_game(generate_game(seed=11, colors="RGWBY", players=("Ann", "Bob")))


def test_two_diagnostics_are_sorted_too() -> None:
    # The syntax error comes first from the reader but stands last in the text.
    text = complete_record().replace('[Result "', '[Result "1').rstrip("\n") + " QQ\n"
    report = run(text)
    assert [(d.code, d.line) for d in report.diagnostics] == [("R204", 5), ("N103", 59)]


def test_r204_message_names_both_scores() -> None:
    report = run(complete_record().replace('[Result "7--51"]', '[Result "-51-7"]'))
    assert only(report, "R204").message == ("Result says -51-7, but the moves score 7--51 "
                                            "(Ann 7, Bob -51)")


def test_diagnostics_of_a_game_without_positions() -> None:
    # Games built in code (the generator, the JSON form) have no spans: their
    # header diagnostics stand at NO_SPAN, and sorting them does not fail.
    from lcnotation.lostcities.game.generator import generate_game
    from lcnotation.core.span import NO_SPAN

    game = generate_game(seed=11, colors="RGWBY", deal=True)
    headers = tuple(h._replace(value="1-2") if h.name == "Result" else
                    h._replace(value="R2") if h.name == "Hand1" else h for h in game.headers)
    report = check(game._replace(headers=headers))
    assert [(d.code, d.span) for d in report.diagnostics][:3] == [
        ("R201", NO_SPAN), ("R203", NO_SPAN), ("R204", NO_SPAN)]
    headers = tuple(h._replace(value="1-2") if h.name == "Result" else h
                    for h in generate_game(seed=11, colors="RGWBY").headers)
    report = check(generate_game(seed=11, colors="RGWBY")._replace(headers=headers))
    assert [(d.code, d.span) for d in report.diagnostics] == [("R204", NO_SPAN)]


def test_r110_of_a_game_without_moves_stands_at_its_end() -> None:
    # At the end of its last header (not of its text, which holds the blank
    # lines after it up to the next game).
    d = only(run('[Event "x"]\n\n'), "R110")
    assert (d.line, d.column, d.end_line, d.end_column, d.span.start, d.span.end) == \
        (1, 12, 1, 12, 11, 11)
    d = only(run("1. R3-D\n2. G4-D  "), "R110")
    assert (d.line, d.column, d.span.start, d.span.end) == (2, 8, 15, 15)


@pytest.mark.parametrize("after,tail", [(1, " (1 more move follows)"),
                                        (3, " (3 more moves follow)"), (0, "")])
def test_r109_counts_the_moves_after_the_end(after: int, tail: str) -> None:
    cards = [f"{c}{n}" for c in "RGWBY" for n in range(2, 11)][:44]
    text = " ".join(f"{k}D-D" for k in cards) + " Y10-D" + " YH-D" * after
    d = only(run(text), "R109")
    assert d.message.endswith("no move may follow it" + tail)


def test_r106_says_whether_the_card_was_played_or_discarded() -> None:
    assert only(run("1. R3-D 2. P3D-D"), "R106").message == (
        "Player 2 discards Purple 3, but P is not one of this game's colours (RGWBY)")
    assert only(run("1. Q3-D"), "R106").message == (
        "Player 1 plays Q3, but Q is not one of this game's colours (RGWBY)")


def test_r109_of_a_round_without_a_draw_pile() -> None:
    # One colour: 12 cards, fewer than the two hands; the round is over at once.
    report = run('[Colors "R"]\nR3-D')
    assert only(report, "R205").message == "Colors lists 1 colour: Lost Cities is played with 5 or 6"
    assert only(report, "R109").message == ("the round is over: the last card of the draw "
                                            "pile was drawn, and no move may follow it")


def test_an_unreadable_colors_header_keeps_its_readable_letters() -> None:
    report = run('[Colors "rgwbyk!"]\nK3-D')
    assert codes(report) == ["N120", "R110"] and report.state.colors == tuple("RGWBYK")
    assert run('[Colors "!"]\nR3-D').state.colors == tuple("RGWBY")


def test_deal_problem_at_the_first_card_points_at_it() -> None:
    d = only(run('[Hand1 "Q3 R2 R3 R4 R5 R6 R7 R8"]\nR2-D'), "R202")
    assert (d.line, d.column, d.end_column) == (1, 9, 11)


@pytest.mark.parametrize("hand1,message", [
    ("R3 R3 R3 R4 R5 R6 R7 R8", "Red 3 is dealt 3 times (Hand1): there is only one Red 3"),
    ("RH RH RH RH R5 R6 R7 R8",
     "Red handshake is dealt 4 times (Hand1): there are three Red handshakes"),
    ("QH RH RH RH RH R6 R7 R8",
     "Red handshake is dealt 4 times (Hand1): there are three Red handshakes"),
    ("RH RH RH RH RH R6 R7 R8",
     "Red handshake is dealt 5 times (Hand1): there are three Red handshakes"),
])
def test_r202_messages(hand1: str, message: str) -> None:
    """One way of counting (twice, then digits) and the verb agrees (issue 17)."""
    report = run(f'[Hand1 "{hand1}"]\nR8-D')
    assert message in [d.message for d in report.diagnostics]


def test_r202_names_every_part_a_card_is_dealt_in() -> None:
    hand1 = ["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]
    deck = ["R2"] + [f"{c}{r}" for c in "GWBY" for r in ["H", "H", "H"] + [str(n) for n in
                                                                         range(2, 11)]][:43]
    report = run(f'[Hand1 "{" ".join(hand1)}"]\n[Deck "{" ".join(deck)}"]\nR2-D')
    assert "Red 2 is dealt twice (Hand1 and Deck): there is only one Red 2" in [
        d.message for d in report.diagnostics]


def test_r203_lists_the_missing_cards() -> None:
    full = [f"{c}{r}" for c in "RGWBY" for r in ["H", "H", "H"] + [str(n) for n in range(2, 11)]]
    one_short = full[:8], full[8:16], full[16:59] + ["GH"]
    report = run(deal_headers(*one_short) + "R2-D")
    assert any(d.message.startswith("the deal misses 1 card of the full deck: Yellow 10")
               for d in report.diagnostics), report.diagnostics
    two_short = full[:8], full[8:16], full[16:58] + ["GH", "GH"]
    report = run(deal_headers(*two_short) + "R2-D")
    assert any(d.message.startswith("the deal misses 2 cards of the full deck: Yellow 9, "
                                    "Yellow 10") for d in report.diagnostics)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), deal=st.booleans(),
       change=st.sampled_from(["none", "outside", "unreadable", "after the end"]))
def test_check_played_says_whether_every_move_followed_the_rules(seed: int, deal: bool,
                                                                 change: str) -> None:
    """check_played reports what check does, on the state it is given, and
    says whether every move was played by the rules at its turn: a generated
    game's moves were; a card of a colour outside the set, an unreadable
    move (a turn skipped) or a move after the end are not."""
    from lcnotation import format_game, generate_game
    from lcnotation.lostcities.game.checker import check_played
    from lcnotation.lostcities.game.setup import read_setup
    from lcnotation.lostcities.game.state import GameState

    game = generate_game(seed, deal=deal, colors="RGWBY")
    lines = format_game(game).split("\n")
    moves = [i for i, line in enumerate(lines) if re.match(r"\d+\. ", line)]
    if change == "outside":
        lines[moves[2]] = "3. Q5-D"
    elif change == "unreadable":
        lines[moves[len(moves) // 2]] = "R11-D"
    elif change == "after the end":
        lines.append(f"{len(moves) + 1}. " + lines[moves[-1]].split(" ", 1)[1])
    game = parse_game("\n".join(lines))
    setup = read_setup(game)
    state = GameState.from_setup(setup)
    report, regular = check_played(game, setup, state)
    checked = check(game)
    assert report.state is state and (state.is_over or change != "after the end")
    assert (report.diagnostics, report.score, report.complete) == (
        checked.diagnostics, checked.score, checked.complete)
    assert regular == (change == "none")
