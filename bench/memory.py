"""Peak memory of every ``lcn`` command on one large file (issues 11 and 17).

The promise of ``spec/guarantees.md``: memory holds one game, not the file.
This script writes a file of about ``--mb`` megabytes of generated games in
lower case (so that ``fmt`` and ``lint --fix`` have something to change
everywhere), then runs each command on it in a fresh process and prints the
process's peak resident memory and its time, after a baseline: ``lcn
score`` of a file of one game (the interpreter, the package and one game),
which a command that streams stays near.  It asserts nothing::

    python bench/memory.py               # a 200 MB file
    python bench/memory.py --mb 20       # quicker

The file is kept in the cache folder (``--cache``) for later runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List

from lcnotation.lostcities.game.generator import generate_games
from lcnotation.lostcities.text.formatter import format_games

COMMANDS = [
    ("lcn lint", ["lint", "--no-progress", "{file}"]),
    ("lcn score", ["score", "{file}"]),
    ("lcn fmt --check", ["fmt", "--check", "{file}"]),
    ("lcn fmt", ["fmt", "{copy}"]),
    ("lcn lint --fix", ["lint", "--no-progress", "--fix", "{copy}"]),
    ("lcn convert --to json", ["convert", "{file}", "--to", "json"]),
]


def make_file(path: Path, megabytes: float) -> None:
    """About ``megabytes`` of games: 5 MB of generated games (or less), written
    again and again (generating is slow; the commands do not care)."""
    target = int(megabytes * 1_000_000)
    block: List[str] = []
    size = batch = 0
    while size < min(target, 5_000_000):
        text = format_games(generate_games(200, seed=f"memory-{batch}"), "lower") + "\n"
        block.append(text)
        size += len(text.encode("utf-8"))
        batch += 1
    data = "".join(block).encode("utf-8")
    with open(path, "wb") as out:
        for _ in range(max(1, round(target / len(data)))):
            out.write(data)


def run(argv: list, stdout_to: str) -> tuple:
    """Run ``lcn argv``; its peak resident memory (MB) and wall time (s)."""
    start = time.perf_counter()
    with open(stdout_to, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "lcnotation", *argv],
                                   stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, elapsed, process.returncode


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--mb", type=float, default=200, help="size of the file (MB)")
    options.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"))
    options.add_argument("--only", help="run only the commands whose name contains this")
    options.add_argument("--skip", action="append", default=[],
                         help="skip the command of this name (repeatable)")
    args = options.parse_args()
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    source = cache / f"memory-{args.mb:g}mb.lcn"
    if not source.exists():
        partial = source.with_suffix(".partial")
        make_file(partial, args.mb)
        partial.rename(source)
    size = source.stat().st_size / 1e6
    print(f"{source}: {size:.0f} MB")
    print(f"{'command':<24} {'peak MB':>8} {'seconds':>8} {'MB/s':>6} {'status':>6}")
    copy = cache / "memory-copy.lcn"
    one = cache / "memory-one-game.lcn"
    one.write_text(format_games(generate_games(1, seed=3), "lower"), encoding="utf-8")
    peak, elapsed, status = run(["score", str(one)], os.devnull)
    print(f"{'baseline (one game)':<24} {peak:>8.0f} {elapsed:>8.1f} {'':>6} {status:>6}",
          flush=True)
    for name, argv in COMMANDS:
        if (args.only and args.only not in name) or name in args.skip:
            continue
        shutil.copyfile(source, copy)
        peak, elapsed, status = run([a.format(file=source, copy=copy) for a in argv],
                                    os.devnull)
        print(f"{name:<24} {peak:>8.0f} {elapsed:>8.1f} {size / elapsed:>6.2f} {status:>6}",
              flush=True)
    copy.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
