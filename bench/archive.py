"""Archives at scale (issue 21): the headers-only scan against a full parse, and
``lcn filter``, ``stats``, ``dedupe`` and ``split`` beside ``lcn lint`` on one
large file, each in a fresh process, with its peak resident memory.

The file is made with the package's generator: ``--unique`` different games
(``generate_games``, fixed seeds), written again and again up to ``--games``
games (generating a million games would take longer than everything else;
the commands read every game all the same).  It is kept in the cache folder
for later runs.  Nothing is asserted: the figures are printed::

    python bench/archive.py                        # 1,000,000 games (about 750 MB)
    python bench/archive.py --games 20000          # quicker
    python bench/archive.py --only scan            # the API comparison alone

The API rows time ``scan(path)`` with each game's headers read (``GameEntry.tags``,
the moves not parsed) against ``read_games(path)`` (every game parsed), over
the same file; the ratio is the point (issue 21 asks for 5x at least).
``--instructions`` counts the same two under valgrind's callgrind instead
(steadier than any time on a shared machine): each in a fresh process with a
fixed hash seed, once with one pass over ``--instructions`` games and once
with two, the difference being one pass (start-up and first-use caches
cancel out)::

    python bench/archive.py --instructions 2000
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Tuple

from lcnotation.lostcities.game.generator import generate_games
from lcnotation.lostcities.text.formatter import format_games

SCAN = ("from lcnotation.archive import scan\n"
        "n = sum(len(e.tags()) for e in scan({file!r}))\n")
PARSE = ("from lcnotation import read_games\n"
         "n = sum(len(g.headers) for g in read_games({file!r}))\n")

COMMANDS: List[Tuple[str, List[str]]] = [
    ("API: scan, headers only", ["-c", SCAN]),
    ("API: read_games (full)", ["-c", PARSE]),
    ("lcn filter (headers)", ["-m", "lcnotation", "filter", "{file}", "--where",
                              'Player1 == "Ada" and Round == 1', "-o", "{out}"]),
    ("lcn filter --count", ["-m", "lcnotation", "filter", "{file}", "--where",
                            'Player1 ~ /^[A-F]/', "--count"]),
    ("lcn filter (table)", ["-m", "lcnotation", "filter", "{file}", "--where",
                            "expedition.wagers == 3", "--count"]),
    ("lcn stats", ["-m", "lcnotation", "stats", "{file}", "--format", "json"]),
    ("lcn split --games", ["-m", "lcnotation", "split", "{file}", "--games", "100000", "-o",
                           "{folder}", "--force"]),
    ("lcn dedupe", ["-m", "lcnotation", "dedupe", "{file}", "-o", "{out}"]),
    ("lcn lint", ["-m", "lcnotation", "lint", "--no-progress", "{file}"]),
]


def make_file(path: Path, games: int, unique: int) -> None:
    block: List[str] = []
    made = 0
    while made < min(games, unique):
        n = min(1000, unique - made)
        block.append(format_games(generate_games(n, seed=f"archive-{made}")) + "\n")
        made += n
    data = "".join(block).encode("utf-8")
    with open(path, "wb") as out:
        written = 0
        while written < games:
            if games - written >= made:
                out.write(data)
                written += made
            else:  # the last, partial copy: its first games
                part = format_games(generate_games(games - written, seed="archive-0")) + "\n"
                out.write(part.encode("utf-8"))
                written = games


def run(argv: List[str], stdout_to: str) -> Tuple[float, float, float, int]:
    """Run ``python argv``; its peak resident memory (MB), wall time and CPU
    time (user and system, s), and exit status."""
    start = time.perf_counter()
    with open(stdout_to, "wb") as out:
        process = subprocess.Popen([sys.executable, *argv], stdout=out,
                                   stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    return (usage.ru_maxrss / 1024, elapsed, usage.ru_utime + usage.ru_stime,
            os.waitstatus_to_exitcode(status))


_PASS = {"scan": "sum(len(e.tags()) for e in scan(path))",
         "entries": "sum(1 for e in scan(path))",
         "parse": "sum(len(g.headers) for g in read_games(path))"}


def instructions(mode: str, path: Path, passes: int) -> int:
    """Instructions of ``passes`` passes of ``mode`` over ``path``, in a fresh process."""
    code = ("import sys\nfrom lcnotation import read_games\nfrom lcnotation.archive import scan\n"
            f"path = {str(path)!r}\nfor _ in range({passes}):\n    {_PASS[mode]}\n")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": "0"},
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            for line in f:
                m = re.match(r"(?:summary|totals): (\d+)", line)
                if m:
                    return int(m.group(1))
    raise RuntimeError("no totals in callgrind's output")


def count_instructions(games: int, cache: Path) -> None:
    path = cache / f"archive-instructions-{games}.lcn"
    if not path.exists():
        path.write_text(format_games(generate_games(games, seed="instructions")), "utf-8")
    per = {}
    for mode in ("entries", "scan", "parse"):
        one, two = instructions(mode, path, 1), instructions(mode, path, 2)
        per[mode] = (two - one) / games
        what = {"entries": "scan alone (no header read)", "scan": "scan and headers (tags)",
                "parse": "read_games (full parse)"}[mode]
        print(f"{what:<28} {per[mode]:>10,.0f} instructions a game", flush=True)
    print(f"headers-only scan: {per['parse'] / per['scan']:.2f}x fewer instructions than the "
          "full parse")


def main(argv: Optional[List[str]] = None) -> None:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--games", type=int, default=1_000_000)
    options.add_argument("--unique", type=int, default=20_000,
                         help="different games in the file (the rest repeat them)")
    options.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"))
    options.add_argument("--only", help="run only the rows whose name contains this")
    options.add_argument("--skip", action="append", default=[],
                         help="skip the rows whose name contains this (repeatable)")
    options.add_argument("--instructions", type=int, metavar="GAMES",
                         help="count instructions of the API rows over GAMES games instead")
    args = options.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    if args.instructions:
        count_instructions(args.instructions, cache)
        return
    source = cache / f"archive-{args.games}-{args.unique}.lcn"
    if not source.exists():
        partial = source.with_suffix(".partial")
        make_file(partial, args.games, args.unique)
        partial.rename(source)
    size = source.stat().st_size / 1e6
    out, folder = cache / "archive-out.lcn", cache / "archive-split"
    print(f"{source}: {args.games:,} games, {size:.0f} MB; {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'row':<26} {'peak MB':>8} {'wall s':>8} {'CPU s':>8} {'games/s':>9} {'MB/s':>6} "
          f"{'status':>6}")
    print("(games/s and MB/s of CPU time: on a shared machine the wall time also counts the "
          "time other jobs took)")
    timings = {}
    for name, template in COMMANDS:
        if (args.only and args.only not in name) or any(s in name for s in args.skip):
            continue
        argv_ = [a.format(file=str(source), out=str(out), folder=str(folder))
                 for a in template]
        peak, elapsed, cpu, status = run(argv_, os.devnull)
        timings[name] = cpu
        print(f"{name:<26} {peak:>8.0f} {elapsed:>8.1f} {cpu:>8.1f} {args.games / cpu:>9,.0f} "
              f"{size / cpu:>6.1f} {status:>6}", flush=True)
    scan, parse = timings.get(COMMANDS[0][0]), timings.get(COMMANDS[1][0])
    if scan and parse:
        print(f"headers-only scan: {parse / scan:.1f}x faster than the full parse (CPU time)")
    lint = timings.get("lcn lint")
    if lint:
        for name, t in timings.items():
            if name.startswith("lcn ") and name != "lcn lint":
                print(f"  {name:<24} {lint / t:5.1f}x the throughput of lcn lint (CPU time)")
    out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
