"""The replay page (lcnotation.view, ``lcn view``), opened in headless Chromium.

The browser tests drive Debian's Chromium (scripts/setup.d/chromium.sh)
through Playwright for Python; one browser serves the whole module.
"""

from __future__ import annotations

import json
import random
import re
import struct
from pathlib import Path
from typing import Iterator, List, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation import (GameState, check, format_game, format_move, generate_game,
                        generate_games, parse_game, read_games)
from lcnotation.svg import board_svg, card_code, move_words, picture
from lcnotation.view import game_data, view_html

from tools import CHROMIUM_ARGS, require

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "examples" / "match.lcn"
MISTAKES = ROOT / "examples" / "mistakes.lcn"
VIEWPORT = {"width": 1100, "height": 950}


def page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="lcn-data">(.*?)</script>', html,
                      re.S)
    assert found is not None
    return json.loads(found.group(1))


def positions(game) -> Iterator[Tuple[GameState, object]]:
    """Every position of ``game`` as the checker replays it, with the move that
    led to it."""
    state = GameState.from_game(game)
    yield state.copy(), None
    for move in game.moves:
        state.apply(move)
        yield state.copy(), move


# ------------------------------------------------------------ without a browser


def test_the_page_needs_nothing_from_outside():
    html = view_html(list(read_games(MATCH)), title="match")
    assert re.search(r"<(link|img|iframe|object)\b|\bsrc=|@import|url\(", html) is None
    assert set(re.findall(r"https?://[\w./-]*", html)) == {"http://www.w3.org/2000/svg"}
    data = page_data(html)
    assert len(data["games"]) == 3 and len(data["layouts"]) == 1  # one colour set


def test_nothing_in_a_record_can_end_the_script():
    game = generate_game(2)
    evil = game._replace(headers=game.headers + (
        game.headers[0]._replace(name="Event", value="</script><script>alert(1)</script>"),))
    html = view_html([evil], title="</title><b>")
    assert html.count("</script>") == 2
    assert "<b>" not in html
    assert page_data(html)["games"][0]["moves"]


def test_the_file_grows_with_the_moves_not_with_moves_times_positions():
    sizes = {}
    for turns in (14, 28, 56):  # a six-colour game without draws from the piles: 56 turns
        game = generate_game(9, colors="RGWBYK", deal=True, turns=turns, take=0.0)
        assert len(game.moves) == turns
        sizes[turns] = len(view_html([game], title="t").encode("utf-8"))
    # The last 28 moves cost about what the 14 before them cost twice over (a
    # picture per position would make them cost more than three times as much).
    first, second = sizes[28] - sizes[14], sizes[56] - sizes[28]
    assert second < 2.6 * first, sizes
    assert second / 28 < 400, sizes  # bytes a move


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), deal=st.booleans(), broken_record=st.booleans())
def test_the_changes_of_each_move_rebuild_every_position(seed, deal, broken_record):
    """The page's data, patched move by move as its script patches it, gives the
    picture of each position (the browser tests hold the drawing to board_svg)."""
    game = broken(seed) if broken_record else generate_game(seed, deal=deal)
    data = game_data(game, 0)
    slots, texts = dict(data["start"]["slots"]), dict(data["start"]["texts"])
    marks = data["start"]["marks"]
    for k, (state, move) in enumerate(positions(game)):
        if k:
            _, _, changed_slots, changed_texts, marks = data["moves"][k - 1]
            slots.update(changed_slots)
            texts.update(changed_texts)
        expected = picture(state, last_move=move)
        assert slots == {name: " ".join(cards) for name, cards in expected.slots.items()}
        assert texts == expected.texts
        assert [tuple(m) for m in marks] == list(expected.marks)


def test_lcn_view_and_render_take_the_configured_colours(run):
    """A game without a Colors header has the colours lcn lint gives it."""
    Path("pyproject.toml").write_text('[tool.lcnotation]\ncolors = "RGWBYK"\n', "utf-8")
    Path("six.lcn").write_text("K5D-D R3-K\n", "utf-8")
    assert run("lint", "six.lcn").status == 0  # K is a colour of the game
    ran = run("view", "six.lcn")
    data = page_data(ran.out)
    assert ran.status == 0
    assert [d[2].split()[1] for d in data["games"][0]["diagnostics"]] == ["R110"]
    assert '"dK"' in json.dumps(data["layouts"][0][0]["slots"])
    ran = run("render", "six.lcn")
    assert ran.status == 0 and 'data-slot="e0K"' in ran.out and 'data-card="K5"' in ran.out
    Path("pyproject.toml").write_text('[tool.lcnotation]\ncolors = "RR"\n', "utf-8")
    for command in ("view", "render"):
        ran = run(command, "six.lcn")
        assert ran.status == 2 and "pyproject.toml" in ran.err and ran.out == ""


