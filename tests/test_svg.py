"""Board pictures: lcnotation.svg, the notebook hooks and ``lcn render``.

The golden files under ``tests/data/svg/`` were written by
``LCN_WRITE_GOLDEN=1 pytest tests/test_svg.py -k golden`` and looked at as
PNG; rewrite them only for an intended change of the picture, and read the
diff.
"""

from __future__ import annotations

import colorsys
import io
import os
import random
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation import (Card, GameState, Move, check, format_game, generate_game, parse_game,
                        parse_move, read_games)
from lcnotation.lostcities.game.violations import card_name
from lcnotation.svg import (BACK, CARD_H, CARD_W, HAND_STEP, NOTEBOOK_SIZE, PALETTE, STEP,
                            Replay, _ink, _luminance, _scoped_css, board_html, board_svg,
                            card_code, fill, layout, move_words, picture)
from lcnotation.view.positions import entries, position_svg, position_svgs

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


def drawn(root: ET.Element, name: str) -> List[str]:
    """The codes of the cards drawn in slot ``name``, bottom first."""
    group = root.find(f".//{NS}g[@data-slot='{name}']")
    assert group is not None, name
    return [card.get("data-card") for card in group]


def texts(root: ET.Element) -> Dict[str, str]:
    """The texts drawn, by name (a text not drawn is missing)."""
    return {t.get("data-text"): "".join(t.itertext()) for t in root.iter()
            if t.get("data-text")}


def translate(element: ET.Element) -> Tuple[float, float]:
    x, y = re.fullmatch(r"translate\((-?[\d.]+),(-?[\d.]+)\)", element.get("transform")).groups()
    return float(x), float(y)


def codes(cards) -> List[str]:
    return [card_code(c) for c in cards]


def broken(seed: int):
    """A generated game with mistakes: moves swapped and one made unreadable."""
    rng = random.Random(seed)
    game = generate_game(seed, deal=seed % 2 == 0, take=0.5)
    lines = format_game(game).split("\n")
    moves = [i for i, line in enumerate(lines) if re.match(r"\d+\. ", line)]
    for _ in range(3):
        a, b = rng.sample(moves, 2)
        lines[a], lines[b] = lines[b], lines[a]
    lines[rng.choice(moves)] = "R11-D"
    return parse_game("\n".join(lines))


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
        assert drawn(root, f"h{p}") == known + [BACK] * state.unknown_count(p)
        for k, c in enumerate(state.colors):
            cards = codes(state.expedition(p, c))
            assert drawn(root, f"e{p}{c}") == cards
            # Each expedition's score beside it; none for one not started.
            assert shown.get(f"s{p}{c}") == (str(score.expeditions[p][k]) if cards else None)
    for c in state.colors:
        pile = codes(state.discard_pile(c))
        assert drawn(root, f"d{c}") == pile[-1:]  # a squared pile: its top card
        assert shown.get(f"d{c}") == (str(len(pile)) if len(pile) > 1 else None)
    low, high = state.draw_pile_range
    assert shown["draw"] == (f"{low} to {high} cards" if low != high else
                             "empty" if not high else f"{high} card{'s' * (high != 1)}")
    assert drawn(root, "draw") == ([BACK] if state.draw_pile_size else [])
    who = state.players[state.to_move]
    assert shown["turn"] == (f"{who} to move" if not state.is_over else shown["turn"])
    assert shown["turn"].startswith("round over") == state.is_over


def test_every_position_of_a_game_is_drawn_as_the_state_has_it(match):
    game = match[0]
    for k in range(len(game.moves) + 1):
        state, last = replayed(game, k)
        assert_shows(board_svg(state, last_move=last), state)
    assert texts(parsed(board_svg(state)))["turn"] == "round over: South wins"


