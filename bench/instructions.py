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

HERE = os.path.abspath(__file__)


def run(mode: str, path: str) -> None:
    """The measured process: warm up, then ``mode`` over ``path``: ``parse:N``,
    ``lint:N`` or ``export:N``, N passes."""
    import lcnotation

    sample = '[Event "warm-up"]\n1. R3-D 2. B4-D {c}\n'
    list(lcnotation.parse_games(sample))
    lcnotation.lint_text(sample)
    what, passes = mode.split(":")
    for _ in range(int(passes)):
        if what == "parse":
            for _ in lcnotation.read_games(path):
                pass
        elif what == "export":
            from lcnotation.arrow.writer import export_parquet

            with tempfile.TemporaryDirectory() as folder:
                export_parquet([path], os.path.join(folder, "out"))
        else:
            lcnotation.lint_file(path)


def count(mode: str, path: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        # A fixed hash seed: dictionaries and sets then lay out the same way
        # in every run, and the counts repeat to the instruction.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        sys.executable, HERE, "--row", mode, path], env=env,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            for line in f:
                m = re.match(r"(?:summary|totals): (\d+)", line)
                if m:
                    return int(m.group(1))
    raise RuntimeError("no totals in callgrind's output")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=672)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"))
    parser.add_argument("--modes", default="parse,lint",
                        help="the rows, comma-separated: parse, lint, export")
    parser.add_argument("--row", help=argparse.SUPPRESS)
    parser.add_argument("path", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.row:
        run(args.row, args.path)
        return
    sys.path.insert(0, os.path.dirname(HERE))
    from bench import corpus  # type: ignore[import-not-found]

    os.makedirs(args.cache, exist_ok=True)
    path = os.path.join(args.cache, f"corpus-{args.games}-{args.seed}.lcn")
    moves = corpus(path, args.games, args.seed)
    print(f"corpus: {args.games} games, {moves:,} moves")
    per_move = {}
    for mode in args.modes.split(","):
        once, twice = count(f"{mode}:1", path), count(f"{mode}:2", path)
        per_move[mode] = (twice - once) / moves
        print(f"{mode}: {(twice - once) / moves:,.0f} instructions a move (the second "
              f"pass), {once / moves:,.0f} with start-up and the first pass")
    if "lint" in per_move and "export" in per_move:
        print(f"export: {per_move['export'] / per_move['lint']:.2f}x the instructions of lint")


if __name__ == "__main__":
    main()
