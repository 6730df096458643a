"""How big and how fast the replay page is for large records.

Writes the page (``lcnotation.view.view_html``) for a 3-game match and for
a file of many generated games, and prints the time to build it from the
games read (and what part of it is the check, the one replay of a game
whose moves follow the rules: the page's script replays such a game
itself), its size, the bytes per move, the time of ``lcn view`` with one
process and with one per core, and, with ``--browser``, the time a headless
Chromium takes to load the page and show the first board (the median of
three loads), and to show the last game's last position (when Playwright
and /usr/bin/chromium are installed).

``--compare`` also reads the positions as the page does for a game with
mistakes (``lcnotation.svg.Replay``: one replay, each move's changes) and
as it did before that (every position asked of the game state whole,
``lcnotation.svg.picture``, and compared with the one before);
``--instructions`` counts, under valgrind's callgrind, the instructions a
move of either way takes, and of the page's data as a worker of ``lcn
view`` makes it (steadier than times on a shared machine); and
``--callgrind`` the instructions of ``lcn view`` of the generated games as
a user runs it: with ``-j 1``, and with ``-j 2``, its main process and its
workers apart (bench/jobs.py's count).

It prints figures and asserts nothing::

    python bench/view.py                    # 3 games and 2,000 games
    python bench/view.py --games 200 --browser --compare
    python bench/view.py --instructions     # 100 games, each way, under callgrind
    python bench/view.py --callgrind --games 500   # lcn view -j 1 and -j 2 under callgrind
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from lcnotation import (Game, GameState, check, format_games, generate_games,  # noqa: E402
                        generate_match, parse_games)
from lcnotation.lostcities.game.setup import read_setup  # noqa: E402
from lcnotation.lostcities.text.headers import DEFAULT_COLORS  # noqa: E402
from lcnotation.lostcities.text.reader import GameText, split_games  # noqa: E402
from lcnotation.svg import Picture, move_words, picture  # noqa: E402
from lcnotation.view import view_html  # noqa: E402
from lcnotation.view.positions import positions  # noqa: E402
from tools import CHROMIUM_ARGS  # noqa: E402  (tests/tools.py)

sys.path.insert(0, str(ROOT / "bench"))
from bench import ENV  # noqa: E402  (byte-code written and used, as installed)
from instructions import callgrind  # noqa: E402


def read_replayed(games: List[Game], text: Optional[str] = None) -> int:
    """The positions as the page reads them: one replay, each move's changes."""
    changed = 0
    for game in games:
        for position in positions(game, source=text):
            changed += len(position.slots) + len(position.texts) + len(position.words)
    return changed


def read_whole(games: List[Game]) -> int:
    """The positions as the page read them before: each asked of the state
    whole, and compared with the one before."""
    changed = 0
    for game in games:
        state = GameState.from_setup(read_setup(game))
        before: Picture = picture(state)
        for move in game.moves:
            words = move_words(state, move)
            state.apply(move)
            after = picture(state, last_move=move)
            changed += len(words) + sum(after.slots[n] != before.slots.get(n)
                                        for n in after.slots)
            changed += sum(after.texts[n] != before.texts.get(n) for n in after.texts)
            before = after
    return changed


def timed(what, *args) -> float:
    start = time.perf_counter()
    what(*args)
    return time.perf_counter() - start


def measure(label: str, generated: List[Game], browser: bool, compare: bool) -> None:
    # As lcn view makes it: from the record's text (so that the moves are
    # spelt as written), read before the clock starts.
    text = format_games(generated)
    games = list(parse_games(text))
    moves = sum(len(g.moves) for g in games)
    start = time.perf_counter()
    html = view_html(games, title=label, source=text)
    built = time.perf_counter() - start
    size = len(html.encode("utf-8"))
    print(f"{label}: {len(games)} games, {moves} moves: built in {built:.2f} s (from the games "
          f"read), {size / 1e6:.2f} MB, {size / max(1, moves):.0f} bytes a move")
    checking = timed(lambda: [check(g) for g in games])
    print(f"  of which: checking {checking:.2f} s (the one replay of a game whose moves follow "
          "the rules)")
    if compare:
        replayed = timed(read_replayed, games, text)
        whole = timed(read_whole, games)
        print(f"  reading the positions as the replay runs (as for a game with mistakes) "
              f"{replayed:.2f} s; every position whole: {whole:.2f} s")
    commands(text)
    if browser:
        from playwright.sync_api import sync_playwright

        with tempfile.TemporaryDirectory() as folder, sync_playwright() as play:
            page_file = Path(folder) / "page.html"
            page_file.write_text(html, encoding="utf-8")
            chromium = play.chromium.launch(executable_path="/usr/bin/chromium",
                                            args=CHROMIUM_ARGS)
            loads = []
            for _ in range(3):
                page = chromium.new_page(viewport={"width": 1366, "height": 768})
                start = time.perf_counter()
                page.goto(page_file.as_uri())
                page.wait_for_selector('[data-lcnv="board"] svg')
                loads.append(time.perf_counter() - start)
                if len(loads) < 3:
                    page.close()
            loaded = sorted(loads)[1]
            start = time.perf_counter()
            page.select_option('[data-lcnv="game"]', str(len(games) - 1))
            page.keyboard.press("End")
            page.wait_for_selector('[data-lcnv="board"] svg')
            shown = time.perf_counter() - start
            chromium.close()
            print(f"  Chromium: loaded and drew the first board in {loaded:.2f} s (median of "
                  f"3), the last game's end in {shown:.2f} s")