def test_a_record_with_mistakes_is_drawn_as_the_checker_replays_it():
    game = list(read_games(MISTAKES))[0]
    for k in range(len(game.moves) + 1):
        state, last = replayed(game, k)
        assert_shows(board_svg(state, last_move=last), state)
    assert not state.certain  # an unreadable move: the draw pile's size is a range
    low, high = state.draw_pile_range
    # In words, so that it cannot be read as a score.
    assert texts(parsed(board_svg(state)))["draw"] == f"{low} to {high} cards" and low < high


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
    styled = dict(last_move=last, style="text{font-style:italic}", size=300)
    assert board_svg(first, **styled) == board_svg(second, **styled)


# ------------------------------------------------------------ the replay


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(["deal", "no deal", "broken"]),
       colors=st.sampled_from(["RGWBY", "RGWBYK", "QZA"]))
def test_the_replay_reads_each_position_as_picture_does(seed, kind, colors):
    """Replay reads only what a move changed; the picture it keeps is always
    the one picture() reads from the whole state, and its words move_words'."""
    game = (broken(seed) if kind == "broken" else
            generate_game(seed, colors=colors, deal=kind == "deal", take=0.4))
    state = GameState.from_game(game)
    replay = Replay(state.copy())
    assert replay.picture == picture(state)
    for move in game.moves:
        before = replay.picture
        old_slots, old_texts = dict(before.slots), dict(before.texts)
        words = move_words(state, move)
        state.apply(move)
        step = replay.play(move)
        assert replay.picture == picture(state, last_move=move)
        assert step.words == words
        # What it says changed is exactly what changed.
        now = replay.picture
        assert step.slots == {n for n in now.slots if now.slots[n] != old_slots[n]}
        assert step.texts == {n for n in now.texts if now.texts[n] != old_texts[n]}


# ------------------------------------------------------------ the table


def test_a_landscape_table_that_grows_with_its_expeditions(match):
    sizes = []
    for k in (0, 20, len(match[0].moves)):
        state, last = replayed(match[0], k)
        root = parsed(board_svg(state, last_move=last))
        x, y, width, height = (int(v) for v in root.get("viewBox").split())
        assert (x, y) == (0, 0)
        sizes.append((width, height))
    assert all(width == sizes[0][0] for width, _ in sizes)
    (width, start), (_, middle), (_, end) = sizes
    assert width > 1.6 * start  # the deal: no room kept for cards not yet played
    assert width > 1.25 * middle
    assert start < middle < end
    state, _ = replayed(match[0])
    root = parsed(board_svg(state, size=250))
    assert root.get("width") == "250"
    assert root.get("height") == str(round(250 * end / width))
    assert root.find(f"{NS}title").text == "Lost Cities position"


def covered_spans(root: ET.Element) -> List[Tuple[float, float]]:
    """The vertical extent of everything drawn: cards, texts, outlines."""
    spans = []
    height = float(root.get("viewBox").split()[3])
    for group in root.iter(f"{NS}g"):
        offset = 0.0
        if group.get("transform", "").startswith("translate(0,"):
            offset = translate(group)[1]
            for child in group:
                if child.tag == f"{NS}text":
                    y = offset + float(child.get("y"))
                    spans.append((y - float(child.get("font-size")), y + 3))
                elif child.tag == f"{NS}rect" and child.get("y") is not None:
                    y = offset + float(child.get("y"))
                    spans.append((y, y + float(child.get("height"))))
        elif group.get("data-card"):
            _, y = translate(group)
            spans.append((y, y + CARD_H))
    return sorted(s for s in spans if s[1] - s[0] < height)


def largest_gap(root: ET.Element) -> float:
    reach, gap = 0.0, 0.0
    for top, bottom in covered_spans(root):
        gap = max(gap, top - reach)
        reach = max(reach, bottom)
    height = float(root.get("viewBox").split()[3])
    return max(gap, height - reach)


@pytest.mark.parametrize("seed", [3, 8])
def test_no_empty_band_at_any_position(seed):
    """No horizontal band of the picture is empty: the expeditions' room grows
    with the longest of them and is not kept for the longest possible one."""
    game = generate_game(seed, colors="RGWBY", deal=True)
    state = GameState.from_game(game)
    for move in (None, *game.moves):
        if move is not None:
            state.apply(move)
        root = parsed(board_svg(state, last_move=move))
        assert largest_gap(root) < 30, (seed, move)


