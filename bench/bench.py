"""lcnotation's benchmark: how fast records are read and checked, against a floor.

One run, one machine, one corpus:

1. a corpus of legal games from lcnotation's own generator (fixed seed), kept
   in a cache folder so later runs skip the generation;
2. the same corpus timed four ways:
   - ``regex floor``: a bare regular expression that only finds the moves in
     the text, the speed no Python parser can beat;
   - ``parse``: ``lcnotation.read_games`` (every game to a syntax tree);
   - ``lint (API)``: ``lcnotation.lint_file`` (parse, rules check, style);
   - ``lcn lint``: the command, end to end, in a subprocess;
3. moves per second for each, its ratio to the floor, and peak memory.

Then the start-up of ``lcn lint`` on a one-game file against
``python -c "import lark"``, and ``lcn lint -j N`` over many files.

It prints figures; it asserts nothing.  Run it on a quiet machine::

    python bench/bench.py                 # default corpus (about 1.2 million moves)
    python bench/bench.py --games 5000    # smaller and quicker
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
import time
import tracemalloc
from typing import Callable, List, Tuple

import lcnotation
from lcnotation import format_games, generate_games, lint_file, read_games

FLOOR = re.compile(r"[A-Za-z](?:10|[2-9Hh])[DdXx]?-[A-Za-z]")


def corpus(path: str, games: int, seed: int) -> int:
    """Write ``games`` generated games to ``path`` (unless already there); return moves."""
    stamp = path + ".moves"
    if os.path.exists(path) and os.path.exists(stamp):
        with open(stamp) as f:
            return int(f.read())
    moves = 0
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as out:
        batch: List[lcnotation.Game] = []
        for game in generate_games(games, seed, deal=True):
            moves += len(game.moves)
            batch.append(game)
            if len(batch) == 500:
                out.write(format_games(batch) + "\n")
                batch = []
        if batch:
            out.write(format_games(batch))
    os.replace(path + ".tmp", path)
    with open(stamp, "w") as f:
        f.write(str(moves))
    return moves


def timed(run: Callable[[], int], repeat: int) -> Tuple[float, int]:
    """The best wall time of ``repeat`` runs, and what the run counted."""
    best = float("inf")
    count = 0
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - start)
    return best, count


def peak_python_memory(run: Callable[[], int]) -> int:
    """Peak bytes allocated by Python objects during ``run`` (tracemalloc)."""
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def child_peak_rss(cmd: List[str]) -> Tuple[float, int, int]:
    """Run ``cmd``; return its wall time, exit status and peak resident memory (bytes)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024


def lcn_command() -> List[str]:
    return [sys.executable, "-m", "lcnotation"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000,
                        help="games in the corpus (default 20000, about 1.2 million moves)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (best kept)")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"),
                        help="folder for the generated corpus")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the -j test")
    args = parser.parse_args()

    os.makedirs(args.cache, exist_ok=True)
    path = os.path.join(args.cache, f"corpus-{args.games}-{args.seed}.lcn")
    t0 = time.perf_counter()
    moves = corpus(path, args.games, args.seed)
    size = os.path.getsize(path)
    print(f"corpus: {args.games} games, {moves} moves, {size / 1e6:.1f} MB "
          f"({time.perf_counter() - t0:.1f} s to generate or load) at {path}")
    print(f"python {sys.version.split()[0]}, lcnotation {lcnotation.__version__}, "
          f"{os.cpu_count()} cores\n")

    def floor() -> int:
        with open(path, encoding="utf-8") as f:
            return sum(len(FLOOR.findall(line)) for line in f)

    def parse() -> int:
        return sum(len(g.moves) for g in read_games(path))

    def lint() -> int:
        report = lint_file(path)
        if report.count(lcnotation.Severity.ERROR):
            raise SystemExit(f"the corpus should lint clean: {report.diagnostics[:3]}")
        return report.moves

    rows = []
    base = None
    for name, run in (("regex floor", floor), ("parse (API)", parse), ("lint (API)", lint)):
        seconds, count = timed(run, args.repeat)
        assert count == moves, (name, count, moves)
        rate = count / seconds
        base = base or rate
        rows.append((name, seconds, rate, rate / base, peak_python_memory(run)))

    seconds, status, rss = child_peak_rss(lcn_command() + ["lint", "--no-progress", path])
    if status != 0:
        raise SystemExit(f"lcn lint exited with {status}")
    rows.append(("lcn lint (command)", seconds, moves / seconds, moves / seconds / base, rss))

    print(f"{'':22} {'seconds':>8} {'moves/s':>10} {'x floor':>8} {'peak memory':>12}")
    for name, seconds, rate, ratio, peak in rows:
        kind = "RSS" if name.startswith("lcn ") else "py"
        print(f"{name:22} {seconds:8.2f} {rate:10,.0f} {ratio:8.3f} "
              f"{peak / 1e6:8.1f} MB {kind}")

    startup(args.cache)
    parallel(args.cache, args.jobs, args.seed)


def startup(cache: str) -> None:
    """``lcn lint`` on a one-game file against ``python -c "import lark"``."""
    one = os.path.join(cache, "one-game.lcn")
    with open(one, "w", encoding="utf-8") as f:
        f.write(format_games(list(generate_games(1, 1))))
    subprocess.run(lcn_command() + ["lint", one], stdout=subprocess.DEVNULL)  # warm caches

    def best(cmd: List[str]) -> float:
        return min(child_peak_rss(cmd)[0] for _ in range(7))

    lark = best([sys.executable, "-c", "import lark"])
    lint = best(lcn_command() + ["lint", "--no-progress", one])
    print(f"\nstart-up: python -c 'import lark' {lark * 1000:.0f} ms, "
          f"lcn lint on one game {lint * 1000:.0f} ms ({lint / lark:.2f}x)")


def parallel(cache: str, jobs: int, seed: int) -> None:
    """``lcn lint -j N`` against ``-j 1`` over a folder of many files."""
    folder = os.path.join(cache, f"many-{seed}")
    if not os.path.isdir(folder):
        os.makedirs(folder + ".tmp", exist_ok=True)
        for i, game in enumerate(generate_games(400, seed + 1)):
            with open(os.path.join(folder + ".tmp", f"g{i:04}.lcn"), "w",
                      encoding="utf-8") as f:
                f.write(format_games([game]))
        os.replace(folder + ".tmp", folder)
    one = min(child_peak_rss(lcn_command() + ["lint", "--no-progress", "-j", "1", folder])[0]
              for _ in range(3))
    many = min(child_peak_rss(lcn_command() + ["lint", "--no-progress", "-j", str(jobs),
                                               folder])[0] for _ in range(3))
    print(f"lcn lint over 400 files: -j 1 {one:.2f} s, -j {jobs} {many:.2f} s "
          f"({one / many:.2f}x)")


if __name__ == "__main__":
    main()