def test_lcn_view_writes_the_page(run):
    ran = run("view", str(MATCH), "-o", "match.html")
    assert ran.status == 0 and ran.out == ""
    html = Path("match.html").read_text(encoding="utf-8")
    assert html == view_html(list(read_games(MATCH)), title="match.lcn", path=str(MATCH))
    ran = run("view", "-", "--title", "piped", stdin=MISTAKES.read_bytes())
    assert ran.status == 0 and "<title>piped</title>" in ran.out
    ran = run("view", "missing.lcn", "-o", "x.html")
    assert ran.status == 2 and "missing.lcn: cannot read" in ran.err
    assert not Path("x.html").exists()


# ------------------------------------------------------------ in Chromium


@pytest.fixture(scope="module")
def browser():
    chromium = require("chromium", "the replay page is tested in a real browser")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as play:
        launched = play.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def pages(browser, tmp_path_factory):
    """``open(games, name)`` -> a browser page showing the replay page of ``games``;
    script errors fail the test."""
    folder = tmp_path_factory.mktemp("pages")
    opened = []
    errors: List[str] = []

    def open_page(games, name):
        path = folder / f"{name}.html"
        path.write_text(view_html(games, title=name), encoding="utf-8")
        page = browser.new_page(viewport=VIEWPORT)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(path.as_uri())
        opened.append(page)
        return page

    yield open_page
    for page in opened:
        page.close()
    assert errors == []


def shown(page) -> dict:
    """What the page shows now: position, scores, the SVG it drew, the top card
    of every slot."""
    return page.evaluate("""() => {
        const tops = {};
        for (const group of document.querySelectorAll("#board [data-slot]")) {
            const last = group.lastElementChild;
            tops[group.dataset.slot] = last ? last.dataset.card : null;
        }
        return {at: lcnView.current.at, game: lcnView.current.game, svg: lcnView.current.svg,
                score0: document.getElementById("score0").textContent,
                score1: document.getElementById("score1").textContent,
                notation: document.getElementById("notation").textContent,
                words: document.getElementById("words").textContent,
                diagnostics: Array.from(document.querySelectorAll("#diagnostics li"),
                                        (li) => li.textContent),
                tops: tops};
    }""")


def expected_tops(state: GameState) -> dict:
    def top(cards):
        return card_code(cards[-1]) if cards else None
    tops = {f"d{c}": top(state.discard_pile(c)) for c in state.colors}
    tops.update({f"e{p}{c}": top(state.expedition(p, c)) for p in (0, 1) for c in state.colors})
    return tops


def test_step_through_a_whole_game(pages):
    games = list(read_games(MATCH))
    page = pages(games, "match")
    page.select_option("#game", "2")
    assert shown(page)["at"] == 0
    assert page.locator("#moves li").count() == len(games[2].moves) + 1
    g = 1
    page.select_option("#game", str(g))
    before = None
    for k, (state, move) in enumerate(positions(games[g])):
        if k:
            page.click("#next")
        now = shown(page)
        assert (now["game"], now["at"]) == (g, k)
        a, b = state.scores().totals
        assert (now["score0"], now["score1"]) == (f"{state.players[0]}: {a}",
                                                  f"{state.players[1]}: {b}")
        tops = expected_tops(state)
        assert {name: now["tops"][name] for name in tops} == tops
        assert now["notation"] == ("" if move is None else
                                   f"{move.turn + 1}. {format_move(move)}")
        assert now["svg"] == board_svg(state, last_move=move)
        assert now["words"] == ("the deal" if move is None else move_words(before, move))
        before = state
    assert state.is_over
    page.click("#next")  # past the end: stays there
    assert shown(page)["at"] == len(games[g].moves)


def test_every_position_is_the_picture_board_svg_makes(pages):
    """The page's drawing and board_svg held equal, for every position of every game."""
    games = (list(read_games(MATCH)) + list(read_games(MISTAKES))
             + [generate_game(4, colors="RGWBYK", deal=True),
                generate_game(6, colors="QAZRG", take=0.6)]
             + [broken(seed) for seed in range(2)])
    page = pages(games, "all")
    for g, game in enumerate(games):
        drawn = page.evaluate("([g, n]) => Array.from({length: n + 1}, "
                              "(_, k) => lcnView.svgAt(g, k))", [g, len(game.moves)])
        expected = [board_svg(state, last_move=move) for state, move in positions(game)]
        assert drawn == expected, f"game {g + 1}"


def test_a_record_without_games(pages):
    page = pages([], "empty")
    assert page.text_content("#board") == "This record holds no games."
    assert page.locator("#game option").count() == 0


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