def corner_boxes(root: ET.Element) -> Iterator[Tuple[str, int, Tuple[float, ...]]]:
    """Each card's corner (its letter and rank), in document order, as a box
    generous enough for the widest sans-serif font."""
    order = 0
    for group in root.iter(f"{NS}g"):
        code = group.get("data-card")
        if code is None:
            continue
        order += 1
        if code == BACK:
            continue
        x, y = translate(group)
        corner = group.find(f"{NS}text")
        cx, cy = x + float(corner.get("x")), y + float(corner.get("y"))
        yield code, order, (cx, cy - 10, cx + 10 * len(code), cy + 1)


def card_boxes(root: ET.Element) -> Iterator[Tuple[int, Tuple[float, ...]]]:
    order = 0
    for group in root.iter(f"{NS}g"):
        if group.get("data-card") is None:
            continue
        order += 1
        x, y = translate(group)
        shape = group.find(f"{NS}rect")
        top = y + float(shape.get("y", 0))
        yield order, (x, top, x + float(shape.get("width")), top + float(shape.get("height")))


def overlaps(a: Tuple[float, ...], b: Tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), colors=st.sampled_from(["RGWBY", "RGWBYK"]),
       perspective=st.sampled_from([0, 1]))
def test_no_card_covers_the_corner_of_another(seed, colors, perspective):
    """At every position: each card's letter and rank lie clear of every card
    drawn after it (the browser tests check the same with the real fonts)."""
    game = generate_game(seed, colors=colors, deal=seed % 2 == 0, take=0.5)
    state = GameState.from_game(game)
    for move in (None, *game.moves):
        if move is not None:
            state.apply(move)
        root = parsed(board_svg(state, last_move=move, perspective=perspective))
        boxes = list(card_boxes(root))
        for code, order, corner in corner_boxes(root):
            for later, box in boxes:
                assert later <= order or not overlaps(corner, box), (code, move)


def test_covered_cards_show_their_corner_and_nothing_else():
    """No piece of a covered card's middle (its big rank) peeks out: a covered
    card is drawn as its edge, with its corner, and only the top card whole."""
    game = generate_game(7, colors="RGWBYK", deal=True)
    state, _ = replayed(game, 40)
    root = parsed(board_svg(state))
    covered = whole = 0
    for slot in root.iter(f"{NS}g"):
        name = slot.get("data-slot")
        if name is None or not len(slot):
            continue
        *under, top = list(slot)
        for card in under:
            if card.get("data-card") == BACK:
                continue
            labels = [t.text for t in card.iter(f"{NS}text")]
            assert labels == [card.get("data-card")], (name, labels)
            covered += 1
        code = top.get("data-card")
        if code != BACK:
            labels = [t.text for t in top.iter(f"{NS}text")]
            assert labels[0] == code
            assert labels[1:] == ([] if code.endswith("H") else [code[1:]])
            whole += 1
    assert covered > 20 and whole > 8


def test_the_edge_of_a_covered_card_is_the_part_that_shows():
    """Expeditions: the bottom player's cards show their top edge, the top
    player's (growing towards them) their bottom edge; hands their left edge;
    each edge as deep as the step between cards, and the corner inside it."""
    game = parse_game("R2-D B3-D R4-D B5-D R6-D B7-D")
    state, _ = replayed(game)
    root = parsed(board_svg(state))
    for name, step, axis in (("e0R", STEP, 1), ("e1B", -STEP, 1)):
        cards = list(root.find(f".//{NS}g[@data-slot='{name}']"))
        positions = [translate(card) for card in cards]
        assert [b[axis] - a[axis] for a, b in zip(positions, positions[1:])] == [step] * 2
        for card, (x, y) in zip(cards[:-1], positions):
            shape, corner = card.find(f"{NS}rect"), card.find(f"{NS}text")
            top = float(shape.get("y", 0))
            shows = (top, top + STEP) if step > 0 else (CARD_H - STEP, CARD_H)
            assert top <= shows[0] and float(corner.get("y")) - 10 >= shows[0]
            assert float(corner.get("y")) <= shows[1]
    dealt = generate_game(2, deal=True)
    root = parsed(board_svg(GameState.from_game(dealt)))
    hand = list(root.find(f".//{NS}g[@data-slot='h0']"))
    xs = [translate(card)[0] for card in hand]
    assert [b - a for a, b in zip(xs, xs[1:])] == [HAND_STEP] * 7
    assert 10 * 3 + 4 <= HAND_STEP  # the widest corner, "W10", fits the edge


