"""Board pictures: lcnotation.svg, the notebook hooks and ``lcn render``.

The golden files under ``tests/data/svg/`` were written by
``LCN_WRITE_GOLDEN=1 pytest tests/test_svg.py -k golden`` and looked at in a
browser; rewrite them only for an intended change of the picture, and read
the diff.
"""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation import (Card, GameState, Move, check, generate_game, parse_game, parse_move,
                        read_games)
from lcnotation.lostcities.game.violations import card_name
from lcnotation.svg import (BACK, NOTEBOOK_SIZE, PALETTE, board_html, board_svg, card_code,
                            move_words)

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "data" / "svg"
NS = "{http://www.w3.org/2000/svg}"
MATCH = ROOT / "examples" / "match.lcn"
MISTAKES = ROOT / "examples" / "mistakes.lcn"


def replayed(game, moves: Optional[int] = None) -> Tuple[GameState, Optional[Move]]:
    """The state after the first ``moves`` moves of ``game`` (all by default)
    and the last of them."""
    played = game.moves if moves is None else game.moves[:moves]
    state = GameState.from_game(game)
    state.play(played)
    return state, (played[-1] if played else None)


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def slot(root: ET.Element, name: str) -> List[str]:
    """The codes of the cards drawn in slot ``name``, bottom first."""
    group = root.find(f".//{NS}g[@data-slot='{name}']")
    assert group is not None, name
    return [card.get("data-card") for card in group]


def texts(root: ET.Element) -> Dict[str, str]:
    return {t.get("data-text"): (t.text or "") for t in root.iter(f"{NS}text")
            if t.get("data-text")}


def translate(element: ET.Element) -> Tuple[int, int]:
    x, y = re.fullmatch(r"translate\((-?\d+),(-?\d+)\)", element.get("transform")).groups()
    return int(x), int(y)


def codes(cards) -> List[str]:
    return [card_code(c) for c in cards]


@pytest.fixture(scope="module")
def match():
    return list(read_games(MATCH))


# ------------------------------------------------------------ what is drawn


def assert_shows(svg: str, state: GameState) -> None:
    """The picture holds exactly what the state holds."""
    root = parsed(svg)
    shown = texts(root)
    score = state.scores()
    for p in (0, 1):
        assert shown[f"t{p}"] == str(score.totals[p])
        assert shown[f"n{p}"] == state.players[p]
        known = codes(state.known_cards(p))
        assert slot(root, f"h{p}") == known + [BACK] * state.unknown_count(p)
        for k, c in enumerate(state.colors):
            assert slot(root, f"e{p}{c}") == codes(state.expedition(p, c))
            assert shown[f"s{p}{c}"] == str(score.expeditions[p][k])
    for c in state.colors:
        assert slot(root, f"d{c}") == codes(state.discard_pile(c))
    low, high = state.draw_pile_range
    assert shown["draw"] == (str(high) if low == high else f"{low}-{high}")
    assert slot(root, "draw") == ([BACK] if state.draw_pile_size else [])


def test_every_position_of_a_game_is_drawn_as_the_state_has_it(match):
    game = match[0]
    for k in range(len(game.moves) + 1):
        state, last = replayed(game, k)
        assert_shows(board_svg(state, last_move=last), state)


def test_a_record_with_mistakes_is_drawn_as_the_checker_replays_it():
    game = list(read_games(MISTAKES))[0]
    for k in range(len(game.moves) + 1):
        state, last = replayed(game, k)
        assert_shows(board_svg(state, last_move=last), state)
    assert not state.certain  # an unreadable move: the draw pile's size is a range
    low, high = state.draw_pile_range
    assert texts(parsed(board_svg(state)))["draw"] == f"{low}-{high}" and low < high


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), colors=st.sampled_from(["RGWBY", "RGWBYK", "RGB", "QZAR"]),
       deal=st.booleans(), cut=st.floats(0, 1))
def test_any_position_of_a_generated_game(seed, colors, deal, cut):
    game = generate_game(seed, colors=colors, deal=deal)
    state, last = replayed(game, round(cut * len(game.moves)))
    svg = board_svg(state, last_move=last, perspective=seed % 2)
    assert_shows(svg, state)
    assert svg == board_svg(state.copy(), last_move=last, perspective=seed % 2)


def test_the_same_state_gives_the_same_bytes(match):
    first, last = replayed(match[1])
    second, _ = replayed(list(read_games(MATCH))[1])
    assert board_svg(first, last_move=last) == board_svg(second, last_move=last)


