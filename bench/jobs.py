"""-j 2 against -j 1 on one large file (issue 25, item 3): paired wall-time ratios.

``lcn lint``, ``fmt --check``, ``score`` and ``convert`` cut a large file at
game boundaries and do its pieces in N processes
(lcnotation/lostcities/parallel.py).  For each command this runs ``-j 1``
and ``-j 2`` in turns (one, two, one, two, ...), round after round, so that
a neighbour slowing the machine for a while slows both halves of a pair, and
prints the median of the pair ratios (-j 2 seconds / -j 1 seconds) with the
lowest and highest, the median seconds of each, and the speed-up (1 / the
median ratio).  Each pair's outputs are compared too (what -j 2 prints and
writes must be what -j 1 does); a difference stops the run.

It prints figures and asserts nothing else.  The machine is what it is: on
two cores shared with other work, the spread says how far to trust a ratio::

    python bench/jobs.py                          # 10,000 games, 8.9 MB, 5 rounds
    python bench/jobs.py --megabytes 40           # copies of them to 40 MB: the asymptote
    python bench/jobs.py --only lint --rounds 9   # the rows whose name holds "lint"

``--callgrind`` counts instructions instead (valgrind's callgrind, which a
neighbour does not sway): of ``-j 1``, and of ``-j 2``'s main process and
its workers apart.  The main process's share (its start-up included) is
the part that does not spread over the cores; ``main + workers / N``
against ``-j 1`` is what N free cores would give if none of the main
process's work overlapped the workers' (a cautious estimate: much of it
does), with instructions for time::

    python bench/jobs.py --games 3000 --callgrind   # 2.7 MB, 3 pieces; minutes
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, NamedTuple, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import big_file, corpus  # noqa: E402  (bench/bench.py: the generated corpus)

PURE = {"LCNOTATION_PURE_PYTHON": "1"}
# Children write and use byte-code, as an installed package does.
ENV = {k: v for k, v in os.environ.items()
       if k not in ("PYTHONDONTWRITEBYTECODE", "LCNOTATION_PURE_PYTHON")}


class Row(NamedTuple):
    name: str
    #: The command's arguments before ``-j N`` and the file.
    args: Tuple[str, ...]
    env: Dict[str, str] = {}
    #: Whether it writes a file (``-o``): its output is that file.
    writes: bool = False


ROWS = [
    Row("lcn lint", ("lint", "--no-progress")),
    Row("lcn lint, pure Python", ("lint", "--no-progress"), PURE),
    Row("lcn fmt --check", ("fmt", "--check")),
    Row("lcn score", ("score",)),
    Row("lcn convert --to x-discard", ("convert", "--to", "x-discard"), writes=True),
]


def run(row: Row, jobs: int, path: str, work: str) -> Tuple[float, bytes]:
    """One run of ``row`` with ``-j jobs``: its wall seconds and what it gave
    (its exit status, standard output and error, and the file it wrote)."""
    argv = [sys.executable, "-m", "lcnotation", *row.args, "-j", str(jobs), path]
    out = os.path.join(work, f"out-{jobs}.lcn")
    if row.writes:
        argv += ["-o", out]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env={**ENV, **row.env})
    seconds = time.perf_counter() - start
    written = b""
    if row.writes:
        with open(out, "rb") as f:
            written = f.read()
        os.remove(out)
    return seconds, b"%d\0" % done.returncode + done.stdout + b"\0" + done.stderr + b"\0" + written


def instructions(row: Row, jobs: int, path: str, work: str) -> Tuple[int, int]:
    """The instructions of ``row`` with ``-j jobs`` under callgrind: of the
    main process, and of all its workers (each forked worker is counted in a
    file of its own)."""
    import glob
    import re

    folder = tempfile.mkdtemp(dir=work)
    argv = [sys.executable, "-m", "lcnotation", *row.args, "-j", str(jobs), path]
    if row.writes:
        argv += ["-o", os.path.join(folder, "out.lcn")]
    env = {**ENV, **row.env, "PYTHONHASHSEED": "0"}
    # A forked worker starts with the counts of its parent so far: they are
    # zeroed where it begins (CPython's hook after a fork, in the child alone).
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--zero-before=PyOS_AfterFork_Child",
                             f"--callgrind-out-file={folder}/cg.%p", *argv], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    proc.wait()
    main = workers = 0
    for name in glob.glob(os.path.join(folder, "cg.*")):
        with open(name) as f:
            total = next(int(m.group(1)) for m in (re.match(r"(?:summary|totals): (\d+)", line)
                                                   for line in f) if m)
        if name.endswith(f".{proc.pid}"):
            main += total
        else:
            workers += total
        os.remove(name)
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    os.rmdir(folder)
    return main, workers


def counted(rows: Sequence[Row], jobs: int, path: str, work: str) -> None:
    print(f"| what | -j 1 | -j {jobs}: main | -j {jobs}: workers | main's share of -j 1 | "
          f"(main + workers / {jobs}) / -j 1 |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        one, _ = instructions(row, 1, path, work)
        main, workers = instructions(row, jobs, path, work)
        bound = (main + workers / jobs) / one  # a cautious estimate of -j N / -j 1
        print(f"| {row.name} | {one / 1e9:.2f} G | {main / 1e9:.2f} G | {workers / 1e9:.2f} G | "
              f"{main / one:.3f} | {bound:.3f} ({1 / bound:.2f}x) |")


def median(values: Sequence[float]) -> float:
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--megabytes", type=int, default=0,
                        help="copies of the corpus, one after another, to this size")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2, help="N of -j N (against -j 1)")
    parser.add_argument("--only", nargs="*", help="only rows whose name holds one of these")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"))
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions (main process and workers) instead of timing")
    args = parser.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    path = os.path.join(args.cache, f"corpus-{args.games}-{args.seed}.lcn")
    corpus(path, args.games, args.seed)
    if args.megabytes:
        path = big_file(path, args.megabytes, args.cache)
    rows = [r for r in ROWS if not args.only or any(w in r.name for w in args.only)]
    print(f"{os.path.getsize(path) / 1e6:.1f} MB ({path}), {os.cpu_count()} cores, "
          f"{args.rounds} rounds, -j {args.jobs} against -j 1")
    work = tempfile.mkdtemp(prefix="lcn-jobs-")
    if args.callgrind:
        try:
            counted(rows, args.jobs, path, work)
        finally:
            os.rmdir(work)
        return
    try:
        load = os.getloadavg()[0]
        figures: Dict[str, List[Tuple[float, float]]] = {r.name: [] for r in rows}
        for _ in range(args.rounds):
            for row in rows:
                one, one_gave = run(row, 1, path, work)
                many, many_gave = run(row, args.jobs, path, work)
                if many_gave.replace(b"out-%d" % args.jobs, b"out-1") != one_gave:
                    raise SystemExit(f"{row.name}: -j {args.jobs} gave other output than -j 1")
                figures[row.name].append((one, many))
        load = (load + os.getloadavg()[0]) / 2
        print(f"load average {load:.2f} (2 cores: above 2 the machine is shared)\n")
        print(f"| what | -j 1 s | -j {args.jobs} s | ratio -j {args.jobs} / -j 1: median "
              "[lowest, highest] | speed-up |")
        print("|---|---:|---:|---|---:|")
        for row in rows:
            pairs = figures[row.name]
            ratios = [many / one for one, many in pairs]
            r = median(ratios)
            print(f"| {row.name} | {median([p[0] for p in pairs]):.2f} | "
                  f"{median([p[1] for p in pairs]):.2f} | {r:.3f} [{min(ratios):.3f}, "
                  f"{max(ratios):.3f}] | {1 / r:.2f}x |")
    finally:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)


if __name__ == "__main__":
    main()