def test_every_card_carries_its_letter_and_rank():
    game = generate_game(7, colors="RGWBYK", deal=True)
    state, _ = replayed(game, 30)
    root = parsed(board_svg(state))
    cards = [g for g in root.iter(f"{NS}g") if g.get("data-card") not in (None, BACK)]
    assert len(cards) > 20
    for card in cards:
        assert card.find(f"{NS}text").text == card.get("data-card")


def test_wagers_are_told_at_a_glance():
    """A handshake has no rank in its middle but a coin with a times sign
    (the wager multiplies); its edge in a stack carries a small coin too."""
    state = GameState()
    state.play([parse_move("RH-D"), parse_move("BH-D"), parse_move("RH-D"), parse_move("B3-D")])
    root = parsed(board_svg(state))
    red = list(root.find(f".//{NS}g[@data-slot='e0R']"))
    assert [c.get("data-card") for c in red] == ["RH", "RH"]
    for card in red:
        assert card.find(f"{NS}circle") is not None
        assert [t.text for t in card.iter(f"{NS}text")] == ["RH"]
    three = root.find(f".//{NS}g[@data-slot='e1B']")[1]
    assert three.find(f"{NS}circle") is None


def test_a_red_that_reads_as_red_and_inks_that_read_on_every_fill():
    r, g, b = (int(PALETTE["R"][i:i + 2], 16) / 255 for i in (1, 3, 5))
    hue, _, saturation = colorsys.rgb_to_hls(r, g, b)
    assert (hue < 0.03 or hue > 0.96) and saturation > 0.7  # red, not orange
    for letter, fill_ in PALETTE.items():
        lum, ink = _luminance(fill_), _luminance(_ink(fill_))
        contrast = (max(lum, ink) + 0.05) / (min(lum, ink) + 0.05)
        assert contrast >= 4.5, (letter, fill_, contrast)
    assert len(set(PALETTE.values())) == len(PALETTE)


def test_six_colours_and_letters_outside_the_usual_set():
    state = GameState(colors="RGWBYK")
    root = parsed(board_svg(state))
    assert [drawn(root, f"d{c}") for c in "RGWBYK"] == [[]] * 6
    odd = GameState(colors="QAZ")
    _ = odd.play([parse_move("Q5-D"), parse_move("A7D-D"), parse_move("Z10-A")])
    svg = board_svg(odd)
    assert_shows(svg, odd)
    fills = {g.get("data-card")[0]: g.find(f"{NS}rect").get("fill")
             for g in parsed(svg).iter(f"{NS}g") if g.get("data-card") not in (None, BACK)}
    assert set(fills) == {"Q", "A", "Z"}
    assert len(set(fills.values())) == len(fills)
    assert not set(fills.values()) & set(PALETTE.values())


def test_custom_colours():
    state = GameState()
    state.apply(parse_move("R5-D"))
    svg = board_svg(state, colors={"R": "#c00", "background": "navy"})
    root = parsed(svg)
    red = [g for g in root.iter(f"{NS}g") if g.get("data-card") == "R5"][0]
    assert red.find(f"{NS}rect").get("fill") == "#c00"
    assert root.find(f"{NS}rect").get("fill") == "navy"
    with pytest.raises(ValueError, match="neither a colour of the game"):
        board_svg(state, colors={"K": "#000"})
    with pytest.raises(ValueError, match="is not a colour"):
        board_svg(state, colors={"R": '"><script>'})
    with pytest.raises(ValueError, match="perspective"):
        board_svg(state, perspective=2)


