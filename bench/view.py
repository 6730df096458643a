"""How big and how fast the replay page is for large records.

Writes the page (``lcnotation.view.view_html``) for a 3-game match and for
files of many generated games, and prints the time to build it, its size,
the bytes per move, and the time a headless Chromium takes to load it and
to show the last game's last position (with ``--browser``, when Playwright
and /usr/bin/chromium are installed).

It prints figures and asserts nothing::

    python bench/view.py                    # 3 games and 2,000 games
    python bench/view.py --games 200 --browser
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from lcnotation import generate_games, generate_match  # noqa: E402
from lcnotation.view import view_html  # noqa: E402
from tools import CHROMIUM_ARGS  # noqa: E402  (tests/tools.py)


def measure(label: str, games: list, browser: bool) -> None:
    moves = sum(len(g.moves) for g in games)
    start = time.perf_counter()
    html = view_html(games, title=label)
    built = time.perf_counter() - start
    size = len(html.encode("utf-8"))
    print(f"{label}: {len(games)} games, {moves} moves: built in {built:.2f} s, "
          f"{size / 1e6:.2f} MB, {size / max(1, moves):.0f} bytes a move")
    if browser:
        from playwright.sync_api import sync_playwright

        with tempfile.TemporaryDirectory() as folder, sync_playwright() as play:
            page_file = Path(folder) / "page.html"
            page_file.write_text(html, encoding="utf-8")
            chromium = play.chromium.launch(executable_path="/usr/bin/chromium",
                                            args=CHROMIUM_ARGS)
            page = chromium.new_page()
            start = time.perf_counter()
            page.goto(page_file.as_uri())
            page.wait_for_selector("#board svg")
            loaded = time.perf_counter() - start
            start = time.perf_counter()
            page.select_option("#game", str(len(games) - 1))
            page.keyboard.press("End")
            page.wait_for_selector("#board svg")
            shown = time.perf_counter() - start
            chromium.close()
            print(f"  Chromium: loaded in {loaded:.2f} s, last game's end shown in "
                  f"{shown:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--browser", action="store_true", help="also time Chromium")
    args = parser.parse_args()
    measure("match", list(generate_match(seed=1)), args.browser)
    measure("archive", list(generate_games(args.games, seed=1, deal=True)), args.browser)


if __name__ == "__main__":
    main()