def test_valid_svg_with_a_viewbox_and_an_optional_size(match):
    state, last = replayed(match[0])
    root = parsed(board_svg(state, last_move=last))
    x, y, width, height = (int(v) for v in root.get("viewBox").split())
    assert (x, y) == (0, 0) and width > 300 and height > 600
    assert root.get("width") is None and root.get("height") is None
    sized = parsed(board_svg(state, size=250))
    assert sized.get("width") == "250"
    assert sized.get("height") == str(round(250 * height / width))
    assert sized.find(f"{NS}title").text == "Lost Cities position"


def test_every_card_carries_its_letter_and_rank():
    game = generate_game(7, colors="RGWBYK", deal=True)
    state, _ = replayed(game, 30)
    root = parsed(board_svg(state))
    cards = [g for g in root.iter(f"{NS}g") if g.get("data-card") not in (None, BACK)]
    assert len(cards) > 20
    for card in cards:
        labels = [t.text for t in card.iter(f"{NS}text")]
        code = card.get("data-card")
        assert labels.count(code) == 2, labels  # two corners, so one shows in any stack
        assert labels[-1] == code[1:]


def test_six_colours_and_letters_outside_the_usual_set():
    state = GameState(colors="RGWBYK")
    root = parsed(board_svg(state))
    assert [slot(root, f"d{c}") for c in "RGWBYK"] == [[]] * 6
    odd = GameState(colors="QAZ")
    _ = odd.play([parse_move("Q5-D"), parse_move("A7D-D"), parse_move("Z10-A")])
    svg = board_svg(odd)
    assert_shows(svg, odd)
    fills = {g.get("data-card")[0]: g.find(f"{NS}rect").get("fill")
             for g in parsed(svg).iter(f"{NS}g") if g.get("data-card") not in (None, BACK)}
    assert set(fills) == {"Q", "A", "Z"}
    assert len(set(fills.values())) == len(fills)
    assert not set(fills.values()) & set(PALETTE.values())


def test_colour_fills_differ_within_the_palette():
    assert len(set(PALETTE.values())) == len(PALETTE)


def test_custom_colours_and_style():
    state = GameState()
    state.apply(parse_move("R5-D"))
    svg = board_svg(state, colors={"R": "#c00", "background": "navy"}, style="text{x:1} /* < & */")
    root = parsed(svg)
    red = [g for g in root.iter(f"{NS}g") if g.get("data-card") == "R5"][0]
    assert red.find(f"{NS}rect").get("fill") == "#c00"
    assert root.find(f"{NS}rect").get("fill") == "navy"
    assert root.find(f"{NS}style").text.endswith("text{x:1} /* < & */")
    with pytest.raises(ValueError, match="neither a colour of the game"):
        board_svg(state, colors={"K": "#000"})
    with pytest.raises(ValueError, match="is not a colour"):
        board_svg(state, colors={"R": '"><script>'})
    with pytest.raises(ValueError, match="perspective"):
        board_svg(state, perspective=2)


def test_perspective_puts_the_player_at_the_bottom(match):
    state, _ = replayed(match[0], 10)
    for bottom in (0, 1):
        root = parsed(board_svg(state, perspective=bottom))
        y = {}
        for p in (0, 1):
            group = root.find(f".//{NS}g[@data-slot='h{p}']")
            y[p] = translate(group[0])[1]
        assert y[bottom] > y[1 - bottom]


def marks(root: ET.Element, kind: str) -> List[Tuple[int, int]]:
    return [translate(r) for r in root.iter(f"{NS}rect") if f"mark {kind}" == r.get("class")]


def card_at(root: ET.Element, name: str, index: int) -> Tuple[int, int]:
    return translate(root.find(f".//{NS}g[@data-slot='{name}']")[index])


