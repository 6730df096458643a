"""How fc-solve's solutions import: how many import and win, how long it
takes, and how many readings of -sn's unsaid run lengths are open at once.

For each deal and each preset, fc-solve (Debian's freecell-solver-bin) solves
the deal with -snx and with -sn, and ``import_fc_solve`` turns each output into
a record that ``check`` must find won.  Prints the figures, asserts nothing::

    python bench/fcsolve_import.py                      # deals 1-300, a minute or two
    python bench/fcsolve_import.py --deals 1-5000 --presets default,tfts
    python bench/fcsolve_import.py --worst              # no fc-solve needed

``--worst`` times a -sn output built to keep many readings open: a run of
twelve cards split over four empty columns (1,330 readings), then moves
between two freecells that every reading makes and none tells apart.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from typing import Dict, List, Tuple

from lcnotation import freecell
from lcnotation.freecell.deals import deal
from lcnotation.freecell.fcsolve import _counts, import_fc_solve, read_fc_solve
from lcnotation.freecell.state import Position
from lcnotation import NotationError

ENV = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}


def solve(n: int, preset: str, notation: str) -> str:
    """fc-solve's output for deal ``n`` ("" when it takes more than a minute)."""
    board = subprocess.run(["make-microsoft-freecell-board", "-t", str(n)],
                           capture_output=True, text=True, check=True, env=ENV).stdout
    options = [] if preset == "default" else ["-l", preset]
    try:
        return subprocess.run(["fc-solve", "-m", notation, *options], input=board,
                              capture_output=True, text=True, env=ENV, timeout=60).stdout
    except subprocess.TimeoutExpired:
        return ""


def worst(padding: int = 2000) -> None:
    """The cost of a move while many readings are open (see the docstring)."""
    from lcnotation.freecell.cards import FULL_DECK

    run = "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H".split()
    rest = [str(c) for c in FULL_DECK if str(c) not in run]
    columns = [run, [], [], [], [], rest[:14], rest[14:27], rest[27:]]
    board = "Foundations: H-0 C-0 D-0 S-0\nFreecells:\n" + "".join(
        ": " + " ".join(c) + "\n" for c in columns) + "\n"
    start, moves = read_fc_solve(board + "12 23 34 45 6a " + "ab ba " * (padding // 2) + "\n")
    assert start is not None
    widths: List[int] = []
    outcome = "read"
    began = time.perf_counter()
    try:
        _counts(start, moves, widths)
    except NotationError as exc:
        outcome = exc.code
    seconds = time.perf_counter() - began
    print(f"worst case: {len(moves)} moves, {max(widths)} readings open, {outcome}; "
          f"{seconds:.2f} s, {seconds / len(moves) * 1e3:.2f} ms a move, "
          f"{seconds / sum(widths) * 1e6:.2f} µs a reading and move")


def main() -> int:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--deals", default="1-300", help="FIRST-LAST (default 1-300)")
    options.add_argument("--presets", default="default,tfts",
                         help="fc-solve -l presets, comma-separated ('default': none)")
    options.add_argument("--worst", action="store_true",
                         help="only the built worst case, without fc-solve")
    args = options.parse_args()
    if args.worst:
        worst()
        return 0
    if not (shutil.which("fc-solve") and shutil.which("make-microsoft-freecell-board")):
        print("fc-solve is not installed (scripts/setup.d/freecell-solver.sh)")
        return 2
    first, last = (int(x) for x in args.deals.split("-"))
    for preset in args.presets.split(","):
        for notation in ("-snx", "-sn"):
            outputs = won = 0
            failed: List[Tuple[int, str]] = []
            seconds: List[float] = []
            widest: Dict[int, int] = {}
            for n in range(first, last + 1):
                text = solve(n, preset, notation)
                if "This game is solveable." not in text:
                    continue
                outputs += 1
                start = time.perf_counter()
                try:
                    record = import_fc_solve(text, n)
                except NotationError as exc:
                    failed.append((n, f"{exc.code} {exc.message}"))
                    continue
                seconds.append(time.perf_counter() - start)
                if freecell.check(freecell.parse(record)).verdict == "won":
                    won += 1
                else:
                    failed.append((n, "not won"))
                widths: List[int] = []
                _counts(Position.fresh(deal(n)), read_fc_solve(text)[1], widths)
                widest[n] = max(widths, default=1)
            seconds.sort()
            top = sorted(widest.items(), key=lambda item: -item[1])[:3]
            median = seconds[len(seconds) // 2] * 1e3 if seconds else 0.0
            print(f"{preset:>8} {notation:<5} {outputs:6} outputs, {won:6} won, "
                  f"{len(failed)} refused; import median {median:.1f} ms, max "
                  f"{max(seconds, default=0) * 1e3:.0f} ms; most readings open "
                  + ", ".join(f"{w} (deal {n})" for n, w in top))
            for n, why in failed[:10]:
                print(f"    deal {n}: {why}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
