"""``lcn lint --fix`` and ``lcn fmt`` against plain ``lcn lint``: time and peak memory.

The file is the one issue #11 names: ``format_games(generate_games(N, seed=3),
"lower")``, every move in lower case, so that every move has a fix (about 60
per game).  Each command runs in a fresh process on a fresh copy of the file;
the rows take turns for ``--repeat`` rounds and keep their best time.  It
prints figures and asserts nothing::

    python bench/fix.py                 # 20,000 games, about 1.2 million fixes
    python bench/fix.py --games 2000    # quicker
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Tuple

# Runs lcn in this process and reports its peak resident memory (VmHWM) on
# stderr's last line.
CHILD = """
import sys
from lcnotation.cli import main
status = main(sys.argv[1:])
sys.stdout.flush()
with open("/proc/self/status") as f:
    peak = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM:"))
print(f"PEAK {peak} {status}", file=sys.stderr)
"""

ROWS: Dict[str, List[str]] = {
    "lcn lint": ["lint", "--no-progress"],
    "lcn lint --fix": ["lint", "--no-progress", "--fix"],
    "lcn fmt": ["fmt"],
}


def run(args: List[str], path: str, scratch: str) -> Tuple[float, int, int]:
    """One command on a fresh copy of ``path``: seconds, exit status, peak bytes."""
    copy = os.path.join(scratch, "games.lcn")
    shutil.copyfile(path, copy)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, *args, copy],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    last = done.stderr.strip().splitlines()[-1].split()
    return seconds, int(last[2]), int(last[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=1)
    options = parser.parse_args()
    from lcnotation import format_games, generate_games
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "lower.lcn")
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(format_games(generate_games(options.games, seed=3), "lower"))
        size = os.path.getsize(path)
        print(f"{options.games:,} games in lower case, {size / 1e6:.1f} MB")
        best: Dict[str, Tuple[float, int, int]] = {}
        for _ in range(options.repeat):
            for row, args in ROWS.items():
                figures = run(args, path, scratch)
                if row not in best or figures[0] < best[row][0]:
                    best[row] = figures
        base = best["lcn lint"][0]
        print(f"{'':16} {'seconds':>8} {'x lint':>7} {'MB/s':>6} {'peak RSS':>9} status")
        for row, (seconds, status, peak) in best.items():
            print(f"{row:16} {seconds:8.2f} {seconds / base:7.2f} {size / 1e6 / seconds:6.2f}"
                  f" {peak / 1e6:6.1f} MB {status:>6}")


if __name__ == "__main__":
    main()
