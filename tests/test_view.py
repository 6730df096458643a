"""The replay page (lcnotation.view, ``lcn view``), opened in headless Chromium.

The browser tests drive Debian's Chromium (scripts/setup.d/chromium.sh)
through Playwright for Python; one browser serves the whole module.  They
look at the page on three screens: a laptop (1366 x 768), a desktop
(1920 x 1080) and a phone (390 x 844).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation import (GameState, check, format_game, format_move, generate_game,
                        generate_games, parse_game, parse_games, read_games)
from lcnotation.svg import board_svg, card_code, move_words, picture
from lcnotation.view import game_data, view_html
from lcnotation.view.positions import entries

from test_svg import broken
from tools import CHROMIUM_ARGS, require

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "examples" / "match.lcn"
MISTAKES = ROOT / "examples" / "mistakes.lcn"
LAPTOP = {"width": 1366, "height": 768}
DESKTOP = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
SCREENS = {"laptop": LAPTOP, "desktop": DESKTOP, "phone": PHONE}


def page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" data-lcnv="data">(.*?)</script>',
                      html, re.S)
    assert found is not None
    return json.loads(found.group(1))


def positions(game, source: Optional[str] = None) -> Iterator[Tuple[GameState, object]]:
    """Every position of ``game`` as the checker replays it, one per move of
    the record (an unreadable move's is the position before it, with no last
    move), with the move that led to it."""
    state = GameState.from_game(game)
    yield state.copy(), None
    for entry in entries(game, source):
        if entry.move is not None:
            state.apply(entry.move)
        yield state.copy(), entry.move


# ------------------------------------------------------------ without a browser


def test_the_page_needs_nothing_from_outside():
    html = view_html(list(read_games(MATCH)), title="match")
    assert re.search(r"<(link|img|iframe|object)\b|\bsrc=|@import|url\(", html) is None
    assert set(re.findall(r"https?://[\w./-]*", html)) == {"http://www.w3.org/2000/svg"}
    data = page_data(html)
    assert len(data["games"]) == 3 and len(data["layouts"]) == 1  # one colour set


def test_every_style_of_the_page_is_scoped_to_its_root():
    html = view_html(list(read_games(MATCH)), title="match")
    root = re.search(r'<div class="lcnv" id="(lcnv-[0-9a-f]{8})">', html).group(1)
    css = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    selectors = []
    for head in re.findall(r"([^{}]+)\{", css):
        if head.strip().startswith("@"):
            continue
        selectors += [s.strip() for s in head.split(",")]
    assert len(selectors) > 20
    for selector in selectors:
        assert f"#{root}" in selector, selector
        # Nothing but the page's root: "body:has(> #root)" and "body > #root"
        # style the body only when the page is a page of its own.
        assert not selector.startswith(("body", "html")) or selector.endswith(f"#{root}") \
            or f"> #{root})" in selector, selector
    # Each page its own id; the same page the same.
    other = view_html(list(read_games(MISTAKES)), title="m")
    assert f'id="{root}"' not in other
    assert html == view_html(list(read_games(MATCH)), title="match")


def test_nothing_in_a_record_can_end_the_script():
    game = generate_game(2)
    script = "</script><script>alert(1)</script>"
    evil = game._replace(headers=tuple(
        h._replace(value=script) if h.name == "Player1" else h for h in game.headers) + (
        game.headers[0]._replace(name="Event", value=script),))
    html = view_html([evil], title="</title><b>")
    assert html.count("</script>") == 2
    assert "<b>" not in html
    assert page_data(html)["games"][0]["play"]["moves"]


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


def regular_game(seed: int):
    """A generated game whose moves all follow the rules, with what makes the
    page's script replay it differently: five, six or other colours, the
    deal known, partly known (the draw pile alone, or a hand) or not, short
    and long expeditions, names with markup and long names, ended or not."""
    rng = random.Random(seed)
    game = generate_game(seed, colors=rng.choice([None, "RGWBYK", "QAZRG"]),
                         deal=rng.random() < 0.7, take=rng.choice([0.0, 0.3, 0.9]),
                         build=rng.choice([0.5, 0.75, 1.0]),
                         turns=rng.choice([None, None, rng.randrange(1, 50)]))
    drop = rng.choice([(), (), ("Hand1", "Hand2"), ("Hand1",), ("Deck",)])
    names = {"Player1": rng.choice(["A & <B>", "Ann", "a name longer than twenty-four letters"])}
    headers = tuple(h._replace(value=names.get(h.name, h.value)) for h in game.headers
                    if h.name not in drop)
    return game._replace(headers=headers)


def respelt(games, seed: int) -> Tuple[str, list]:
    """The record of ``games`` with some of its moves spelt otherwise (lower
    case, X for a discard) and some headers broken (an error that is not a
    move), and its games read from it."""
    rng = random.Random(seed)

    def spell(found: "re.Match[str]") -> str:
        move = found.group(2)
        choice = rng.random()
        if choice < 0.2:
            move = move.lower()
        elif choice < 0.4:
            move = format_move(parse_game(move).moves[0], "x-discard")
        return found.group(1) + move

    texts = [format_game(game) for game in games]
    texts = [text.replace("\n[", '\n[Note "not closed\n[', 1) if rng.random() < 0.3 else text
             for text in texts]
    text = re.sub(r"(?m)^(\d+\. )(\S+)$", spell, "\n".join(texts))
    return text, list(parse_games(text))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_game_whose_moves_follow_the_rules_is_sent_as_its_moves(seed):
    """Such a game's data is its moves (the page's script replays them: the
    browser tests hold that replay to the one Python makes): each move's card
    and draw, the spelling of the moves the file spells otherwise than the
    page's tables, and the score of each card played."""
    from lcnotation.view import _tables

    text, (game,) = respelt([regular_game(seed)], seed)
    assert all(not d.code.startswith("R") or d.code == "R110" for d in check(game).errors)
    data = game_data(game, 0, source=text)
    assert "moves" not in data
    play = data["play"]
    state = GameState.from_game(game)
    tables = _tables(state.colors)
    sources = len(state.colors) + 1
    assert play["deck"] == (None if state.draw_pile() is None
                            else " ".join(map(card_code, state.draw_pile())))
    scores = iter(play["scores"])
    for i, (move, number) in enumerate(zip(game.moves, play["moves"], strict=True)):
        card, source = divmod(number, sources)
        assert tables["cards"][card // 2] == card_code(move.placement.card)
        assert card % 2 == move.placement.discard
        assert source == (0 if move.draw.color is None
                          else 1 + state.colors.index(move.draw.color))
        written = text[move.span.start:move.span.end]
        assert tables["spelt"][number] == format_move(move)
        assert play["written"].get(i, format_move(move)) == written
        assert (i in play["written"]) == (written != format_move(move))
        p = state.to_move
        state.apply(move)
        if not move.placement.discard:
            assert next(scores) == state.scores().expeditions[p][
                state.colors.index(move.placement.card.color)]
    assert next(scores, None) is None
    assert play["turns"][2] == ("" if not state.is_over else picture(state).texts["turn"])
    # The start is what differs from the tables' deal.
    start = picture(GameState.from_game(game))
    deal = tables["deal"]
    assert {**deal["slots"], **data["start"]["slots"]} == {
        name: " ".join(cards) for name, cards in start.slots.items()}
    assert {**deal["texts"], **data["start"]["texts"]} == start.texts
    assert data["start"].get("marks", deal["marks"]) == start.marks


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), deal=st.booleans())
def test_the_changes_of_each_move_rebuild_every_position(seed, deal):
    """The page's data of a game with mistakes, patched move by move as its
    script patches it, gives the picture of each position (the browser tests
    hold the drawing to board_svg)."""
    from lcnotation.view import _tables

    game = broken(seed * 2 + deal)
    data = game_data(game, 0)
    deal_picture = _tables(GameState.from_game(game).colors)["deal"]
    slots = {**deal_picture["slots"], **data["start"]["slots"]}
    texts = {**deal_picture["texts"], **data["start"]["texts"]}
    marks = data["start"].get("marks", deal_picture["marks"])
    assert len(data["moves"]) == len(entries(game))
    for k, (state, move) in enumerate(positions(game)):
        if k:
            _, _, changed_slots, changed_texts, marks, *unreadable = data["moves"][k - 1]
            assert bool(unreadable) == (move is None)
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
    assert html == view_html(list(read_games(MATCH)), title="match.lcn", path=str(MATCH),
                             source=MATCH.read_text(encoding="utf-8"))
    ran = run("view", "-", "--title", "piped", stdin=MISTAKES.read_bytes())
    assert ran.status == 0 and "<title>piped</title>" in ran.out
    ran = run("view", "missing.lcn", "-o", "x.html")
    assert ran.status == 2 and "missing.lcn: cannot read" in ran.err
    assert not Path("x.html").exists()