# ------------------------------------------------------------ scoped styles


def test_a_picture_holds_no_class_no_id_and_no_style_sheet(match):
    """Shown in a notebook or a page, nothing in the picture can restyle
    what is around it (its look is in presentation attributes)."""
    state, last = replayed(match[0], 30)
    svg = board_svg(state, last_move=last, highlight=[Card("R", 0)])
    root = parsed(svg)
    assert root.find(f".//{NS}style") is None
    assert not [e for e in root.iter() if e.get("class") is not None or e.get("id") is not None]


def test_a_style_applies_to_its_own_picture_alone(match):
    state, last = replayed(match[0], 30)
    css = "text, svg > rect:is(.a, .b) { fill: red } /* } < & */ @media print { g{x:1} }"
    svg = board_svg(state, last_move=last, style=css)
    root = parsed(svg)
    ident = root.get("id")
    assert re.fullmatch(r"lcn[0-9a-f]{8}", ident)
    sheet = root.find(f"{NS}style").text
    assert sheet == (f"#{ident} text, #{ident} > rect:is(.a, .b) {{ fill: red }} "
                     f"/* }} < & */ @media print {{ #{ident} g{{x:1}} }}")
    # Each picture its own id; the same picture the same.
    other = parsed(board_svg(replayed(match[0], 31)[0], style=css)).get("id")
    assert other != ident
    assert parsed(board_svg(state, last_move=last, style=css)).get("id") == ident
    with pytest.raises(ValueError, match="control characters"):
        board_svg(state, style="text{fill:red}\x01")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("ab ,>.:#()[]{};/*\"'@\\\n") + ["svg", "@media", "text"]),
                max_size=30).map("".join))
def test_every_scoped_rule_names_the_picture(css):
    """Whatever the style sheet, every selector list that opens a block at the
    top level starts with the picture's scope (or is an at-rule)."""
    scoped = _scoped_css(css, "#P")
    assert scoped.replace("#P ", "").replace("#P", "") .count("{") == css.count("{")
    depth = 0
    for m in re.finditer(r'/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\])*"?|\'(?:\\.|[^\'\\])*\'?|([{}])',
                         scoped, re.S):
        if m.group(1) == "{":
            if depth == 0:
                head = scoped[:m.start()].rsplit("}", 1)[-1].rsplit(";", 1)[-1]
                # An at-rule's prelude is no selector list, whatever commas it
                # holds ("@,a{" opens an at-rule's block, which styles nothing).
                stripped = re.sub(r"/\*.*?(?:\*/|\Z)", "", head, flags=re.S).strip()
                for selector in ([] if stripped.startswith("@") else head.split(",")):
                    selector = re.sub(r"/\*.*?\*/", "", selector, flags=re.S).strip()
                    assert (not selector or selector.startswith("#P")
                            or selector.lstrip().startswith("@")
                            or "(" in head or "[" in head or '"' in head or "'" in head), head
            depth += 1
        elif m.group(1) == "}":
            depth = max(0, depth - 1)


# ------------------------------------------------------------ marks and words


def marks(root: ET.Element, kind: str) -> List[Tuple[float, float]]:
    return [translate(r) for r in root.iter() if r.get("data-mark") == kind]


def card_at(root: ET.Element, name: str, index: int) -> Tuple[float, float]:
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
    assert drawn(root, "dB") == []
    before = parsed(board_svg(replayed(game, 4)[0]))
    assert marks(root, "from") == [card_at(before, "dB", 0)]
    assert marks(parsed(board_svg(state)), "last") == []
    # A second handshake of a colour: the mark is on the copy just played.
    game = parse_game("RH-D BHD-D RH-D BHD-D")
    state, last = replayed(game, 3)
    root = parsed(board_svg(state, last_move=last))
    assert drawn(root, "e0R") == ["RH", "RH"]
    assert marks(root, "last") == [card_at(root, "e0R", 1)]


