"""lcnotation's benchmark: how fast records are read and checked, against a floor.

One run, one machine, one corpus:

1. a corpus of legal games from lcnotation's own generator (fixed seed),
   kept in a cache folder so that later runs skip the generation;
2. the same corpus timed four ways, each in a fresh process:
   - ``regex floor``: a bare regular expression that only finds the moves in
     the text, line by line: the speed no Python parser can beat;
   - ``parse (API)``: ``lcnotation.read_games``, every game to a syntax tree;
   - ``lint (API)``: ``lcnotation.lint_file``: parse, rules check and style;
   - ``lcn lint``: the command, end to end;
3. moves per second for each, the ratio to the floor, and the peak resident
   memory of the process.

The rows take turns (``--repeat`` rounds) and each keeps its best time, so
that a busy spell of the machine does not favour one row; the table gives
those best times.  On a machine shared with others, the ratios taken within
each round are printed too, with their spread, which shows how far to trust
the table.

Then: the start-up of ``lcn lint`` on a one-game file against
``python -c "import lark"``; the peak memory of ``lcn lint`` on a large file
(``--stream-mb``); ``lcn lint -j N`` against ``-j 1`` over many files, and,
for scale, what N processes give on this machine for a pure-Python loop of
arithmetic and for one that allocates small objects, as a parser does.

It prints figures and asserts nothing.  Run it on a quiet machine::

    python bench/bench.py                  # the default corpus: about 1.2 million moves
    python bench/bench.py --games 3000     # smaller and quicker
    python bench/bench.py --stream-mb 200  # also lint a 200 MB file
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import List, Tuple

FLOOR = re.compile(r"[A-Za-z](?:10|[2-9Hh])[DdXx]?-[A-Za-z]")
HERE = os.path.abspath(__file__)


# ---------------------------------------------------------------- one measurement


def peak_rss() -> int:
    """This process's peak resident memory in bytes (VmHWM: unlike ru_maxrss, it
    does not start from the parent's at fork)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def measure(row: str, path: str) -> None:
    """Run one row in this process and print its JSON figures."""
    if row.startswith("lcn "):
        from lcnotation.cli import main as lcn_main

        start = time.perf_counter()
        status = lcn_main(row.split()[1:] + [path])
        seconds = time.perf_counter() - start
        print(json.dumps({"seconds": seconds, "status": status, "peak": peak_rss()}),
              file=sys.stderr)
        return
    if row.startswith("scale "):
        _, kind, processes = row.split()
        print(json.dumps({"seconds": scale(kind, int(processes))}))
        return
    if row == "floor":
        def run() -> int:
            with open(path, encoding="utf-8") as f:
                return sum(len(FLOOR.findall(line)) for line in f)
    elif row == "parse":
        from lcnotation import read_games

        def run() -> int:
            return sum(len(g.moves) for g in read_games(path))
    else:
        from lcnotation import Severity, lint_file

        def run() -> int:
            report = lint_file(path)
            if report.count(Severity.ERROR):
                raise SystemExit(f"the corpus should lint clean: {report.diagnostics[:3]}")
            return report.moves
    start = time.perf_counter()
    count = run()
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "count": count, "peak": peak_rss()}))


# Every child writes and uses byte-code, as an installed package does (some
# environments set PYTHONDONTWRITEBYTECODE, which would add the compilation of
# every module to every start-up).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _arithmetic(n: int) -> int:
    x = 0
    for i in range(n):
        x += i * i % 7
    return x


def _allocation(n: int) -> int:
    kept: list = []
    for i in range(n):
        kept.append((i, (i, i), [i]))
        if len(kept) > 300:
            kept.clear()
    return len(kept)