def test_the_move_list_holds_every_move_of_the_record_as_written(run):
    """The page used to leave unreadable moves out (its counter then counted
    fewer moves than the record has) and spelt every move in v1."""
    ran = run("view", str(MISTAKES))
    assert ran.status == 0
    moves = page_data(ran.out)["games"][0]["moves"]
    assert [m[0] for m in moves] == ["1. R7-D", "2. G3-D", "3. R4-D", "4. R11-D", "5. B5D-D",
                                     "6. b6d-b", "7. K2-D", "8. W3X-D"]
    assert [len(m) > 5 for m in moves] == [False] * 3 + [True] + [False] * 4


def _mixed_record(count: int) -> str:
    """A record of ``count`` games: five and six colours, deals given or not,
    and games with mistakes and unreadable moves."""
    from lcnotation import format_game
    texts = []
    for seed in range(count):
        if seed % 5 == 4:
            texts.append(format_game(broken(seed)))
        else:
            texts.append(format_game(generate_game(
                seed, deal=seed % 2 == 0, colors="RGWBYK" if seed % 3 == 0 else None)))
    return "\n".join(texts)


@pytest.mark.parametrize("jobs", [2, 3])
def test_a_page_built_in_worker_processes_is_the_same_page(tmp_path, jobs):
    from lcnotation.cli.inputs import drawn_games
    from lcnotation.view import _PARALLEL_FROM

    path = tmp_path / "many.lcn"
    path.write_text(_mixed_record(_PARALLEL_FROM * 2 + 3), "utf-8")

    def page(workers: int) -> str:
        drawn = list(drawn_games(str(path), None, "view") or ())
        return view_html((d.game for d in drawn), title="many", path=str(path),
                         sources=(d.source for d in drawn), jobs=workers)

    one = page(1)
    assert len(page_data(one)["layouts"]) >= 2 and page(jobs) == one