def commands(text: str, rounds: int = 3) -> None:
    """``lcn view`` as a user runs it, with one process and with one per core
    (the default), in turns: the median wall time and processor time (the
    workers' included) of ``rounds`` runs each."""
    import os
    import resource
    import statistics
    import subprocess

    cores = os.cpu_count() or 1
    runs: Dict[int, List[Tuple[float, float]]] = {1: [], cores: []}
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "record.lcn"
        record.write_text(text, encoding="utf-8")
        for _ in range(rounds):
            for jobs in runs:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "lcnotation", "view", str(record),
                                "-j", str(jobs), "-o", str(Path(folder) / "page.html")],
                               check=True, env={**ENV, "PYTHONPATH": str(ROOT)})
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                runs[jobs].append((wall, cpu))
    for jobs, figures in runs.items():
        print(f"  lcn view -j {jobs}: {statistics.median(w for w, _ in figures):.2f} s "
              f"(processor {statistics.median(c for _, c in figures):.2f} s), median of {rounds}")


# ------------------------------------------------------------ instruction counts


def read_page(texts: List[GameText]) -> int:
    """What a worker of ``lcn view`` does: each game read from its text,
    checked and encoded as the page's data (a game with mistakes replayed
    a second time, by Replay)."""
    from lcnotation.view import _games_json

    return sum(len(done[2]) for done in _games_json([(None, t) for t in texts], None,
                                                     DEFAULT_COLORS) if done)


def _row(mode: str, games: int) -> None:
    """The measured process: a warm-up pass, then ``mode`` (``replay:N``,
    ``whole:N`` or ``page:N``: N passes), each pass over ``games`` generated
    games of its own."""
    what, passes = mode.split(":")

    def one_pass(sample: List[Game], texts: List[GameText]) -> None:
        if what == "page":
            read_page(texts)
        else:
            (read_replayed if what == "replay" else read_whole)(sample)

    # The warm-up is a whole pass over other games, so that what is filled on
    # first use (compiled patterns, the tables of a set of colours, the words
    # of moves and the scores of expeditions seen before) counts in neither
    # run, as in the middle of a large archive.  Each pass after it reads
    # games of its own (none of their moves met before as such), so the runs
    # of N and N + 1 passes differ by a pass over the games of seed N + 3.
    # Every run makes the games of all passes first (the games of the most
    # passes instructions() asks for), so that making them counts in none.
    samples = []
    for seed in range(2, 3 + max(int(passes), 2)):
        sample = list(generate_games(games, seed=seed, deal=True))
        samples.append((sample, list(split_games([format_games(sample)]))))
    for sample, texts in samples[:1 + int(passes)]:
        one_pass(sample, texts)


def _moves(games: int, passes: int) -> int:
    """The moves of the last pass of a run of ``passes`` passes (see :func:`_row`)."""
    return sum(len(g.moves) for g in generate_games(games, seed=passes + 2, deal=True))


def _count(mode: str, games: int) -> int:
    return callgrind([__file__, "--row", mode, "--games", str(games)])


MODES = {"whole": "every position read whole", "replay": "one replay (Replay)",
         "page": "the page's data (a game read from its text, checked, encoded)"}


def instructions(games: int, modes: List[str]) -> None:
    moves = _moves(games, 2)
    per: Dict[str, float] = {}
    for what in modes:
        one, two = _count(f"{what}:1", games), _count(f"{what}:2", games)
        per[what] = (two - one) / moves
    print(f"instructions a move ({games} games, {moves} moves, callgrind): "
          + "; ".join(f"{MODES[what]} {per[what]:,.0f}" for what in modes))


def commands_counted(games: int) -> None:
    """``lcn view`` of ``games`` generated games under callgrind: ``-j 1``, and
    ``-j 2``'s main process and workers apart."""
    import subprocess

    from jobs import Row, instructions as counted_run

    text = format_games(generate_games(games, seed=1, deal=True))
    moves = sum(len(g.moves) for g in parse_games(text))
    row = Row("lcn view", ("view",), {"PYTHONPATH": str(ROOT)}, writes=True)
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "record.lcn"
        record.write_text(text, encoding="utf-8")
        # A run first, uncounted, which writes the byte-code of every module
        # (else the first count would hold compiling those changed since).
        subprocess.run([sys.executable, "-m", "lcnotation", "view", str(record), "-o",
                        str(Path(folder) / "warm.html")], check=True,
                       env={**ENV, "PYTHONPATH": str(ROOT)})
        one, _ = counted_run(row, 1, str(record), folder)
        main, workers = counted_run(row, 2, str(record), folder)
    print(f"lcn view of {games} games ({moves} moves), callgrind: -j 1 {one / 1e9:.2f} G "
          f"instructions ({one / moves:,.0f} a move); -j 2: main process {main / 1e9:.2f} G, "
          f"workers {workers / 1e9:.2f} G")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--browser", action="store_true", help="also time Chromium")
    parser.add_argument("--compare", action="store_true",
                        help="also time reading every position whole")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions a move under callgrind")
    parser.add_argument("--modes", default=",".join(MODES),
                        help="with --instructions, which of " + ", ".join(MODES)
                        + " to count (default: all)")
    parser.add_argument("--callgrind", action="store_true",
                        help="count the instructions of lcn view -j 1 and -j 2 under callgrind")
    parser.add_argument("--row", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.row:
        _row(args.row, args.games or 100)
        return
    if args.callgrind:
        commands_counted(args.games or 2000)
        return
    if args.instructions:
        modes = args.modes.split(",")
        unknown = [m for m in modes if m not in MODES]
        if unknown:
            parser.error(f"unknown mode {unknown[0]!r}; choose from {', '.join(MODES)}")
        instructions(args.games or 100, modes)
        return
    measure("match", list(generate_match(seed=1)), args.browser, args.compare)
    measure("archive", list(generate_games(args.games or 2000, seed=1, deal=True)),
            args.browser, args.compare)


if __name__ == "__main__":
    main()
