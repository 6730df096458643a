"""Instructions a move of a parse or lint pass, counted by valgrind's callgrind.

Wall-clock times swing on a shared machine; instruction counts do not, so
changes to the hot path are judged by them.  Each row runs a fresh Python
under ``valgrind --tool=callgrind`` twice: with one pass over the corpus and
with two; the difference, divided by the corpus's moves, is the figure (the
start-up, which varies by some millions of instructions from run to run,
and the caches filled on the first pass cancel out).

    python bench/instructions.py               # 672 games (about 39,600 moves)
    python bench/instructions.py --games 200   # quicker
    python bench/instructions.py --modes lint,export   # the Parquet export beside lint
    python bench/instructions.py --modes floor,lint,lint-pure   # with and without the C accelerator

The ``lint`` row uses the C accelerator when it is built; ``lint-pure`` is
the same with ``LCNOTATION_PURE_PYTHON=1`` (the pure-Python fused path).
The ``export`` row is ``lcnotation.arrow.writer.export_parquet`` to a new
folder (pyarrow's own work, compression included, is counted too).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional

HERE = os.path.abspath(__file__)


def run(mode: str, path: str) -> None:
    """The measured process: warm up, then ``mode`` over ``path``: ``parse:N``,
    ``lint:N``, ``export:N`` or ``floor:N`` (the regular expression that only finds the
    moves, as bench/bench.py's floor), N passes."""
    import lcnotation
    from bench import FLOOR  # type: ignore[import-not-found]

    sample = '[Event "warm-up"]\n1. R3-D 2. B4-D {c}\n'
    list(lcnotation.parse_games(sample))
    lcnotation.lint_text(sample)
    what, passes = mode.split(":")
    for _ in range(int(passes)):
        if what == "parse":
            for _ in lcnotation.read_games(path):
                pass
        elif what == "floor":
            with open(path, encoding="utf-8") as f:
                sum(len(FLOOR.findall(line)) for line in f)
        elif what == "export":
            from lcnotation.arrow.writer import export_parquet

            with tempfile.TemporaryDirectory() as folder:
                export_parquet([path], os.path.join(folder, "out"))
        else:
            lcnotation.lint_file(path)


def count(mode: str, path: str, extra_env: Optional[Dict[str, str]] = None) -> int:
    return instructions_of([HERE, "--row", mode, path], extra_env)


def instructions_of(argv: List[str], extra_env: Optional[Dict[str, str]] = None) -> int:
    """The instructions of ``python argv`` in a fresh process, under callgrind
    (``extra_env`` added to its environment; bench/view.py and bench/archive.py
    count their own rows with it too)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        # A fixed hash seed: dictionaries and sets then lay out the same way
        # in every run, and the counts repeat to the instruction.
        env = {**os.environ, "PYTHONHASHSEED": "0", **(extra_env or {})}
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        sys.executable, *argv], env=env,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            for line in f:
                m = re.match(r"(?:summary|totals): (\d+)", line)
                if m:
                    return int(m.group(1))
    raise RuntimeError("no totals in callgrind's output")


#: The name bench/view.py uses.
callgrind = instructions_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=672)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"))
    parser.add_argument("--modes", default="floor,parse,lint",
                        help="the rows, comma-separated: floor, parse, lint, lint-pure, export")
    parser.add_argument("--row", help=argparse.SUPPRESS)
    parser.add_argument("path", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(HERE))
    if args.row:
        run(args.row, args.path)
        return
    from bench import corpus  # type: ignore[import-not-found]

    os.makedirs(args.cache, exist_ok=True)
    path = os.path.join(args.cache, f"corpus-{args.games}-{args.seed}.lcn")
    moves = corpus(path, args.games, args.seed)
    print(f"corpus: {args.games} games, {moves:,} moves")
    per_move = {}
    for mode in args.modes.split(","):
        row, env = ("lint", {"LCNOTATION_PURE_PYTHON": "1"}) if mode == "lint-pure" else (mode, None)
        once, twice = count(f"{row}:1", path, env), count(f"{row}:2", path, env)
        per_move[mode] = (twice - once) / moves
        print(f"{mode}: {(twice - once) / moves:,.0f} instructions a move (the second "
              f"pass), {once / moves:,.0f} with start-up and the first pass")
    if "floor" in per_move:
        for mode in ("lint", "lint-pure"):
            if mode in per_move:
                print(f"{mode}: {per_move['floor'] / per_move[mode]:.3f} of the floor, by "
                      "instructions")
    if "lint" in per_move and "export" in per_move:
        print(f"export: {per_move['export'] / per_move['lint']:.2f}x the instructions of lint")


if __name__ == "__main__":
    main()