def test_lcn_view_in_worker_processes_writes_what_one_process_writes(run):
    from lcnotation.view import _PARALLEL_FROM

    Path("many.lcn").write_text(_mixed_record(_PARALLEL_FROM + 5), "utf-8")
    assert run("view", "many.lcn", "-j", "1", "-o", "one.html").status == 0
    assert run("view", "many.lcn", "-j", "2", "-o", "two.html").status == 0
    assert run("view", "many.lcn", "-o", "default.html").status == 0
    one = Path("one.html").read_bytes()
    assert Path("two.html").read_bytes() == one == Path("default.html").read_bytes()


@pytest.mark.parametrize("signum, status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_while_workers_replay_ends_them_all(tmp_path, signum, status):
    """Ctrl-C or SIGTERM in the middle of a page built by workers: the command
    ends with the signal's status, no worker outlives it, no traceback, and no
    page is written."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import psutil
    from lcnotation import format_games

    (tmp_path / "big.lcn").write_text(format_games(generate_games(3000, seed=2)), "utf-8")
    process = subprocess.Popen([sys.executable, "-m", "lcnotation", "view", "big.lcn", "-j", "2",
                                "-o", "big.html"], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        me = psutil.Process(process.pid)
        deadline = time.monotonic() + 60
        workers = []
        while time.monotonic() < deadline and process.poll() is None:
            workers = [c for c in me.children(recursive=True)]
            if len(workers) >= 2:
                break
            time.sleep(0.02)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.3)
        if signum == "SIGINT":  # Ctrl-C at a terminal: to the whole process group
            os.killpg(process.pid, signal.SIGINT)
        else:  # timeout, docker stop: to the command alone
            process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == status, err
    assert b"Traceback" not in err
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive
    assert not (tmp_path / "big.html").exists()


def test_unreadable_moves_at_the_end_and_in_a_row():
    text = "R7-D B4-D ?? R11-D R1-D G3-D R8-D B12-D"  # "??" has no letter: not a move
    game = parse_game(text)
    listed = entries(game, text)
    assert [(e.number, e.written, e.readable) for e in listed] == [
        (1, "R7-D", True), (2, "B4-D", True), (3, "R11-D", False), (4, "R1-D", False),
        (5, "G3-D", True), (6, "R8-D", True), (7, "B12-D", False)]
    # Without the text, the moves missing between two readable ones are still
    # counted (their text unknown); those after the last cannot be told.
    assert [(e.number, e.written) for e in entries(game)] == [
        (1, "R7-D"), (2, "B4-D"), (3, "?"), (4, "?"), (5, "G3-D"), (6, "R8-D")]


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
    """``open(games, name, viewport=LAPTOP, source=None)`` -> a browser page
    showing the replay page of ``games``; script errors fail the test."""
    folder = tmp_path_factory.mktemp("pages")
    opened = []
    errors: List[str] = []

    def open_page(games, name, viewport=LAPTOP, source=None):
        path = folder / f"{name}.html"
        if not path.exists():
            path.write_text(view_html(games, title=name, source=source), encoding="utf-8")
        page = browser.new_page(viewport=viewport)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(path.as_uri())
        opened.append(page)
        return page

    yield open_page
    for page in opened:
        page.close()
    assert errors == []


def sel(name: str) -> str:
    return f'[data-lcnv="{name}"]'


MOVES = '[data-lcnv="moves"] button'


def shown(page) -> dict:
    """What the page shows now: position, scores, the SVG it drew, the top card
    of every slot."""
    return page.evaluate("""() => {
        const part = (name) => document.querySelector('[data-lcnv="' + name + '"]');
        const tops = {};
        for (const group of part("board").querySelectorAll("[data-slot]")) {
            const last = group.lastElementChild;
            tops[group.dataset.slot] = last ? last.dataset.card : null;
        }
        return {at: lcnView.current.at, game: lcnView.current.game, svg: lcnView.current.svg,
                score0: part("score0").textContent, score1: part("score1").textContent,
                notation: part("notation").textContent, words: part("words").textContent,
                where: part("where").textContent,
                diagnostics: Array.from(part("diagnostics").querySelectorAll("li"),
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
    page.select_option(sel("game"), "2")
    assert shown(page)["at"] == 0
    assert page.locator(MOVES).count() == len(games[2].moves) + 1
    g = 1
    page.select_option(sel("game"), str(g))
    before = None
    for k, (state, move) in enumerate(positions(games[g])):
        if k:
            page.click(sel("next"))
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
    page.click(sel("next"))  # past the end: stays there
    assert shown(page)["at"] == len(games[g].moves)


def test_every_position_is_the_picture_board_svg_makes(pages):
    """The page's drawing and board_svg held equal, for every position of every
    game, from either side of the table."""
    source = MISTAKES.read_text(encoding="utf-8")
    games = (list(read_games(MATCH)) + list(read_games(MISTAKES))
             + [generate_game(4, colors="RGWBYK", deal=True),
                generate_game(6, colors="QAZRG", take=0.6)]
             + [broken(seed) for seed in range(2)])
    page = pages(games, "all")
    for g, game in enumerate(games):
        for bottom in (0, 1):
            drawn = page.evaluate("([g, n, bottom]) => Array.from({length: n + 1}, "
                                  "(_, k) => lcnView.svgAt(g, k, bottom))",
                                  [g, len(entries(game)), bottom])
            expected = [board_svg(state, last_move=move, perspective=bottom)
                        for state, move in positions(game)]
            assert drawn == expected, f"game {g + 1}"
    # The record's text makes no difference to the pictures, only to the list.
    page = pages(list(read_games(MISTAKES)), "mistakes-written", source=source)
    drawn = page.evaluate("(n) => Array.from({length: n + 1}, (_, k) => lcnView.svgAt(0, k))",
                          len(entries(games[3], source)))
    assert drawn == [board_svg(s, last_move=m) for s, m in positions(games[3], source)]


@settings(max_examples=10, deadline=None)
@given(seeds=st.lists(st.integers(0, 2**32), min_size=1, max_size=8, unique=True))
def test_the_script_replays_a_game_as_python_does(pages, seeds):
    """A game whose moves all follow the rules is sent as its moves, and the
    page's script replays it: what it makes of each move (the notation, the
    words, the slots and texts changed, the marks) gives each position as
    lcnotation.svg.Replay reads it, for games of every kind (see
    regular_game); and the drawing is board_svg's, from either side."""
    from lcnotation.svg import markup_text
    from lcnotation.view import _tables
    from lcnotation.view.positions import positions as replayed

    text, games = respelt([regular_game(seed) for seed in seeds], seeds[0])
    page = pages(games, "replayed-" + "-".join(map(str, seeds)), source=text)
    rows = page.evaluate("(n) => Array.from({length: n}, (_, g) => lcnView.movesOf(g))",
                         len(games))
    for g, game in enumerate(games):
        data = game_data(game, 0, source=text)
        assert "play" in data
        deal = _tables(GameState.from_game(game).colors)["deal"]
        slots = {**deal["slots"], **data["start"]["slots"]}
        texts = {**deal["texts"], **data["start"]["texts"]}
        steps = replayed(game, source=text)
        next(steps)  # the deal
        for row, position in zip(rows[g], steps, strict=True):
            notation, words, changed_slots, changed_texts, marks = row
            slots.update(changed_slots)
            texts.update(changed_texts)
            pic, entry = position.picture, position.entry
            assert notation == markup_text(f"{entry.number}. {entry.written}")
            assert words == markup_text(position.words)
            assert slots == {name: " ".join(cards) for name, cards in pic.slots.items()}
            assert texts == pic.texts
            assert [tuple(m) for m in marks] == list(pic.marks)
    game = games[0]
    for bottom in (0, 1):
        drawn = page.evaluate("([n, bottom]) => Array.from({length: n + 1}, "
                              "(_, k) => lcnView.svgAt(0, k, bottom))",
                              [len(game.moves), bottom])
        assert drawn == [board_svg(state, last_move=move, perspective=bottom)
                         for state, move in positions(game)]


def test_the_script_fills_a_layout_as_python_does(pages):
    """fill in page.js and lcnotation.svg.fill, on layouts the page itself does
    not use: a fixed size, a caption, a scoped style sheet."""
    from lcnotation.svg import captioned, fill, layout

    game = generate_game(8, colors="RGWBY", deal=True)
    page = pages([game], "fill")
    state = GameState.from_game(game)
    state.play(game.moves[:30])
    for options in ({"size": 333}, {"caption": True, "perspective": 1},
                    {"style": "text { font-style: italic } svg { opacity: .9 }", "size": 410}):
        lay = layout(state.colors, **options)
        pic = picture(state, last_move=game.moves[29])
        if options.get("caption"):
            pic = captioned(pic, lay, "A & B", "<move>")
        js = {"slots": {k: " ".join(v) for k, v in pic.slots.items()}, "texts": pic.texts,
              "marks": [list(m) for m in pic.marks]}
        assert page.evaluate("([l, p]) => lcnView.fill(l, p)", [lay.to_json(), js]) == \
            fill(lay, pic), options


def test_a_record_without_games(pages):
    page = pages([], "empty")
    assert page.text_content(sel("board")) == "This record holds no games."
    assert page.locator(f"{sel('game')} option").count() == 0


def test_keyboard_only_stepping(pages):
    """Every step can be taken from the keyboard: the arrow keys, Home, End
    and F anywhere on the page, Tab to the buttons and Enter or Space on them,
    Tab into the move list and Enter on a move."""
    games = list(read_games(MATCH))
    page = pages(games, "keys")
    n = len(games[0].moves)
    steps = [("End", n), ("ArrowLeft", n - 1), ("Home", 0), ("ArrowRight", 1),
             ("ArrowRight", 2), ("ArrowLeft", 1), ("ArrowLeft", 0), ("ArrowLeft", 0)]
    for key, at in steps:
        page.keyboard.press(key)
        assert shown(page)["at"] == at, key
    assert shown(page)["where"] == f"start / {n}"
    # Tab from the top of the page: the game's list, then the buttons.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.lcnv") == "game"
    labels = []
    for _ in range(5):
        page.keyboard.press("Tab")
        labels.append(page.evaluate("document.activeElement.getAttribute('aria-label')"))
    assert labels == ["Start (Home)", "Back (Left arrow)", "Forward (Right arrow)", "End (End)",
                      "Turn the board (F)"]
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")  # End
    assert shown(page)["at"] == n
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")  # Back
    page.keyboard.press("Space")
    page.keyboard.press("Space")
    assert shown(page)["at"] == n - 2
    page.keyboard.press("ArrowLeft")  # the arrows still step with a button focused
    assert shown(page)["at"] == n - 3
    # Into the move list: Enter on the 11th entry jumps there.
    page.keyboard.press("Home")
    for _ in range(4):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "start"
    for _ in range(10):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert shown(page)["at"] == 10
    assert page.get_attribute(f"{MOVES} >> nth=10", "aria-current") == "step"
    # F turns the board; the choice of game leaves the arrows to the list.
    state, move = list(positions(games[0]))[10]
    page.keyboard.press("f")
    assert shown(page)["svg"] == board_svg(state, last_move=move, perspective=1)
    page.keyboard.press("F")
    assert shown(page)["svg"] == board_svg(state, last_move=move)


def test_buttons_and_clicks(pages):
    games = list(read_games(MATCH))
    page = pages(games, "buttons")
    n = len(games[0].moves)
    for button, at in (("last", n), ("prev", n - 1), ("first", 0), ("prev", 0)):
        page.click(sel(button))
        assert shown(page)["at"] == at, button
    page.click(f"{MOVES} >> nth=10")
    assert shown(page)["at"] == 10
    state, move = list(positions(games[0]))[10]
    page.click(sel("flip"))
    assert shown(page)["svg"] == board_svg(state, last_move=move, perspective=1)


def test_diagnostics_show_at_their_move(pages):
    games = list(read_games(MISTAKES))
    source = MISTAKES.read_text(encoding="utf-8")
    game = games[0]
    page = pages(games, "mistakes", source=source)
    diagnostics = check(game).diagnostics
    listed = entries(game, source)
    assert len(diagnostics) >= 5 and len(listed) == 8
    seen, with_diagnostics = [], []
    for k in range(len(listed) + 1):
        page.click(f"{MOVES} >> nth={k}")
        now = shown(page)
        assert now["at"] == k and now["where"] == f"{k or 'start'} / 8"
        seen += now["diagnostics"]
        if now["diagnostics"]:
            with_diagnostics.append(k)
        if k:  # every diagnostic inside move k's text is shown with move k
            entry = listed[k - 1]
            end = entry.start + len(entry.written)
            inside = [str(d) for d in diagnostics if entry.start <= d.span.start < end]
            assert set(inside) <= set(now["diagnostics"])
    assert sorted(seen) == sorted(str(d) for d in diagnostics)
    # The move list marks exactly the moves that have diagnostics.
    marked = page.evaluate(f"Array.from(document.querySelectorAll('{MOVES}'), "
                           "(b, k) => b.classList.contains('lcnv-diag') ? k : -1)"
                           ".filter((k) => k >= 0)")
    assert marked == with_diagnostics and len(marked) >= 4
    # The unreadable move is in the list, marked, and says so in words.
    page.click(f"{MOVES} >> nth=4")
    now = shown(page)
    assert now["notation"] == "4. R11-D" and now["words"] == "move 4 could not be read"
    assert any("N103" in d for d in now["diagnostics"])
    button = page.locator(f"{MOVES} >> nth=4")
    assert button.text_content() == "4. R11-D (unreadable)"
    assert "lcnv-unreadable" in button.get_attribute("class")
    page.click(f"{MOVES} >> nth=3")
    assert any("R101" in d for d in shown(page)["diagnostics"])
    assert page.text_content(f"{MOVES} >> nth=6") == "6. b6d-b"


# ------------------------------------------------------------ on real screens


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def resized(page, viewport: dict) -> None:
    """Give ``page`` the size ``viewport`` and wait until it has laid itself
    out again: the window has the new size and two frames have been drawn
    since (on a loaded machine the first reading could come before)."""
    page.set_viewport_size(viewport)
    page.wait_for_function("([w, h]) => window.innerWidth === w && window.innerHeight === h",
                           arg=[viewport["width"], viewport["height"]])
    page.evaluate("() => new Promise(done => requestAnimationFrame("
                  "() => requestAnimationFrame(done)))")


def inside(inner: dict, viewport: dict) -> bool:
    return (inner["x"] >= 0 and inner["y"] >= 0 and inner["width"] > 0
            and inner["x"] + inner["width"] <= viewport["width"] + 0.5
            and inner["y"] + inner["height"] <= viewport["height"] + 0.5)


def test_at_1366_by_768_the_board_and_the_move_list_are_in_view(pages):
    games = list(read_games(MATCH))
    page = pages(games, "laptop", LAPTOP)
    for at in ("Home", "End"):
        page.keyboard.press(at)
        board = box(page, f"{sel('board')} svg")
        assert inside(board, LAPTOP), board
        assert inside(box(page, sel("moves")), LAPTOP)
        assert inside(box(page, sel("next")), LAPTOP)
        assert board["width"] > 0.6 * LAPTOP["width"]  # it fills its place
    assert page.evaluate("document.scrollingElement.scrollHeight") <= LAPTOP["height"]
    # The whole move list shows without scrolling, at the last move too.
    assert page.evaluate("(list) => list.scrollHeight <= list.clientHeight",
                         page.locator(sel("moves")).element_handle())


def test_on_a_phone_the_board_stays_in_view_while_stepping(pages):
    games = list(read_games(MATCH))
    page = pages(games, "phone", PHONE)
    for key in ["End", "ArrowLeft", "Home"] + ["ArrowRight"] * 30 + ["End"]:
        page.keyboard.press(key)
        board = box(page, f"{sel('board')} svg")
        assert inside(board, PHONE), (key, board)
        assert page.evaluate("window.scrollY") == 0
    assert board["width"] > 0.9 * PHONE["width"]
    # The current move is scrolled into view inside the list, not the page.
    current = box(page, f"{MOVES}[aria-current]")
    assert inside(current, PHONE)


def test_the_board_scales_with_the_window(pages):
    games = list(read_games(MATCH))
    page = pages(games, "scales", LAPTOP)
    page.keyboard.press("End")
    widths = []
    for viewport in (LAPTOP, DESKTOP, {"width": 1000, "height": 700}):
        resized(page, viewport)
        board = box(page, f"{sel('board')} svg")
        assert inside(board, viewport)
        widths.append(board["width"])
    assert widths[1] > widths[0] > widths[2]


def test_the_cards_keep_their_size_while_the_expeditions_grow(pages):
    games = list(read_games(MATCH))
    page = pages(games, "steady", LAPTOP)
    widths = set()
    for _ in range(len(games[0].moves)):
        page.keyboard.press("ArrowRight")
        widths.add(round(box(page, f"{sel('board')} svg")["width"]))
    assert len(widths) == 1


#: For every card of the board, the part of its corner (letter and rank) that
#: is painted: points inside its text's box, each of which must hit the card
#: itself (its text or its shape), not another element.
COVERED_CORNERS = """(moves) => {
    const board = document.querySelector('[data-lcnv="board"]');
    const bad = [];
    let checked = 0;
    for (let k = 0; k <= moves; k++) {
        lcnView.go(k);
        for (const card of board.querySelectorAll("[data-card]")) {
            if (card.dataset.card === "?") continue;
            const corner = card.querySelector("text");
            const r = corner.getBoundingClientRect();
            checked++;
            for (const [fx, fy] of [[.1, .2], [.5, .5], [.9, .2], [.1, .8], [.9, .8]]) {
                const x = r.left + fx * r.width, y = r.top + fy * r.height;
                const hit = document.elementFromPoint(x, y);
                if (!hit || hit.closest("[data-card]") !== card) {
                    bad.push("at " + k + ": " + card.dataset.card + " in "
                             + card.parentElement.dataset.slot + " under "
                             + (hit ? hit.outerHTML.slice(0, 80) : "nothing"));
                    break;
                }
            }
        }
    }
    return {checked: checked, bad: bad};
}"""


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_no_card_index_is_covered(pages, screen):
    """For every card at every position of a sample game (either side at the
    bottom), its letter and rank are what the browser shows at those points."""
    game = generate_game(12, colors="RGWBY", deal=True, take=0.5)
    page = pages([game], f"corners-{screen}", SCREENS[screen])
    checked = 0
    for flip in (False, True):
        if flip:
            page.keyboard.press("f")
        found = page.evaluate(COVERED_CORNERS, len(game.moves))
        assert found["bad"] == [], found["bad"][:5]
        checked += found["checked"]
    assert checked > 2000


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_no_serious_accessibility_violation(pages, screen):
    """axe-core (through axe-playwright-python) finds nothing serious or
    critical, at the start and at a position with diagnostics."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    games = list(read_games(MISTAKES)) + list(read_games(MATCH))
    page = pages(games, f"axe-{screen}", SCREENS[screen],
                 source=MISTAKES.read_text(encoding="utf-8"))
    axe = axe_module.Axe()
    for keys in ((), ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight")):
        for key in keys:
            page.keyboard.press(key)
        results = axe.run(page)
        serious = [(v["id"], v["impact"], len(v["nodes"]))
                   for v in results.response["violations"]
                   if v["impact"] in ("serious", "critical")]
        assert serious == [], serious


def test_the_page_and_the_picture_restyle_nothing_around_them(browser, tmp_path):
    """Put into a host page (as a notebook puts them), neither the picture nor
    the page's markup changes how the host's own elements look, and two
    pages in one document keep to themselves."""
    games = list(read_games(MATCH))
    state = GameState.from_game(games[0])
    state.play(games[0].moves)
    svg = board_svg(state, style="text { font-style: italic } svg { opacity: .5 }")
    page_markup = view_html(games, title="one")
    other_markup = view_html(games[1:], title="two")
    host = ("<!DOCTYPE html><html><head><style>.k{color:#123456}.n,.s{font-size:13px}"
            "</style></head><body><pre><span class='k'>def</span> <span class='n'>f</span>"
            "<span class='s'>'x'</span></pre><h1>Host</h1><header>h</header><main>m</main>"
            "<ol><li>item</li></ol><button>b</button><p><code>c</code></p>"
            "<div id='board'>host board</div><svg width='10' height='10'><text>t</text>"
            "<rect width='5' height='5'/></svg><div id='added'></div></body></html>")
    path = tmp_path / "host.html"
    path.write_text(host, encoding="utf-8")
    page = browser.new_page(viewport=LAPTOP)
    page.goto(path.as_uri())
    look = """() => Array.from(document.querySelectorAll(
        "body > *:not(#added), body > * *"), (e) => {
            if (e.closest("#added")) return null;
            const s = getComputedStyle(e);
            return [e.tagName, s.color, s.fontSize, s.fontWeight, s.fontStyle, s.fontFamily,
                    s.margin, s.padding, s.display, s.opacity, s.background];
        }).filter((x) => x).concat([[getComputedStyle(document.body).margin]])"""
    before = page.evaluate(look)
    page.evaluate("""([svg, one, two]) => {
        const added = document.getElementById("added");
        added.insertAdjacentHTML("beforeend", svg);
        for (const html of [one, two]) {
            const holder = document.createElement("div");
            holder.innerHTML = html;
            added.appendChild(holder);
            // As notebooks do: the scripts of the markup are run.
            for (const old of holder.querySelectorAll("script:not([type])")) {
                const script = document.createElement("script");
                script.textContent = old.textContent;
                old.replaceWith(script);
            }
        }
    }""", [svg, page_markup, other_markup])
    assert page.evaluate(look) == before
    # Both pages draw their own game, and the host's #board is untouched.
    counts = page.evaluate("""() => Array.from(document.querySelectorAll(".lcnv"),
        (root) => root.querySelectorAll('[data-lcnv="moves"] button').length)""")
    assert counts == [len(games[0].moves) + 1, len(games[1].moves) + 1]
    assert page.text_content("#board") == "host board"
    page.close()


def test_screenshots_of_the_start_and_the_end(pages, tmp_path):
    games = list(read_games(MATCH))
    page = pages(games, "shots")
    start, end = tmp_path / "start.png", tmp_path / "end.png"
    page.locator(f"{sel('board')} svg").screenshot(path=str(start))
    page.keyboard.press("End")
    page.locator(f"{sel('board')} svg").screenshot(path=str(end))
    from test_svg import png_size
    for path in (start, end):
        width, height = png_size(path.read_bytes())
        assert width > 800 and width > 1.3 * height, (path, width, height)
        assert path.stat().st_size > 20_000  # a picture, not a blank
    assert start.read_bytes() != end.read_bytes()


def test_a_two_thousand_game_file(pages):
    games = list(generate_games(2000, seed=5, turns=3))
    page = pages(games, "archive")
    assert page.locator(f"{sel('game')} option").count() == 2000
    assert page.locator(MOVES).count() == len(games[0].moves) + 1
    page.select_option(sel("game"), "1999")
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
    assert page.locator(MOVES).count() == len(last.moves) + 1


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_page_of_game_texts_is_the_page_of_the_games_read_first(tmp_path, jobs):
    """lcn view sends each game's text to be read where it is replayed (in
    the workers with -j): the page is the one of the games read beforehand,
    and a text with nothing to show (a file of a comment alone) is left out."""
    from lcnotation.cli.inputs import drawn_games, drawn_texts
    from lcnotation.view import _PARALLEL_FROM, view_html_of_texts

    path = tmp_path / "many.lcn"
    path.write_text(_mixed_record(_PARALLEL_FROM + 7), "utf-8")
    drawn = list(drawn_games(str(path), None, "view") or ())
    texts = list(drawn_texts(str(path), None, "view") or ())
    from_games = view_html((d.game for d in drawn), title="many", path=str(path),
                           sources=(d.source for d in drawn), jobs=1)
    assert view_html_of_texts(texts, title="many", path=str(path), jobs=jobs) == from_games
    lone = tmp_path / "comment.lcn"
    lone.write_text("{ only a comment }\n", "utf-8")
    lone_texts = list(drawn_texts(str(lone), None, "view") or ())
    assert len(lone_texts) == 1 and not list(drawn_games(str(lone), None, "view") or ())
    assert page_data(view_html_of_texts(lone_texts, title="c", jobs=jobs))["games"] == []