def test_whose_turn_it_is_is_marked_by_the_name():
    game = parse_game("R7-D B4-D")
    for k, mover in ((0, 0), (1, 1), (2, 0)):
        state, last = replayed(game, k)
        root = parsed(board_svg(state, last_move=last))
        assert marks(root, "turn") == [card_at(root, f"h{mover}", 0)]
        assert texts(root)["turn"] == f"Player {mover + 1} to move"
    state, _ = replayed(list(read_games(MATCH))[0])
    assert marks(parsed(board_svg(state)), "turn") == []


def test_highlight_marks_every_copy_in_sight(match):
    state, _ = replayed(match[0])
    wanted = [Card("R", 0), ("G", 5)]
    root = parsed(board_svg(state, highlight=wanted))
    expected = []
    for name in ["h0", "h1"] + [f"e{p}{c}" for p in (0, 1) for c in state.colors] + \
            [f"d{c}" for c in state.colors]:
        expected += [card_at(root, name, i) for i, code in enumerate(drawn(root, name))
                     if code in ("RH", "G5")]
    assert len(expected) >= 2
    assert sorted(marks(root, "highlight")) == sorted(expected)


def test_desc_is_an_ascii_picture_for_screen_readers(match):
    state, _ = replayed(match[0])
    desc = parsed(board_svg(state)).find(f"{NS}desc").text
    assert desc.isascii()
    lines = desc.split("\n")
    assert lines[0] == "Lost Cities: round over: South wins"
    score = state.scores()
    for p, name in enumerate(state.players):
        assert f"{name}: total {score.totals[p]}" in lines
        at = lines.index(f"{name}: total {score.totals[p]}")
        hand = " ".join(codes(state.known_cards(p)) + [BACK] * state.unknown_count(p))
        assert lines[at + 1] == f"  hand: {hand or '-'}"
        for k, c in enumerate(state.colors):
            cards = " ".join(codes(state.expedition(p, c)))
            expected = f"  {c} ({score.expeditions[p][k]}): {cards}" if cards else f"  {c}: -"
            assert lines[at + 2 + k] == expected
    for c in state.colors:
        assert f"  {c}: {' '.join(codes(state.discard_pile(c))) or '-'}" in lines
    assert "draw pile: empty" in lines


def test_names_are_escaped_and_long_ones_cut():
    game = parse_game('[Player1 "<b>&Ann"]\n[Player2 "Bob"]\nR5-D')
    state, last = replayed(game)
    svg = board_svg(state, last_move=last)
    assert "<b>" not in svg
    assert texts(parsed(svg))["n0"] == "<b>&Ann"
    long = GameState(players=("Maximiliane Konstantinopoulou-Schmidt", "Bob"))
    name = texts(parsed(board_svg(long)))["n0"]
    assert len(name) == 24 and name.endswith("\u2026") and name.startswith("Maximiliane")


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


# ------------------------------------------------------------ captions


def test_a_caption_names_the_game_and_says_the_move(match):
    game = match[1]
    svg = position_svg(game, 40)
    shown = texts(parsed(svg))
    state, last = replayed(game, 40)
    assert shown["c1"] == "Club night, round 2, South vs North \u00b7 move 40 of 49"
    assert shown["c2"] == f"{entries(game)[39].written}: {move_words(replayed(game, 39)[0], last)}"
    # Below the caption, the picture board_svg draws, moved down by the caption's band.
    plain = parsed(board_svg(state, last_move=last))
    captioned_ = parsed(svg)
    assert (float(captioned_.get("viewBox").split()[3]) - float(plain.get("viewBox").split()[3])
            == 44)
    assert [c.get("data-card") for c in captioned_.iter() if c.get("data-card")] == \
        [c.get("data-card") for c in plain.iter() if c.get("data-card")]
    assert texts(parsed(position_svg(game, 0)))["c2"] == "The deal (49 moves follow)"
    assert position_svg(game, 40, caption=False) == board_svg(state, last_move=last)


