"""How time and memory grow with the size of hostile inputs.

Each shape of input (a long line, a long game, many games, many comments, a
long header value, a line of brackets, and the error-recovery shapes: many
bad moves, stray braces, braces never closed) is written at three sizes, each
twice the one before, and linted with ``lcnotation.lint_file`` (read, rules
check, style checks) in a fresh process.  For each shape the script prints
the seconds and peak memory at each size and the growth ratios from one size
to the next: about 2 means linear, about 4 quadratic.

It prints figures and asserts nothing.  Run it on a quiet machine::

    python bench/scaling.py              # a minute or two
    python bench/scaling.py --scale 0.25 # smaller and quicker
    python bench/scaling.py --only "long line" --scale 4   # a 10 MB line of moves
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Callable, Dict, List, Tuple

# The benchmark's own way to read peak memory and to start children (this
# folder is on the path when a script of it runs).
from bench import ENV, peak_rss

HERE = os.path.abspath(__file__)
MOVES = ["R3-D", "G4-D", "B5-D", "W6-R", "Y7-D"]


def _long_line(n: int) -> str:
    return " ".join(MOVES[i % 5] for i in range(n // 5))


def _junk_line(n: int) -> str:
    return "Q" * n


def _long_game(n: int) -> str:
    return "".join(f"{i + 1}. {MOVES[i % 5]}\n" for i in range(n))


def _many_games(n: int) -> str:
    return "".join(f'[Round "{i}"]\n\n1. R3-D 2. G4-D\n\n' for i in range(n))


def _comments(n: int) -> str:
    return "1. R3-D " + "{c}" * n + "\n2. G4-D\n"


def _header(n: int) -> str:
    return '[Event "' + "x" * n + '"]\n\n1. R3-D\n'


def _comment(n: int) -> str:
    return "1. R3-D {" + "x" * n + "}\n"


def _deck(n: int) -> str:
    return '[Deck "' + "R3 " * n + '"]\n\n1. R3-D\n'


def _brackets(n: int) -> str:
    return "[" * n + "\n"


def _errors_on_a_line(n: int) -> str:
    return " ".join("R11-D" for _ in range(n))


def _errors_on_lines(n: int) -> str:
    return "R11-D\n" * n


def _stray_braces(n: int) -> str:
    return "}" * n + "\n"


def _punctuation(n: int) -> str:
    return "R3-D!" * n + "\n"


def _open_braces(n: int) -> str:
    return "{\n" * n


def _chikinn_winner(n: int) -> str:
    # A transcript's last line: "Winner: " and a name after n spaces.
    return _chikinn_sample().rsplit("Winner:", 1)[0] + "Winner: " + " " * n + "x\n"


def _chikinn_hand(n: int) -> str:
    # A hand line of n spaces and no colon, where the first hand stands.
    lines = _chikinn_sample().split("\n")
    index = next(k for k, line in enumerate(lines) if ":" in line and "ROUND" not in line)
    lines[index] = "a" + " " * n + "b"
    return "\n".join(lines)


def _chikinn_sample() -> str:
    folder = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "data", "formats",
                          "chikinn")
    with open(os.path.join(folder, sorted(os.listdir(folder))[0]), encoding="utf-8") as f:
        return f.read()


def _json_members(n: int) -> str:
    return ('{"format": "lcnotation", "version": 1, "games": [{"headers": [], "moves": [],\n'
            + ",\n".join(f'"x{i}": 1' for i in range(n)) + "}]}")


def _freecell_line(n: int) -> str:
    # A solution line of n moves whose cycle breaks at its end (a comment).
    return "Game #1\n  -  -  -  +\nJD\n" + " 5a" * n + " zz\n"


def _open_braces_then_header(n: int) -> str:
    # parse_game reads this as one game: each "{" stops at the header line.
    return "{\n" * n + '[Event "x"]\n}\n'


#: name -> (how to write it, its smallest size, what the size counts).  The
#: largest sizes are those named in issue 6 (100,000 moves in a game, 10,000
#: games, 100,000 comments, a 10 MB header value or comment, 1,000,000 '['),
#: but for a line of moves a quarter of 10 MB: a 10 MB line of moves is one
#: game of two million moves, and a game is held in memory whole (about 400
#: bytes a move; see spec/guarantees.md).
SHAPES: Dict[str, Tuple[Callable[[int], str], int, str]] = {
    "long line": (_long_line, 625_000, "characters of moves on one line"),
    "junk line": (_junk_line, 2_500_000, "characters of one bad word"),
    "long game": (_long_game, 25_000, "moves, one per line"),
    "many games": (_many_games, 2_500, "games"),
    "comments": (_comments, 25_000, "{c} comments in a row"),
    "header": (_header, 2_500_000, "characters of a header value"),
    "comment": (_comment, 2_500_000, "characters of a brace comment"),
    "deck": (_deck, 2_500, "cards in a Deck header"),
    "brackets": (_brackets, 250_000, "'[' on one line"),
    "errors/line": (_errors_on_a_line, 10_000, "bad moves on one line"),
    "errors/lines": (_errors_on_lines, 10_000, "lines of one bad move"),
    "stray }": (_stray_braces, 5_000, "'}' in a row"),
    "punctuation": (_punctuation, 5_000, "moves glued with '!'"),
    "open {": (_open_braces, 1_250, "lines of a '{' never closed"),
    "open { then [": (_open_braces_then_header, 1_250,
                      "lines of a '{' never closed, a header line, a '}'"),
    # Readers other than the .lcn one (READERS says which reads each).
    "chikinn win": (_chikinn_winner, 10_000, "spaces in a chikinn Winner: line"),
    "chikinn hand": (_chikinn_hand, 10_000, "spaces in a chikinn hand line"),
    "json members": (_json_members, 16_000, "unknown members of a JSON-form game"),
    "sfn line": (_freecell_line, 200_000, "moves on a FreeCell solution line"),
}

#: The shapes not read by lint_file of a .lcn file: how each is read.
READERS: Dict[str, str] = {"chikinn win": "chikinn", "chikinn hand": "chikinn",
                           "json members": "json", "sfn line": "sfn"}


def measure(path: str, reader: str = "lint") -> None:
    """Read ``path`` in this process (lint it, or import it with ``reader``);
    print seconds, peak memory and findings (problems refused)."""
    from lcnotation.core.diagnostics import NotationError
    from lcnotation.lostcities.text.dialects import ConversionError
    from lcnotation.tools.lint import lint_file

    if reader == "lint":
        path_read = path
    else:
        path_read = path + {"chikinn": ".txt", "json": ".json", "sfn": ".sfn"}[reader]
        os.replace(path, path_read)
    start = time.perf_counter()
    findings, moves = 0, 0
    if reader in ("lint", "sfn"):
        report = lint_file(path_read)
        findings, moves = len(report.findings), report.moves
    else:
        with open(path_read, encoding="utf-8") as handle:
            text = handle.read()
        try:
            if reader == "chikinn":
                from lcnotation.formats import chikinn
                chikinn.read(text)
            else:
                from lcnotation.lostcities.jsonform import from_json
                from_json(text)
        except ConversionError as exc:
            findings = len(exc.errors)
        except NotationError:
            findings = 1
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "peak": peak_rss(),
                      "findings": findings, "moves": moves}))


def in_child(path: str, reader: str = "lint") -> dict:
    out = subprocess.run([sys.executable, HERE, "--measure", path, "--reader", reader],
                         check=True,
                         capture_output=True, text=True, env=ENV)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every size (default 1)")
    parser.add_argument("--only", help="comma-separated shapes (default: all)")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--reader", default="lint", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure, args.reader)
        return
    names = list(SHAPES) if not args.only else [s.strip() for s in args.only.split(",")]
    unknown = [n for n in names if n not in SHAPES]
    if unknown:
        raise SystemExit(f"unknown shapes {unknown}; known: {', '.join(SHAPES)}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}; lint_file in a fresh process per size\n")
    print(f"{'shape':13} {'size':>10} {'MB':>6} {'seconds':>8} {'peak MB':>8}   "
          f"{'time x':>6} {'mem x':>6}")
    with tempfile.TemporaryDirectory(prefix="lcn-scaling-") as folder:
        for name in names:
            write, base, unit = SHAPES[name]
            rows: List[Tuple[int, float, dict]] = []
            for step in range(3):
                size = int(base * args.scale) << step
                path = os.path.join(folder, "input.lcn")
                with open(path, "w", encoding="utf-8", newline="") as handle:
                    handle.write(write(size))
                megabytes = os.path.getsize(path) / 1e6
                rows.append((size, megabytes, in_child(path, READERS.get(name, "lint"))))
                for leftover in [path] + [path + e for e in (".txt", ".json", ".sfn")]:
                    if os.path.exists(leftover):
                        os.remove(leftover)
            for k, (size, megabytes, r) in enumerate(rows):
                growth = ""
                if k:
                    before = rows[k - 1][2]
                    growth = (f"{r['seconds'] / max(before['seconds'], 1e-6):6.2f} "
                              f"{r['peak'] / max(before['peak'], 1):6.2f}")
                print(f"{name if k == 0 else '':13} {size:>10,} {megabytes:6.1f} "
                      f"{r['seconds']:8.2f} {r['peak'] / 1e6:8.1f}   {growth}")
            print(f"{'':13} ({unit}; {rows[-1][2]['findings']:,} findings at the largest)")


if __name__ == "__main__":
    main()