def scale(kind: str, processes: int) -> float:
    """Seconds for a fixed amount of ``kind`` work split over ``processes``."""
    import multiprocessing

    work, total = (_arithmetic, 20_000_000) if kind == "arithmetic" else (_allocation, 6_000_000)
    with multiprocessing.Pool(processes) as pool:
        start = time.perf_counter()
        pool.map(work, [total // processes] * processes)
        return time.perf_counter() - start


def in_child(row: str, path: str) -> dict:
    out = subprocess.run([sys.executable, HERE, "--row", row, path], check=True,
                         capture_output=True, text=True, env=ENV)
    return json.loads(out.stdout)


def command(cmd: List[str]) -> Tuple[float, int]:
    """Run ``cmd``; its wall time and exit status."""
    start = time.perf_counter()
    status = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=ENV).returncode
    return time.perf_counter() - start, status


def lint_peak(path: str) -> Tuple[float, int, int]:
    """``lcn lint`` on ``path`` in a child process: time, exit status, peak memory."""
    out = subprocess.run([sys.executable, HERE, "--row", "lcn lint --no-progress", path],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=ENV)
    figures = json.loads(out.stderr.strip().splitlines()[-1])
    return figures["seconds"], figures["status"], figures["peak"]


def lcn(*args: str) -> List[str]:
    return [sys.executable, "-m", "lcnotation", *args]


# ---------------------------------------------------------------- corpora


def corpus(path: str, games: int, seed: int) -> int:
    """Write ``games`` generated games to ``path`` (unless there); return the moves."""
    from lcnotation import format_games, generate_games

    stamp = path + ".moves"
    if os.path.exists(path) and os.path.exists(stamp):
        with open(stamp) as f:
            return int(f.read())
    moves = 0
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as out:
        batch = []
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


def big_file(source: str, megabytes: int, cache: str) -> str:
    """A file of at least ``megabytes`` MB: copies of ``source`` one after another."""
    path = os.path.join(cache, f"big-{megabytes}.lcn")
    if not os.path.exists(path):
        size = os.path.getsize(source)
        with open(path + ".tmp", "wb") as out:
            for _ in range(-(-megabytes * 1_000_000 // size)):
                with open(source, "rb") as f:
                    shutil.copyfileobj(f, out)
                out.write(b"\n")
        os.replace(path + ".tmp", path)
    return path


def many_files(cache: str, seed: int, files: int = 64, per_file: int = 150) -> str:
    from lcnotation import format_games, generate_games

    folder = os.path.join(cache, f"many-{seed}-{files}x{per_file}")
    if not os.path.isdir(folder):
        os.makedirs(folder + ".tmp", exist_ok=True)
        games = generate_games(files * per_file, seed + 1)
        for i in range(files):
            chunk = [next(games) for _ in range(per_file)]
            with open(os.path.join(folder + ".tmp", f"f{i:03}.lcn"), "w",
                      encoding="utf-8") as f:
                f.write(format_games(chunk))
        os.replace(folder + ".tmp", folder)
    return folder


# ---------------------------------------------------------------- the report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000,
                        help="games in the corpus (default 20000: about 1.2 million moves)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (best kept)")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"),
                        help="folder for the generated files")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the -j test")
    parser.add_argument("--stream-mb", type=int, default=0,
                        help="also lint a file of this many MB and report its peak memory")
    parser.add_argument("--row", help=argparse.SUPPRESS)
    parser.add_argument("path", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.row:
        measure(args.row, args.path)
        return

    import lcnotation

    os.makedirs(args.cache, exist_ok=True)
    path = os.path.join(args.cache, f"corpus-{args.games}-{args.seed}.lcn")
    t0 = time.perf_counter()
    moves = corpus(path, args.games, args.seed)
    print(f"corpus: {args.games} games, {moves:,} moves, {os.path.getsize(path) / 1e6:.1f} MB "
          f"({time.perf_counter() - t0:.1f} s to generate or load) at {path}")
    print(f"python {sys.version.split()[0]}, lcnotation {lcnotation.__version__}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}\n")

    # The rows take turns, round after round, and each keeps its best time: a
    # neighbour that slows the machine for a while cannot favour one row.
    names = (("regex floor", "floor"), ("parse (API)", "parse"), ("lint (API)", "lint"))
    best: dict = {}
    command_runs = []
    rounds: List[dict] = []  # each round's seconds by row, for ratios within a round
    for _ in range(args.repeat):
        rounds.append({})
        for name, row in names:
            figures = in_child(row, path)
            if figures["count"] != moves:
                raise SystemExit(f"{name} counted {figures['count']} moves, not {moves}")
            if name not in best or figures["seconds"] < best[name]["seconds"]:
                best[name] = figures
            rounds[-1][name] = figures["seconds"]
        command_runs.append(command(lcn("lint", "--no-progress", path)))
        rounds[-1]["lcn lint (command)"] = command_runs[-1][0]
    if any(status != 0 for _, status in command_runs):
        raise SystemExit("lcn lint did not pass the corpus")
    rows = [(name, best[name]["seconds"], best[name]["peak"]) for name, _ in names]
    _, _, peak = lint_peak(path)
    rows.append(("lcn lint (command)", min(command_runs)[0], peak))

    floor = moves / rows[0][1]
    print(f"{'':20} {'seconds':>8} {'moves/s':>11} {'x floor':>8} {'peak RSS':>10}")
    for name, seconds, peak in rows:
        rate = moves / seconds
        print(f"{name:20} {seconds:8.2f} {rate:11,.0f} {rate / floor:8.3f} "
              f"{peak / 1e6:7.1f} MB")
    # The same ratios taken within each round (the floor and the row run
    # seconds apart), and their median: steadier when the machine is not.
    print("ratio to the floor within each round, median [lowest, highest]:")
    for name, _, _ in rows[1:]:
        ratios = sorted(r["regex floor"] / r[name] for r in rounds)
        print(f"  {name:18} {ratios[len(ratios) // 2]:.3f} [{ratios[0]:.3f}, {ratios[-1]:.3f}]")

    one = os.path.join(args.cache, "one-game.lcn")
    with open(one, "w", encoding="utf-8") as f:
        f.write(lcnotation.format_games([lcnotation.generate_game(1)]))
    command(lcn("lint", one))  # let Lark write its cache of the parse tables
    lark_s = min(command([sys.executable, "-c", "import lark"])[0] for _ in range(9))
    lint_s = min(command(lcn("lint", "--no-progress", one))[0] for _ in range(9))
    print(f"\nstart-up: python -c 'import lark' {lark_s * 1000:.0f} ms; lcn lint on one "
          f"game {lint_s * 1000:.0f} ms ({lint_s / lark_s:.2f}x)")

    if args.stream_mb:
        big = big_file(path, args.stream_mb, args.cache)
        seconds, status, peak = lint_peak(big)
        print(f"streaming: lcn lint on {os.path.getsize(big) / 1e6:.0f} MB: {seconds:.1f} s, "
              f"peak RSS {peak / 1e6:.1f} MB (exit {status})")

    folder = many_files(args.cache, args.seed)
    single, multi = [], []
    for _ in range(args.repeat):  # in turns, as above
        single.append(command(lcn("lint", "--no-progress", "-j", "1", folder))[0])
        multi.append(command(lcn("lint", "--no-progress", "-j", str(args.jobs), folder))[0])
    print(f"parallel: lcn lint over {len(os.listdir(folder))} files: -j 1 {min(single):.2f} s, "
          f"-j {args.jobs} {min(multi):.2f} s ({min(single) / min(multi):.2f}x)")
    # What this machine gives at best: the same work in one process and
    # split over N, for a loop of arithmetic and for a loop that allocates
    # small objects as a parser does.
    for kind in ("arithmetic", "allocation"):
        one = min(in_child(f"scale {kind} 1", "-")["seconds"] for _ in range(args.repeat))
        many = min(in_child(f"scale {kind} {args.jobs}", "-")["seconds"]
                   for _ in range(args.repeat))
        print(f"  this machine, a pure-Python loop of {kind}: {one / many:.2f}x "
              f"with {args.jobs} processes")

if __name__ == "__main__":
    main()