def test_a_long_caption_is_cut_to_the_picture(match):
    headers = match[0].headers
    game = match[0]._replace(headers=(headers[0]._replace(value="A long event name " * 8),)
                             + headers[1:])
    shown = texts(parsed(position_svg(game, 5)))
    assert shown["c1"].endswith("\u2026") and len(shown["c1"]) < 80


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
    assert "<style" not in html and "class=" not in html


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
    source = MATCH.read_text(encoding="utf-8")
    assert Path("end.svg").read_text(encoding="utf-8") == position_svg(game, source=source)
    second = list(read_games(MATCH))[1]
    ran = run("render", str(MATCH), "--game", "2", "--move", "10", "--perspective", "2",
              "--size", "300")
    assert ran.status == 0
    assert ran.out == position_svg(second, 10, perspective=1, size=300, source=source)
    ran = run("render", str(MATCH), "--move", "0", "--no-caption")
    assert ran.out == board_svg(GameState.from_game(game))
    state, last = replayed(game)
    ran = run("render", str(MATCH), "--no-caption", "--size", "300")
    assert ran.out == board_svg(state, last_move=last, size=300)


def test_render_counts_moves_as_the_record_does(run):
    """mistakes.lcn's 4th move is unreadable: --move 5 is after the move numbered 5
    (the 4th read), --move 4 shows the position before the unreadable one,
    without the marks of a last move, and the caption says it."""
    game = list(read_games(MISTAKES))[0]
    assert [m.turn for m in game.moves[:5]] == [0, 1, 2, 4, 5]
    for move, read, marked in ((3, 3, True), (4, 3, False), (5, 4, True), (6, 5, True)):
        state, last = replayed(game, read)
        ran = run("render", str(MISTAKES), "--move", str(move), "--no-caption")
        assert ran.out == board_svg(state, last_move=last if marked else None), move
    ran = run("render", str(MISTAKES), "--move", "4")
    assert texts(parsed(ran.out))["c2"] == "R11-D: move 4 could not be read"


def test_render_a_record_with_mistakes_and_from_stdin(run):
    ran = run("render", "-", "--no-caption", stdin=MISTAKES.read_bytes())
    state, last = replayed(list(read_games(MISTAKES))[0])
    assert ran.status == 0 and ran.out == board_svg(state, last_move=last)
    assert check(list(read_games(MISTAKES))[0]).diagnostics  # it has mistakes indeed


@pytest.mark.parametrize("argv, message", [
    (["--game", "4"], "no game 4 (the file has 3)"),
    (["--move", "53"], "no move 53 in game 1 (the last is 52)"),
    (["--move", "-1"], "expected a whole number, 0 or more"),
    (["--game", "0"], "expected a whole number, 1 or more"),
    (["--all"], "--all writes one file per position: name a folder with -o"),
    (["--all", "-o", "d", "--move", "3"], "--all draws every position: leave out --move"),
    (["--format", "png"], "--format goes with --all"),
    (["-o", "a.gif", "--size", "2001"], "an animation is at most 2,000 pixels wide"),
    (["-o", "a.gif", "--delay", "5"], "expected a whole number, 20 or more"),
])
def test_render_refuses_what_is_not_there(run, argv, message):
    ran = run("render", str(MATCH), *argv)
    assert ran.status == 2 and message in ran.err and ran.out == ""


def cairo_or_skip() -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as exc:  # not installed, or no cairo library
        if os.environ.get("CI") == "true":
            pytest.fail(f"cairosvg cannot be used: {exc}")
        pytest.skip(f"cairosvg cannot be used: {exc}")


def png_size(data: bytes) -> Tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_render_png(run, monkeypatch):
    cairo_or_skip()
    ran = run("render", str(MATCH), "--size", "300", "-o", "end.png")
    assert ran.status == 0
    width, height = png_size(Path("end.png").read_bytes())
    svg = parsed(position_svg(list(read_games(MATCH))[0], size=300))
    assert (width, height) == (300, int(svg.get("height")))
    ran = run("render", str(MATCH), "-o", "END.PNG")  # the extension in any case
    assert ran.status == 0 and png_size(Path("END.PNG").read_bytes())[0] == int(
        svg.get("viewBox").split()[2])
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    ran = run("render", str(MATCH), "-o", "again.png")
    assert ran.status == 2 and "PNG output needs cairosvg" in ran.err
    assert not Path("again.png").exists()