def test_the_last_move_is_marked():
    game = parse_game("R7-D B4-D R8-D B5D-D G2-B")
    state, last = replayed(game, 4)  # B5D-D: discarded, drawn from the draw pile
    root = parsed(board_svg(state, last_move=last))
    assert marks(root, "last") == [card_at(root, "dB", 0)]
    assert marks(root, "from") == [card_at(root, "draw", 0)]
    state, last = replayed(game)  # G2-B: played, drawn from the Blue discard pile
    root = parsed(board_svg(state, last_move=last))
    assert marks(root, "last") == [card_at(root, "e0G", 0)]
    # The Blue pile is empty again: the mark stands where its top card was.
    assert slot(root, "dB") == []
    before = parsed(board_svg(replayed(game, 4)[0]))
    assert marks(root, "from") == [card_at(before, "dB", 0)]
    assert marks(parsed(board_svg(state)), "last") == []
    # A second handshake of a colour: the mark is on the copy just played.
    game = parse_game("RH-D BHD-D RH-D BHD-D")
    for k, name in ((3, "e0R"), (4, "dB")):
        state, last = replayed(game, k)
        root = parsed(board_svg(state, last_move=last))
        assert slot(root, name)[-2:] == [card_code(last.card)] * 2
        assert marks(root, "last") == [card_at(root, name, 1)]


def test_highlight_marks_every_copy_in_sight(match):
    state, _ = replayed(match[0])
    wanted = [Card("R", 0), ("G", 5)]
    root = parsed(board_svg(state, highlight=wanted))
    expected = []
    for name in ["h0", "h1"] + [f"e{p}{c}" for p in (0, 1) for c in state.colors] + \
            [f"d{c}" for c in state.colors]:
        expected += [card_at(root, name, i) for i, code in enumerate(slot(root, name))
                     if code in ("RH", "G5")]
    assert len(expected) >= 2
    assert sorted(marks(root, "highlight")) == sorted(expected)


def test_desc_is_an_ascii_picture_for_screen_readers(match):
    state, _ = replayed(match[0])
    desc = parsed(board_svg(state)).find(f"{NS}desc").text
    assert desc.isascii()
    lines = desc.split("\n")
    assert lines[0] == "Lost Cities: round over"
    score = state.scores()
    for p, name in enumerate(state.players):
        assert f"{name}: total {score.totals[p]}" in lines
        at = lines.index(f"{name}: total {score.totals[p]}")
        hand = " ".join(codes(state.known_cards(p)) + [BACK] * state.unknown_count(p))
        assert lines[at + 1] == f"  hand: {hand or '-'}"
        for k, c in enumerate(state.colors):
            cards = " ".join(codes(state.expedition(p, c))) or "-"
            assert lines[at + 2 + k] == f"  {c} ({score.expeditions[p][k]}): {cards}"
    for c in state.colors:
        assert f"  {c}: {' '.join(codes(state.discard_pile(c))) or '-'}" in lines
    assert "draw pile: 0 cards" in lines


def test_names_are_escaped():
    game = parse_game('[Player1 "<b>&Ann"]\n[Player2 "Bob"]\nR5-D')
    state, last = replayed(game)
    svg = board_svg(state, last_move=last)
    assert "<b>" not in svg
    assert texts(parsed(svg))["n0"] == "<b>&Ann"


def test_move_words():
    state = GameState(players=("Ann", "Bob"))
    state.play([parse_move("R7D-D"), parse_move("B4-D")])
    assert move_words(state, parse_move("G2-R")) == \
        "Ann plays Green 2 on the Green expedition and takes Red 7 from the Red discard pile"
    assert move_words(state, parse_move("GHD-G")) == \
        "Ann discards Green handshake and takes Green handshake from the Green discard pile"
    # With the deal, the card drawn from the draw pile is known too.
    game = generate_game(3, colors="RGWBY", deal=True)
    state = GameState.from_game(game)
    top = state.draw_pile()[0]
    move = game.moves[0]
    assert move_words(state, move._replace(draw=move.draw._replace(color=None))).endswith(
        f"and draws {card_name(top.color, top.rank)} from the draw pile")


# ------------------------------------------------------------ golden files


