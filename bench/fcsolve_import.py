"""How fc-solve's solutions import: how many import and win, how long it
takes, and how many readings of -sn's unsaid run lengths are open at once.

For each deal and each preset, fc-solve (Debian's freecell-solver-bin) solves
the deal with -snx and with -sn, and ``import_fc_solve`` turns each output into
a record that ``check`` must find won.  Prints the figures, asserts nothing::

    python bench/fcsolve_import.py                      # deals 1-300, a minute or two
    python bench/fcsolve_import.py --deals 1-5000 --presets default,tfts
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
from lcnotation.text.errors import NotationError

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


def main() -> int:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--deals", default="1-300", help="FIRST-LAST (default 1-300)")
    options.add_argument("--presets", default="default,tfts",
                         help="fc-solve -l presets, comma-separated ('default': none)")
    args = options.parse_args()
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