@pytest.mark.parametrize("name", ["x.jpg", "x.JPEG", "board.pdf", "noextension"])
def test_render_refuses_a_format_it_does_not_write(run, name):
    """lcn render -o x.jpg used to exit 0 and write SVG into the .jpg file."""
    ran = run("render", str(MATCH), "-o", name)
    assert ran.status == 2 and ran.out == ""
    assert name in ran.err and ".svg" in ran.err and ".png" in ran.err
    assert not Path(name).exists()


def test_render_every_position_into_a_folder(run):
    ran = run("render", str(MISTAKES), "--all", "-o", "frames")
    assert ran.status == 0, ran.err
    files = sorted(Path("frames").iterdir())
    game = list(read_games(MISTAKES))[0]
    source = MISTAKES.read_text(encoding="utf-8")
    assert [f.name for f in files] == [f"mistakes-game1-move{k:03d}.svg" for k in range(9)]
    assert [f.read_text(encoding="utf-8") for f in files] == list(
        position_svgs(game, source=source))
    assert "wrote 9 pictures to frames" in ran.err
    Path("file").write_text("x", encoding="utf-8")
    ran = run("render", str(MISTAKES), "--all", "-o", "file")
    assert ran.status == 2 and "file" in ran.err


def test_render_every_position_as_png(run):
    cairo_or_skip()
    ran = run("render", str(MATCH), "--game", "3", "--all", "-o", "out", "--format", "png",
              "--size", "200", "--no-caption")
    assert ran.status == 0, ran.err
    files = sorted(Path("out").glob("match-game3-move*.png"))
    assert len(files) == len(entries(list(read_games(MATCH))[2])) + 1
    assert {png_size(f.read_bytes())[0] for f in files} == {200}


@pytest.mark.parametrize("ext", [".gif", ".apng"])
def test_render_an_animation(run, ext):
    cairo_or_skip()
    image = pytest.importorskip("PIL.Image")
    ran = run("render", str(MATCH), "--move", "6", "--size", "320", "--delay", "300",
              "-o", f"game{ext}")
    assert ran.status == 0, ran.err
    with image.open(io.BytesIO(Path(f"game{ext}").read_bytes())) as shown:
        assert shown.format == ("GIF" if ext == ".gif" else "PNG")
        assert shown.n_frames == 7 and shown.size[0] == 320  # the deal and 6 moves
        durations = []
        for frame in range(shown.n_frames):
            shown.seek(frame)
            durations.append(shown.info["duration"])
        assert durations == [1500] + [300] * 5 + [4000]


def test_an_animation_of_an_endless_game_is_refused(run):
    Path("long.lcn").write_text("R7-D " + "Rx " * 1200, encoding="utf-8")
    ran = run("render", "long.lcn", "-o", "long.gif")
    assert ran.status == 2 and "at most 1,000 positions" in ran.err
    assert "game 1 has 1,202 up to move 1,201" in ran.err and not Path("long.gif").exists()


def test_render_a_missing_file(run):
    ran = run("render", "nowhere.lcn")
    assert ran.status == 2 and "nowhere.lcn: cannot read" in ran.err


def test_readme_picture_is_what_the_command_draws(run):
    """docs/board.svg, shown in the README and docs/pictures.md, is made by the command they give."""
    ran = run("render", str(MATCH), "--game", "2", "--move", "40")
    assert ran.out == (ROOT / "docs" / "board.svg").read_text(encoding="utf-8")


def test_fill_and_layout_are_the_parts_of_board_svg(match):
    state, last = replayed(match[2], 12)
    assert fill(layout(state.colors, perspective=1, size=500),
                picture(state, last_move=last)) == board_svg(state, last_move=last,
                                                              perspective=1, size=500)
    assert CARD_W < HAND_STEP * 2