GOLDEN_CASES = {
    "start-with-deal": lambda: (replayed(generate_game(5, colors="RGWBY", deal=True), 0), {}),
    "match-end": lambda: (replayed(list(read_games(MATCH))[0]), {}),
    "six-colours-middle": lambda: (replayed(generate_game(11, colors="RGWBYK", deal=True), 37),
                                   {"perspective": 1, "highlight": [Card("K", 0)]}),
    "custom-colours": lambda: (replayed(generate_game(3, colors="QAZRG"), 20),
                               {"colors": {"Q": "#555"}, "size": 300}),
    "mistakes": lambda: (replayed(list(read_games(MISTAKES))[0]), {}),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden(name):
    (state, last), options = GOLDEN_CASES[name]()
    svg = board_svg(state, last_move=last, **options)
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("LCN_WRITE_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(svg + "\n", encoding="utf-8")
    assert svg + "\n" == path.read_text(encoding="utf-8")


# ------------------------------------------------------------ notebooks


def test_notebook_hooks(match):
    game = match[2]
    state, last = replayed(game)
    assert game._repr_svg_() == board_svg(state, last_move=last, size=NOTEBOOK_SIZE)
    assert game._repr_html_() == board_html(state, last_move=last)
    assert board_svg(state, last_move=last) in game._repr_html_()
    assert state._repr_svg_() == board_svg(state, size=NOTEBOOK_SIZE)
    html = state._repr_html_()
    a, b = state.scores().totals
    assert html.endswith(f"<figcaption>North {a}, South {b}</figcaption></figure>")
    ET.fromstring(html)


def test_reading_and_checking_do_not_import_the_pictures():
    code = ("import sys, lcnotation as lcn; g = lcn.parse_game('R7-D'); lcn.check(g); "
            "print(sorted(m for m in sys.modules if m.startswith('lcnotation.svg') "
            "or m.startswith('lcnotation.view')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


# ------------------------------------------------------------ lcn render


def test_render_the_end_and_a_move(run):
    status = run("render", str(MATCH), "-o", "end.svg")
    assert status.status == 0 and status.out == ""
    game = list(read_games(MATCH))[0]
    state, last = replayed(game)
    assert Path("end.svg").read_text(encoding="utf-8") == board_svg(state, last_move=last)
    second = list(read_games(MATCH))[1]
    ran = run("render", str(MATCH), "--game", "2", "--move", "10", "--perspective", "2",
              "--size", "300")
    state, last = replayed(second, 10)
    assert ran.status == 0
    assert ran.out == board_svg(state, last_move=last, perspective=1, size=300)
    ran = run("render", str(MATCH), "--move", "0")
    assert ran.out == board_svg(GameState.from_game(game))


def test_render_counts_moves_as_the_record_does(run):
    """mistakes.lcn's 4th move is unreadable: --move 5 is after the move numbered 5
    (the 4th read), --move 4 shows the position before the unreadable one."""
    game = list(read_games(MISTAKES))[0]
    assert [m.turn for m in game.moves[:5]] == [0, 1, 2, 4, 5]
    for move, read in ((3, 3), (4, 3), (5, 4), (6, 5)):
        state, last = replayed(game, read)
        ran = run("render", str(MISTAKES), "--move", str(move))
        assert ran.out == board_svg(state, last_move=last), move


def test_render_a_record_with_mistakes_and_from_stdin(run):
    ran = run("render", "-", stdin=MISTAKES.read_bytes())
    state, last = replayed(list(read_games(MISTAKES))[0])
    assert ran.status == 0 and ran.out == board_svg(state, last_move=last)
    assert check(list(read_games(MISTAKES))[0]).diagnostics  # it has mistakes indeed


@pytest.mark.parametrize("argv, message", [
    (["--game", "4"], "no game 4 (the file has 3)"),
    (["--move", "53"], "no move 53 in game 1 (the last is 52)"),
    (["--move", "-1"], "expected a whole number, 0 or more"),
    (["--game", "0"], "expected a whole number, 1 or more"),
])
def test_render_refuses_what_is_not_there(run, argv, message):
    ran = run("render", str(MATCH), *argv)
    assert ran.status == 2 and message in ran.err and ran.out == ""


def test_render_png(run, monkeypatch):
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as exc:  # not installed, or no cairo library
        pytest.skip(f"cairosvg cannot be used: {exc}")
    ran = run("render", str(MATCH), "--size", "300", "-o", "end.png")
    assert ran.status == 0
    data = Path("end.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    svg = parsed(board_svg(replayed(list(read_games(MATCH))[0])[0], size=300))
    assert (width, height) == (300, int(svg.get("height")))
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    ran = run("render", str(MATCH), "-o", "again.png")
    assert ran.status == 2 and "PNG output needs cairosvg" in ran.err
    assert not Path("again.png").exists()


def test_render_a_missing_file(run):
    ran = run("render", "nowhere.lcn")
    assert ran.status == 2 and "nowhere.lcn: cannot read" in ran.err


def test_readme_picture_is_what_the_command_draws(run):
    """docs/board.svg, shown in the README, is made by the command the README gives."""
    ran = run("render", str(MATCH), "--game", "2", "--move", "40")
    assert ran.out == (ROOT / "docs" / "board.svg").read_text(encoding="utf-8")
