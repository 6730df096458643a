"""Start-up of ``lcn lint`` on one small file against ``python -c "import lark"``.

Issue #11 asks that ``lcn lint`` of one game start within 2x the import of
Lark.  Wall times swing on a shared machine, so the two commands take turns
(``--runs`` rounds) and the best and the median of each are printed, with the
ratios; ``--callgrind`` also counts the instructions of one run of each under
``valgrind --tool=callgrind`` (steady from run to run, but slower by some
fifty times).  ``-X importtime`` shows where the import time goes:

    python bench/startup.py                 # 21 rounds
    python bench/startup.py --callgrind     # plus instruction counts
    python -X importtime -c "import lcnotation.cli" 2> imports.txt
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.join(HERE, os.pardir, "examples", "match.lcn")

# Every child uses byte-code, as an installed package does (some environments
# set PYTHONDONTWRITEBYTECODE, which would add compiling every module).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def commands(path: str) -> Dict[str, List[str]]:
    return {"import lark": [sys.executable, "-c", "import lark"],
            "lcn lint": [sys.executable, "-m", "lcnotation", "lint", "--no-progress", path]}


def wall(cmd: List[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
                   check=False)
    return time.perf_counter() - start


def instructions(cmd: List[str]) -> int:
    """The instructions ``cmd`` executes, counted by callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=no",
                        f"--callgrind-out-file={out}", *cmd],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env={**ENV, "PYTHONHASHSEED": "0"}, check=True)
        with open(out, encoding="utf-8") as f:
            found = re.search(r"^totals: (\d+)", f.read(), re.M)
    assert found, "callgrind wrote no totals"
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="rounds (default: 21)")
    parser.add_argument("--callgrind", action="store_true",
                        help="also count instructions under valgrind")
    parser.add_argument("path", nargs="?", default=MATCH,
                        help="the file to lint (default: examples/match.lcn)")
    args = parser.parse_args()
    cmds = commands(args.path)
    for cmd in cmds.values():  # warm the caches (byte-code, Lark's parse tables)
        wall(cmd)
    times: Dict[str, List[float]] = {name: [] for name in cmds}
    ratios: List[float] = []
    for _ in range(args.runs):
        took = {name: wall(cmd) for name, cmd in cmds.items()}
        for name, taken in took.items():
            times[name].append(taken)
        ratios.append(took["lcn lint"] / took["import lark"])
    for name, seconds in times.items():
        print(f"{name:12} best {min(seconds) * 1000:6.1f} ms  "
              f"median {statistics.median(seconds) * 1000:6.1f} ms")
    lark, lint = times["import lark"], times["lcn lint"]
    print(f"ratio        best {min(lint) / min(lark):.2f}x  median "
          f"{statistics.median(lint) / statistics.median(lark):.2f}x  "
          f"(median within rounds {statistics.median(ratios):.2f}x, {args.runs} rounds)")
    if args.callgrind:
        counts = {name: instructions(cmd) for name, cmd in cmds.items()}
        for name, n in counts.items():
            print(f"{name:12} {n:15,} instructions")
        print(f"ratio        {counts['lcn lint'] / counts['import lark']:.2f}x (instructions)")


if __name__ == "__main__":
    main()