def test_keyboard_and_buttons(pages):
    games = list(read_games(MATCH))
    page = pages(games, "keys")
    n = len(games[0].moves)
    for button, at in (("#last", n), ("#prev", n - 1), ("#first", 0), ("#prev", 0)):
        page.click(button)
        assert shown(page)["at"] == at, button
    steps = [("End", n), ("ArrowLeft", n - 1), ("Home", 0), ("ArrowRight", 1),
             ("ArrowRight", 2), ("ArrowLeft", 1), ("ArrowLeft", 0), ("ArrowLeft", 0)]
    for key, at in steps:
        page.keyboard.press(key)
        assert shown(page)["at"] == at, key
    where = page.text_content("#where")
    assert where == f"start / {n}"
    game = games[0]
    state, move = list(positions(game))[2]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("f")  # Player2 at the bottom
    assert shown(page)["svg"] == board_svg(state, last_move=move, perspective=1)
    page.click("#flip")
    assert shown(page)["svg"] == board_svg(state, last_move=move)
    page.keyboard.press("Home")
    page.keyboard.press("End")
    assert page.text_content("#where") == f"{n} / {n}"
    page.click(f"#moves li >> nth=10")
    assert shown(page)["at"] == 10
    assert page.get_attribute("#moves li >> nth=10", "class") == "current"


def test_diagnostics_show_at_their_move(pages):
    games = list(read_games(MISTAKES))
    game = games[0]
    page = pages(games, "mistakes")
    diagnostics = check(game).diagnostics
    assert len(diagnostics) >= 5
    seen, with_diagnostics = [], []
    for k in range(len(game.moves) + 1):
        page.click(f"#moves li >> nth={k}")
        now = shown(page)
        assert now["at"] == k
        seen += now["diagnostics"]
        if now["diagnostics"]:
            with_diagnostics.append(k)
        if k:  # every diagnostic inside move k's text is shown with move k
            span = game.moves[k - 1].span
            inside = [str(d) for d in diagnostics if span.start <= d.span.start < span.end]
            assert set(inside) <= set(now["diagnostics"])
    assert sorted(seen) == sorted(str(d) for d in diagnostics)
    # The move list marks exactly the moves that have diagnostics.
    marked = page.evaluate("Array.from(document.querySelectorAll('#moves li'), "
                           "(li, k) => li.classList.contains('diag') ? k : -1)"
                           ".filter((k) => k >= 0)")
    assert marked == with_diagnostics and len(marked) >= 4
    # R101 (Red 4 after Red 7) is on the third move; the list numbers the
    # moves as the record does, counting the unreadable one (R11-D).
    page.click("#moves li >> nth=3")
    assert any("R101" in d for d in shown(page)["diagnostics"])
    assert page.text_content("#moves li >> nth=4") == "5. B5D-D"



def png_size(path: Path) -> Tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_screenshots_of_the_start_and_the_end(pages, tmp_path):
    games = list(read_games(MATCH))
    page = pages(games, "shots")
    start, end = tmp_path / "start.png", tmp_path / "end.png"
    page.locator("#board svg").screenshot(path=str(start))
    page.keyboard.press("End")
    page.locator("#board svg").screenshot(path=str(end))
    for path in (start, end):
        width, height = png_size(path)
        assert 400 <= width <= 500 and 900 <= height <= 1200, (path, width, height)
        assert path.stat().st_size > 20_000  # a picture, not a blank
    assert start.read_bytes() != end.read_bytes()


def test_a_two_thousand_game_file(pages):
    games = list(generate_games(2000, seed=5, turns=3))
    page = pages(games, "archive")
    assert page.locator("#game option").count() == 2000
    assert page.locator("#moves li").count() == len(games[0].moves) + 1
    page.select_option("#game", "1999")
    page.keyboard.press("End")
    last = games[-1]
    state = GameState.from_game(last)
    state.play(last.moves)
    now = shown(page)
    a, b = state.scores().totals
    assert (now["game"], now["at"]) == (1999, len(last.moves))
    assert now["score0"] == f"{state.players[0]}: {a}"
    assert now["svg"] == board_svg(state, last_move=last.moves[-1])
    # Only the shown game's move list is built.
    assert page.locator("#moves li").count() == len(last.moves) + 1


def test_the_move_list_holds_every_move_of_the_record_as_written(run):
    """The page used to leave unreadable moves out (its counter then counted
    fewer moves than the record has) and spelt every move in v1."""
    ran = run("view", str(MISTAKES))
    assert ran.status == 0
    moves = page_data(ran.out)["games"][0]["moves"]
    assert [m[0] for m in moves] == ["1. R7-D", "2. G3-D", "3. R4-D", "4. R11-D", "5. B5D-D",
                                     "6. b6d-b", "7. K2-D", "8. W3X-D"]
    assert [len(m) > 5 for m in moves] == [False] * 3 + [True] + [False] * 4
